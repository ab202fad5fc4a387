// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ui.c: the screen, a sink of the run (run.h), with the keyboard and the DNS worker as
 * its own fds: its samples (live, or a capture file's playback), drawing, prompts,
 * dumps and interface switches; keys and the mouse go to actions.c, the picker's to
 * picker.c, the help's to help.c, and what they return is done here. */
#include "ui.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "actions.h"
#include "convo.h"
#include "dns.h"
#include "dump.h"
#include "fmt.h"
#include "graph.h"
#include "help.h"
#include "keys.h"
#include "loop.h"
#include "run.h"
#include "outcome.h"
#include "picker.h"
#include "playback.h"
#include "report.h"
#include "screen.h"
#include "snapshot.h"
#include "ui_state.h"
#include "view.h"

static void draw(struct ui *u)
{
	size_t nlinks;
	const struct iface_watch *links = capture_links(u->cap, &nlinks);
	struct screen_state s = {
		.view = ui_view(u),
		.totals = capture_totals(u->cap),
		.iface = capture_name(u->cap),
		.netns = u->cfg->netns,
		.expr = ui_expression(u),
		.iface_up = capture_up(u->cap),
		.replay = u->play ? playback_clock(u->play) : NULL,
		.links = links,
		.nlinks = nlinks,
		.iface_lost = u->iface_lost,
		.elapsed = ui_now() - u->attached_at,
		.cost = u->cost,
		.status = ui_now() < u->status_until ? u->status : NULL,
		.help = u->help,
		.help_top = u->help_top,
		.picker = &u->picker,
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
		s.conv_of_port = convo_of_port(u->conv);
		s.conv_protos = convo_protos(u->conv);
		s.conv_elapsed = ui_now() - u->conv_opened;
	}

	screen_set_graph(ui_graph_on(u));
	if (u->prompt != PROMPT_NONE) {
		s.prompt = u->prompt == PROMPT_FILTER ? "Filter (CIDR, address, text): "
			   : u->prompt == PROMPT_EXPR
			       ? "Count only (tcpdump's syntax; empty: all): "
			       : "Dump to (.json, .csv, text): ";
		s.prompt_text = u->edit.buf;
		s.prompt_cursor = u->edit.cursor;
		s.prompt_offered = u->edit.offered;
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

/* A sample was taken (the wall clock's, or a capture's): the screen follows it. */
static void ui_sampled(void *arg, struct run *run, const struct run_sample *smp)
{
	struct ui *u = arg;

	if (smp->err) { /* said, and the exit status will say the counts are incomplete */
		ui_status(u, "cannot read the counters: %s", strerror(-smp->err));
		run_set_status(run, OUTCOME_FAILED);
		return;
	}
	u->cost = capture_cost(u->cap);
	graph_push_totals(u);
	if (!u->main.paused)
		ui_follow_links(u);
	if (!u->group_view.paused)
		ui_build_groups(u);
	if (!ui_view(u)->paused)
		ui_rebuild(u);
}

/* ---- dump ---- */

/* " of N" when a dump wrote fewer rows than pass the filter (paused, with only the
 * first VIEW_PAUSED_ROWS kept), else "": for "wrote W of N rows". */
static const char *of_rows(struct ui *u, size_t written, char *buf, size_t len)
{
	if (written >= ui_view(u)->nrows)
		return "";
	snprintf(buf, len, " of %zu", ui_view(u)->nrows);
	return buf;
}

/* "row" or "rows", agreeing with the count of_rows() leaves last. */
static const char *rows_noun(struct ui *u, size_t written)
{
	size_t n = written >= ui_view(u)->nrows ? written : ui_view(u)->nrows;

	return fmt_noun(n, "row", "rows");
}

/* Writes the rows that pass the filter, in the order shown, with the view's columns
 * (those frozen on screen when paused, see ui_freeze()); their count in written. See
 * dump.h. */
static int dump(struct ui *u, const char *path, size_t *written, char *err, size_t errlen)
{
	char focus[sizeof(u->conv_title)];
	int ret;

	if (!strcmp(path, "-")) { /* -o -, written when the screen has closed */
		snprintf(err, errlen, "cannot write snapshot '-': standard output is the screen");
		return -EINVAL;
	}
	if (u->conv && convo_of_port(u->conv)) /* "443/tcp https", as the title says */
		snprintf(focus, sizeof(focus), "%s", u->conv_title);
	else if (u->conv)
		fmt_addr(convo_focus(u->conv), focus);
	if (!ui_view(u)->paused)
		ui_build(u, ui_view(u)->nrows);
	ret = dump_write(path, ui_view(u), capture_name(u->cap), ui_expression(u),
			 u->conv ? focus : NULL, err, errlen);
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
			    .netns = u->cfg->netns,
			    .expr = ui_expression(u),
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
			ui_locate(u, true);
		ret = report_select(&r, capture_hosts(u->cap), &u->main.filter, 0, &rows, &cap);
	}
	if (ret)
		snprintf(err, errlen, "cannot write snapshot '%s': %s", path, strerror(-ret));
	else
		ret = snapshot_write(path, &r, err, errlen);
	free(rows);
	return ret;
}

/* Counting started over (another interface, another expression): the screen with it. */
static void started_over(struct ui *u)
{
	u->iface_lost = false;
	view_home(ui_view(u));
	graph_clear(&u->graph);
	u->attached_at = ui_now();
	run_started_over(u->run);
	capture_cost(u->cap);
	ui_follow_links(u);
	ui_rebuild(u);
}

static void switch_to(struct ui *u, const struct iface_names *ifaces)
{
	char err[512];

	ui_close_conversations(u); /* its peers are these interfaces' */
	if (capture_attach(u->cap, ifaces, err, sizeof(err))) {
		ui_status(u, "%s; still watching %s", err, capture_name(u->cap));
		return;
	}
	started_over(u);
	ui_status(u, "now watching %s: counters start over", ifaces->text);
}

/* 'e': counting anew, of the frames text matches (empty: all); a bad one is said and
 * the one before stays in force. */
static void count_only(struct ui *u, const char *text)
{
	char err[768];

	ui_close_conversations(u);
	if (capture_set_expression(u->cap, text, err, sizeof(err))) {
		ui_status(u, "%s", err);
		return;
	}
	started_over(u);
	if (text[0])
		ui_status(u, "counting what '%s' matches: counters start over", text);
	else
		ui_status(u, "counting every frame: counters start over");
}

/* ---- prompts ---- */

static void prompt_done(struct ui *u)
{
	char err[512], of[32];
	size_t written;

	if (u->prompt == PROMPT_FILTER) {
		struct filter f;

		if (filter_parse(u->edit.buf, &f, err, sizeof(err))) {
			ui_status(u, "%s", err);
		} else {
			ui_view(u)->filter = f;
			ui_view(u)->top = 0;
			ui_rebuild(u);
			if (f.kind)
				ui_status(u, "row filter: %s (%zu %s)", f.text, ui_view(u)->nrows,
					  fmt_noun(ui_view(u)->nrows, "row", "rows"));
		}
	} else if (u->prompt == PROMPT_EXPR) {
		count_only(u, u->edit.buf);
	} else if (dump(u, u->edit.buf, &written, err, sizeof(err))) {
		ui_status(u, "%s", err);
	} else {
		ui_status(u, "wrote %zu%s %s to %s", written, of_rows(u, written, of, sizeof(of)),
			  rows_noun(u, written), u->edit.buf);
	}
	u->prompt = PROMPT_NONE;
}

/* A key while a prompt is open: the line editor's, Enter and Esc ours. */
static void prompt_key(struct ui *u, int ch)
{
	switch (lineedit_key(&u->edit, ch)) {
	case LINEEDIT_ESCAPE:
		if (u->prompt == PROMPT_FILTER) { /* Esc clears the filter */
			memset(&ui_view(u)->filter, 0, sizeof(ui_view(u)->filter));
			ui_rebuild(u);
		}
		u->prompt = PROMPT_NONE;
		break;
	case LINEEDIT_ENTER:
		lineedit_remember(&u->history[u->prompt], u->edit.buf);
		prompt_done(u);
		break;
	case LINEEDIT_EDITING:
		break;
	}
}

/* On the status line while the screen is on, else on stderr. */
static void ui_say(void *arg, const char *msg)
{
	struct ui *u = arg;

	if (u->screen_on)
		ui_status(u, "%s", msg);
	else
		fmt_complain(msg);
}

/* A capture file ended, for good: its end said (an error as the run's); q quits. */
static void ui_file_end(void *arg, struct run *run, int status, const char *why,
			unsigned long long frames)
{
	struct ui *u = arg;

	if (status) {
		ui_say(u, why);
		run_set_status(run, outcome_of_replay(status));
	} else {
		ui_status(u, "end of capture: %llu %s; q quits", frames,
			  fmt_noun(frames, "frame", "frames"));
	}
	u->status_until = INFINITY;
}

/* The interface picker, its box as tall as the terminal lets it be. */
static void open_picker(struct ui *u)
{
	picker_open(&u->picker, u->cap, screen_picker_rows());
}

/* What a key or a click left to do (enum ui_reaction). */
static void react(struct ui *u, unsigned what)
{
	if (what & REACT_REBUILD)
		ui_rebuild(u);
	else if (what & REACT_FOLLOW)
		ui_follow(u);
	if (what & REACT_REPAINT)
		clearok(curscr, TRUE);
	if (what & REACT_PICKER)
		open_picker(u);
	if (what & REACT_PLAY_PAUSE)
		playback_pause(u->play);
	if (what & REACT_PLAY_STEP) {
		playback_step(u->play);
		run_play(u->run);
	}
	if (what & (REACT_PLAY_FASTER | REACT_PLAY_SLOWER)) {
		double speed = playback_speed(u->play, what & REACT_PLAY_FASTER);

		if (speed == 0)
			ui_status(u, "replaying as fast as it goes");
		else
			ui_status(u, "replaying at %g times the capture's pace", speed);
	}
}

/* The mouse over the help: the wheel scrolls it, presses do nothing. */
static void help_mouse(struct ui *u)
{
	MEVENT ev[MOUSE_RUN_MAX];
	size_t n = ui_mouse_events(ev, MOUSE_RUN_MAX), i;

	for (i = 0; i < n; i++)
		if (ev[i].bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED))
			help_scroll(&u->help_top,
				    ev[i].bstate & BUTTON4_PRESSED ? -HELP_WHEEL_LINES
								   : HELP_WHEEL_LINES,
				    help_total_lines(), help_page_lines());
}

static void handle_key(struct ui *u, int ch)
{
	if (ch == KEY_MOUSE) {
		if (u->help)
			help_mouse(u);
		else if (u->prompt == PROMPT_NONE && u->picker.count == 0)
			react(u, ui_table_mouse(u));
		else {
			MEVENT ev[MOUSE_RUN_MAX];

			ui_mouse_events(ev, MOUSE_RUN_MAX); /* the box's or the prompt's: dropped */
		}
		return;
	}
	if (ch == KEY_RESIZE) {
		screen_set_graph(ui_graph_on(u)); /* the height decides it, and the page */
		view_select(ui_view(u), 0, (size_t)screen_table_rows());
		/* the help's lines are the width's: its top kept within them */
		help_scroll(&u->help_top, 0, help_total_lines(), help_page_lines());
		return;
	}
	if (u->help)
		u->help = help_key(ch, &u->help_top, help_total_lines(), help_page_lines());
	else if (u->prompt != PROMPT_NONE)
		prompt_key(u, ch);
	else if (u->picker.count > 0) {
		switch (picker_key(&u->picker, ch, u->cap, u->iface_lost, screen_picker_rows())) {
		case PICKER_CHOSE:
			switch_to(u, &u->picker.picked);
			break;
		case PICKER_SAME:
			ui_status(u, "already watching %s: the counters go on",
				  capture_name(u->cap));
			break;
		case PICKER_ON:
			break;
		}
	} else {
		react(u, ui_table_key(u, ch));
	}
}

/* The interfaces changed: said; when every watched one is gone, the picker opens. */
static void ui_link(void *arg, struct run *run, int err, const char *msg)
{
	struct ui *u = arg;

	(void)run;
	if (err == -ENODEV && !u->iface_lost) {
		u->iface_lost = true;
		ui_status(u, "%s %s disappeared: pick another (i)",
			  capture_several(u->cap) ? "interfaces" : "interface",
			  capture_name(u->cap));
		open_picker(u);
	} else if (!err && msg[0]) {
		ui_status(u, "%s", msg);
	}
}

/* SIGUSR1: a snapshot of the rows, and the screen goes on. */
static void ui_dump(void *arg, struct run *run)
{
	struct ui *u = arg;
	char path[LINEEDIT_MAX + 1], err[512], of[32];
	size_t written;

	(void)run;
	ui_default_dump_name(u, path, sizeof(path));
	if (dump(u, path, &written, err, sizeof(err)))
		ui_status(u, "%s", err);
	else
		ui_status(u, "SIGUSR1: wrote %zu%s %s to %s", written,
			  of_rows(u, written, of, sizeof(of)), rows_noun(u, written), path);
}

static void ui_fds(void *arg, int *fds, int *timeout_ms)
{
	struct ui *u = arg;

	fds[0] = STDIN_FILENO;
	fds[1] = u->dns ? u->dns_fd : -1;
	*timeout_ms = 1000; /* the header's clock */
}

static void ui_start(void *arg, struct run *run)
{
	struct ui *u = arg;

	u->run = run;
	u->play = run_playback(run);
	ui_follow_links(u);
	ui_build_groups(u); /* a capture file's groups look nothing up aside: after play */
	if (u->geo_said && u->geo_said[0])
		ui_status(u, "%s", u->geo_said);
	screen_init(u->cfg->color, u->mouse);
	u->screen_on = true;
	ui_rebuild(u);
	draw(u);
}

/* The end of a turn: the terminal, the names, the keys, and the screen drawn. */
static void ui_turn(void *arg, struct run *run, const short *revents, int events)
{
	struct ui *u = arg;
	bool keys = false;
	int ch;

	if (revents[0] & (POLLHUP | POLLERR))
		u->quit = true; /* the terminal went away */
	if (u->dns && revents[1] & POLLIN) {
		dns_drain(u->dns);
		if (!ui_view(u)->paused)
			ui_rebuild(u);
	}
	while ((ch = getch()) != ERR) { /* KEY_RESIZE comes this way too */
		handle_key(u, ch);
		keys = true;
	}
	if (u->quit)
		run_stop(run);
	/* a drain alone changes nothing on the screen */
	if (keys || events & ~LOOP_DRAIN || revents[1] || events == 0 || u->play)
		draw(u);
}

static void ui_close(void *arg, struct run *run)
{
	struct ui *u = arg;

	(void)run;
	if (u->screen_on)
		screen_end();
	u->screen_on = false;
}

/* -o on exit; a failure said on stderr, the screen closed, and the run's status. */
static void ui_snapshot(void *arg, struct run *run, const char *path)
{
	struct ui *u = arg;
	char err[512];

	if (exit_snapshot(u, path, err, sizeof(err))) {
		fmt_complain(err);
		run_set_status(run, OUTCOME_FAILED);
	}
}

static const struct run_sink_ops ui_sink = {
	.start = ui_start,
	.fds = ui_fds,
	.sampled = ui_sampled,
	.link = ui_link,
	.dump = ui_dump,
	.file_end = ui_file_end,
	.turn = ui_turn,
	.close = ui_close,
	.snapshot = ui_snapshot,
	.say = ui_say,
};

int ui_run(struct capture *c, const struct screen_config *cfg, struct exporter *exp,
	   struct pcapfile *pf, struct geo *geo, const char *geo_said)
{
	struct ui u = {
		.cap = c, .cfg = cfg, .exp = exp, .dns_fd = -1, .geo = geo, .group = cfg->group
	};
	struct run_config rc = { .delay = cfg->delay,
				 .speed = cfg->speed,
				 .snapshot = cfg->snapshot,
				 .netns = cfg->netns };
	enum outcome status;

	view_init(&u.main);
	u.main.bits = true;
	u.main.names = cfg->names;
	u.main.sort = cfg->sort;
	u.main.filter = cfg->filter;
	u.main.geo_db = geo;
	u.main.optional = cfg->columns;
	if (u.main.sort == COL_PORTS) /* a peer's column, no host's: the cb is another's */
		u.main.sort = COL_RX2;
	view_init(&u.group_view);
	u.group_view.bits = true;
	u.group_view.filter = cfg->filter;
	u.group_view.sort = u.main.sort;
	/* the signals are blocked before the resolver thread starts, which inherits the
	 * mask: a signal then always reaches the run's signalfd, never a thread */
	loop_block_signals();
	if (u.main.names)
		u.dns = dns_new(&u.dns_fd);
	capture_cost(c); /* statistics were switched on by main, if they could be */
	u.attached_at = ui_now();
	u.mouse = cfg->mouse;
	u.geo_said = geo_said;
	status = run(c, pf, exp, &rc, &ui_sink, &u);
	u.play = NULL; /* the run's, freed with it */
	dns_free(u.dns);
	ui_close_conversations(&u);
	view_free(&u.main);
	view_free(&u.group_view);
	groups_free(u.groups);
	return (int)status;
}
