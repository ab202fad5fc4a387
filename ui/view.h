/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* view.h: what the user chose to see (sort, filter, units, view, selection) and the
 * rows that follow from it. Only the rows that can be shown are built: the first
 * `want` in the sort order, picked without sorting the rest. No curses: unit tests
 * drive it.
 *
 * SHARE is a host's bytes both ways over 2 s against all bytes counted on hosts over
 * 2 s (each frame once): a host in every frame reads 100 %. It does not depend on the
 * filter. */
#ifndef FLOWTOP_VIEW_H
#define FLOWTOP_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "columns.h"
#include "groups.h"
#include "rowfilter.h"
#include "hosttab.h"

struct view_pick; /* a candidate row: sort key and host */

struct view {
	enum col_id sort;		    /* the sort column */
	bool reverse;			    /* 'r' */
	struct filter filter;		    /* '/' */
	bool bits;			    /* rates in bits/s (else bytes/s) */
	bool totals;			    /* the cumulative view (else rates) */
	bool names;			    /* reverse DNS names */
	bool paused;			    /* the screen is frozen */
	bool several;			    /* more than one interface watched: the IFACE column */
	const struct groups *groups;	    /* the rows are these groups (their table is the one
					     * built from), or NULL: hosts */
	unsigned optional;		    /* the optional columns chosen (VIEW_AS, VIEW_CC: 'c',
					     * --columns), shown on hosts; their geo looked up */
	const struct group_opts *member_of; /* only the hosts of the group member_key of */
	struct flow_key member_key;	    /* this grouping (an opened group), or NULL */
	struct geo *geo_db;		    /* AS names for them, or NULL */
	const char *link_names[LINK_BITS];  /* the name of host.links' bit n (NULL: none) */
	bool peers;		 /* the rows are an address's peers: their PORTS column */
	unsigned per_frame;	 /* entries each frame is in, for SHARE: 2 in the host table
				  * (source, destination), 1 in a conversation's peers */
	size_t selected;	 /* row index */
	bool held;		 /* the selection was moved (keys, a click): it stays on its
				  * host as the rows move, the scroll with it; else it is the
				  * first row and the top is shown */
	size_t top;		 /* first row shown */
	size_t nrows;		 /* hosts that pass the filter */
	struct row *rows;	 /* the first nbuilt of them, in order */
	struct hist_clock clock; /* the samples the rows' history is read against */
	size_t nbuilt, cap;
	struct view_pick *picks; /* scratch: the rows to build, as they are picked */
	size_t picks_cap;
};

/* The name to show for an address, or NULL for the address itself; with lookup it may
 * start a lookup, without it only answers from what is known. The string must stay
 * valid while the view is used (the DNS cache never frees names). */
typedef const char *(*view_name_fn)(const struct flow_key *key, bool lookup, void *arg);

/* The VIEW_* bits of the columns v shows (column_in_view()): a group's HOSTS on groups
 * of hosts, not on port rows (each its own). */
static inline unsigned view_columns(const struct view *v)
{
	return (v->totals ? VIEW_TOTALS : VIEW_RATES) | (v->several ? VIEW_SEVERAL : 0) |
	       (v->groups ? (groups_by(v->groups) == GROUP_PORT ? 0 : VIEW_GROUPS) : v->optional) |
	       (v->peers ? VIEW_PEERS : 0);
}

void view_init(struct view *v);
void view_free(struct view *v);

/* Rebuilds the rows: filter, sort, then the first `want` rows (at least the selection
 * and a page past the top) with their rates and names. A held selection stays on its
 * host while it passes the filter, wherever it went (selected may then be past the rows
 * built: see view_refresh()); else the first row is selected and the top shown. 0 or
 * -ENOMEM. */
int view_build(struct view *v, const struct hosttab *t, size_t want, view_name_fn name, void *arg);

/* The rows a screen of `page` rows needs (want 0: view_want()'s, else want), built
 * again when the held selection's host went past them, and the page moved to show the
 * selection. 0 or -ENOMEM. */
int view_refresh(struct view *v, const struct hosttab *t, size_t want, size_t page,
		 view_name_fn name, void *arg);

/* A host row's AS and CC cells from its host's geo (looked up by the caller). */
void view_fill_geo(const struct view *v, struct row *r);

/* Moves the sort column left (-1) or right (+1) among the columns the view shows. */
void view_move_sort(struct view *v, int dir);

/* Rows a paused view keeps (built when it pauses): paging and a dump see these, frozen;
 * a row costs about 450 bytes, so a million would not do. */
#define VIEW_PAUSED_ROWS 10000

/* Moves the selection by delta rows (clamped to the rows there are, or when paused to
 * those built), keeping it in a window of `page` rows, a full one when the rows reach
 * that far; a move holds the selection (see held). */
void view_select(struct view *v, long delta, size_t page);

/* The selection back on the first row, not held: the top is shown as rows come and go
 * (Home, counting started over, another table). */
void view_home(struct view *v);

/* Rows to build so that the page from the top and the selection are there. */
size_t view_want(const struct view *v, size_t page);

#endif
