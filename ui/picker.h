/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* picker.h: the interface picker, a box over the table: "any", then every interface
 * with its state; space marks several, Enter chooses. Its state and keys alone: the loop
 * (ui.c) tells it how many entries the box shows and does the switch, the drawing
 * (screen.c) shows it. */
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

struct capture;

/* The first entry to show of `rows`, nearest p->top, for p->selected to show among them;
 * picker_follow() keeps it in p->top. */
int picker_top(const struct picker *p, int rows);
void picker_follow(struct picker *p, int rows);

/* Opens it, the interfaces c watches now marked as such, the one selected among the
 * first `rows` shown (screen_picker_rows()). */
void picker_open(struct picker *p, const struct capture *c, int rows);

/* What a key did to the picker. */
enum picker_answer {
	PICKER_ON,    /* a selection or a mark moved; or Esc (q, i) closed it */
	PICKER_SAME,  /* Enter chose what c watches (iface_lost: never): closed, the
		       * counters go on */
	PICKER_CHOSE, /* Enter chose other interfaces, in p->picked: closed */
};

/* A key while it is open: Up, Down (k, j), Home and End select, Space marks, Enter
 * chooses (those marked, "any" among them winning, else the one selected), Esc closes;
 * the selection kept among `rows` shown. iface_lost: every interface c watched is
 * gone. */
enum picker_answer picker_key(struct picker *p, int ch, const struct capture *c, bool iface_lost,
			      int rows);

#endif
