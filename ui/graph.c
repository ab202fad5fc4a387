// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* graph.c: the ring of recent totals and its rows of blocks. */
#include "graph.h"

#include <string.h>

#include "blocks.h"

void graph_clear(struct graph *g)
{
	memset(g, 0, sizeof(*g));
}

void graph_push(struct graph *g, double in, double out)
{
	g->rate[GRAPH_IN][g->next] = in > 0 ? in : 0;
	g->rate[GRAPH_OUT][g->next] = out > 0 ? out : 0;
	g->next = (g->next + 1) % GRAPH_SAMPLES;
	if (g->count < GRAPH_SAMPLES)
		g->count++;
}

unsigned graph_last(const struct graph *g, enum graph_dir dir, unsigned n, double *v)
{
	unsigned j;

	if (n > GRAPH_SAMPLES)
		n = GRAPH_SAMPLES;
	for (j = 0; j < n; j++) { /* j samples back from the newest */
		unsigned at = (g->next + GRAPH_SAMPLES - 1 - j) % GRAPH_SAMPLES;

		v[n - 1 - j] = j < g->count ? g->rate[dir][at] : 0;
	}
	return n;
}

int graph_row(const double *v, unsigned n, double peak, int height, int row, bool utf8, char *buf,
	      size_t len)
{
	size_t used = 0;
	unsigned i;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		int fill = 0, below = (height - 1 - row) * 8; /* eighths under this row */

		if (v[i] > 0 && peak > 0) {
			fill = (int)(v[i] / peak * height * 8 + 0.5);
			if (fill < 1)
				fill = 1;
		}
		fill -= below;
		fill = fill < 0 ? 0 : fill > 8 ? 8 : fill;
		if (!block_append(buf, len, &used, fill, utf8,
				  fill >= 8   ? '#'
				  : fill >= 4 ? ':'
					      : '.'))
			break;
	}
	return (int)i;
}
