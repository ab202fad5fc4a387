/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* theme.h: the attribute each part of the screen is drawn with, in colour when the
 * terminal has colours and the user wants them (--color, NO_COLOR), else in the
 * monochrome attributes (reverse, bold) every terminal has. Colours are foregrounds on
 * the terminal's own background, or pairs with their own background, so that a light
 * background stays as legible as a dark one. */
#ifndef FLOWTOP_THEME_H
#define FLOWTOP_THEME_H

#include <curses.h>
#include <stdbool.h>

#include "screen_config.h"

enum theme_role {
	THEME_BAR_LINE, /* the title line and the key footer */
	THEME_TITLES,	/* column titles */
	THEME_SORTED,	/* the sort column's title */
	THEME_SELECTED, /* the selected row */
	THEME_SHARE,	/* the share bar */
	THEME_IN,	/* traffic received: graph, sparkline */
	THEME_OUT,	/* traffic sent: graph */
	THEME__COUNT,
};

/* Chooses colour or monochrome for `mode` (after initscr). Returns whether colour. */
bool theme_init(enum theme_color mode);

/* Whether --color=auto would use colours, from NO_COLOR and has_colors alone. */
bool theme_auto_wants_color(const char *no_color, bool terminal_has_colors);

attr_t theme_attr(enum theme_role role);

#endif
