// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* actions.c: what each key and mouse press does on the table (an action table whose
 * entries return what is left to do, as htop's do: ui.c does it), the conversation view
 * and the groups they open and close. */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "keys.h"
#include "ui_state.h"

#define DOUBLE_CLICK_S 0.4
#define WHEEL_ROWS     3

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
	u->help_top = 0;
	return REACT_NONE;
}

static unsigned act_sort_left(struct ui *u)
{
	view_move_sort(ui_view(u), -1);
	return REACT_REBUILD;
}

static unsigned act_sort_right(struct ui *u)
{
	view_move_sort(ui_view(u), 1);
	return REACT_REBUILD;
}

static unsigned act_reverse(struct ui *u)
{
	ui_view(u)->reverse = !ui_view(u)->reverse;
	return REACT_REBUILD;
}

static unsigned act_filter(struct ui *u)
{
	ui_prompt(u, PROMPT_FILTER, ui_view(u)->filter.text);
	return REACT_NONE;
}

static unsigned act_iface(struct ui *u)
{
	if (u->play) {
		ui_status(u, "reading a capture file: no interface to pick");
		return REACT_NONE;
	}
	return REACT_PICKER;
}

static unsigned act_expr(struct ui *u)
{
	const char *now = ui_expression(u);

	if (u->play) {
		ui_status(u, "a capture file's expression is given at start");
		return REACT_NONE;
	}
	ui_prompt(u, PROMPT_EXPR, now);
	return REACT_NONE;
}

static unsigned act_dump(struct ui *u)
{
	char name[LINEEDIT_MAX + 1];

	ui_default_dump_name(u, name, sizeof(name));
	ui_prompt(u, PROMPT_DUMP, name);
	return REACT_NONE;
}

static unsigned act_step(struct ui *u)
{
	if (u->play)
		return REACT_PLAY_STEP;
	ui_status(u, "'.' steps through a capture file (-r)");
	return REACT_NONE;
}

static unsigned act_faster(struct ui *u)
{
	if (u->play)
		return REACT_PLAY_FASTER;
	ui_status(u, "'+' speeds up a capture file's replay (-r)");
	return REACT_NONE;
}

static unsigned act_slower(struct ui *u)
{
	if (u->play)
		return REACT_PLAY_SLOWER;
	ui_status(u, "'-' slows down a capture file's replay (-r)");
	return REACT_NONE;
}

static unsigned act_pause(struct ui *u)
{
	if (u->play) /* the capture's clock stops; what it shows stands still with it */
		return REACT_PLAY_PAUSE;
	ui_view(u)->paused = !ui_view(u)->paused;
	u->graph_paused = u->graph;
	if (!ui_view(u)->paused)
		return REACT_REBUILD;
	ui_freeze(u); /* the rows paging and a dump will see */
	return REACT_NONE;
}

static unsigned act_names(struct ui *u)
{
	ui_view(u)->names = !ui_view(u)->names;
	u->main.names = ui_view(u)->names; /* one setting for both views */
	if (ui_view(u)->names && !u->dns) {
		u->dns = dns_new(&u->dns_fd);
		if (!u->dns) {
			ui_view(u)->names = u->main.names = false;
			ui_status(u, "cannot start the DNS resolver");
		}
	}
	return REACT_REBUILD;
}

static unsigned act_bits(struct ui *u)
{
	ui_view(u)->bits = !ui_view(u)->bits;
	u->main.bits = ui_view(u)->bits;
	return REACT_NONE;
}

static unsigned act_totals(struct ui *u)
{
	ui_view(u)->totals = !ui_view(u)->totals;
	if (!column_in_view(ui_view(u)->sort, view_columns(ui_view(u))))
		ui_view(u)->sort = ui_view(u)->totals ? COL_RX_BYTES : COL_RX2;
	return REACT_REBUILD;
}

