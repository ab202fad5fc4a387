// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ui.c: the screen on the shared event loop (loop.h), with the keyboard and the DNS
 * worker as its own fds; then the action a key names (an action table whose entries
 * return what must be redone). */
#include "ui.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dns.h"
#include "dump.h"
#include "fmt.h"
#include "graph.h"
#include "keys.h"
#include "loop.h"
#include "report.h"
#include "screen.h"
#include "snapshot.h"
#include "view.h"

#define STATUS_SECONDS 5
#define WHEEL_ROWS     3
#define KEY_ESC	       27
#define PROMPT_MAX     200

enum graph_mode {
	GRAPH_AUTO, /* on when the terminal is tall enough */
	GRAPH_ON,
	GRAPH_OFF
};

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_FILTER,
	PROMPT_DUMP
};

struct ui {
	struct capture *cap;
	const struct cli_opts *opts;
	struct view view;
	struct dns *dns;
	int dns_fd;
	char status[512];
	double status_until; /* monotonic seconds */
	enum prompt_kind prompt;
	char input[PROMPT_MAX + 1];
	char prompt_line[PROMPT_MAX + 32];
	bool help;
	int picker_count, picker_selected;
	char picker_names[PICKER_MAX][IF_NAMESIZE];
	const char *picker_states[PICKER_MAX];
	double attached_at, last_sample;
	double cost_ns;
	struct graph graph, graph_paused; /* the header's graph, live and as paused */
	enum graph_mode graph_mode;
	bool mouse;
	bool iface_lost;
	bool quit;
	int status_code;
};

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void set_status(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_status(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
	u->status_until = now_mono() + STATUS_SECONDS;
}

static const char *name_of(const struct flow_key *key, bool lookup, void *arg)
{
	struct ui *u = arg;

	return u->dns ? dns_name(u->dns, key, lookup) : NULL;
}

/* Builds the rows a screen needs (want 0), or all of them (a dump). */
static void build(struct ui *u, size_t want)
{
	size_t page = (size_t)screen_table_rows();

	if (view_build(&u->view, capture_hosts(u->cap), want ? want : view_want(&u->view, page),
		       name_of, u))
		set_status(u, "out of memory building the rows");
	view_select(&u->view, 0, page);
}

static void rebuild(struct ui *u)
{
	build(u, 0);
}

/* After the selection moved: more rows when it went past those built. */
static void follow_selection(struct ui *u)
{
	size_t page = (size_t)screen_table_rows();

	if (!u->view.paused && u->view.nbuilt < u->view.nrows &&
	    view_want(&u->view, page) > u->view.nbuilt)
		rebuild(u);
}

static bool graph_on(const struct ui *u)
{
	return u->graph_mode == GRAPH_AUTO ? screen_graph_by_default() : u->graph_mode == GRAPH_ON;
}

static void draw(struct ui *u)
{
	const struct iface_info *iface = capture_iface(u->cap);
	struct screen_state s = {
		.view = &u->view,
		.totals = capture_totals(u->cap),
		.iface = iface->name,
		.iface_up = iface->up,
		.iface_lost = u->iface_lost,
		.elapsed = now_mono() - u->attached_at,
		.cost_ns = u->cost_ns,
		.status = now_mono() < u->status_until ? u->status : NULL,
		.help = u->help,
		.picker_count = u->picker_count,
		.picker_names = u->picker_names,
		.picker_states = u->picker_states,
		.picker_selected = u->picker_selected,
		.graph = u->view.paused ? &u->graph_paused : &u->graph,
	};

	screen_set_graph(graph_on(u));
	if (u->prompt != PROMPT_NONE) {
		snprintf(u->prompt_line, sizeof(u->prompt_line), "%s%s",
			 u->prompt == PROMPT_FILTER ? "Filter (CIDR, address, text): "
						    : "Dump to (.json, .csv, text): ",
			 u->input);
		s.prompt = u->prompt_line;
	}
	screen_draw(&s);
}

/* The sample's bytes per second in and out of the interface, for the graph. */
static void graph_push_totals(struct ui *u)
{
	const struct flow_totals *t = capture_totals(u->cap);
	double dt = t->interval > 0 ? t->interval : 1;

	graph_push(&u->graph, (double)(t->delta.bytes - t->delta.out_bytes) / dt,
		   (double)t->delta.out_bytes / dt);
}

static void sample(struct ui *u)
{
	double now = now_mono();
	int err;

	err = capture_sample(u->cap, now - u->last_sample);
	u->last_sample = now;
	if (err) {
		set_status(u, "cannot read the counters: %s", strerror(-err));
		return;
	}
	u->cost_ns = capture_cost_ns(u->cap);
	graph_push_totals(u);
	if (!u->view.paused)
		rebuild(u);
}

/* ---- the interface picker ---- */

static void open_picker(struct ui *u)
{
	struct if_nameindex *all = if_nameindex(), *i;
	struct iface_info info;

	u->picker_count = 0;
	u->picker_selected = 0;
	for (i = all; i && i->if_index && u->picker_count < PICKER_MAX; i++) {
		int n = u->picker_count;

		snprintf(u->picker_names[n], IF_NAMESIZE, "%s", i->if_name);
		u->picker_states[n] = iface_get(i->if_name, &info) ? "?"
				      : !info.supported		   ? "unknown link type"
				      : !info.up		   ? "down"
				      : info.running		   ? "up"
								   : "no-carrier";
		if (!strcmp(i->if_name, capture_iface(u->cap)->name))
			u->picker_selected = n;
		u->picker_count++;
	}
	if (all)
		if_freenameindex(all);
	if (!u->picker_count)
		set_status(u, "no interfaces found");
}

static void switch_to(struct ui *u, const char *name)
{
	char err[512];

	if (capture_attach(u->cap, name, err, sizeof(err))) {
		set_status(u, "%s; still watching %s", err, capture_iface(u->cap)->name);
		return;
	}
	u->iface_lost = false;
	u->view.selected = u->view.top = 0;
	graph_clear(&u->graph);
	u->attached_at = u->last_sample = now_mono();
	capture_cost_ns(u->cap);
	rebuild(u);
	set_status(u, "now watching %s: counters start over", name);
}

static void picker_key(struct ui *u, int ch)
{
	if (ch == KEY_UP || ch == 'k')
		u->picker_selected = u->picker_selected > 0 ? u->picker_selected - 1 : 0;
	else if (ch == KEY_DOWN || ch == 'j')
		u->picker_selected += u->picker_selected + 1 < u->picker_count;
	else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		char name[IF_NAMESIZE];

		snprintf(name, sizeof(name), "%s", u->picker_names[u->picker_selected]);
		u->picker_count = 0;
		switch_to(u, name);
	} else if (ch == KEY_ESC || ch == 'q' || ch == 'i')
		u->picker_count = 0;
}

