// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* metrics.c: the per-host (and per-group) series' baselines and the two renderings. */
#include "metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "geoq.h"
#include "ports.h"
#include "topk.h"

#define HELD_MAX GEOQ_SLOTS /* hosts held at most; past that one is looked up in place */

/* A public host the worker has not placed yet: its deltas since, held from its group's
 * series (and from "other") until it is placed. */
struct held {
	struct flow_key addr;	    /* first: key_cmp() orders these as struct flow_key */
	struct flow_counters delta; /* the sum of its deltas since it was first held */
	struct geo_info gi;	    /* where it is, once the answer is in */
	bool asked;		    /* the worker has the question */
};

/* A host with a series of its own: what it had counted when it got it. */
struct series {
	struct flow_key ip;
	struct flow_counters base;
};

/* The series of the `top` busiest of a table's rows (hosts, or groups of them) and
 * "other" for the rest. */
struct series_set {
	const char *prefix; /* of the families' names: "flowtop_host" */
	const char *of;	    /* of the help texts: "ip", "in the AS" */
	const char *label;  /* "ip", "as", "country" */
	size_t top;
	struct series *listed, *next; /* sorted by key; at most top each */
	size_t nlisted;
	const struct host **picks; /* scratch: one per row */
	size_t picks_cap;
	struct flow_counters other; /* everything, less what the listed series show */
};

struct metrics {
	struct series_set hosts;
	struct series_set groups;  /* per AS or country (metrics_group()), when by is set */
	enum group_by by;	   /* GROUP_HOST: no groups */
	struct hosttab *group_tab; /* each group's counts, from its hosts' deltas */
	struct geo *geo;	   /* AS names, or NULL */
	struct geoq *q;		   /* places public hosts, made at the first sample */
	bool no_worker;		   /* geoq_new() failed: hosts placed in place */
	struct held *held;	   /* sorted by address between two updates */
	size_t nheld, held_cap;
	struct flow_counters held_sum; /* their deltas */
	char *text[2];		       /* 0.0.4, OpenMetrics */
	size_t len[2];
	unsigned generation; /* of the count the series belong to (metrics_where) */
	uint64_t frames;     /* the last sample's, to see counters start over */
};

static int set_init(struct series_set *s, size_t top, const char *prefix, const char *of,
		    const char *label)
{
	s->prefix = prefix;
	s->of = of;
	s->label = label;
	s->top = top;
	s->listed = calloc(top ? top : 1, sizeof(*s->listed));
	s->next = calloc(top ? top : 1, sizeof(*s->next));
	return s->listed && s->next ? 0 : -ENOMEM;
}

static void set_free(struct series_set *s)
{
	free(s->listed);
	free(s->next);
	free(s->picks);
}