static unsigned act_up(struct ui *u)
{
	view_select(ui_view(u), -1, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_down(struct ui *u)
{
	view_select(ui_view(u), 1, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_page_up(struct ui *u)
{
	view_select(ui_view(u), -(long)page_rows(), page_rows());
	return REACT_FOLLOW;
}

static unsigned act_page_down(struct ui *u)
{
	view_select(ui_view(u), (long)page_rows(), page_rows());
	return REACT_FOLLOW;
}

static unsigned act_home(struct ui *u)
{
	view_home(ui_view(u)); /* and the top shown from now on */
	return REACT_FOLLOW;
}

static unsigned act_end(struct ui *u)
{
	view_select(ui_view(u), (long)ui_view(u)->nrows, page_rows());
	return REACT_FOLLOW;
}

static unsigned act_redraw(struct ui *u)
{
	(void)u;
	return REACT_REPAINT;
}

/* ---- groups ---- */

/* Shows the hosts of the selected group, the main view's filter and sort kept. */
static unsigned open_group(struct ui *u)
{
	const struct row *r = &u->group_view.rows[u->group_view.selected];

	u->in_group = true;
	u->main.member_of = &u->group;
	u->main.member_key = r->host.addr;
	view_home(&u->main);
	snprintf(u->group_title, sizeof(u->group_title), "%s", r->label);
	return REACT_REBUILD;
}

static void close_group(struct ui *u)
{
	u->in_group = false;
	u->main.member_of = NULL;
	view_home(&u->main);
}

/* 'a': hosts, then prefixes, then ASes, then countries, then ports (where the program
 * counts them), then hosts again. */
static unsigned act_group(struct ui *u)
{
	if (u->conv) {
		ui_status(u, "close the conversations first (Esc)");
		return REACT_NONE;
	}
	bool no_ports;

	close_group(u);
	u->group.by = (enum group_by)((u->group.by + 1) % (GROUP_PORT + 1));
	no_ports = u->group.by == GROUP_PORT && !capture_ports(u->cap);
	if (no_ports) /* the program that counts them did not load */
		u->group.by = GROUP_HOST;
	view_home(&u->group_view);
	u->group_view.totals = u->main.totals;
	u->group_view.bits = u->main.bits;
	if (!column_in_view(u->group_view.sort, view_columns(&u->group_view) | VIEW_GROUPS))
		u->group_view.sort = u->main.totals ? COL_RX_BYTES : COL_RX2;
	if (!ui_build_groups(u))
		u->group.by = GROUP_HOST;
	else if (u->group.by == GROUP_HOST)
		ui_status(u, no_ports ? "rows by host (no ports: their program did not load)"
				      : "rows by host");
	else
		ui_status(u, "rows by %s: %zu %s%s", group_by_label(u->group.by),
			  hosttab_count(groups_table(u->groups)),
			  u->group.by == GROUP_PORT
			      ? fmt_noun(hosttab_count(groups_table(u->groups)), "port", "ports")
			      : fmt_noun(hosttab_count(groups_table(u->groups)), "group", "groups"),
			  u->group.by >= GROUP_AS && !u->geo
			      ? " (no location database: AS and country are -)"
			      : "");
	return REACT_REBUILD;
}

/* 'c': the hosts' AS and CC columns; where the terminal is too narrow for them, it
 * says so. */
static unsigned act_geo(struct ui *u)
{
	int as, cc;

	u->main.optional = u->main.optional ? 0 : VIEW_OPTIONAL;
	if (!column_in_view(u->main.sort, view_columns(&u->main)))
		u->main.sort = u->main.totals ? COL_RX_BYTES : COL_RX2;
	if (!u->main.optional)
		return REACT_REBUILD;
	as = screen_width_for(&u->main, COL_AS);
	cc = screen_width_for(&u->main, COL_CC);
	if (cc > COLS) /* short: the terminal is narrow */
		ui_status(u, "AS and CC need %d columns (%d here)", as, COLS);
	else if (as > COLS)
		ui_status(u, "AS needs %d columns (%d here)", as, COLS);
	else if (!u->geo)
		ui_status(u, "no location database: AS and country are - (special ranges named)");
	return REACT_REBUILD;
}

/* Opens the conversations of the selected host (in the conversation view: of the
 * selected peer, which becomes the focus); on a table of groups, the selected group's
 * hosts. Conversations count from now on. */
static unsigned act_open(struct ui *u)
{
	struct view *v = ui_view(u);
	struct flow_key focus;
	struct convo *c;
	char addr[FMT_ADDR_LEN];
	const char *name;

	if (v->selected >= v->nbuilt) {
		ui_status(u, ui_grouped(u) ? "no group selected" : "no host selected");
		return REACT_NONE;
	}
	if (ui_grouped(u) && u->group.by != GROUP_PORT)
		return open_group(u);
	focus = v->rows[v->selected].host.addr; /* a host, a peer, or a port */
	c = convo_new(&focus, ui_grouped(u) && u->group.by == GROUP_PORT, CONVO_DEFAULT_PEERS);
	if (!c) {
		ui_status(u, "cannot open the conversations: %s", strerror(errno));
		return REACT_NONE;
	}
	ui_close_conversations(u);
	u->conv = c;
	view_init(&u->conv_view);
	/* a frame is in its peer's entry alone; on a port, in both its hosts' */
	u->conv_view.per_frame = convo_of_port(c) ? 2 : 1;
	u->conv_view.peers = !convo_of_port(c) && capture_ports(u->cap); /* their PORTS */
	u->conv_view.bits = u->main.bits;
	u->conv_view.names = u->main.names;
	u->conv_view.totals = u->main.totals;
	u->conv_view.sort = u->main.sort;
	if (!column_in_view(u->conv_view.sort, view_columns(&u->conv_view))) /* AS, CC */
		u->conv_view.sort = u->conv_view.totals ? COL_RX_BYTES : COL_RX2;
	u->conv_opened = ui_now();
	if (convo_of_port(c)) {
		snprintf(u->conv_title, sizeof(u->conv_title), "%s", v->rows[v->selected].label);
	} else {
		name = ui_name_of(&focus, false, u);
		fmt_addr(&focus, addr);
		snprintf(u->conv_title, sizeof(u->conv_title), "%s%s%s%s", addr, name ? " (" : "",
			 name ? name : "", name ? ")" : "");
	}
	capture_set_convo(u->cap, c);
	return REACT_REBUILD;
}

/* Esc: back from the conversations or a group's hosts; on the table itself, the
 * filter cleared, as the help says of '/'. */
static unsigned act_back(struct ui *u)
{
	if (u->conv) {
		ui_close_conversations(u);
	} else if (u->in_group) {
		close_group(u);
	} else if (ui_view(u)->filter.kind != FILTER_NONE) {
		memset(&ui_view(u)->filter, 0, sizeof(ui_view(u)->filter));
		ui_status(u, "row filter cleared");
	} else {
		return REACT_NONE;
	}
	return REACT_REBUILD;
}

static unsigned act_graph(struct ui *u)
{
	u->graph_mode = ui_graph_on(u) ? GRAPH_OFF : GRAPH_ON;
	screen_set_graph(u->graph_mode == GRAPH_ON);
	if (u->graph_mode == GRAPH_ON && screen_table_rows() < 1)
		ui_status(u, "the terminal is too short for the graph");
	return REACT_FOLLOW; /* the page height changed */
}

static unsigned act_mouse(struct ui *u)
{
	u->mouse = !u->mouse;
	if (!screen_mouse(u->mouse)) {
		u->mouse = false;
		ui_status(u, "this terminal does not report the mouse");
	} else {
		ui_status(u, u->mouse ? "mouse on: click a title to sort, a row to select"
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
	[ACT_EXPR] = act_expr,
	[ACT_DUMP] = act_dump,
	[ACT_PAUSE] = act_pause,
	[ACT_STEP] = act_step,
	[ACT_FASTER] = act_faster,
	[ACT_SLOWER] = act_slower,
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
	[ACT_GROUP] = act_group,
	[ACT_GEO] = act_geo,
};

unsigned ui_table_key(struct ui *u, int ch)
{
	return actions[keys_action(ch)](u);
}

/* One press: a click on a title sorts by it (again: reverses), on a row selects it, twice
 * on the same row opens its conversations; the wheel scrolls. */
static unsigned press(struct ui *u, const MEVENT *ev)
{
	unsigned react = REACT_NONE;
	struct screen_hit hit;
	size_t page = page_rows();

	if (ev->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		view_select(ui_view(u), ev->bstate & BUTTON4_PRESSED ? -WHEEL_ROWS : WHEEL_ROWS,
			    page);
		return REACT_FOLLOW;
	}
	if (!(ev->bstate & BUTTON1_PRESSED))
		return REACT_NONE;
	hit = screen_hit(ev->y, ev->x);
	if (hit.kind == HIT_TITLE) {
		if (hit.col == ui_view(u)->sort)
			ui_view(u)->reverse = !ui_view(u)->reverse;
		else
			ui_view(u)->sort = hit.col, ui_view(u)->reverse = false;
		react = REACT_REBUILD;
	} else if (hit.kind == HIT_ROW && ui_view(u)->top + (size_t)hit.row < ui_view(u)->nbuilt) {
		size_t r = ui_view(u)->top + (size_t)hit.row;
		double now = ui_now();

		ui_view(u)->selected = r;
		ui_view(u)->held = true;
		view_select(ui_view(u), 0, page);
		if (r == u->last_click_row && now - u->last_click < DOUBLE_CLICK_S) {
			now = 0; /* a third press starts over */
			react = act_open(u);
		}
		u->last_click = now;
		u->last_click_row = r;
	}
	return react;
}

size_t ui_mouse_events(MEVENT *ev, size_t max)
{
	MEVENT newest_first[MOUSE_RUN_MAX];
	size_t n = 0, i;

	while (n < MOUSE_RUN_MAX && getmouse(&newest_first[n]) == OK)
		n++;
	if (n > max)
		n = max; /* the newest kept */
	for (i = 0; i < n; i++)
		ev[i] = newest_first[n - 1 - i];
	return n;
}

/* Presses only (flowtop asks for no releases), each of a run in the order made: ncurses
 * hands a burst of them (a double click over a slow link, typed ahead) to one KEY_MOUSE. */
unsigned ui_table_mouse(struct ui *u)
{
	MEVENT ev[MOUSE_RUN_MAX];
	size_t n = ui_mouse_events(ev, MOUSE_RUN_MAX), i;
	unsigned react = REACT_NONE;

	for (i = 0; i < n; i++)
		react |= press(u, &ev[i]);
	return react;
}
