// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* view.c: filter, rate windows and sort, from the host table to the rows on screen. */
#include "view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

void view_init(struct view *v)
{
	memset(v, 0, sizeof(*v));
	v->sort = COL_RX2;
	v->bits = true;
}

void view_free(struct view *v)
{
	free(v->rows);
	v->rows = NULL;
	v->nrows = v->cap = 0;
}

struct sort_ctx {
	enum col_id col;
	bool reverse;
};

static int row_cmp(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;

	return column_compare(c->col, c->reverse, a, b);
}

int view_build(struct view *v, const struct hosttab *t, const struct history *h, view_name_fn name,
	       void *arg)
{
	struct flow_key selected_key;
	bool had_selection = v->selected < v->nrows;
	size_t n = hosttab_count(t), i, kept = 0;
	struct sort_ctx ctx = { v->sort, v->reverse };
	double total2 = 0;

	if (had_selection)
		selected_key = v->rows[v->selected].host.addr;
	v->nrows = 0;
	if (n > v->cap) {
		struct row *rows = realloc(v->rows, n * sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		v->rows = rows;
		v->cap = n;
	}
	for (i = 0; i < n; i++) {
		const struct host *host = hosttab_get(t, i);
		const char *nm = v->names && name ? name(&host->addr, arg) : NULL;
		struct row *r = &v->rows[kept];

		if (v->filter.kind == FILTER_TEXT) { /* only a text filter needs the text */
			char addr[FMT_ADDR_LEN];

			if (!filter_match(&v->filter, &host->addr,
					  nm ? nm : fmt_addr(&host->addr, addr)))
				continue;
		} else if (!filter_match(&v->filter, &host->addr, NULL)) {
			continue;
		}
		r->host = *host;
		r->index = i;
		r->name = nm;
		r->rx2 = history_rate(h, i, 2, 0);
		r->tx2 = history_rate(h, i, 2, 1);
		r->rx10 = history_rate(h, i, 10, 0);
		r->tx10 = history_rate(h, i, 10, 1);
		r->rx40 = history_rate(h, i, 40, 0);
		r->tx40 = history_rate(h, i, 40, 1);
		r->peak = history_peak(h, i);
		total2 += r->rx2 + r->tx2;
		kept++;
		v->nrows = kept;
	}
	for (i = 0; i < kept; i++)
		v->rows[i].share = total2 > 0 ? (v->rows[i].rx2 + v->rows[i].tx2) / total2 : 0;
	if (kept)
		qsort_r(v->rows, kept, sizeof(*v->rows), row_cmp, &ctx);
	if (had_selection) {
		for (i = 0; i < kept; i++)
			if (!memcmp(&v->rows[i].host.addr, &selected_key, sizeof(selected_key)))
				break;
		v->selected = i < kept ? i : (v->selected < kept ? v->selected : 0);
	} else {
		v->selected = 0;
	}
	return 0;
}

void view_move_sort(struct view *v, int dir)
{
	unsigned mask = v->totals ? VIEW_TOTALS : VIEW_RATES;
	int c = (int)v->sort, i;

	for (i = 0; i < COL__COUNT; i++) {
		c = (c + dir + COL__COUNT) % COL__COUNT;
		if (columns[c].views & mask)
			break;
	}
	v->sort = (enum col_id)c;
}

void view_select(struct view *v, long delta, size_t page)
{
	long s = (long)v->selected + delta;

	if (s >= (long)v->nrows)
		s = (long)v->nrows - 1;
	if (s < 0)
		s = 0;
	v->selected = (size_t)s;
	if (v->selected < v->top)
		v->top = v->selected;
	if (page && v->selected >= v->top + page)
		v->top = v->selected - page + 1;
}
