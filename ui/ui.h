/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* ui.h: the interactive screen, told of the command line by struct screen_config
 * (screen_config.h). Talks to the counting core only through capture.h. */
#ifndef FLOWTOP_UI_H
#define FLOWTOP_UI_H

#include <stdbool.h>

#include "capture.h"
#include "exporter.h"
#include "screen_config.h"

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
