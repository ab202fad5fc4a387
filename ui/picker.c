// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* picker.c: the interface picker: "any", then every interface with its state; space
 * marks several, Enter switches to those marked (else to the one selected): the same
 * loaded program on new sockets. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"
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
	int n = u->picker_count++;

	snprintf(u->picker_names[n], IF_NAMESIZE, "%s", name);
	u->picker_states[n] = state;
	u->picker_now[n] = watched(u, name);
	/* a list is marked as it is, so Enter keeps it and space changes it */
	u->picker_marked[n] = u->picker_now[n] && !capture_any(u->cap) && capture_several(u->cap);
	if (u->picker_now[n] && !u->picker_now[u->picker_selected])
		u->picker_selected = n;
}

void ui_open_picker(struct ui *u)
{
	struct if_nameindex *all = if_nameindex(), *i;
	struct iface_info info;

	u->picker_count = 0;
	u->picker_selected = 0;
	add(u, IFACE_ANY, "all");
	for (i = all; i && i->if_index && u->picker_count < PICKER_MAX; i++)
		add(u, i->if_name,
		    iface_get(i->if_name, &info) ? "?"
		    : !info.supported		 ? "unknown link type"
		    : !info.up			 ? "down"
		    : info.running		 ? "up"
						 : "no-carrier");
	if (all)
		if_freenameindex(all);
}

static void switch_to(struct ui *u, const struct iface_names *ifaces)
{
	char err[512];

	ui_close_conversations(u); /* its peers are these interfaces' */
	if (capture_attach(u->cap, ifaces, err, sizeof(err))) {
		ui_status(u, "%s; still watching %s", err, capture_name(u->cap));
		return;
	}
	u->iface_lost = false;
	ui_view(u)->selected = ui_view(u)->top = 0;
	graph_clear(&u->graph);
	u->attached_at = u->last_sample = ui_now();
	capture_cost_ns(u->cap);
	ui_follow_links(u);
	ui_rebuild(u);
	ui_status(u, "now watching %s: counters start over", ifaces->text);
}

/* What Enter picks: the marked interfaces ("any" among them wins), or the one
 * selected. */
static void picked(const struct ui *u, struct iface_names *list)
{
	int i;

	iface_names_clear(list);
	for (i = 0; i < u->picker_count; i++)
		if (u->picker_marked[i] && iface_names_add(list, u->picker_names[i]))
			break; /* as many as a list holds */
	if (!list->text[0])
		iface_names_add(list, u->picker_names[u->picker_selected]);
}

void ui_picker_key(struct ui *u, int ch)
{
	if (ch == KEY_UP || ch == 'k')
		u->picker_selected = u->picker_selected > 0 ? u->picker_selected - 1 : 0;
	else if (ch == KEY_DOWN || ch == 'j')
		u->picker_selected += u->picker_selected + 1 < u->picker_count;
	else if (ch == ' ')
		u->picker_marked[u->picker_selected] = !u->picker_marked[u->picker_selected];
	else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		static struct iface_names list; /* 4 KiB: not on the stack */

		picked(u, &list);
		u->picker_count = 0;
		switch_to(u, &list);
	} else if (ch == KEY_ESC || ch == 'q' || ch == 'i')
		u->picker_count = 0;
}
