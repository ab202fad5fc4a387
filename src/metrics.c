// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* metrics.c: the per-host series' baselines and the two renderings. */
#include "metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "topk.h"

/* A host with a series of its own: what it had counted when it got it. */
struct series {
	struct flow_key ip;
	struct flow_counters base;
};

struct metrics {
	size_t top;
	struct series *listed, *next; /* sorted by ip; at most top each */
	size_t nlisted;
	const struct host **picks; /* scratch: one per host */
	size_t picks_cap;
	char *text[2]; /* 0.0.4, OpenMetrics */
	size_t len[2];
	char iface[64];	 /* the interface the series belong to */
	uint64_t frames; /* the last sample's, to see counters start over */
};

struct metrics *metrics_new(size_t top)
{
	struct metrics *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->top = top;
	m->listed = calloc(top ? top : 1, sizeof(*m->listed));
	m->next = calloc(top ? top : 1, sizeof(*m->next));
	if (!m->listed || !m->next) {
		metrics_free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	free(m->listed);
	free(m->next);
	free(m->picks);
	free(m->text[0]);
	free(m->text[1]);
	free(m);
}

static int key_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct flow_key));
}

static int busiest(const void *a, const void *b, void *arg)
{
	(void)arg;
	return host_cmp_rate(*(const struct host *const *)a, *(const struct host *const *)b);
}

static bool below(const struct flow_counters *a, const struct flow_counters *b)
{
	return a->rx_packets < b->rx_packets || a->rx_bytes < b->rx_bytes ||
	       a->tx_packets < b->tx_packets || a->tx_bytes < b->tx_bytes;
}

/* A label value with \ " and newline escaped, as both formats want. */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

struct render {
	FILE *f;
	bool om;
	const char *iface, *netns;
	const struct metrics_where *w;
};

/* # HELP and # TYPE of a family; OpenMetrics names a counter without its _total. */
static void family(const struct render *r, const char *name, const char *type, const char *help)
{
	size_t n = strlen(name);

	if (r->om && !strcmp(type, "counter") && n > 6 && !strcmp(name + n - 6, "_total"))
		n -= 6;
	fprintf(r->f, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)n, name, help, (int)n, name, type);
}

static void labels(const struct render *r, const char *ip)
{
	fputs("{interface=\"", r->f);
	label(r->f, r->iface);
	if (r->netns) {
		fputs("\",netns=\"", r->f);
		label(r->f, r->netns);
	}
	if (ip)
		fprintf(r->f, "\",ip=\"%s", ip);
	fputs("\"}", r->f);
}

static void sample(const struct render *r, const char *name, const char *ip, uint64_t v)
{
	fputs(name, r->f);
	labels(r, ip);
	fprintf(r->f, " %" PRIu64 "\n", v);
}

static void one(const struct render *r, const char *name, const char *type, const char *help,
		uint64_t v)
{
	family(r, name, type, help);
	sample(r, name, NULL, v);
}

/* A family of the filter's counters: a series per watched interface (and one for the
 * interfaces without a slot, interface="other", once they had frames); without a list
 * of them, one series of the total. */
static void per_link(const struct render *r, const struct stats_field *sf,
		     const struct flow_totals *tot)
{
	const struct metrics_where *w = r->w;
	struct render one_link = *r;
	size_t i;

	if (!w->links) {
		one(r, sf->family, "counter", sf->help, stats_value(&tot->total, sf));
		return;
	}
	family(r, sf->family, "counter", sf->help);
	for (i = 0; i < w->nlinks; i++) {
		uint64_t v = 0;
		bool named = false;
		size_t j;

		if (!totals_have_slot(tot, w->links[i].slot))
			continue;
		/* one series a name: an interface gone and another made under its name (under
		 * any) add up, so the series never goes back and never comes twice */
		for (j = 0; j < w->nlinks; j++) {
			unsigned slot = w->links[j].slot;

			if (strcmp(w->links[j].info.name, w->links[i].info.name) ||
			    !totals_have_slot(tot, slot))
				continue;
			if (j < i)
				break; /* said with the first of that name */
			v += stats_value(&tot->slot_total[slot], sf);
			named = true;
		}
		if (j < w->nlinks || !named)
			continue;
		one_link.iface = w->links[i].info.name;
		sample(&one_link, sf->family, NULL, v);
	}
	if (totals_have_no_slot(tot)) {
		one_link.iface = "other";
		sample(&one_link, sf->family, NULL,
		       stats_value(&tot->slot_total[FLOWTOP_SLOT_NONE], sf));
	}
}

static const struct host_family {
	const char *name, *help;
	size_t offset;
} host_families[] = {
	{ "flowtop_host_receive_bytes_total", "Bytes of frames whose innermost destination is ip.",
	  offsetof(struct flow_counters, rx_bytes) },
	{ "flowtop_host_transmit_bytes_total", "Bytes of frames whose innermost source is ip.",
	  offsetof(struct flow_counters, tx_bytes) },
	{ "flowtop_host_receive_packets_total", "Frames whose innermost destination is ip.",
	  offsetof(struct flow_counters, rx_packets) },
	{ "flowtop_host_transmit_packets_total", "Frames whose innermost source is ip.",
	  offsetof(struct flow_counters, tx_packets) },
};

