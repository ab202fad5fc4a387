// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* picker.c: the interface picker: every interface with its state, and the switch to the
 * one picked (the same loaded program on a new socket). */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "ui_state.h"

void ui_open_picker(struct ui *u)
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
		if (!strcmp(i->if_name, capture_name(u->cap)))
			u->picker_selected = n;
		u->picker_count++;
	}
	if (all)
		if_freenameindex(all);
	if (!u->picker_count)
		ui_status(u, "no interfaces found");
}

static void switch_to(struct ui *u, const char *name)
{
	char err[512];

	ui_close_conversations(u); /* its peers are this interface's */
	if (capture_attach(u->cap, name, err, sizeof(err))) {
		ui_status(u, "%s; still watching %s", err, capture_name(u->cap));
		return;
	}
	u->iface_lost = false;
	ui_view(u)->selected = ui_view(u)->top = 0;
	graph_clear(&u->graph);
	u->attached_at = u->last_sample = ui_now();
	capture_cost_ns(u->cap);
	ui_rebuild(u);
	ui_status(u, "now watching %s: counters start over", name);
}

void ui_picker_key(struct ui *u, int ch)
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
