/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* picker.h: the interface picker, a box over the table: "any", then every interface
 * with its state; space marks several, Enter chooses. The loop does the switch. */
#ifndef FLOWTOP_PICKER_H
#define FLOWTOP_PICKER_H

#include <stdbool.h>

struct ui;

/* Opens it, the interfaces watched now marked as such. */
void ui_open_picker(struct ui *u);
/* A key while it is open: Up, Down (k, j), Home and End select, Space marks; true when
 * Enter chose other interfaces (in u->picked: those marked, "any" among them winning,
 * else the one selected) than those watched, which it only closes, the counters going
 * on; Esc closes it too. */
bool ui_picker_key(struct ui *u, int ch);

#endif