/* ---- dump ---- */

static void default_dump_name(struct ui *u)
{
	if (u->opts->snapshot)
		snprintf(u->input, sizeof(u->input), "%s", u->opts->snapshot);
	else
		snapshot_default_name(capture_iface(u->cap)->name, u->input, sizeof(u->input));
}

/* Writes the rows that pass the filter, in the order shown, with the view's columns
 * (those frozen on screen when paused); see dump.h. */
static int dump(struct ui *u, const char *path, char *err, size_t errlen)
{
	int ret;

	if (!u->view.paused)
		build(u, u->view.nrows);
	ret = dump_write(path, &u->view, capture_iface(u->cap)->name, err, errlen);
	if (!u->view.paused)
		rebuild(u); /* back to the rows a screen needs */
	return ret;
}

/* -o on exit: every host that passes the filter, busiest first, as the batch mode's
 * snapshots have them. */
static int exit_snapshot(struct ui *u, const char *path, char *err, size_t errlen)
{
	struct report r = { .iface = capture_iface(u->cap)->name,
			    .totals = capture_totals(u->cap) };
	const struct host **rows = NULL;
	size_t cap = 0;
	int ret;

	clock_gettime(CLOCK_REALTIME, &r.time);
	ret = report_select(&r, capture_hosts(u->cap), &u->view.filter, 0, &rows, &cap);
	if (ret)
		snprintf(err, errlen, "cannot write snapshot '%s': %s", path, strerror(-ret));
	else
		ret = snapshot_write(path, &r, err, errlen);
	free(rows);
	return ret;
}

