// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* picker.c: the interface picker (see picker.h): the interfaces and their states, the
 * marks, and what Enter chooses. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "picker.h"
#include "ui_state.h"

/* Whether name is watched now: the one interface, one of a list's, or "any". */
static bool watched(struct ui *u, const char *name)
{
	const struct iface_watch *l;
	size_t n, i;

	if (capture_any(u->cap))
		return !strcmp(name, IFACE_ANY);
	l = capture_links(u->cap, &n);
	for (i = 0; i < n; i++)
		if (!l[i].gone && !strcmp(l[i].info.name, name))
			return true;
	return false;
}

static void add(struct ui *u, const char *name, const char *state)
{
	int n = u->picker.count++;

	snprintf(u->picker.names[n], IF_NAMESIZE, "%s", name);
	u->picker.states[n] = state;
	u->picker.now[n] = watched(u, name);
	/* a list is marked as it is, so Enter keeps it and space changes it */
	u->picker.marked[n] = u->picker.now[n] && !capture_any(u->cap) && capture_several(u->cap);
	if (u->picker.now[n] && !u->picker.now[u->picker.selected])
		u->picker.selected = n;
}

int picker_top(const struct picker *p, int rows)
{
	int top = p->top;

	if (rows < 1)
		rows = 1;
	if (p->selected < top)
		top = p->selected;
	else if (p->selected >= top + rows)
		top = p->selected - rows + 1;
	if (top > p->count - rows)
		top = p->count - rows > 0 ? p->count - rows : 0;
	return top;
}

void picker_follow(struct picker *p, int rows)
{
	p->top = picker_top(p, rows);
}

void ui_open_picker(struct ui *u)
{
	struct if_nameindex *all = iface_nameindex(), *i;
	struct iface_info info;

	u->picker.count = 0;
	u->picker.selected = 0;
	u->picker.top = 0;
	add(u, IFACE_ANY, "all");
	for (i = all; i && i->if_index && u->picker.count < PICKER_MAX; i++)
		add(u, i->if_name,
		    iface_get(i->if_name, &info) ? "?"
		    : !info.supported		 ? "unknown link type"
		    : !info.up			 ? "down"
		    : info.running		 ? "up"
						 : "no-carrier");
	if (all)
		iface_freenameindex(all);
	picker_follow(&u->picker, screen_picker_rows()); /* the one watched, in view */
}

/* What Enter picks: the marked interfaces ("any" among them wins), or the one
 * selected. */
static void picked(const struct ui *u, struct iface_names *list)
{
	int i;

	iface_names_clear(list);
	for (i = 0; i < u->picker.count; i++)
		if (u->picker.marked[i] && iface_names_add(list, u->picker.names[i]))
			break; /* as many as a list holds */
	if (!list->text[0])
		iface_names_add(list, u->picker.names[u->picker.selected]);
}

/* Whether the entry k is among what Enter picked. */
static bool is_picked(const struct ui *u, int k)
{
	size_t i;

	if (u->picker.picked.any)
		return !strcmp(u->picker.names[k], IFACE_ANY);
	for (i = 0; i < u->picker.picked.n; i++)
		if (!strcmp(u->picker.picked.names[i], u->picker.names[k]))
			return true;
	return false;
}

/* Whether Enter picked what is watched now, every interface of it still there: then
 * nothing is to be attached again, nor counted anew. */
static bool picked_is_watched(const struct ui *u)
{
	const struct iface_watch *l;
	size_t n, i, live = 0, listed = 0;
	int k;

	if (u->iface_lost)
		return false;
	for (k = 0; k < u->picker.count; k++) {
		if (is_picked(u, k) != u->picker.now[k])
			return false;
		listed += u->picker.now[k];
	}
	if (capture_any(u->cap))
		return listed == 1;
	l = capture_links(u->cap, &n);
	for (i = 0; i < n; i++)
		live += !l[i].gone;
	return live == n && listed == n; /* none gone, none past the list's end */
}

static bool picker_key(struct ui *u, int ch);

bool ui_picker_key(struct ui *u, int ch)
{
	bool chose = picker_key(u, ch);

	picker_follow(&u->picker, screen_picker_rows());
	return chose;
}

static bool picker_key(struct ui *u, int ch)
{
	if (ch == KEY_UP || ch == 'k')
		u->picker.selected = u->picker.selected > 0 ? u->picker.selected - 1 : 0;
	else if (ch == KEY_DOWN || ch == 'j')
		u->picker.selected += u->picker.selected + 1 < u->picker.count;
	else if (ch == KEY_HOME)
		u->picker.selected = 0;
	else if (ch == KEY_END)
		u->picker.selected = u->picker.count - 1;
	else if (ch == ' ')
		u->picker.marked[u->picker.selected] = !u->picker.marked[u->picker.selected];
	else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		bool same;

		picked(u, &u->picker.picked);
		same = picked_is_watched(u);
		u->picker.count = 0;
		if (same)
			ui_status(u, "already watching %s: the counters go on",
				  capture_name(u->cap));
		return !same;
	} else if (ch == KEY_ESC || ch == 'q' || ch == 'i')
		u->picker.count = 0;
	return false;
}
