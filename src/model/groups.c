// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* groups.c: a build sorts the hosts by their group's key, then sums each run of them:
 * counters as they are, history decoded into doubles and encoded once per group, so a
 * group of many hosts is as exact as one host. Two tables take turns, so a build can
 * read the peaks of the one before. A group's key is a struct flow_key: a prefix is its
 * first address; an AS or a country is a key no address has while grouped by it:
 * byte 10 'A' or 'C', byte 11 the class (enum geo_class), then the AS number (big
 * endian) or the country code. */
#include "groups.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "geoq.h"
#include "ports.h"

#define KEY_KIND  10
#define KEY_CLASS 11
#define KEY_VALUE 12

struct member {
	struct flow_key key; /* its group's */
	uint32_t host;	     /* index in the host table */
};

struct groups {
	struct geo *geo;
	bool aside;		/* public hosts looked up by a worker (groups_look_up_aside()) */
	struct geoq *q;		/* its queue, made at the first build that asks */
	struct hosttab *tab[2]; /* the last build's, and the one before */
	unsigned cur;
	enum group_by by, prev_by;
	struct group_opts opts;
	struct member *members;
	size_t capacity;
};

static const char *const by_names[] = { "host", "prefix", "as", "country", "port" };

const char *group_by_name(enum group_by by)
{
	return by_names[by];
}

const char *group_by_label(enum group_by by)
{
	return by == GROUP_AS ? "AS" : by_names[by];
}

int group_by_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++)
		if (!strcmp(name, by_names[i]))
			return (int)i;
	return -1;
}

/* The class of a host's group: one group of those not placed yet, asked or not. */
static uint8_t located(const struct host *h)
{
	struct geo_info gi = host_geo(h);

	return geo_placed(&gi) ? gi.class : GEO_PENDING;
}

void group_key(const struct group_opts *o, const struct host *h, struct flow_key *key)
{
	struct geo_info gi;
	unsigned bits, i;

	memset(key, 0, sizeof(*key));
	switch (o->by) {
	case GROUP_HOST:
	case GROUP_PORT:
		*key = h->addr;
		break;
	case GROUP_PREFIX:
		bits = fmt_is_ipv4(&h->addr) ? 96 + o->prefix4 : o->prefix6;
		for (i = 0; i < 16; i++) {
			unsigned keep = bits > i * 8 ? bits - i * 8 : 0;

			key->addr[i] = keep >= 8 ? h->addr.addr[i]
						 : (uint8_t)(h->addr.addr[i] & (0xff00 >> keep));
		}
		break;
	case GROUP_AS:
		key->addr[KEY_KIND] = 'A';
		key->addr[KEY_CLASS] = located(h);
		gi = host_geo(h); /* the cb: on a line read for nothing else here */
		key->addr[KEY_VALUE] = (uint8_t)(gi.asn >> 24);
		key->addr[KEY_VALUE + 1] = (uint8_t)(gi.asn >> 16);
		key->addr[KEY_VALUE + 2] = (uint8_t)(gi.asn >> 8);
		key->addr[KEY_VALUE + 3] = (uint8_t)gi.asn;
		break;
	case GROUP_COUNTRY:
		key->addr[KEY_KIND] = 'C';
		key->addr[KEY_CLASS] = located(h);
		gi = host_geo(h);
		memcpy(key->addr + KEY_VALUE, gi.cc, 2);
		break;
	}
}

struct groups *groups_new(size_t capacity, struct geo *geo)
{
	struct groups *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->geo = geo;
	g->capacity = capacity ? capacity : 1;
	g->tab[0] = hosttab_new(g->capacity);
	g->tab[1] = hosttab_new(g->capacity);
	if (!g->tab[0] || !g->tab[1]) {
		groups_free(g);
		return NULL;
	}
	return g;
}

void groups_free(struct groups *g)
{
	if (!g)
		return;
	geoq_free(g->q);
	hosttab_free(g->tab[0]);
	hosttab_free(g->tab[1]);
	free(g->members);
	free(g);
}

void groups_look_up_aside(struct groups *g)
{
	g->aside = true;
}

