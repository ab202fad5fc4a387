/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* history.h: the last samples' byte deltas per host, for rates over sliding windows
 * of 2, 10 and 40 seconds (as iftop shows them) and each host's peak. */
#ifndef FLOWTOP_HISTORY_H
#define FLOWTOP_HISTORY_H

#include <stddef.h>

#include "hosttab.h"

#define HISTORY_SLOTS 40 /* samples kept: 40 s at the default 1 s delay */

struct history;

struct history *history_new(void);
void history_free(struct history *h);
void history_clear(struct history *h); /* a new interface: hosts start over */

/* Records the sample hosttab holds now (its deltas and interval). 0 or -ENOMEM. */
int history_push(struct history *h, const struct hosttab *t);

/* Bytes per second of host i (hosttab's index) over the last `seconds`: the smallest
 * run of recent samples covering that long, or all that are kept. */
double history_rate(const struct history *h, size_t i, double seconds, int tx);

/* The highest 2-second rate, both ways, host i has had. */
double history_peak(const struct history *h, size_t i);

#endif