/* ---- prompts ---- */

static void prompt_done(struct ui *u)
{
	char err[512];

	if (u->prompt == PROMPT_FILTER) {
		struct filter f;

		if (filter_parse(u->input, &f, err, sizeof(err))) {
			set_status(u, "%s", err);
		} else {
			u->view.filter = f;
			u->view.top = 0;
			rebuild(u);
			if (f.kind)
				set_status(u, "filter: %s (%zu rows)", f.text, u->view.nrows);
		}
	} else if (dump(u, u->input, err, sizeof(err))) {
		set_status(u, "%s", err);
	} else {
		set_status(u, "wrote %zu rows to %s", u->view.nrows, u->input);
	}
	u->prompt = PROMPT_NONE;
}

static void prompt_key(struct ui *u, int ch)
{
	size_t len = strlen(u->input);

	if (ch == KEY_ESC) {
		if (u->prompt == PROMPT_FILTER) { /* Esc clears the filter */
			memset(&u->view.filter, 0, sizeof(u->view.filter));
			rebuild(u);
		}
		u->prompt = PROMPT_NONE;
	} else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		prompt_done(u);
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			u->input[len - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && len < PROMPT_MAX) {
		u->input[len] = (char)ch;
		u->input[len + 1] = '\0';
	}
}

/* ---- the table's keys: one function per action, each returning its reaction ---- */

static size_t page_rows(void)
{
	return (size_t)screen_table_rows();
}

static unsigned act_none(struct ui *u)
{
	(void)u;
	return REACT_NONE;
}

static unsigned act_quit(struct ui *u)
{
	u->quit = true;
	return REACT_NONE;
}

static unsigned act_help(struct ui *u)
{
	u->help = true;
	return REACT_NONE;
}

static unsigned act_sort_left(struct ui *u)
{
	view_move_sort(&u->view, -1);
	return REACT_REBUILD;
}

static unsigned act_sort_right(struct ui *u)
{
	view_move_sort(&u->view, 1);
	return REACT_REBUILD;
}

static unsigned act_reverse(struct ui *u)
{
	u->view.reverse = !u->view.reverse;
	return REACT_REBUILD;
}

static unsigned act_filter(struct ui *u)
{
	u->prompt = PROMPT_FILTER;
	snprintf(u->input, sizeof(u->input), "%s", u->view.filter.text);
	return REACT_NONE;
}

static unsigned act_iface(struct ui *u)
{
	open_picker(u);
	return REACT_NONE;
}

static unsigned act_dump(struct ui *u)
{
	u->prompt = PROMPT_DUMP;
	default_dump_name(u);
	return REACT_NONE;
}

static unsigned act_pause(struct ui *u)
{
	u->view.paused = !u->view.paused;
	u->graph_paused = u->graph;
	return u->view.paused ? REACT_NONE : REACT_REBUILD;
}

static unsigned act_names(struct ui *u)
{
	u->view.names = !u->view.names;
	if (u->view.names && !u->dns) {
		u->dns = dns_new(&u->dns_fd);
		if (!u->dns) {
			u->view.names = false;
			set_status(u, "cannot start the DNS resolver");
		}
	}
	return REACT_REBUILD;
}

static unsigned act_bits(struct ui *u)
{
	u->view.bits = !u->view.bits;
	return REACT_NONE;
}

static unsigned act_totals(struct ui *u)
{
	u->view.totals = !u->view.totals;
	if (!(columns[u->view.sort].views & (u->view.totals ? VIEW_TOTALS : VIEW_RATES)))
		u->view.sort = u->view.totals ? COL_RX_BYTES : COL_RX2;
	return REACT_REBUILD;
}

