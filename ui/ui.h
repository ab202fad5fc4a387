/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* ui.h: the interactive screen, and what it is told of the command line (struct
 * screen_config). Talks to the counting core only through capture.h. */
#ifndef FLOWTOP_UI_H
#define FLOWTOP_UI_H

#include <stdbool.h>

#include "capture.h"
#include "columns.h"
#include "exporter.h"
#include "filter.h"
#include "groups.h"
#include "theme.h"

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

/* Runs until the user quits or a signal ends it; restores the terminal. Each sample goes
 * to exp too, when not NULL. With pf, replays that capture file (-r) at cfg->speed
 * instead of watching interfaces. Returns the exit status: 0, or 1 when the counters
 * could not be read at some sample (the status line said so then), when waiting for
 * events failed (flowtop then ends at once), or when the -o snapshot could not be
 * written; 2 when the capture file broke. geo is the location database (NULL: none;
 * geo_said then why, or ""), for the groups by AS or country and the AS and CC columns. */
struct pcapfile;
int ui_run(struct capture *c, const struct screen_config *cfg, struct exporter *exp,
	   struct pcapfile *pf, struct geo *geo, const char *geo_said);

#endif