struct metrics *metrics_new(size_t top)
{
	struct metrics *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (set_init(&m->hosts, top, "flowtop_host", "ip", "ip")) {
		metrics_free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

int metrics_group(struct metrics *m, enum group_by by, struct geo *geo)
{
	bool as = by == GROUP_AS;

	if (by == GROUP_PORT) { /* the rows are the capture's (metrics_where.ports) */
		if (set_init(&m->groups, m->hosts.top, "flowtop_port", "at the port", "port"))
			return -ENOMEM;
		m->by = by;
		return 0;
	}
	if (by != GROUP_AS && by != GROUP_COUNTRY)
		return -EINVAL;
	m->group_tab = hosttab_new(METRICS_GROUPS_MAX);
	if (!m->group_tab ||
	    set_init(&m->groups, m->hosts.top, as ? "flowtop_as" : "flowtop_country",
		     as ? "in the AS" : "in the country", as ? "as" : "country"))
		return -ENOMEM;
	m->by = by;
	m->geo = geo;
	return 0;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	set_free(&m->hosts);
	set_free(&m->groups);
	hosttab_free(m->group_tab);
	geoq_free(m->q);
	free(m->held);
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

#define LABEL_CHAR (2 * FMT_VISIBLE_CHAR) /* a character as label text, and its NUL */

/* The character at p as label-value text into out, NUL-terminated: the bytes of p it
 * took. Made visible as the screen shows it (fmt_visible_char(): a control as ^X, a C1
 * control as \u0080, a byte that is not UTF-8 as \xNN), then \ and " escaped, as both
 * formats want: a name anyone may give (an interface's in a watched namespace, an AS's)
 * neither ends the string early nor puts bytes that are not UTF-8 in the scrape, which
 * Prometheus would drop whole. */
static size_t label_char(const unsigned char *p, char out[LABEL_CHAR])
{
	char c[FMT_VISIBLE_CHAR];
	size_t n = fmt_visible_char(p, c), i, at = 0;

	for (i = 0; c[i]; i++) {
		if (c[i] == '\\' || c[i] == '"')
			out[at++] = '\\';
		out[at++] = c[i];
	}
	out[at] = '\0';
	return n;
}

/* A label value, its text as label_char() makes it. */
static void label(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char c[LABEL_CHAR];

	while (*p) {
		p += label_char(p, c);
		fputs(c, f);
	}
}

/* Whether a and b are the same label text: names apart may not be once made visible
 * (a byte 0xff and the text \xff), and a series comes once. */
static bool same_label(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	char c[LABEL_CHAR], d[LABEL_CHAR];

	while (*p && *q) {
		p += label_char(p, c);
		q += label_char(q, d);
		if (strcmp(c, d))
			return false;
	}
	return !*p && !*q;
}

/* Label pairs written into a buffer of a fixed size. */
struct pairs {
	char *buf;
	size_t len; /* buf's size */
	size_t at;  /* bytes written, buf NUL-terminated there */
};

/* name="value" appended to p (after a comma unless first), the value cut between whole
 * characters (and whole escapes) to fit, its quote always closed; nothing when not even
 * name="" fits. */
static void pair(struct pairs *p, const char *name, const char *value)
{
	const unsigned char *v = (const unsigned char *)value;
	char c[LABEL_CHAR];
	size_t n;

	if (p->at + strlen(name) + 4 >= p->len) /* ,name="" */
		return;
	p->at += (size_t)sprintf(p->buf + p->at, "%s%s=\"", p->at ? "," : "", name);
	while (*v) {
		v += label_char(v, c);
		n = strlen(c);
		if (p->at + n + 1 >= p->len) /* the closing quote and the NUL still fit */
			break;
		memcpy(p->buf + p->at, c, n);
		p->at += n;
	}
	p->buf[p->at++] = '"';
	p->buf[p->at] = '\0';
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

/* The labels of a series: its interface and namespace, then `more` (already written
 * as name="value" pairs, or NULL). */
static void labels(const struct render *r, const char *more)
{
	fputs("{interface=\"", r->f);
	label(r->f, r->iface);
	if (r->netns) {
		fputs("\",netns=\"", r->f);
		label(r->f, r->netns);
	}
	fputc('"', r->f);
	if (more)
		fprintf(r->f, ",%s", more);
	fputc('}', r->f);
}

static void sample(const struct render *r, const char *name, const char *more, uint64_t v)
{
	fputs(name, r->f);
	labels(r, more);
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
		/* one series a name (as label text): an interface gone and another made under
		 * its name (under any) add up, so the series never goes back and never comes
		 * twice */
		for (j = 0; j < w->nlinks; j++) {
			unsigned slot = w->links[j].slot;

			if (!same_label(w->links[j].info.name, w->links[i].info.name) ||
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

/* The families of a set of series: PREFIX_NAME, help "HELP OF." */
static const struct row_family {
	const char *name, *help;
	size_t offset;
} row_families[] = {
	{ "receive_bytes_total", "Bytes of frames whose innermost destination is",
	  offsetof(struct flow_counters, rx_bytes) },
	{ "transmit_bytes_total", "Bytes of frames whose innermost source is",
	  offsetof(struct flow_counters, tx_bytes) },
	{ "receive_packets_total", "Frames whose innermost destination is",
	  offsetof(struct flow_counters, rx_packets) },
	{ "transmit_packets_total", "Frames whose innermost source is",
	  offsetof(struct flow_counters, tx_packets) },
};

static uint64_t field(const struct flow_counters *c, size_t offset)
{
	uint64_t v;

	memcpy(&v, (const char *)c + offset, sizeof(v));
	return v;
}

/* proto="tcp",port="443",service="https" ("-" where none) */
static void port_labels(struct pairs *p, const struct flow_key *key)
{
	struct port_name n;
	char port[8];

	port_name(key, &n);
	snprintf(port, sizeof(port), "%d", n.port);
	pair(p, "proto", n.proto ? n.proto : "-");
	pair(p, "port", n.port >= 0 ? port : "-");
	pair(p, "service", n.service ? n.service : "-");
}

/* The label pairs of a series of set s: ip="10.0.0.1", as="15169",as_name="GOOGLE",
 * country="US", or the kind of a special range; "other" for the rest; cut to len
 * between whole characters, each value's quote closed. */
static void series_labels(const struct metrics *m, const struct series_set *s,
			  const struct host *row, char *buf, size_t len)
{
	struct pairs p = { .buf = buf, .len = len };
	char addr[FMT_ADDR_LEN], cc[3], asn[16];
	struct geo_info gi;
	const char *name;

	buf[0] = '\0';
	if (!row) {
		pair(&p, s->label, "other");
	} else if (s == &m->hosts) {
		pair(&p, s->label, fmt_addr(&row->addr, addr));
	} else if (m->by == GROUP_PORT) {
		port_labels(&p, &row->addr);
	} else if ((gi = host_geo(row)).class != GEO_PUBLIC) {
		pair(&p, s->label, geo_class_name(gi.class));
	} else if (m->by == GROUP_AS) {
		name = geo_as_name(m->geo, gi.asn);
		if (gi.asn)
			snprintf(asn, sizeof(asn), "%u", (unsigned)gi.asn);
		else
			snprintf(asn, sizeof(asn), "-");
		pair(&p, s->label, asn);
		if (name)
			pair(&p, "as_name", name);
	} else {
		snprintf(cc, sizeof(cc), "%.2s", gi.cc[0] ? gi.cc : "-");
		pair(&p, s->label, cc);
	}
}

/* The four families of set s, whose rows are t's. */
static void render_set(const struct metrics *m, const struct render *r, const struct series_set *s,
		       const struct hosttab *t)
{
	char name[96], help[160], labels_of[METRICS_LABELS_MAX];
	size_t i, k;

	for (k = 0; k < sizeof(row_families) / sizeof(row_families[0]); k++) {
		const struct row_family *rf = &row_families[k];

		snprintf(name, sizeof(name), "%s_%s", s->prefix, rf->name);
		snprintf(help, sizeof(help), "%s %s.", rf->help, s->of);
		family(r, name, "counter", help);
		for (i = 0; i < s->nlisted; i++) {
			const struct series *se = &s->listed[i];
			const struct host *h = hosttab_find(t, &se->ip);

			series_labels(m, s, h, labels_of, sizeof(labels_of));
			sample(r, name, labels_of,
			       h ? field(&h->total, rf->offset) - field(&se->base, rf->offset) : 0);
		}
		series_labels(m, s, NULL, labels_of, sizeof(labels_of));
		sample(r, name, labels_of, field(&s->other, rf->offset));
	}
}

static int render(struct metrics *m, int which, const struct hosttab *t,
		  const struct flow_totals *tot, const struct render *proto,
		  const struct metrics_filter *filter)
{
	struct render r = *proto;
	char *buf = NULL;
	size_t len = 0, k;

	r.om = which == 1;
	r.f = open_memstream(&buf, &len);
	if (!r.f)
		return -ENOMEM;
	for (k = 0; k < stats_nfields; k++)
		if (stats_fields[k].family)
			per_link(&r, &stats_fields[k], tot);
	one(&r, "flowtop_evicted_hosts_total", "counter",
	    "Hosts that left the full host table, and addresses sent away from its door "
	    "(their counts are in ip=\"other\").",
	    tot->evicted);
	one(&r, "flowtop_waiting_hosts", "gauge",
	    "Addresses new to the full host table, waiting for a second frame to be hosts "
	    "(their counts are in ip=\"other\" meanwhile).",
	    tot->waiting);
	one(&r, "flowtop_hosts", "gauge", "Hosts in the host table.", tot->live_hosts);
	one(&r, "flowtop_host_capacity", "gauge", "Hosts the host table holds at most (-m).",
	    tot->capacity);
	if (r.w->expr) { /* OpenMetrics has an info type; the text format, a gauge of 1 */
		family(&r, r.om ? "flowtop_filter_expression" : "flowtop_filter_expression_info",
		       r.om ? "info" : "gauge",
		       "The filter expression frames must match to count (the rest: filtered).");
		fputs("flowtop_filter_expression_info", r.f);
		fputs("{interface=\"", r.f);
		label(r.f, r.iface);
		if (r.netns) {
			fputs("\",netns=\"", r.f);
			label(r.f, r.netns);
		}
		fputs("\",expression=\"", r.f);
		label(r.f, r.w->expr);
		fputs("\"} 1\n", r.f);
	}
	if (r.w->nown) { /* the host's own addresses: a rule leaves their ip series out */
		family(&r, r.om ? "flowtop_interface_address" : "flowtop_interface_address_info",
		       r.om ? "info" : "gauge",
		       "An address of a watched interface: its ip series are this host's own.");
		for (k = 0; k < r.w->nown; k++) {
			char addr[FMT_ADDR_LEN], more[FMT_ADDR_LEN + 8];

			snprintf(more, sizeof(more), "ip=\"%s\"", fmt_addr(&r.w->own[k], addr));
			sample(&r, "flowtop_interface_address_info", more, 1);
		}
	}
	if (filter && filter->known) {
		one(&r, "flowtop_filter_runs_total", "counter",
		    "Runs of the socket filter (kernel BPF statistics).", filter->runs);
		family(&r, "flowtop_filter_run_seconds_total", "counter",
		       "Time the socket filter ran (kernel BPF statistics).");
		fputs("flowtop_filter_run_seconds_total", r.f);
		labels(&r, NULL);
		fprintf(r.f, " %.9f\n", (double)filter->run_ns / 1e9);
	}
	render_set(m, &r, &m->hosts, t);
	if (m->by == GROUP_PORT && r.w->ports)
		render_set(m, &r, &m->groups, r.w->ports);
	else if (m->by != GROUP_HOST && m->by != GROUP_PORT)
		render_set(m, &r, &m->groups, m->group_tab);
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

/* The top busiest rows of t get series (s->listed), the rest go to s->other: `all`
 * (everything the hosts counted), less what the listed series show. 0 or -ENOMEM. */
static int set_update(struct series_set *s, const struct hosttab *t,
		      const struct flow_counters *all)
{
	size_t n = hosttab_count(t), i, top;
	struct flow_counters listed = { 0 };
	struct series *swap;

	if (n > s->picks_cap) {
		const struct host **p = realloc(s->picks, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->picks = p;
		s->picks_cap = n;
	}
	for (i = 0; i < n; i++)
		s->picks[i] = hosttab_get(t, i);
	top = s->top < n ? s->top : n;
	topk_select(s->picks, n, sizeof(*s->picks), top, busiest, NULL);
	for (i = 0; i < top; i++) {
		const struct host *h = s->picks[i];
		const struct series *was =
		    bsearch(&h->addr, s->listed, s->nlisted, sizeof(*s->listed), key_cmp);

		s->next[i].ip = h->addr;
		/* new in the top (or its entry made anew): it starts at 0, its past in other */
		s->next[i].base = was && !below(&h->total, &was->base) ? was->base : h->total;
		counters_add(&listed, &h->total);
		counters_sub(&listed, &s->next[i].base);
	}
	qsort(s->next, top, sizeof(*s->next), key_cmp);
	swap = s->listed;
	s->listed = s->next;
	s->next = swap;
	s->nlisted = top;
	s->other = *all;
	counters_sub(&s->other, &listed);
	return 0;
}

/* The key of the group of the host at addr, placed at gi. */
static void group_of(const struct metrics *m, const struct flow_key *addr,
		     const struct geo_info *gi, struct flow_key *key)
{
	struct group_opts o = { .by = m->by };
	struct host h = { .addr = *addr };

	host_set_geo(&h, gi);
	group_key(&o, &h, key);
}

/* Counts c to the group of the host at addr, placed at gi. */
static void feed(struct metrics *m, const struct flow_key *addr, const struct geo_info *gi,
		 const struct flow_counters *c)
{
	struct flow_key key;

	group_of(m, addr, gi, &key);
	if (hosttab_add(m->group_tab, &key, c, 0) == 0) {
		const struct host *g = hosttab_find(m->group_tab, &key);

		/* the labels' AS or country; none for a group at the full table's door */
		if (g)
			host_set_geo(hosttab_own(m->group_tab, g), gi);
	}
}

/* The entry of addr among the held (bsearch over the first `sorted`, which are in
 * order), or a new one at the end; NULL when HELD_MAX are held. */
static struct held *held_get(struct metrics *m, const struct flow_key *addr, size_t sorted)
{
	struct held *e = sorted ? bsearch(addr, m->held, sorted, sizeof(*e), key_cmp) : NULL;

	if (e)
		return e;
	if (m->nheld == m->held_cap) {
		size_t cap = m->held_cap ? 2 * m->held_cap : 256;

		if (m->held_cap == HELD_MAX)
			return NULL;
		e = realloc(m->held, (cap < HELD_MAX ? cap : HELD_MAX) * sizeof(*e));
		if (!e)
			return NULL;
		m->held = e;
		m->held_cap = cap < HELD_MAX ? cap : HELD_MAX;
	}
	e = &m->held[m->nheld++];
	*e = (struct held){ .addr = *addr };
	return e;
}

struct answers {
	struct metrics *m;
	struct hosttab *t;
};

/* The worker's answer for addr: into its host, if still in the table and not placed
 * since, and into its entry among the held. */
static void answer_in(void *arg, const struct flow_key *addr, const struct geo_info *gi)
{
	struct answers *a = arg;
	const struct host *h = hosttab_find(a->t, addr);
	struct held *e =
	    a->m->nheld ? bsearch(addr, a->m->held, a->m->nheld, sizeof(*e), key_cmp) : NULL;

	struct geo_info was = h ? host_geo(h) : (struct geo_info){ 0 };

	if (h && !geo_placed(&was))
		host_set_geo(hosttab_own(a->t, h), gi);
	if (e)
		e->gi = *gi;
}

/* Each group's counts grow by its hosts' deltas of the sample just closed: a group's
 * series never goes back when one of its hosts leaves the host table. A host is placed
 * first: a public one by the worker (the database is not read on the sample's path),
 * its deltas held until the answer is in, whether or not it is still in the table by
 * then; the rest here (no database, a special range, or HELD_MAX held already). */
static void feed_groups(struct metrics *m, struct hosttab *t, double interval)
{
	struct answers a = { m, t };
	size_t i, j, n = hosttab_active(t), sorted = m->nheld;
	char err[512];

	if (m->geo && !m->q && !m->no_worker) {
		m->q = geoq_new(geo_path(m->geo), err, sizeof(err));
		m->no_worker = !m->q;
	}
	if (m->q)
		geoq_take(m->q, answer_in, &a);
	for (i = 0; i < n; i++) {
		const struct host *h = hosttab_active_host(t, i);
		struct geo_info gi = host_geo(h);
		struct held *e = NULL;

		if (!geo_placed(&gi) && (!m->q || geo_classify(&h->addr) != GEO_PUBLIC ||
					 !(e = held_get(m, &h->addr, sorted)))) {
			geo_locate(m->geo, &h->addr, &gi);
			host_set_geo(hosttab_own(t, h), &gi);
		}
		if (e)
			counters_add(&e->delta, &h->delta);
		else
			feed(m, &h->addr, &gi, &h->delta);
	}
	m->held_sum = (struct flow_counters){ 0 };
	for (i = j = 0; i < m->nheld; i++) {
		struct held *e = &m->held[i];
		const struct host *h = hosttab_find(t, &e->addr);
		struct geo_info gi = h ? host_geo(h) : (struct geo_info){ 0 };

		if (!geo_placed(&e->gi) && h && geo_placed(&gi))
			e->gi = gi; /* placed meanwhile, by another look-up */
		if (geo_placed(&e->gi)) {
			feed(m, &e->addr, &e->gi, &e->delta);
			continue;
		}
		if (!e->asked) { /* new, or the queue was full */
			e->asked = geoq_ask(m->q, &e->addr);
			if (e->asked && h && gi.class == GEO_NOT_LOOKED_UP) {
				gi.class = GEO_PENDING;
				host_set_geo(hosttab_own(t, h), &gi);
			}
		}
		counters_add(&m->held_sum, &e->delta);
		m->held[j++] = *e;
	}
	m->nheld = j;
	if (m->nheld)
		qsort(m->held, m->nheld, sizeof(*m->held), key_cmp);
	hosttab_end(m->group_tab, interval);
}

int metrics_update(struct metrics *m, struct hosttab *t, const struct flow_totals *tot,
		   const struct metrics_where *w, const struct metrics_filter *filter)
{
	const char *iface = w->iface;
	size_t n = hosttab_count(t), i;
	struct flow_counters all = *hosttab_other(t);
	struct render proto = { .iface = iface, .netns = w->netns, .w = w };
	int err;

	/* counting started over (another interface), or counters that went back: every
	 * series starts again */
	if (m->generation != w->generation || tot->total.frames < m->frames) {
		m->hosts.nlisted = m->groups.nlisted = 0;
		m->nheld = 0;
		if (m->group_tab)
			hosttab_clear(m->group_tab);
	}
	m->generation = w->generation;
	m->frames = tot->total.frames;
	for (i = 0; i < n; i++)
		counters_add(&all, &hosttab_get(t, i)->total);
	err = set_update(&m->hosts, t, &all);
	if (!err && m->by == GROUP_PORT && w->ports) {
		struct flow_counters ports = *hosttab_other(w->ports);

		for (i = 0; i < hosttab_count(w->ports); i++)
			counters_add(&ports, &hosttab_get(w->ports, i)->total);
		err = set_update(&m->groups, w->ports, &ports);
	} else if (!err && m->by != GROUP_HOST && m->by != GROUP_PORT) {
		feed_groups(m, t, tot->interval);
		counters_sub(&all, &m->held_sum); /* not in any group's series yet, nor other */
		err = set_update(&m->groups, m->group_tab, &all);
	}
	if (!err)
		err = render(m, 0, t, tot, &proto, filter);
	return err ? err : render(m, 1, t, tot, &proto, filter);
}

const char *metrics_text(const struct metrics *m, bool openmetrics, size_t *len)
{
	*len = m->len[openmetrics];
	return m->text[openmetrics] ? m->text[openmetrics] : "";
}
