/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* columns.h: the one table of columns: what each shows, its sort key, its name (for -s,
 * dumps and the man page), its formatting. How the screen lays them out (title, width,
 * which go first) is ui/column_layout.h's. */
#ifndef FLOWTOP_COLUMNS_H
#define FLOWTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "groups.h"
#include "hosttab.h"

/* One host (or group of hosts) as the screen shows it: its counters and its windowed
 * rates. */
struct row {
	struct host host;	     /* a copy: the table may change while the screen is paused */
	struct host_hist hist;	     /* and its history */
	const char *name;	     /* its reverse DNS name (the cache owns it), or NULL */
	char label[GROUP_LABEL_LEN]; /* a group's: "AS15169 GOOGLE" ("": a host) */
	char as[GROUP_LABEL_LEN];    /* a host's AS, "AS15169 GOOGLE", or its kind of range */
	char cc[16];		     /* and its country, or its kind of range */
	double rx2, tx2;	     /* bytes/s over 2 s */
	double rx10, tx10;	     /* 10 s */
	double rx40, tx40;	     /* 40 s */
	double peak;		     /* highest 2 s rate, both ways */
	double share;	 /* of the traffic counted on hosts over 2 s, 0..1 (see view.h) */
	char ifaces[48]; /* the interfaces it was seen on, "eth0+wg0" (several watched) */
	char ports[48];	 /* a peer's ports with the focus, "443/tcp 53/udp+" (conversations) */
};

enum col_id {
	COL_ADDR,
	COL_RX2,
	COL_TX2,
	COL_RX10,
	COL_TX10,
	COL_RX40,
	COL_TX40,
	COL_PEAK,
	COL_RX_PKTS,
	COL_RX_BYTES,
	COL_TX_PKTS,
	COL_TX_BYTES,
	COL_IFACE,
	COL_HOSTS,
	COL_AS,
	COL_CC,
	COL_PORTS,
	COL_SHARE,
	COL_HISTORY,
	COL__COUNT,
};

enum col_kind {
	KIND_TEXT,
	KIND_RATE,
	KIND_PACKETS,
	KIND_BYTES,
	KIND_BAR,
	KIND_COUNT,
	KIND_IFACES, /* row.ifaces */
	KIND_AS,     /* row.as */
	KIND_CC,     /* row.cc */
	KIND_PORTS,  /* row.ports */
	KIND_HISTORY /* a sparkline of the last samples: the screen draws it (ui/spark.h) */
};

#define VIEW_RATES    1u  /* the rates view shows the column */
#define VIEW_TOTALS   2u  /* the cumulative view shows it */
#define VIEW_SEVERAL  4u  /* only while more than one interface is watched */
#define VIEW_GROUPS   8u  /* only on a table of groups */
#define VIEW_AS	      16u /* optional: only when chosen, on a table of hosts ('c', --columns) */
#define VIEW_CC	      32u /* likewise */
#define VIEW_OPTIONAL (VIEW_AS | VIEW_CC)
#define VIEW_PEERS    64u /* only on a table of a focus's peers (the conversations) */
#define VIEW_ONLY     (VIEW_SEVERAL | VIEW_GROUPS | VIEW_OPTIONAL | VIEW_PEERS)

struct column {
	const char *name; /* for -s, the help and dumps: "rx2", "addr" */
	unsigned views;	  /* VIEW_* */
	enum col_kind kind;
	double (*value)(const struct row *r); /* NULL: the address, sorted as text */
	/* what sorting by it compares, from the host alone (see column_key()) */
	double (*key)(const struct hosttab *t, const struct host *h);
};

extern const struct column columns[COL__COUNT];

/* Whether col is one of a view's: `shown` is the view's VIEW_* bits (view_columns():
 * the rates or the totals view, several interfaces, groups, AS and country). */
static inline bool column_in_view(int col, unsigned shown)
{
	return columns[col].views & shown & (VIEW_RATES | VIEW_TOTALS) &&
	       !(columns[col].views & VIEW_ONLY & ~shown);
}

/* Whether col's cells are text (the interfaces, AS, country), not numbers. */
static inline bool column_is_text(int col)
{
	return columns[col].kind == KIND_IFACES || columns[col].kind == KIND_AS ||
	       columns[col].kind == KIND_CC || columns[col].kind == KIND_PORTS;
}

/* What a row is called: a group's label, else the host's name, else its address. */
const char *row_title(const struct row *r, char buf[GROUP_LABEL_LEN]);

/* The column called name (case-insensitive), or -1. */
int column_by_name(const char *name);

/* Fills r with h's counters and rates; share_of is the denominator of the share. */
void row_fill(struct row *r, const struct hosttab *t, const struct host *h, double share_of);

/* The value col sorts h by, computed alone (cheaper than a whole row): the column's
 * value, or one that orders the same (share: the 2 s rate); 0 for the address. */
double column_key(enum col_id col, const struct hosttab *t, const struct host *h);

/* Orders a before b by col's shown value: largest first for numbers, A..Z for the
 * address; ties by address, so the order is total. reverse flips it. The view sorts by
 * column_key() without building rows; the tests check its order against this one. */
int column_compare(enum col_id col, bool reverse, const struct row *a, const struct row *b);

/* The cell text of r in col, right-aligned numbers scaled (k, M, G); bits selects
 * bits/s over bytes/s for rates. A bar fills buf (len - 1 cells). */
void column_format(enum col_id col, const struct row *r, bool bits, char *buf, size_t len);

#endif
