// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ui.c: the screen on the shared event loop (loop.h), with the keyboard and the DNS
 * worker as its own fds: sampling, drawing, prompts and dumps; keys and the mouse go
 * to actions.c, the picker's to picker.c. */
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
#include "outcome.h"
#include "report.h"
#include "screen.h"
#include "snapshot.h"
#include "ui_state.h"
#include "view.h"

#define STATUS_SECONDS 5

bool ui_grouped(const struct ui *u)
{
	return !u->conv && u->group.by != GROUP_HOST && !u->in_group && u->groups;
}

struct view *ui_view(struct ui *u)
{
	return u->conv ? &u->conv_view : ui_grouped(u) ? &u->group_view : &u->main;
}

static const struct hosttab *shown_hosts(struct ui *u)
{
	if (u->conv)
		return convo_peers(u->conv);
	return ui_grouped(u) ? groups_table(u->groups) : capture_hosts(u->cap);
}

bool ui_build_groups(struct ui *u)
{
	int err;

	if (u->group.by == GROUP_HOST)
		return true;
	if (!u->groups)
		u->groups = groups_new(hosttab_capacity(capture_hosts(u->cap)), u->geo);
	err = u->groups ? groups_build(u->groups, capture_hosts(u->cap), &u->group) : -ENOMEM;
	if (err)
		ui_status(u, "cannot group the hosts: %s", strerror(-err));
	u->group_view.groups = u->groups;
	return !err;
}

/* Where the hosts the main view shows are, for its AS and CC columns: each host looked
 * up once, then kept; every host when the rows are sorted or filtered by them, else the
 * rows built. */
static void locate(struct ui *u, bool every_host)
{
	struct hosttab *t = capture_hosts(u->cap);
	struct view *v = &u->main;
	size_t i, n = every_host ? hosttab_count(t) : v->nbuilt;

	for (i = 0; i < n; i++) {
		const struct host *h =
		    every_host ? hosttab_get(t, i) : hosttab_find(t, &v->rows[i].host.addr);
		struct host *m = h ? hosttab_own(t, h) : NULL;

		if (m)
			geo_locate(u->geo, &m->addr, &m->geo);
		if (!every_host && m) {
			v->rows[i].host.geo = m->geo;
			view_fill_geo(v, &v->rows[i]);
		}
	}
}

double ui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ui_status(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
	u->status_until = ui_now() + STATUS_SECONDS;
}

const char *ui_name_of(const struct flow_key *key, bool lookup, void *arg)
{
	struct ui *u = arg;

	return u->dns ? dns_name(u->dns, key, lookup) : NULL;
}

/* Builds the rows a screen needs (want 0; paused, those it keeps), or `want` (a dump). */
static void build(struct ui *u, size_t want)
{
	size_t page = (size_t)screen_table_rows();

	bool geo = ui_view(u) == &u->main && u->main.optional;

	if (!want)
		want = ui_view(u)->paused ? VIEW_PAUSED_ROWS : view_want(ui_view(u), page);
	if (geo && (u->main.sort == COL_AS || u->main.sort == COL_CC ||
		    u->main.filter.kind == FILTER_TEXT)) /* a sort or a filter by them */
		locate(u, true);
	if (view_build(ui_view(u), shown_hosts(u), want, ui_name_of, u))
		ui_status(u, "out of memory building the rows");
	if (geo)
		locate(u, false);
	view_select(ui_view(u), 0, page);
}

void ui_rebuild(struct ui *u)
{
	build(u, 0);
}

void ui_freeze(struct ui *u)
{
	const struct view *v = ui_view(u);

	build(u, 0);
	if (v->nbuilt < v->nrows)
		ui_status(u, "paused: the first %zu of %zu rows kept", v->nbuilt, v->nrows);
}

/* After the selection moved: more rows when it went past those built. */
void ui_follow(struct ui *u)
{
	size_t page = (size_t)screen_table_rows();

	if (!ui_view(u)->paused && ui_view(u)->nbuilt < ui_view(u)->nrows &&
	    view_want(ui_view(u), page) > ui_view(u)->nbuilt)
		ui_rebuild(u);
}