static uint64_t field(const struct flow_counters *c, size_t offset)
{
	uint64_t v;

	memcpy(&v, (const char *)c + offset, sizeof(v));
	return v;
}

static int render(struct metrics *m, int which, const struct hosttab *t,
		  const struct flow_totals *tot, const struct flow_counters *other,
		  const struct render *proto, const struct metrics_filter *filter)
{
	struct render r = *proto;
	char *buf = NULL, addr[FMT_ADDR_LEN];
	size_t len = 0, i, k;

	r.om = which == 1;
	r.f = open_memstream(&buf, &len);
	if (!r.f)
		return -ENOMEM;
	for (k = 0; k < stats_nfields; k++)
		if (stats_fields[k].family)
			per_link(&r, &stats_fields[k], tot);
	one(&r, "flowtop_evicted_hosts_total", "counter",
	    "Hosts that left the full host table (their counts are in ip=\"other\").",
	    tot->evicted);
	one(&r, "flowtop_hosts", "gauge", "Hosts in the host table.", tot->live_hosts);
	one(&r, "flowtop_host_capacity", "gauge", "Hosts the host table holds at most (-m).",
	    tot->capacity);
	if (filter && filter->known) {
		one(&r, "flowtop_filter_runs_total", "counter",
		    "Runs of the socket filter (kernel BPF statistics).", filter->runs);
		family(&r, "flowtop_filter_run_seconds_total", "counter",
		       "Time the socket filter ran (kernel BPF statistics).");
		fputs("flowtop_filter_run_seconds_total", r.f);
		labels(&r, NULL);
		fprintf(r.f, " %.9f\n", (double)filter->run_ns / 1e9);
	}
	for (k = 0; k < sizeof(host_families) / sizeof(host_families[0]); k++) {
		const struct host_family *hf = &host_families[k];

		family(&r, hf->name, "counter", hf->help);
		for (i = 0; i < m->nlisted; i++) {
			const struct series *s = &m->listed[i];
			const struct host *h = hosttab_find(t, &s->ip);

			sample(&r, hf->name, fmt_addr(&s->ip, addr),
			       h ? field(&h->total, hf->offset) - field(&s->base, hf->offset) : 0);
		}
		sample(&r, hf->name, "other", field(other, hf->offset));
	}
	if (r.om)
		fputs("# EOF\n", r.f);
	if (fclose(r.f)) {
		free(buf);
		return -ENOMEM;
	}
	free(m->text[which]);
	m->text[which] = buf;
	m->len[which] = len;
	return 0;
}

int metrics_update(struct metrics *m, const struct hosttab *t, const struct flow_totals *tot,
		   const struct metrics_where *w, const struct metrics_filter *filter)
{
	const char *iface = w->iface;
	size_t n = hosttab_count(t), i, top;
	struct flow_counters all = *hosttab_other(t), listed = { 0 };
	struct render proto = { .iface = iface, .netns = w->netns, .w = w };
	struct series *swap;
	int err;

	/* another interface, or counters that started over: every series starts again */
	if (strcmp(m->iface, iface) || tot->total.frames < m->frames)
		m->nlisted = 0;
	snprintf(m->iface, sizeof(m->iface), "%s", iface);
	m->frames = tot->total.frames;
	if (n > m->picks_cap) {
		const struct host **p = realloc(m->picks, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->picks = p;
		m->picks_cap = n;
	}
	for (i = 0; i < n; i++) {
		m->picks[i] = hosttab_get(t, i);
		counters_add(&all, &m->picks[i]->total);
	}
	top = m->top < n ? m->top : n;
	topk_select(m->picks, n, sizeof(*m->picks), top, busiest, NULL);
	for (i = 0; i < top; i++) {
		const struct host *h = m->picks[i];
		const struct series *was =
		    bsearch(&h->addr, m->listed, m->nlisted, sizeof(*m->listed), key_cmp);

		m->next[i].ip = h->addr;
		/* new in the top (or its entry made anew): it starts at 0, its past in other */
		m->next[i].base = was && !below(&h->total, &was->base) ? was->base : h->total;
		counters_add(&listed, &h->total);
		counters_sub(&listed, &m->next[i].base);
	}
	qsort(m->next, top, sizeof(*m->next), key_cmp);
	swap = m->listed;
	m->listed = m->next;
	m->next = swap;
	m->nlisted = top;
	counters_sub(&all, &listed); /* other: everything, less what the listed series show */
	err = render(m, 0, t, tot, &all, &proto, filter);
	return err ? err : render(m, 1, t, tot, &all, &proto, filter);
}

const char *metrics_text(const struct metrics *m, bool openmetrics, size_t *len)
{
	*len = m->len[openmetrics];
	return m->text[openmetrics] ? m->text[openmetrics] : "";
}
