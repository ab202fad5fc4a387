// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* view.c: filter and sort key per host, the rows to show picked as the hosts pass (a
 * heap of them: nothing is kept of a host that is not shown), their rates and names.
 * Costs one pass over the hosts plus what is shown. */
#include "view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convo.h"
#include "fmt.h"
#include "ports.h"
#include "topk.h"

struct view_pick {
	double key;
	struct flow_key addr; /* the tie-break, here: comparing it costs no host's line */
	const struct host *host;
};

void view_init(struct view *v)
{
	memset(v, 0, sizeof(*v));
	v->sort = COL_RX2;
	v->bits = true;
	v->per_frame = 2;
}

void view_free(struct view *v)
{
	free(v->rows);
	free(v->picks);
	v->rows = NULL;
	v->picks = NULL;
	v->nrows = v->nbuilt = v->cap = v->picks_cap = 0;
}

struct pick_order {
	bool by_addr, reverse;
};

/* Largest key first, the address A..Z for the address column and for ties. */
static int pick_cmp(const void *a, const void *b, void *arg)
{
	const struct view_pick *x = a, *y = b;
	const struct pick_order *o = arg;
	int r = 0;

	if (!o->by_addr)
		r = x->key > y->key ? -1 : x->key < y->key ? 1 : 0;
	if (!r)
		r = flow_key_cmp(&x->addr, &y->addr);
	return o->reverse ? -r : r;
}

static bool passes(const struct view *v, const struct host *h, view_name_fn name, void *arg)
{
	char addr[FMT_ADDR_LEN], label[GROUP_LABEL_LEN];
	struct geo_info gi;
	const char *nm;

	if (v->member_of) {
		struct flow_key k;

		group_key(v->member_of, h, &k);
		if (!flow_key_eq(&k, &v->member_key))
			return false;
	}
	if (v->groups) /* a group: its prefix, or text in its label (AS15169, GOOGLE, US) */
		return filter_match(&v->filter, &h->addr,
				    groups_label(v->groups, &h->addr, true, label));
	if (v->filter.kind != FILTER_TEXT)
		return filter_match(&v->filter, &h->addr, NULL);
	/* text matches the address and, once known, the name; with the AS and CC columns
	 * shown, what they show too */
	if (filter_match(&v->filter, &h->addr, fmt_addr(&h->addr, addr)))
		return true;
	/* (the host's cb, on a line the pass reads for nothing else: only here) */
	if (v->optional && (gi = host_geo(h), geo_placed(&gi))) {
		char as[GROUP_LABEL_LEN], cc[16];

		geo_format(v->geo_db, &gi, as, sizeof(as), cc, sizeof(cc));
		if (filter_match(&v->filter, &h->addr, as) ||
		    filter_match(&v->filter, &h->addr, cc))
			return true;
	}
	nm = v->names && name ? name(&h->addr, false, arg) : NULL;
	return nm && filter_match(&v->filter, &h->addr, nm);
}

static int reserve(void **p, size_t *cap, size_t n, size_t size)
{
	void *q;

	if (n <= *cap)
		return 0;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* "eth0+wg0": the names of the bits of links, in bit order (slot order) but bit 0
 * ("other") last. */
static void ifaces_text(const struct view *v, uint64_t links, char *buf, size_t len)
{
	size_t used = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < LINK_BITS && used + 1 < len; k++) {
		unsigned bit = link_bit_nth(k);
		int n;

		if (!(links >> bit & 1) || !v->link_names[bit])
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? "+" : "", v->link_names[bit]);
		used += n > 0 ? (size_t)n : 0;
	}
}

void view_fill_geo(const struct view *v, struct row *r)
{
	struct geo_info gi = host_geo(&r->host);

	geo_format(v->geo_db, &gi, r->as, sizeof(r->as), r->cc, sizeof(r->cc));
}

/* A peer's ports as the PORTS column shows them: "443/tcp 53/udp", "+" after the last
 * when it used more; a protocol's "no port" as "-/tcp". */
static void ports_text(const struct host *peer, char *buf, size_t len)
{
	struct flow_key keys[CONVO_PEER_PORTS];
	char label[GROUP_LABEL_LEN];
	size_t n, i, at = 0;
	bool more;

	buf[0] = '\0';
	n = convo_peer_ports(peer, keys, &more);
	for (i = 0; i < n && at < len; i++) {
		port_label(&keys[i], false, label, sizeof(label)); /* no service's name */
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", label);
	}
	if (more && at < len)
		snprintf(buf + at, len - at, "+");
}

