/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* actions.h: the keys and the mouse on the table. Each changes the screen's state and
 * returns what is left for the loop to do: enum ui_reaction bits (keys.h). */
#ifndef FLOWTOP_ACTIONS_H
#define FLOWTOP_ACTIONS_H

#include <curses.h>
#include <stddef.h>

struct ui;

#define MOUSE_RUN_MAX 16 /* mouse events read after one KEY_MOUSE at most */

/* Key ch (keys.h's table) on the table. */
unsigned ui_table_key(struct ui *u, int ch);
/* The mouse events curses holds, oldest first: a click sorts or selects, twice opens,
 * the wheel scrolls. */
unsigned ui_table_mouse(struct ui *u);
/* Every event curses holds since its last KEY_MOUSE into ev, oldest first (the newest
 * max of them); how many. */
size_t ui_mouse_events(MEVENT *ev, size_t max);

#endif
