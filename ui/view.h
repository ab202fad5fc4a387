/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* view.h: what the user chose to see (sort, filter, units, view, selection) and the
 * rows that follow from it. No curses: unit tests drive it. */
#ifndef FLOWTOP_VIEW_H
#define FLOWTOP_VIEW_H

#include <stdbool.h>

#include "columns.h"
#include "filter.h"
#include "history.h"

struct view {
	enum col_id sort;     /* the sort column */
	bool reverse;	      /* 'r' */
	struct filter filter; /* '/' */
	bool bits;	      /* rates in bits/s (else bytes/s) */
	bool totals;	      /* the cumulative view (else rates) */
	bool names;	      /* reverse DNS names */
	bool paused;	      /* the screen is frozen */
	size_t selected;      /* row index */
	size_t top;	      /* first row shown */
	struct row *rows;     /* the rows that pass the filter, sorted */
	size_t nrows, cap;
};

/* Returns the name to show for an address, or NULL for the address itself; the
 * string must stay valid while the view is used (the DNS cache never frees names). */
typedef const char *(*view_name_fn)(const struct flow_key *key, void *arg);

void view_init(struct view *v);
void view_free(struct view *v);

/* Rebuilds rows from the host table and history: filter, rates, sort. Keeps the
 * selection on the same host when it is still there. 0 or -ENOMEM. */
int view_build(struct view *v, const struct hosttab *t, const struct history *h, view_name_fn name,
	       void *arg);

/* Moves the sort column left (-1) or right (+1) among the columns the view shows. */
void view_move_sort(struct view *v, int dir);

/* Moves the selection by delta rows (clamped), keeping it in a window of `page` rows. */
void view_select(struct view *v, long delta, size_t page);

#endif
