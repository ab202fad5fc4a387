// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* geoq.c: where addresses are, asked of a work queue (workq.h) whose worker holds a
 * location database of its own; answers settled into the hosts still waiting. */
#include "geoq.h"

#include <stdio.h>
#include <stdlib.h>

#include "workq.h"

/* A question and its answer. */
struct entry {
	struct flow_key addr;
	struct geo_info gi;
};

struct geoq {
	struct workq *q;
};

static void locate(void *ctx, void *entry)
{
	struct entry *e = entry;

	geo_lookup(ctx, &e->addr, &e->gi);
}

static void close_db(void *ctx)
{
	geo_close(ctx);
}

static const struct workq_ops geoq_ops = {
	.answer = locate,
	.ctx_free = close_db,
	.batch = 256, /* a look-up is a few microseconds: published in runs */
};

struct geoq *geoq_new(const char *path, char *err, size_t errlen)
{
	struct geoq *q = calloc(1, sizeof(*q));
	struct geo *geo = q ? geo_open(path, err, errlen) : NULL;

	if (!q)
		snprintf(err, errlen, "out of memory");
	if (!geo) {
		free(q);
		return NULL;
	}
	q->q = workq_new(GEOQ_SLOTS, sizeof(struct entry), &geoq_ops, geo, false);
	if (!q->q) {
		snprintf(err, errlen, "out of memory");
		free(q);
		return NULL;
	}
	return q;
}

void geoq_free(struct geoq *q)
{
	if (!q)
		return;
	workq_free(q->q);
	free(q);
}

bool geoq_ask(struct geoq *q, const struct flow_key *addr)
{
	struct entry e = { .addr = *addr };

	return workq_ask(q->q, &e);
}

struct take {
	void (*fn)(void *arg, const struct flow_key *addr, const struct geo_info *gi);
	void *arg;
};

static void take_one(void *arg, const void *entry)
{
	const struct take *t = arg;
	const struct entry *e = entry;

	t->fn(t->arg, &e->addr, &e->gi);
}

size_t geoq_take(struct geoq *q,
		 void (*fn)(void *arg, const struct flow_key *addr, const struct geo_info *gi),
		 void *arg)
{
	struct take t = { fn, arg };

	return workq_take(q->q, take_one, &t);
}

size_t geoq_out(struct geoq *q)
{
	return workq_out(q->q);
}

bool geoq_wait(struct geoq *q, int timeout_ms)
{
	return workq_wait(q->q, timeout_ms);
}

void geoq_place(struct geoq *q, struct geo *geo, struct host *h)
{
	struct geo_info gi = host_geo(h);

	if (gi.class != GEO_NOT_LOOKED_UP)
		return;
	if (!q || geo_classify(&h->addr) != GEO_PUBLIC) {
		host_locate(geo, h);
	} else if (geoq_ask(q, &h->addr)) {
		gi.class = GEO_PENDING;
		host_set_geo(h, &gi);
	}
}

/* An answer into its host, if it is still in t and not placed since. */
static void settle_one(void *arg, const struct flow_key *addr, const struct geo_info *gi)
{
	struct hosttab *t = arg;
	const struct host *h = hosttab_find(t, addr);

	struct geo_info was;

	if (!h)
		return;
	was = host_geo(h);
	if (!geo_placed(&was))
		host_set_geo(hosttab_own(t, h), gi);
}

size_t geoq_settle(struct geoq *q, struct hosttab *t)
{
	return geoq_take(q, settle_one, t);
}