void groups_locate(struct groups *g, struct hosttab *t)
{
	size_t i, n = hosttab_count(t);
	char err[512];

	if (g->aside && !g->q && g->geo) {
		g->q = geoq_new(geo_path(g->geo), err, sizeof(err));
		g->aside = g->q != NULL; /* else looked up here, as without */
	}
	if (g->q)
		geoq_settle(g->q, t);
	for (i = 0; i < n; i++)
		geoq_place(g->q, g->geo, hosttab_at(t, i));
}

bool groups_settle(struct groups *g, struct hosttab *t, int timeout_ms)
{
	bool all = !g->q || geoq_wait(g->q, timeout_ms);

	if (g->q)
		geoq_settle(g->q, t);
	return all;
}

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = memcmp(&x->key, &y->key, sizeof(x->key));

	return c ? c : (x->host > y->host) - (x->host < y->host);
}

/* The highest rate both ways over `window` consecutive samples of a history. */
static double peak_of(const struct hist_clock *clk, const double *rx, const double *tx,
		      unsigned window)
{
	unsigned kept = clk->tick < HISTORY_SLOTS ? clk->tick : HISTORY_SLOTS, end, j;
	double best = 0;

	for (end = 0; end + window <= kept; end++) {
		double bytes = 0, secs = 0;

		for (j = end; j < end + window; j++) {
			uint32_t s = (clk->tick - j) % HISTORY_SLOTS;

			bytes += rx[s] + tx[s];
			secs += clk->interval[s];
		}
		if (secs > 0 && bytes / secs > best)
			best = bytes / secs;
	}
	return best;
}

/* Samples the last 2 s take (as the host table counts its peaks). */
static unsigned two_seconds(const struct hist_clock *clk)
{
	unsigned kept = clk->tick < HISTORY_SLOTS ? clk->tick : HISTORY_SLOTS, k;
	double covered = 0;

	for (k = 0; k < kept && covered < 2.0 - 1e-6; k++)
		covered += clk->interval[(clk->tick - k) % HISTORY_SLOTS];
	return k ? k : 1;
}

/* Sums the hosts of one group, members[0..n), into one row of g's table. */
static int put_group(struct groups *g, const struct hosttab *t, const struct hist_clock *clk,
		     const struct member *m, size_t n)
{
	struct hosttab *tab = g->tab[g->cur];
	const struct host *before;
	double rx[HISTORY_SLOTS] = { 0 }, tx[HISTORY_SLOTS] = { 0 };
	struct host_hist hh;
	struct host row;
	struct geo_info gi;
	size_t i;
	unsigned j;
	long idx;

	memset(&row, 0, sizeof(row));
	host_set_members(&row, (uint32_t)n);
	row.addr = m[0].key;
	for (i = 0; i < n; i++) {
		const struct host *h = hosttab_get(t, m[i].host);

		counters_add(&row.total, &h->total);
		counters_add(&row.delta, &h->delta);
		row.links |= h->links;
		gi = host_geo(h);
		if (g->by == GROUP_AS || g->by == GROUP_COUNTRY)
			gi.class = located(h);
		host_set_geo(&row, &gi);
		hosttab_history(t, h, &hh);
		for (j = 0; j < HISTORY_SLOTS; j++) {
			rx[j] += hist_decode(hh.v[j][0]);
			tx[j] += hist_decode(hh.v[j][1]);
		}
	}
	for (j = 0; j < HISTORY_SLOTS; j++) {
		hh.v[j][0] = hist_encode((uint64_t)(rx[j] + 0.5));
		hh.v[j][1] = hist_encode((uint64_t)(tx[j] + 0.5));
	}
	row.tick = clk->tick;
	row.peak = (float)peak_of(clk, rx, tx, two_seconds(clk));
	before = g->prev_by == g->by ? hosttab_find(g->tab[!g->cur], &row.addr) : NULL;
	if (before && before->peak > row.peak)
		row.peak = before->peak;
	idx = hosttab_put(tab, &row, &hh);
	return idx < 0 ? (int)idx : 0;
}

