// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* theme.c: colour pairs or monochrome attributes per screen role. */
#include "theme.h"

#include <stdlib.h>

struct role_style {
	short fg, bg; /* bg -1: the terminal's own background */
	attr_t color_extra;
	attr_t mono;
};

static const struct role_style styles[THEME__COUNT] = {
	[THEME_BAR_LINE] = { COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE },
	[THEME_TITLES] = { COLOR_BLACK, COLOR_GREEN, 0, A_BOLD },
	[THEME_SORTED] = { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD },
	[THEME_SELECTED] = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[THEME_SHARE] = { COLOR_GREEN, -1, 0, A_NORMAL },
	[THEME_IN] = { COLOR_GREEN, -1, 0, A_NORMAL },
	[THEME_OUT] = { COLOR_MAGENTA, -1, 0, A_NORMAL },
};

static attr_t attrs[THEME__COUNT];

bool theme_auto_wants_color(const char *no_color, bool terminal_has_colors)
{
	/* https://no-color.org: set and not empty means no colour */
	return terminal_has_colors && !(no_color && *no_color);
}

bool theme_init(enum theme_color mode)
{
	bool color = mode == THEME_COLOR_ALWAYS ? has_colors()
		     : mode == THEME_COLOR_NEVER
			 ? false
			 : theme_auto_wants_color(getenv("NO_COLOR"), has_colors());
	bool default_bg;
	int r;

	if (color && start_color() == ERR)
		color = false;
	default_bg = color && use_default_colors() == OK;
	for (r = 0; r < THEME__COUNT; r++) {
		const struct role_style *s = &styles[r];

		attrs[r] = s->mono;
		if (!color)
			continue;
		init_pair((short)(r + 1), s->fg, s->bg >= 0 || default_bg ? s->bg : COLOR_BLACK);
		attrs[r] = COLOR_PAIR(r + 1) | s->color_extra;
	}
	return color;
}

attr_t theme_attr(enum theme_role role)
{
	return attrs[role];
}