bool ui_graph_on(const struct ui *u)
{
	return u->graph_mode == GRAPH_AUTO ? screen_graph_by_default() : u->graph_mode == GRAPH_ON;
}

static void draw(struct ui *u)
{
	size_t nlinks;
	const struct iface_watch *links = capture_links(u->cap, &nlinks);
	struct screen_state s = {
		.view = ui_view(u),
		.totals = capture_totals(u->cap),
		.iface = capture_name(u->cap),
		.netns = u->opts->netns,
		.iface_up = capture_up(u->cap),
		.replay = u->replay ? u->replay_text : NULL,
		.links = links,
		.nlinks = nlinks,
		.iface_lost = u->iface_lost,
		.elapsed = ui_now() - u->attached_at,
		.cost_ns = u->cost_ns,
		.status = ui_now() < u->status_until ? u->status : NULL,
		.help = u->help,
		.picker_count = u->picker_count,
		.picker_names = u->picker_names,
		.picker_states = u->picker_states,
		.picker_marked = u->picker_marked,
		.picker_now = u->picker_now,
		.picker_selected = u->picker_selected,
		.graph = ui_view(u)->paused ? &u->graph_paused : &u->graph,
	};

	char rows_are[GROUP_LABEL_LEN + 32];

	if (ui_grouped(u)) {
		snprintf(rows_are, sizeof(rows_are), "by %s", group_by_label(u->group.by));
		s.rows_are = rows_are;
	} else if (!u->conv && u->in_group) {
		snprintf(rows_are, sizeof(rows_are), "hosts of %s", u->group_title);
		s.rows_are = rows_are;
	}
	if (u->conv) {
		s.conv_focus = u->conv_title;
		s.conv_protos = convo_protos(u->conv);
		s.conv_elapsed = ui_now() - u->conv_opened;
	}

	screen_set_graph(ui_graph_on(u));
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

/* The main view's IFACE column: on while several interfaces are watched, its names
 * those of the capture's slots. */
void ui_follow_links(struct ui *u)
{
	const struct iface_watch *l;
	size_t n, i;

	l = capture_links(u->cap, &n);
	memset(u->main.link_names, 0, sizeof(u->main.link_names));
	u->main.several = capture_several(u->cap);
	for (i = 0; i < n; i++)
		if (link_bit_own(l[i].slot))
			u->main.link_names[l[i].slot] = l[i].info.name;
	u->main.link_names[FLOWTOP_SLOT_NONE] = "other";
}

void ui_sample(struct ui *u, double interval)
{
	int err;

	err = capture_sample(u->cap, interval);
	u->last_sample = ui_now();
	if (err) { /* said, and the exit status will say the counts are incomplete */
		ui_status(u, "cannot read the counters: %s", strerror(-err));
		u->status_code = OUTCOME_FAILED;
		return;
	}
	u->cost_ns = capture_cost_ns(u->cap);
	if (u->exp && exporter_sample(u->exp, u->cap, u->opts->netns))
		ui_status(u, "cannot render the metrics: out of memory");
	graph_push_totals(u);
	if (!u->main.paused)
		ui_follow_links(u);
	if (!u->group_view.paused)
		ui_build_groups(u);
	if (!ui_view(u)->paused)
		ui_rebuild(u);
}

/* ---- dump ---- */

void ui_default_dump_name(struct ui *u)
{
	if (u->opts->snapshot)
		snprintf(u->input, sizeof(u->input), "%s", u->opts->snapshot);
	else
		snapshot_default_name(capture_name(u->cap), u->input, sizeof(u->input));
}

/* " of N" when a dump wrote fewer rows than pass the filter (paused, with only the
 * first VIEW_PAUSED_ROWS kept), else "": for "wrote W of N rows". */
static const char *of_rows(struct ui *u, size_t written, char *buf, size_t len)
{
	if (written >= ui_view(u)->nrows)
		return "";
	snprintf(buf, len, " of %zu", ui_view(u)->nrows);
	return buf;
}

/* Writes the rows that pass the filter, in the order shown, with the view's columns
 * (those frozen on screen when paused, see ui_freeze()); their count in written. See
 * dump.h. */
static int dump(struct ui *u, const char *path, size_t *written, char *err, size_t errlen)
{
	char focus[FMT_ADDR_LEN];
	int ret;

	if (u->conv)
		fmt_addr(convo_focus(u->conv), focus);
	if (!ui_view(u)->paused)
		build(u, ui_view(u)->nrows);
	ret =
	    dump_write(path, ui_view(u), capture_name(u->cap), u->conv ? focus : NULL, err, errlen);
	*written = ui_view(u)->nbuilt;
	if (!ui_view(u)->paused)
		ui_rebuild(u); /* back to the rows a screen needs */
	return ret;
}

/* -o on exit: every host that passes the filter, busiest first, as the batch mode's
 * snapshots have them. */
static int exit_snapshot(struct ui *u, const char *path, char *err, size_t errlen)
{
	struct report r = { .iface = capture_name(u->cap),
			    .netns = u->opts->netns,
			    .totals = capture_totals(u->cap),
			    .geo = u->geo };
	const struct host **rows = NULL;
	size_t cap = 0;
	int ret;

	clock_gettime(CLOCK_REALTIME, &r.time);
	if (u->group.by != GROUP_HOST && ui_build_groups(u)) { /* groups, as on the screen */
		r.groups = u->groups;
		ret = report_select(&r, groups_table(u->groups), &u->group_view.filter, 0, &rows,
				    &cap);
	} else {
		if (u->geo && report_format_for(path) == REPORT_JSON) /* the one that says it */
			locate(u, true);
		ret = report_select(&r, capture_hosts(u->cap), &u->main.filter, 0, &rows, &cap);
	}
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
	char err[512], of[32];
	size_t written;

	if (u->prompt == PROMPT_FILTER) {
		struct filter f;

		if (filter_parse(u->input, &f, err, sizeof(err))) {
			ui_status(u, "%s", err);
		} else {
			ui_view(u)->filter = f;
			ui_view(u)->top = 0;
			ui_rebuild(u);
			if (f.kind)
				ui_status(u, "filter: %s (%zu rows)", f.text, ui_view(u)->nrows);
		}
	} else if (dump(u, u->input, &written, err, sizeof(err))) {
		ui_status(u, "%s", err);
	} else {
		ui_status(u, "wrote %zu%s rows to %s", written, of_rows(u, written, of, sizeof(of)),
			  u->input);
	}
	u->prompt = PROMPT_NONE;
}

static void prompt_key(struct ui *u, int ch)
{
	size_t len = strlen(u->input);

	if (ch == KEY_ESC) {
		if (u->prompt == PROMPT_FILTER) { /* Esc clears the filter */
			memset(&ui_view(u)->filter, 0, sizeof(ui_view(u)->filter));
			ui_rebuild(u);
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

static void handle_key(struct ui *u, int ch)
{
	if (ch == KEY_MOUSE) {
		if (!u->help && u->prompt == PROMPT_NONE && u->picker_count == 0)
			ui_table_mouse(u);
		else {
			MEVENT ev;

			getmouse(&ev); /* the press is the box's or the prompt's: dropped */
		}
		return;
	}
	if (ch == KEY_RESIZE) {
		screen_set_graph(ui_graph_on(u)); /* the height decides it, and the page */
		view_select(ui_view(u), 0, (size_t)screen_table_rows());
		return;
	}
	if (u->help)
		u->help = false;
	else if (u->prompt != PROMPT_NONE)
		prompt_key(u, ch);
	else if (u->picker_count > 0)
		ui_picker_key(u, ch);
	else
		ui_table_key(u, ch);
}

static void link_check(struct ui *u)
{
	char msg[256];
	int err = capture_link_event(u->cap, msg, sizeof(msg));

	if (err == -ENODEV && !u->iface_lost) {
		u->iface_lost = true;
		ui_status(u, "%s %s disappeared: pick another (i)",
			  capture_several(u->cap) ? "interfaces" : "interface",
			  capture_name(u->cap));
		ui_open_picker(u);
	} else if (!err && msg[0]) {
		ui_status(u, "%s", msg);
	}
}

/* SIGUSR1: a snapshot of the rows, and the screen goes on. */
static void usr1_dump(struct ui *u)
{
	char path[PROMPT_MAX + 1], err[512], of[32];
	size_t written;

	ui_default_dump_name(u);
	snprintf(path, sizeof(path), "%s", u->input);
	if (dump(u, path, &written, err, sizeof(err)))
		ui_status(u, "%s", err);
	else
		ui_status(u, "SIGUSR1: wrote %zu%s rows to %s", written,
			  of_rows(u, written, of, sizeof(of)), path);
}

int ui_run(struct capture *c, const struct cli_opts *opts, struct exporter *exp,
	   struct pcapfile *pf, struct geo *geo, const char *geo_said)
{
	struct ui u = { .cap = c,
			.opts = opts,
			.exp = exp,
			.dns_fd = -1,
			.cost_ns = -1,
			.geo = geo,
			.group = opts->group };
	bool busy = false;
	struct loop *l;
	char err[512];
	int ch, loop_err = 0;

	view_init(&u.main);
	u.main.bits = true;
	u.main.names = !opts->numeric;
	u.main.sort = (enum col_id)opts->sort_column;
	u.main.filter = opts->filter;
	u.main.geo_db = geo;
	u.main.optional = opts->columns;
	view_init(&u.group_view);
	u.group_view.bits = true;
	u.group_view.filter = opts->filter;
	u.group_view.sort = u.main.sort;
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
	u.attached_at = u.last_sample = ui_now();
	ui_follow_links(&u);
	if (pf && ui_playback_start(&u, pf)) {
		fprintf(stderr, "flowtop: out of memory\n");
		loop_free(l);
		dns_free(u.dns);
		view_free(&u.main);
		return 1;
	}
	u.mouse = !opts->no_mouse;
	ui_build_groups(&u);
	if (geo_said && geo_said[0])
		ui_status(&u, "%s", geo_said);
	screen_init(opts->color, u.mouse);
	ui_rebuild(&u);
	draw(&u);
	while (!u.quit) {
		int fds[2] = { STDIN_FILENO, u.dns ? u.dns_fd : -1 }, signo = 0;
		short rev[2] = { 0, 0 };
		int ev = loop_wait(l, capture_fd(c), fds, rev, 2, busy ? 0 : 1000, &signo);
		bool keys = false;

		if (ev < 0) {
			loop_err = ev;
			break;
		}
		if (ev & LOOP_DRAIN && !u.replay)
			capture_drain(c);
		if (u.replay)
			busy = ui_playback_tick(&u);
		if (ev & LOOP_SIGNAL && signo == SIGUSR1)
			usr1_dump(&u);
		else if (ev & LOOP_SIGNAL)
			u.quit = true;
		if (rev[0] & (POLLHUP | POLLERR))
			u.quit = true; /* the terminal went away */
		if (ev & LOOP_SAMPLE && !u.replay) {
			link_check(&u);
			ui_sample(&u, ui_now() - u.last_sample);
		}
		if (ev & LOOP_LINK && !u.replay)
			link_check(&u);
		if (u.dns && rev[1] & POLLIN) {
			dns_drain(u.dns);
			if (!ui_view(&u)->paused)
				ui_rebuild(&u);
		}
		while ((ch = getch()) != ERR) { /* KEY_RESIZE comes this way too */
			handle_key(&u, ch);
			keys = true;
		}
		/* a drain alone changes nothing on the screen */
		if (keys || ev & ~LOOP_DRAIN || rev[1] || ev == 0 || u.replay)
			draw(&u);
	}
	screen_end();
	if (loop_err) {
		fprintf(stderr, "flowtop: waiting for events failed: %s\n", strerror(-loop_err));
		u.status_code = OUTCOME_FAILED;
	}
	if (opts->snapshot && exit_snapshot(&u, opts->snapshot, err, sizeof(err))) {
		fprintf(stderr, "flowtop: %s\n", err);
		u.status_code = OUTCOME_FAILED;
	}
	loop_free(l);
	dns_free(u.dns);
	ui_close_conversations(&u);
	view_free(&u.main);
	view_free(&u.group_view);
	groups_free(u.groups);
	ui_playback_end(&u);
	return u.status_code;
}
