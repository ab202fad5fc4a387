/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* graph.h: the traffic graph's data (the interface's bytes per second in and out over
 * the last GRAPH_SAMPLES samples) and its drawing as rows of block elements, scaled to
 * the peak of what is shown. No curses: unit tests drive it. */
#ifndef FLOWTOP_GRAPH_H
#define FLOWTOP_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#define GRAPH_SAMPLES 60

enum graph_dir {
	GRAPH_IN,
	GRAPH_OUT
};

struct graph {
	double rate[2][GRAPH_SAMPLES]; /* bytes/s, at sample n % GRAPH_SAMPLES */
	unsigned count;		       /* samples pushed, up to GRAPH_SAMPLES */
	unsigned next;		       /* where the next one goes */
};

void graph_clear(struct graph *g);
void graph_push(struct graph *g, double in, double out);

/* The last n samples of dir, oldest first, into v; those not yet sampled read 0 (at the
 * start). Returns n, at most GRAPH_SAMPLES. */
unsigned graph_last(const struct graph *g, enum graph_dir dir, unsigned n, double *v);

/* Row `row` (0 the top) of a graph `height` rows tall of v[0..n-1] against peak: each
 * value a column, eighths of a cell in block elements (UTF-8) or '#' '.' (ASCII); any
 * traffic at least the lowest eighth. NUL-terminated. Returns the columns drawn. */
int graph_row(const double *v, unsigned n, double peak, int height, int row, bool utf8, char *buf,
	      size_t len);

#endif
