// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* picker.c: the interface picker (see picker.h): the interfaces and their states, the
 * marks, the scroll, and what Enter chooses. Calls nothing else of the screen's. */
#include "picker.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "keys.h"

/* Whether name is watched now: the one interface, one of a list's, or "any". */
static bool watched(const struct capture *c, const char *name)
{
	const struct iface_watch *l;
	size_t n, i;

	if (capture_any(c))
		return !strcmp(name, IFACE_ANY);
	l = capture_links(c, &n);
	for (i = 0; i < n; i++)
		if (!l[i].gone && !strcmp(l[i].info.name, name))
			return true;
	return false;
}

static void add(struct picker *p, const struct capture *c, const char *name, const char *state)
{
	int n = p->count++;

	snprintf(p->names[n], IF_NAMESIZE, "%s", name);
	p->states[n] = state;
	p->now[n] = watched(c, name);
	/* a list is marked as it is, so Enter keeps it and space changes it */
	p->marked[n] = p->now[n] && !capture_any(c) && capture_several(c);
	if (p->now[n] && !p->now[p->selected])
		p->selected = n;
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

void picker_open(struct picker *p, const struct capture *c, int rows)
{
	struct if_nameindex *all = iface_nameindex(), *i;
	struct iface_info info;

	p->count = 0;
	p->selected = 0;
	p->top = 0;
	add(p, c, IFACE_ANY, "all");
	for (i = all; i && i->if_index && p->count < PICKER_MAX; i++)
		add(p, c, i->if_name,
		    iface_get(i->if_name, &info) ? "?"
		    : !info.supported		 ? "unknown link type"
		    : !info.up			 ? "down"
		    : info.running		 ? "up"
						 : "no-carrier");
	if (all)
		iface_freenameindex(all);
	picker_follow(p, rows); /* the one watched, in view */
}

/* What Enter picks: the marked interfaces ("any" among them wins), or the one
 * selected. */
static void picked(const struct picker *p, struct iface_names *list)
{
	int i;

	iface_names_clear(list);
	for (i = 0; i < p->count; i++)
		if (p->marked[i] && iface_names_add(list, p->names[i]))
			break; /* as many as a list holds */
	if (!list->text[0])
		iface_names_add(list, p->names[p->selected]);
}

/* Whether the entry k is among what Enter picked. */
static bool is_picked(const struct picker *p, int k)
{
	size_t i;

	if (p->picked.any)
		return !strcmp(p->names[k], IFACE_ANY);
	for (i = 0; i < p->picked.n; i++)
		if (!strcmp(p->picked.names[i], p->names[k]))
			return true;
	return false;
}

/* Whether Enter picked what is watched now, every interface of it still there: then
 * nothing is to be attached again, nor counted anew. */
static bool picked_is_watched(const struct picker *p, const struct capture *c, bool iface_lost)
{
	const struct iface_watch *l;
	size_t n, i, live = 0, listed = 0;
	int k;

	if (iface_lost)
		return false;
	for (k = 0; k < p->count; k++) {
		if (is_picked(p, k) != p->now[k])
			return false;
		listed += p->now[k];
	}
	if (capture_any(c))
		return listed == 1;
	l = capture_links(c, &n);
	for (i = 0; i < n; i++)
		live += !l[i].gone;
	return live == n && listed == n; /* none gone, none past the list's end */
}

static enum picker_answer key(struct picker *p, int ch, const struct capture *c, bool iface_lost)
{
	if (ch == KEY_UP || ch == 'k')
		p->selected = p->selected > 0 ? p->selected - 1 : 0;
	else if (ch == KEY_DOWN || ch == 'j')
		p->selected += p->selected + 1 < p->count;
	else if (ch == KEY_HOME)
		p->selected = 0;
	else if (ch == KEY_END)
		p->selected = p->count - 1;
	else if (ch == ' ')
		p->marked[p->selected] = !p->marked[p->selected];
	else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		bool same;

		picked(p, &p->picked);
		same = picked_is_watched(p, c, iface_lost);
		p->count = 0;
		return same ? PICKER_SAME : PICKER_CHOSE;
	} else if (ch == KEY_ESC || ch == 'q' || ch == 'i')
		p->count = 0;
	return PICKER_ON;
}

enum picker_answer picker_key(struct picker *p, int ch, const struct capture *c, bool iface_lost,
			      int rows)
{
	enum picker_answer a = key(p, ch, c, iface_lost);

	picker_follow(p, rows);
	return a;
}
