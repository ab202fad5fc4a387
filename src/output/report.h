/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* report.h: one sample as text, JSON or CSV: batch output and snapshots alike; and the
 * members a sample's JSON begins with, which the screen's dumps share. */
#ifndef FLOWTOP_REPORT_H
#define FLOWTOP_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "rowfilter.h"
#include "geo.h"
#include "groups.h"
#include "hosttab.h"
#include "iface.h"
#include "totals.h"

enum report_format {
	REPORT_TEXT,
	REPORT_JSON, /* one object on one line */
	REPORT_CSV,  /* a header line, then one line per host */
};

struct report {
	const char *iface;		 /* the interfaces as asked: "eth0", "eth0,wg0" or "any" */
	const char *file;		 /* or the capture file read (-r): then no links */
	const struct iface_watch *links; /* each watched interface (NULL: none said) */
	size_t nlinks;
	bool several;	      /* more than one watched: interfaces named row by row */
	const char *netns;    /* the namespace it is in (--netns), or NULL: flowtop's own */
	const char *expr;     /* the filter expression frames had to match, or NULL: none */
	struct timespec time; /* wall-clock time of the sample (a capture file's time) */
	int time_digits;      /* of the second in time and interval: 0 for 3 (ms), 6 for
			       * a capture file's samples (exact to the microsecond) */
	const struct flow_totals *totals;
	const struct host *const *rows; /* in the order to print */
	size_t nrows;
	size_t nhosts;		     /* hosts rows was chosen from (a limit printed only nrows) */
	const struct groups *groups; /* rows are its groups (src/model/groups.h), or NULL: hosts */
	struct geo *geo; /* hosts' AS and country in JSON (their geo looked up), or NULL */
};

/* Fills r's rows with the hosts of t that pass f, the `limit` busiest first (0: all),
 * in *rows (grown as needed, *cap its size); the rows of r->groups' table when it is
 * set (t then its table), matched by their labels. 0 or -ENOMEM. */
int report_select(struct report *r, const struct hosttab *t, const struct filter *f, size_t limit,
		  const struct host ***rows, size_t *cap);

/* Writes r to f. Returns 0, or -EIO when f reports a write error. */
int report_write(FILE *f, const struct report *r, enum report_format fmt);

/* Writes r to the descriptor fd in one write(2), built whole in memory first (a
 * descriptor that takes part of it, or a signal, and the rest follows): a reader of
 * JSON Lines never meets a sample written in pieces, or another writer's bytes inside
 * one. 0, -ENOMEM (nothing written), or -errno of the write. */
int report_send(int fd, const struct report *r, enum report_format fmt);

/* .json and .csv (any case) by name, text otherwise. */
enum report_format report_format_for(const char *path);

/* Writes s as a CSV field in quotes, its quotes doubled. */
void report_csv_quoted(FILE *f, const char *s);
/* A port row's first fields (src/model/ports.h): CSV proto,port,service (empty where
 * none); JSON {"proto":"tcp","port":443,"service":"https" (null where none), the
 * object left open. */
void report_csv_port(FILE *f, const struct flow_key *key);
void report_json_port(FILE *f, const struct flow_key *key);
/* Opens a JSON object with the members a sample, a snapshot and the screen's dump begin
 * with: {"time":"2026-12-03T10:28:58.123Z" (ts in UTC, `digits` of the second, 1 to 9;
 * 0: 3), then "interface":iface, or "file":file when file is not NULL (a capture file
 * read), then "expression":expr when expr is not NULL. The caller writes the members
 * after them and the closing brace. */
void report_json_head(FILE *f, const struct timespec *ts, int digits, const char *iface,
		      const char *file, const char *expr);
/* Writes s as a JSON string literal, quotes included; a byte that is not part of valid
 * UTF-8 (interface names are bytes) is written as \u00XX, its Latin-1 code point. */
void report_json_string(FILE *f, const char *s);

#endif
