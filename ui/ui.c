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

#include "convo.h"
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
#define DOUBLE_CLICK_S 0.4
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
	struct view main;		     /* the hosts */
	struct convo *conv;		     /* the conversation view's counts, while it is open */
	struct view conv_view;		     /* its rows */
	double conv_opened;		     /* monotonic seconds */
	char conv_title[FMT_ADDR_LEN + 260]; /* the focus: address and name */
	double last_click;		     /* the last press on a row, for double clicks */
	size_t last_click_row;
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

/* The view on screen: the conversations when open, else the hosts. */
static struct view *V(struct ui *u)
{
	return u->conv ? &u->conv_view : &u->main;
}

static const struct hosttab *shown_hosts(struct ui *u)
{
	return u->conv ? convo_peers(u->conv) : capture_hosts(u->cap);
}

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

	if (view_build(V(u), shown_hosts(u), want ? want : view_want(V(u), page), name_of, u))
		set_status(u, "out of memory building the rows");
	view_select(V(u), 0, page);
}

static void rebuild(struct ui *u)
{
	build(u, 0);
}

/* After the selection moved: more rows when it went past those built. */
static void follow_selection(struct ui *u)
{
	size_t page = (size_t)screen_table_rows();

	if (!V(u)->paused && V(u)->nbuilt < V(u)->nrows && view_want(V(u), page) > V(u)->nbuilt)
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
		.view = V(u),
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
		.graph = V(u)->paused ? &u->graph_paused : &u->graph,
	};

	if (u->conv) {
		s.conv_focus = u->conv_title;
		s.conv_protos = convo_protos(u->conv);
		s.conv_elapsed = now_mono() - u->conv_opened;
	}

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
	if (!V(u)->paused)
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

static void close_conversations(struct ui *u);

static void switch_to(struct ui *u, const char *name)
{
	char err[512];

	close_conversations(u); /* its peers are this interface's */
	if (capture_attach(u->cap, name, err, sizeof(err))) {
		set_status(u, "%s; still watching %s", err, capture_iface(u->cap)->name);
		return;
	}
	u->iface_lost = false;
	V(u)->selected = V(u)->top = 0;
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

	if (!V(u)->paused)
		build(u, V(u)->nrows);
	ret = dump_write(path, V(u), capture_iface(u->cap)->name, err, errlen);
	if (!V(u)->paused)
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
	ret = report_select(&r, capture_hosts(u->cap), &u->main.filter, 0, &rows, &cap);
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
			V(u)->filter = f;
			V(u)->top = 0;
			rebuild(u);
			if (f.kind)
				set_status(u, "filter: %s (%zu rows)", f.text, V(u)->nrows);
		}
	} else if (dump(u, u->input, err, sizeof(err))) {
		set_status(u, "%s", err);
	} else {
		set_status(u, "wrote %zu rows to %s", V(u)->nrows, u->input);
	}
	u->prompt = PROMPT_NONE;
}