int groups_build(struct groups *g, struct hosttab *t, const struct group_opts *o)
{
	size_t n = hosttab_count(t), i, start;
	struct hist_clock clk;
	int err = 0;

	if (!g->members)
		g->members = malloc(g->capacity * sizeof(*g->members));
	g->prev_by = g->by;
	g->by = o->by;
	g->opts = *o;
	g->cur = !g->cur;
	hosttab_clear(g->tab[g->cur]);
	hosttab_follow(g->tab[g->cur], t);
	if (!g->members)
		return -ENOMEM;
	if (n > g->capacity)
		n = g->capacity;
	if (o->by == GROUP_AS || o->by == GROUP_COUNTRY)
		groups_locate(g, t);
	for (i = 0; i < n; i++) {
		group_key(o, hosttab_get(t, i), &g->members[i].key);
		g->members[i].host = (uint32_t)i;
	}
	qsort(g->members, n, sizeof(*g->members), member_cmp);
	hosttab_clock(t, &clk);
	for (start = 0, i = 1; !err && start < n; i++)
		if (i == n || !flow_key_eq(&g->members[i].key, &g->members[start].key)) {
			err = put_group(g, t, &clk, g->members + start, i - start);
			start = i;
		}
	if (err)
		hosttab_clear(g->tab[g->cur]);
	return err;
}

enum group_by groups_by(const struct groups *g)
{
	return g->by;
}

const struct hosttab *groups_table(const struct groups *g)
{
	return g->tab[g->cur];
}

/* What the key of a group by AS or country says of where its hosts are. */
static struct geo_info key_geo(const struct groups *g, const struct flow_key *key)
{
	const uint8_t *v = key->addr + KEY_VALUE;
	struct geo_info gi = { .class = key->addr[KEY_CLASS] };

	if (g->by != GROUP_AS && g->by != GROUP_COUNTRY)
		return (struct geo_info){ .class = GEO_NOT_LOOKED_UP };
	if (gi.class != GEO_PUBLIC)
		return gi;
	if (g->by == GROUP_AS)
		gi.asn = (uint32_t)v[0] << 24 | (uint32_t)v[1] << 16 | (uint32_t)v[2] << 8 | v[3];
	else if (g->by == GROUP_COUNTRY)
		gi.cc[0] = (char)v[0], gi.cc[1] = (char)v[1];
	return gi;
}

void groups_geo(const struct groups *g, const struct flow_key *key, uint32_t *asn,
		const char **as_name, char cc[3])
{
	struct geo_info gi = key_geo(g, key);
	const char *country = gi.class == GEO_PUBLIC ? geo_country(&gi, cc) : NULL;

	*asn = gi.asn;
	*as_name = gi.asn ? geo_as_name(g->geo, gi.asn) : NULL;
	if (!country)
		cc[0] = '\0';
}

const char *groups_label(const struct groups *g, const struct flow_key *key, bool with_name,
			 char buf[GROUP_LABEL_LEN])
{
	char addr[FMT_ADDR_LEN], cc[3];
	struct geo_info gi;
	const char *country;

	switch (g->by) {
	case GROUP_HOST:
		return fmt_addr(key, buf);
	case GROUP_PREFIX:
		snprintf(buf, GROUP_LABEL_LEN, "%s/%u", fmt_addr(key, addr),
			 fmt_is_ipv4(key) ? g->opts.prefix4 : g->opts.prefix6);
		return buf;
	case GROUP_PORT:
		return port_label(key, true, buf, GROUP_LABEL_LEN);
	case GROUP_AS:
	case GROUP_COUNTRY:
		break;
	}
	gi = key_geo(g, key);
	if (gi.class == GEO_PENDING) {
		snprintf(buf, GROUP_LABEL_LEN, "%s", geo_class_name(gi.class));
		return buf;
	}
	if (g->by == GROUP_AS)
		return geo_as_text(g->geo, &gi, with_name, buf, GROUP_LABEL_LEN);
	country = geo_country(&gi, cc);
	snprintf(buf, GROUP_LABEL_LEN, "%s", country ? country : "-");
	return buf;
}