int view_build(struct view *v, const struct hosttab *t, size_t want, view_name_fn name, void *arg)
{
	struct pick_order order = { v->sort == COL_ADDR, v->reverse };
	size_t n = hosttab_count(t), i, kept = 0, before = 0;
	double counted = hosttab_total_rate(t, 2);
	struct topk_heap heap;
	struct view_pick held = { 0 };

	/* the held host's place is the count of the hosts that sort before it, found in
	 * the same pass: it may have gone past the rows built */
	if (v->held && v->selected < v->nbuilt) {
		held.host = hosttab_find(t, &v->rows[v->selected].host.addr);
		if (held.host && !passes(v, held.host, name, arg))
			held.host = NULL;
		if (held.host) {
			held.addr = held.host->addr;
			held.key = order.by_addr ? 0 : column_key(v->sort, t, held.host);
		}
	}
	if (reserve((void **)&v->picks, &v->picks_cap, want < n ? want : n, sizeof(*v->picks)))
		return -ENOMEM;
	heap = (struct topk_heap){ v->picks, sizeof(*v->picks), want, 0, pick_cmp, &order };
	for (i = 0; i < n; i++) {
		const struct host *h = hosttab_get(t, i);
		struct view_pick p;

		hosttab_prefetch_host(t, i + 8);
		if (!passes(v, h, name, arg))
			continue;
		p.host = h;
		p.addr = h->addr;
		p.key = order.by_addr ? 0 : column_key(v->sort, t, h);
		topk_offer(&heap, &p);
		kept++;
		if (held.host && pick_cmp(&p, &held, &order) < 0)
			before++;
	}
	topk_finish(&heap);
	want = heap.n;
	if (reserve((void **)&v->rows, &v->cap, want, sizeof(*v->rows))) {
		v->nrows = v->nbuilt = 0;
		return -ENOMEM;
	}
	hosttab_clock(t, &v->clock);
	for (i = 0; i < want; i++) {
		struct row *r = &v->rows[i];

		row_fill(r, t, v->picks[i].host, counted / v->per_frame);
		if (v->groups)
			groups_label(v->groups, &r->host.addr, true, r->label);
		else
			r->name = v->names && name ? name(&r->host.addr, true, arg) : NULL;
		if (v->optional && !v->groups)
			view_fill_geo(v, r);
		if (v->several)
			ifaces_text(v, r->host.links, r->ifaces, sizeof(r->ifaces));
		if (v->peers)
			ports_text(&r->host, r->ports, sizeof(r->ports));
	}
	v->nrows = kept;
	v->nbuilt = want;
	if (!v->held)
		v->selected = v->top = 0;
	else if (held.host)
		v->selected = before;
	else if (v->selected >= kept) /* its host gone: the row at its place, or the last */
		v->selected = kept ? kept - 1 : 0;
	return 0;
}

int view_refresh(struct view *v, const struct hosttab *t, size_t want, size_t page,
		 view_name_fn name, void *arg)
{
	int err = view_build(v, t, want ? want : view_want(v, page), name, arg);

	if (!err && !want && v->selected >= v->nbuilt && v->selected < v->nrows)
		err = view_build(v, t, view_want(v, page), name, arg);
	view_select(v, 0, page);
	return err;
}

void view_move_sort(struct view *v, int dir)
{
	int c = (int)v->sort, i;

	for (i = 0; i < COL__COUNT; i++) {
		c = (c + dir + COL__COUNT) % COL__COUNT;
		if (column_in_view(c, view_columns(v)))
			break;
	}
	v->sort = (enum col_id)c;
}

void view_select(struct view *v, long delta, size_t page)
{
	long s = (long)v->selected + delta, n = (long)(v->paused ? v->nbuilt : v->nrows);

	if (s >= n)
		s = n - 1;
	if (s < 0)
		s = 0;
	v->selected = (size_t)s;
	if (delta)
		v->held = true;
	if (page && v->top + page > (size_t)n) /* fewer rows: the page full again */
		v->top = (size_t)n > page ? (size_t)n - page : 0;
	if (v->selected < v->top)
		v->top = v->selected;
	if (page && v->selected >= v->top + page)
		v->top = v->selected - page + 1;
}

void view_home(struct view *v)
{
	v->selected = v->top = 0;
	v->held = false;
}

size_t view_want(const struct view *v, size_t page)
{
	size_t want = v->top + 2 * page + 1; /* a page more, so paging down needs no wait */

	return want > v->selected + page + 1 ? want : v->selected + page + 1;
}
