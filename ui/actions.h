/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* actions.h: the keys and the mouse on the table. Each changes the screen's state and
 * returns what is left for the loop to do: enum ui_reaction bits (keys.h). */
#ifndef FLOWTOP_ACTIONS_H
#define FLOWTOP_ACTIONS_H

struct ui;

/* Key ch (keys.h's table) on the table. */
unsigned ui_table_key(struct ui *u, int ch);
/* The mouse event curses holds: a click sorts or selects, twice opens, the wheel
 * scrolls. */
unsigned ui_table_mouse(struct ui *u);

#endif
