// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* state.c: the screen's state and what it shows from it: which view is on screen, its
 * rows built from the hosts (or groups, or conversations), the hosts' places, the
 * status line. What the loop (ui.c) and the keys (actions.c) share; it calls neither,
 * and of the drawing (screen.c) only its measures (the table's rows, the graph's
 * default), which call nothing back. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "snapshot.h"
#include "ui_state.h"

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
	struct hosttab *rows;
	int err;

	if (u->group.by == GROUP_HOST)
		return true;
	if (!u->groups) {
		u->groups = groups_new(hosttab_capacity(capture_hosts(u->cap)), u->geo);
		if (u->groups && !u->play)
			groups_look_up_aside(u->groups);
	}
	/* the port rows are their own groups (counted where their program loaded) */
	rows = u->group.by == GROUP_PORT ? capture_ports(u->cap) : capture_hosts(u->cap);
	err = u->groups && rows ? groups_build(u->groups, rows, &u->group) : -ENOMEM;
	if (err)
		ui_status(u, "cannot group the hosts: %s", strerror(-err));
	u->group_view.groups = u->groups;
	return !err;
}

/* Where the hosts the main view shows are, for its AS and CC columns: each host looked
 * up once, then kept; every host when the rows are sorted or filtered by them, else the
 * rows built. */
void ui_locate(struct ui *u, bool every_host)
{
	struct hosttab *t = capture_hosts(u->cap);
	struct view *v = &u->main;
	size_t i, n = every_host ? hosttab_count(t) : v->nbuilt;

	for (i = 0; i < n; i++) {
		const struct host *h =
		    every_host ? hosttab_get(t, i) : hosttab_find(t, &v->rows[i].host.addr);
		struct host *m = h ? hosttab_own(t, h) : NULL;

		if (m)
			host_locate(u->geo, m);
		if (!every_host && m) {
			struct geo_info gi = host_geo(m);

			host_set_geo(&v->rows[i].host, &gi);
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
void ui_build(struct ui *u, size_t want)
{
	size_t page = (size_t)screen_table_rows();

	bool geo = ui_view(u) == &u->main && u->main.optional;

	if (!want && ui_view(u)->paused)
		want = VIEW_PAUSED_ROWS;
	if (geo && (u->main.sort == COL_AS || u->main.sort == COL_CC ||
		    u->main.filter.kind == FILTER_TEXT)) /* a sort or a filter by them */
		ui_locate(u, true);
	if (view_refresh(ui_view(u), shown_hosts(u), want, page, ui_name_of, u))
		ui_status(u, "out of memory building the rows");
	if (geo)
		ui_locate(u, false);
}

void ui_rebuild(struct ui *u)
{
	ui_build(u, 0);
}

void ui_freeze(struct ui *u)
{
	const struct view *v = ui_view(u);

	ui_build(u, 0);
	if (v->nbuilt < v->nrows)
		ui_status(u, "paused: the first %zu of %zu %s kept", v->nbuilt, v->nrows,
			  fmt_noun(v->nrows, "row", "rows"));
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
	u->main.link_names[LINK_BIT_OTHER] = "other";
}

void ui_default_dump_name(struct ui *u, char *buf, size_t len)
{
	if (u->cfg->snapshot)
		snprintf(buf, len, "%s", u->cfg->snapshot);
	else
		snapshot_default_name(capture_name(u->cap), buf, len);
}

void ui_prompt(struct ui *u, enum prompt_kind kind, const char *old)
{
	u->prompt = kind;
	lineedit_start(&u->edit, old, &u->history[kind]);
}

const char *ui_expression(struct ui *u)
{
	if (u->play)
		return u->cfg->expr;
	return capture_expression(u->cap);
}

void ui_close_conversations(struct ui *u)
{
	if (!u->conv)
		return;
	capture_set_convo(u->cap, NULL);
	convo_free(u->conv);
	u->conv = NULL;
	view_free(&u->conv_view);
}