static unsigned act_up(struct ui *u)
{
	view_select(&u->view, -1, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_down(struct ui *u)
{
	view_select(&u->view, 1, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_page_up(struct ui *u)
{
	view_select(&u->view, -(long)page_rows(), page_rows());
	return REACT_FOLLOW;
}

static unsigned act_page_down(struct ui *u)
{
	view_select(&u->view, (long)page_rows(), page_rows());
	return REACT_FOLLOW;
}

static unsigned act_home(struct ui *u)
{
	view_select(&u->view, -(long)u->view.nrows, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_end(struct ui *u)
{
	view_select(&u->view, (long)u->view.nrows, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_redraw(struct ui *u)
{
	(void)u;
	return REACT_REPAINT;
}

static unsigned act_graph(struct ui *u)
{
	u->graph_mode = graph_on(u) ? GRAPH_OFF : GRAPH_ON;
	screen_set_graph(u->graph_mode == GRAPH_ON);
	if (u->graph_mode == GRAPH_ON && screen_table_rows() < 1)
		set_status(u, "the terminal is too short for the graph");
	return REACT_FOLLOW; /* the page height changed */
}

static unsigned act_mouse(struct ui *u)
{
	u->mouse = !u->mouse;
	if (!screen_mouse(u->mouse)) {
		u->mouse = false;
		set_status(u, "this terminal does not report the mouse");
	} else {
		set_status(u, u->mouse ? "mouse on: click a title to sort, a row to select"
				       : "mouse off: the terminal selects text");
	}
	return REACT_NONE;
}

static unsigned (*const actions[ACT__COUNT])(struct ui *u) = {
	[ACT_NONE] = act_none,
	[ACT_QUIT] = act_quit,
	[ACT_HELP] = act_help,
	[ACT_SORT_LEFT] = act_sort_left,
	[ACT_SORT_RIGHT] = act_sort_right,
	[ACT_REVERSE] = act_reverse,
	[ACT_FILTER] = act_filter,
	[ACT_IFACE] = act_iface,
	[ACT_DUMP] = act_dump,
	[ACT_PAUSE] = act_pause,
	[ACT_NAMES] = act_names,
	[ACT_BITS] = act_bits,
	[ACT_TOTALS] = act_totals,
	[ACT_UP] = act_up,
	[ACT_DOWN] = act_down,
	[ACT_PAGE_UP] = act_page_up,
	[ACT_PAGE_DOWN] = act_page_down,
	[ACT_HOME] = act_home,
	[ACT_END] = act_end,
	[ACT_REDRAW] = act_redraw,
	[ACT_GRAPH] = act_graph,
	[ACT_MOUSE] = act_mouse,
};

static void table_key(struct ui *u, int ch)
{
	unsigned react = actions[keys_action(ch)](u);

	if (react & REACT_REBUILD)
		rebuild(u);
	else if (react & REACT_FOLLOW)
		follow_selection(u);
	if (react & REACT_REPAINT)
		clearok(curscr, TRUE);
}

/* A click on a title sorts by it (again: reverses), on a row selects it; the wheel
 * scrolls. Presses only: flowtop asks for no releases. */
static void table_mouse(struct ui *u)
{
	MEVENT ev;
	struct screen_hit hit;
	size_t page = page_rows();

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		view_select(&u->view, ev.bstate & BUTTON4_PRESSED ? -WHEEL_ROWS : WHEEL_ROWS, page);
		follow_selection(u);
		return;
	}
	if (!(ev.bstate & BUTTON1_PRESSED))
		return;
	hit = screen_hit(ev.y, ev.x);
	if (hit.kind == HIT_TITLE) {
		if (hit.col == u->view.sort)
			u->view.reverse = !u->view.reverse;
		else
			u->view.sort = hit.col, u->view.reverse = false;
		rebuild(u);
	} else if (hit.kind == HIT_ROW && u->view.top + (size_t)hit.row < u->view.nbuilt) {
		size_t r = u->view.top + (size_t)hit.row;

		u->view.selected = r;
		view_select(&u->view, 0, page);
	}
}

static void handle_key(struct ui *u, int ch)
{
	if (ch == KEY_MOUSE) {
		if (!u->help && u->prompt == PROMPT_NONE && u->picker_count == 0)
			table_mouse(u);
		else {
			MEVENT ev;

			getmouse(&ev); /* the press is the box's or the prompt's: dropped */
		}
		return;
	}
	if (ch == KEY_RESIZE) {
		view_select(&u->view, 0, (size_t)screen_table_rows());
		return;
	}
	if (u->help)
		u->help = false;
	else if (u->prompt != PROMPT_NONE)
		prompt_key(u, ch);
	else if (u->picker_count > 0)
		picker_key(u, ch);
	else
		table_key(u, ch);
}

static void link_check(struct ui *u)
{
	int err = capture_link_event(u->cap);

	if (err == -ENODEV && !u->iface_lost) {
		u->iface_lost = true;
		set_status(u, "interface %s disappeared: pick another (i)",
			   capture_iface(u->cap)->name);
		open_picker(u);
	}
}

/* SIGUSR1: a snapshot of the rows, and the screen goes on. */
static void usr1_dump(struct ui *u)
{
	char path[PROMPT_MAX + 1], err[512];

	default_dump_name(u);
	snprintf(path, sizeof(path), "%s", u->input);
	if (dump(u, path, err, sizeof(err)))
		set_status(u, "%s", err);
	else
		set_status(u, "SIGUSR1: wrote %zu rows to %s", u->view.nrows, path);
}

int ui_run(struct capture *c, const struct cli_opts *opts)
{
	struct ui u = { .cap = c, .opts = opts, .dns_fd = -1, .cost_ns = -1 };
	struct loop *l;
	char err[512];
	int ch;

	view_init(&u.view);
	u.view.bits = true;
	u.view.names = !opts->numeric;
	u.view.sort = (enum col_id)opts->sort_column;
	u.view.filter = opts->filter;
	/* the loop blocks the signals before the resolver thread starts, which inherits the
	 * mask: a signal then always reaches the signalfd, never a thread */
	l = loop_new(opts->delay, CAPTURE_DRAIN_SECONDS);
	if (!l) {
		fprintf(stderr, "flowtop: cannot set up the screen loop: %s\n", strerror(errno));
		return 1;
	}
	if (u.view.names)
		u.dns = dns_new(&u.dns_fd);
	capture_cost_ns(c); /* statistics were switched on by main, if they could be */
	u.attached_at = u.last_sample = now_mono();
	u.mouse = !opts->no_mouse;
	screen_init(opts->color, u.mouse);
	rebuild(&u);
	draw(&u);
	while (!u.quit) {
		int fds[2] = { STDIN_FILENO, u.dns ? u.dns_fd : -1 }, signo = 0;
		short rev[2] = { 0, 0 };
		int ev = loop_wait(l, capture_fd(c), fds, rev, 2, 1000, &signo);
		bool keys = false;

		if (ev < 0)
			break;
		if (ev & LOOP_DRAIN)
			capture_drain(c);
		if (ev & LOOP_SIGNAL && signo == SIGUSR1)
			usr1_dump(&u);
		else if (ev & LOOP_SIGNAL)
			u.quit = true;
		if (rev[0] & (POLLHUP | POLLERR))
			u.quit = true; /* the terminal went away */
		if (ev & LOOP_SAMPLE) {
			link_check(&u);
			sample(&u);
		}
		if (ev & LOOP_LINK)
			link_check(&u);
		if (u.dns && rev[1] & POLLIN) {
			dns_drain(u.dns);
			if (!u.view.paused)
				rebuild(&u);
		}
		while ((ch = getch()) != ERR) { /* KEY_RESIZE comes this way too */
			handle_key(&u, ch);
			keys = true;
		}
		/* a drain alone changes nothing on the screen */
		if (keys || ev & ~LOOP_DRAIN || rev[1] || ev == 0)
			draw(&u);
	}
	screen_end();
	if (opts->snapshot && exit_snapshot(&u, opts->snapshot, err, sizeof(err))) {
		fprintf(stderr, "flowtop: %s\n", err);
		u.status_code = 1;
	}
	loop_free(l);
	dns_free(u.dns);
	view_free(&u.view);
	return u.status_code;
}
