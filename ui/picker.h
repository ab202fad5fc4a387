/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* picker.h: the interface picker, a box over the table: "any", then every interface
 * with its state; space marks several, Enter chooses. The loop does the switch. */
#ifndef FLOWTOP_PICKER_H
#define FLOWTOP_PICKER_H

#include <net/if.h>
#include <stdbool.h>

#include "iface.h"

#define PICKER_MAX 64 /* entries: "any" and the first 63 interfaces */

/* The picker's state: its entries, what is selected and marked, and what Enter chose. */
struct picker {
	int count; /* entries; > 0: the picker is open */
	int selected;
	int top; /* the first entry shown: the box scrolls to keep the selection in it */
	char names[PICKER_MAX][IF_NAMESIZE];
	const char *states[PICKER_MAX]; /* "up", "down", ... */
	bool marked[PICKER_MAX];	/* space marks several */
	bool now[PICKER_MAX];		/* watched now */
	struct iface_names picked;	/* what Enter chose */
};

struct ui;

/* The first entry to show of `rows`, nearest p->top, for p->selected to show among them;
 * picker_follow() keeps it in p->top. */
int picker_top(const struct picker *p, int rows);
void picker_follow(struct picker *p, int rows);

/* Opens it, the interfaces watched now marked as such. */
void ui_open_picker(struct ui *u);
/* A key while it is open: Up, Down (k, j), Home and End select, Space marks; true when
 * Enter chose other interfaces (in u->picker.picked: those marked, "any" among them winning,
 * else the one selected) than those watched, which it only closes, the counters going
 * on; Esc closes it too. */
bool ui_picker_key(struct ui *u, int ch);

#endif