static void prompt_key(struct ui *u, int ch)
{
	size_t len = strlen(u->input);

	if (ch == KEY_ESC) {
		if (u->prompt == PROMPT_FILTER) { /* Esc clears the filter */
			memset(&V(u)->filter, 0, sizeof(V(u)->filter));
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
	view_move_sort(V(u), -1);
	return REACT_REBUILD;
}

static unsigned act_sort_right(struct ui *u)
{
	view_move_sort(V(u), 1);
	return REACT_REBUILD;
}

static unsigned act_reverse(struct ui *u)
{
	V(u)->reverse = !V(u)->reverse;
	return REACT_REBUILD;
}

static unsigned act_filter(struct ui *u)
{
	u->prompt = PROMPT_FILTER;
	snprintf(u->input, sizeof(u->input), "%s", V(u)->filter.text);
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
	V(u)->paused = !V(u)->paused;
	u->graph_paused = u->graph;
	return V(u)->paused ? REACT_NONE : REACT_REBUILD;
}

static unsigned act_names(struct ui *u)
{
	V(u)->names = !V(u)->names;
	u->main.names = V(u)->names; /* one setting for both views */
	if (V(u)->names && !u->dns) {
		u->dns = dns_new(&u->dns_fd);
		if (!u->dns) {
			V(u)->names = u->main.names = false;
			set_status(u, "cannot start the DNS resolver");
		}
	}
	return REACT_REBUILD;
}

static unsigned act_bits(struct ui *u)
{
	V(u)->bits = !V(u)->bits;
	u->main.bits = V(u)->bits;
	return REACT_NONE;
}

static unsigned act_totals(struct ui *u)
{
	V(u)->totals = !V(u)->totals;
	if (!(columns[V(u)->sort].views & (V(u)->totals ? VIEW_TOTALS : VIEW_RATES)))
		V(u)->sort = V(u)->totals ? COL_RX_BYTES : COL_RX2;
	return REACT_REBUILD;
}

static unsigned act_up(struct ui *u)
{
	view_select(V(u), -1, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_down(struct ui *u)
{
	view_select(V(u), 1, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_page_up(struct ui *u)
{
	view_select(V(u), -(long)page_rows(), page_rows());
	return REACT_FOLLOW;
}

static unsigned act_page_down(struct ui *u)
{
	view_select(V(u), (long)page_rows(), page_rows());
	return REACT_FOLLOW;
}

static unsigned act_home(struct ui *u)
{
	view_select(V(u), -(long)V(u)->nrows, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_end(struct ui *u)
{
	view_select(V(u), (long)V(u)->nrows, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_redraw(struct ui *u)
{
	(void)u;
	return REACT_REPAINT;
}

/* ---- the conversation view ---- */

static void close_conversations(struct ui *u)
{
	if (!u->conv)
		return;
	capture_set_convo(u->cap, NULL);
	convo_free(u->conv);
	u->conv = NULL;
	view_free(&u->conv_view);
}

/* Opens the conversations of the selected host (in the conversation view: of the
 * selected peer, which becomes the focus). They count from now on. */
static unsigned act_open(struct ui *u)
{
	struct view *v = V(u);
	struct flow_key focus;
	struct convo *c;
	char addr[FMT_ADDR_LEN];
	const char *name;

	if (v->selected >= v->nbuilt) {
		set_status(u, "no host selected");
		return REACT_NONE;
	}
	focus = v->rows[v->selected].host.addr;
	c = convo_new(&focus, CONVO_DEFAULT_PEERS);
	if (!c) {
		set_status(u, "cannot open the conversations: %s", strerror(errno));
		return REACT_NONE;
	}
	close_conversations(u);
	u->conv = c;
	view_init(&u->conv_view);
	u->conv_view.per_frame = 1; /* a frame is in its peer's entry alone */
	u->conv_view.bits = u->main.bits;
	u->conv_view.names = u->main.names;
	u->conv_view.totals = u->main.totals;
	u->conv_view.sort = u->main.sort;
	u->conv_opened = now_mono();
	name = name_of(&focus, false, u);
	fmt_addr(&focus, addr);
	snprintf(u->conv_title, sizeof(u->conv_title), "%s%s%s%s", addr, name ? " (" : "",
		 name ? name : "", name ? ")" : "");
	capture_set_convo(u->cap, c);
	return REACT_REBUILD;
}

static unsigned act_back(struct ui *u)
{
	if (!u->conv)
		return REACT_NONE;
	close_conversations(u);
	return REACT_REBUILD;
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
	[ACT_OPEN] = act_open,
	[ACT_BACK] = act_back,
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

/* A click on a title sorts by it (again: reverses), on a row selects it, twice on the
 * same row opens its conversations; the wheel scrolls. Presses only: flowtop asks for no
 * releases. */
static void table_mouse(struct ui *u)
{
	MEVENT ev;
	struct screen_hit hit;
	size_t page = page_rows();

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		view_select(V(u), ev.bstate & BUTTON4_PRESSED ? -WHEEL_ROWS : WHEEL_ROWS, page);
		follow_selection(u);
		return;
	}
	if (!(ev.bstate & BUTTON1_PRESSED))
		return;
	hit = screen_hit(ev.y, ev.x);
	if (hit.kind == HIT_TITLE) {
		if (hit.col == V(u)->sort)
			V(u)->reverse = !V(u)->reverse;
		else
			V(u)->sort = hit.col, V(u)->reverse = false;
		rebuild(u);
	} else if (hit.kind == HIT_ROW && V(u)->top + (size_t)hit.row < V(u)->nbuilt) {
		size_t r = V(u)->top + (size_t)hit.row;
		double now = now_mono();

		V(u)->selected = r;
		view_select(V(u), 0, page);
		if (r == u->last_click_row && now - u->last_click < DOUBLE_CLICK_S) {
			now = 0; /* a third press starts over */
			if (act_open(u) & REACT_REBUILD)
				rebuild(u);
		}
		u->last_click = now;
		u->last_click_row = r;
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
		screen_set_graph(graph_on(u)); /* the height decides it, and the page */
		view_select(V(u), 0, (size_t)screen_table_rows());
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
		set_status(u, "SIGUSR1: wrote %zu rows to %s", V(u)->nrows, path);
}

int ui_run(struct capture *c, const struct cli_opts *opts)
{
	struct ui u = { .cap = c, .opts = opts, .dns_fd = -1, .cost_ns = -1 };
	struct loop *l;
	char err[512];
	int ch;

	view_init(&u.main);
	u.main.bits = true;
	u.main.names = !opts->numeric;
	u.main.sort = (enum col_id)opts->sort_column;
	u.main.filter = opts->filter;
	/* the loop blocks the signals before the resolver thread starts, which inherits the
	 * mask: a signal then always reaches the signalfd, never a thread */
	l = loop_new(opts->delay, CAPTURE_DRAIN_SECONDS);
	if (!l) {
		fprintf(stderr, "flowtop: cannot set up the screen loop: %s\n", strerror(errno));
		return 1;
	}
	if (u.main.names)
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
			if (!V(&u)->paused)
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
	close_conversations(&u);
	view_free(&u.main);
	return u.status_code;
}
