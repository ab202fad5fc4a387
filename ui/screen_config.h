/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* screen_config.h: what the screen is told of the command line (main.c fills it), and
 * nothing of the screen itself: the program on top includes it without curses. */
#ifndef FLOWTOP_SCREEN_CONFIG_H
#define FLOWTOP_SCREEN_CONFIG_H

#include <stdbool.h>

#include "columns.h"
#include "groups.h"
#include "rowfilter.h"

/* Colour or not (--color, mapped by main.c). */
enum theme_color {
	THEME_COLOR_AUTO,   /* when the terminal has colours and NO_COLOR is unset or empty */
	THEME_COLOR_ALWAYS, /* whenever the terminal can */
	THEME_COLOR_NEVER,
};

/* What the screen is told of the command line (main.c fills it). */
struct screen_config {
	double delay;		 /* -d: seconds between samples (of a capture's clock) */
	double speed;		 /* --speed: a replay's pace against the capture's, 0: at once */
	const char *snapshot;	 /* -o: written on exit, the dumps' default name; or NULL */
	const char *netns;	 /* --netns, or NULL */
	const char *expr;	 /* the filter expression a capture file (-r) is read with, or
				  * NULL (live, the capture says its own) */
	struct filter filter;	 /* -f: the rows shown */
	struct group_opts group; /* --group, --prefix: rows by host, prefix, AS, country */
	enum col_id sort;	 /* -s: the sort column */
	unsigned columns;	 /* --columns: the optional columns shown (VIEW_AS...) */
	bool names;		 /* reverse DNS names (not -N) */
	bool mouse;		 /* clicks and the wheel are the screen's (not --no-mouse) */
	enum theme_color color;	 /* --color */
};

#endif
