/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* help.h: the help screen: keys.c's table over the whole terminal, each key's text
 * wrapped under its description's column, scrolled by the table's own movement keys,
 * with a last line saying what is above and below. The layout and the keys need no
 * terminal: unit tests drive them. */
#ifndef FLOWTOP_HELP_H
#define FLOWTOP_HELP_H

#include <stdbool.h>

#define HELP_WHEEL_LINES 3 /* lines a turn of the mouse wheel scrolls */
#define HELP_LABEL_GAP	 2 /* columns between the labels and the text */

/* One line of the help: a part of one key's text, the label shown on its first. */
struct help_line {
	unsigned binding; /* its index in key_bindings */
	bool first;	  /* the key's first line: its label is shown */
	const char *text; /* the part of the key's text on this line, len long */
	int len;
};

/* The label column's width: the longest label. */
int help_label_width(void);

/* The key table laid out in lines `width` columns wide: a label, HELP_LABEL_GAP spaces
 * and the text, wrapped at spaces (a word longer than its column is cut) under the
 * text's column. Writes the first max lines to out; returns how many there are. */
int help_layout(int width, struct help_line *out, int max);

/* A key while the help shows: the table's Up, Down, PgUp, PgDn, Home and End (k and j
 * too) and Space, a page down, move *top, the first of total lines shown page at a
 * time, and return true; any other key returns false: it closes the help. */
bool help_key(int ch, int *top, int total, int page);

/* *top moved by `by` lines, within what can be shown. */
void help_scroll(int *top, int by, int total, int page);

/* The help as the terminal fits it now: how many lines, and how many show at once. */
int help_total_lines(void);
int help_page_lines(void);

/* Draws it over the whole terminal, from its line top (kept to what fits); utf8:
 * arrows in the last line, else ^ and v. */
void help_draw(int top, bool utf8);

#endif
