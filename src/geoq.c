// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* geoq.c: a ring of questions and answers under one mutex, and the worker that answers
 * them. The counters say who owns which entries: the asker writes addresses at
 * [asked, taken + GEOQ_SLOTS), the worker answers [answered, asked), the asker reads
 * the answers at [taken, answered); an entry is only touched by its owner, outside the
 * lock, and changes hands when a counter moves, under it. */
#include "geoq.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCH 256 /* answers published at once, at most */

struct entry {
	struct flow_key addr;
	struct geo_info gi;
};

struct geoq {
	struct geo *geo; /* the worker's alone */
	pthread_mutex_t lock;
	pthread_cond_t work, answers;
	uint64_t asked, answered, taken;
	bool started, stop;
	pthread_t worker;
	struct entry ring[GEOQ_SLOTS];
};

struct geoq *geoq_new(const char *path, char *err, size_t errlen)
{
	struct geoq *q = calloc(1, sizeof(*q));
	pthread_condattr_t attr;

	if (!q) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	q->geo = geo_open(path, err, errlen);
	if (!q->geo) {
		free(q);
		return NULL;
	}
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&q->answers, &attr);
	pthread_condattr_destroy(&attr);
	return q;
}

static void *answer(void *arg)
{
	struct geoq *q = arg;
	uint64_t from, to, i;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (!q->stop && q->answered == q->asked)
			pthread_cond_wait(&q->work, &q->lock);
		if (q->stop)
			break;
		from = q->answered;
		to = q->asked - from > BATCH ? from + BATCH : q->asked;
		pthread_mutex_unlock(&q->lock);
		for (i = from; i < to; i++) {
			struct entry *e = &q->ring[i % GEOQ_SLOTS];

			geo_lookup(q->geo, &e->addr, &e->gi);
		}
		pthread_mutex_lock(&q->lock);
		q->answered = to;
		pthread_cond_broadcast(&q->answers);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

void geoq_free(struct geoq *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->lock);
	if (q->started)
		pthread_join(q->worker, NULL);
	pthread_cond_destroy(&q->work);
	pthread_cond_destroy(&q->answers);
	pthread_mutex_destroy(&q->lock);
	geo_close(q->geo);
	free(q);
}

bool geoq_ask(struct geoq *q, const struct flow_key *addr)
{
	bool ok = false;

	pthread_mutex_lock(&q->lock);
	if (!q->started && !q->stop)
		q->started = !pthread_create(&q->worker, NULL, answer, q);
	if (q->started && q->asked - q->taken < GEOQ_SLOTS) {
		q->ring[q->asked % GEOQ_SLOTS].addr = *addr;
		if (q->asked++ == q->answered)
			pthread_cond_signal(&q->work);
		ok = true;
	}
	pthread_mutex_unlock(&q->lock);
	return ok;
}

size_t geoq_take(struct geoq *q,
		 void (*fn)(void *arg, const struct flow_key *addr, const struct geo_info *gi),
		 void *arg)
{
	uint64_t from, to, i;

	pthread_mutex_lock(&q->lock);
	from = q->taken;
	to = q->answered;
	pthread_mutex_unlock(&q->lock);
	for (i = from; i < to; i++) {
		const struct entry *e = &q->ring[i % GEOQ_SLOTS];

		fn(arg, &e->addr, &e->gi);
	}
	pthread_mutex_lock(&q->lock);
	q->taken = to;
	pthread_mutex_unlock(&q->lock);
	return (size_t)(to - from);
}

size_t geoq_out(struct geoq *q)
{
	size_t n;

	pthread_mutex_lock(&q->lock);
	n = (size_t)(q->asked - q->taken);
	pthread_mutex_unlock(&q->lock);
	return n;
}

void geoq_place(struct geoq *q, struct geo *geo, struct host *h)
{
	if (h->geo.class != GEO_NOT_LOOKED_UP)
		return;
	if (!q || geo_classify(&h->addr) != GEO_PUBLIC)
		geo_locate(geo, &h->addr, &h->geo);
	else if (geoq_ask(q, &h->addr))
		h->geo.class = GEO_PENDING;
}

/* An answer into its host, if it is still in t and not placed since. */
static void settle_one(void *arg, const struct flow_key *addr, const struct geo_info *gi)
{
	struct hosttab *t = arg;
	const struct host *h = hosttab_find(t, addr);

	if (h && !geo_placed(&h->geo))
		hosttab_own(t, h)->geo = *gi;
}

size_t geoq_settle(struct geoq *q, struct hosttab *t)
{
	return geoq_take(q, settle_one, t);
}

bool geoq_wait(struct geoq *q, int timeout_ms)
{
	struct timespec until;
	bool done;
	int err = 0;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&q->lock);
	while (q->answered != q->asked && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&q->answers, &q->lock, &until);
	done = q->answered == q->asked;
	pthread_mutex_unlock(&q->lock);
	return done;
}
