// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* workq.c: a ring of entries under one mutex, and the detached worker that answers them.
 * The counters say who owns which entries: the asker writes questions at
 * [asked, taken + slots), the worker answers [answered, asked), the asker reads the
 * answers at [taken, answered); an entry is only touched by its owner, outside the lock,
 * and changes hands when a counter moves, under it. The owner and the worker each hold a
 * reference: the last to let go frees the queue. */
#include "workq.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

struct workq {
	const struct workq_ops *ops;
	void *ctx; /* the worker's, while it runs */
	size_t slots, size;
	pthread_mutex_t lock;
	pthread_cond_t work, answers;
	uint64_t asked, answered, taken;
	bool started, stop;
	int refs;   /* the owner's, and the worker's once started */
	int notify; /* eventfd, or -1 */
	unsigned char *ring;
};

static void destroy(struct workq *q)
{
	if (q->ops->ctx_free)
		q->ops->ctx_free(q->ctx);
	if (q->notify >= 0)
		close(q->notify);
	pthread_cond_destroy(&q->work);
	pthread_cond_destroy(&q->answers);
	pthread_mutex_destroy(&q->lock);
	free(q->ring);
	free(q);
}

/* Lets go of one reference (under the lock): the last frees the queue. */
static void put_ref(struct workq *q)
{
	bool last = --q->refs == 0;

	pthread_mutex_unlock(&q->lock);
	if (last)
		destroy(q);
}

struct workq *workq_new(size_t slots, size_t size, const struct workq_ops *ops, void *ctx,
			bool notify)
{
	struct workq *q = calloc(1, sizeof(*q));
	pthread_condattr_t attr;

	if (q)
		q->ring = calloc(slots, size);
	if (!q || !q->ring ||
	    (notify && (q->notify = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)) {
		int err = q && q->ring ? errno : ENOMEM;

		if (ops->ctx_free)
			ops->ctx_free(ctx);
		if (q)
			free(q->ring);
		free(q);
		errno = err;
		return NULL;
	}
	if (!notify)
		q->notify = -1;
	q->ops = ops;
	q->ctx = ctx;
	q->slots = slots;
	q->size = size;
	q->refs = 1;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&q->answers, &attr);
	pthread_condattr_destroy(&attr);
	return q;
}

static void *entry_at(const struct workq *q, uint64_t i)
{
	return q->ring + (i % q->slots) * q->size;
}

static void *worker(void *arg)
{
	struct workq *q = arg;
	uint64_t batch = q->ops->batch ? q->ops->batch : 1;
	uint64_t from, to, i, one = 1;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (!q->stop && q->answered == q->asked)
			pthread_cond_wait(&q->work, &q->lock);
		if (q->stop)
			break;
		from = q->answered;
		to = q->asked - from > batch ? from + batch : q->asked;
		pthread_mutex_unlock(&q->lock);
		for (i = from; i < to; i++)
			q->ops->answer(q->ctx, entry_at(q, i));
		pthread_mutex_lock(&q->lock);
		q->answered = to;
		pthread_cond_broadcast(&q->answers);
		if (q->notify >= 0 && write(q->notify, &one, sizeof(one)) < 0) {
			/* the counter saturated: a wake-up is pending anyway */
		}
	}
	put_ref(q);
	return NULL;
}

void workq_free(struct workq *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_signal(&q->work);
	put_ref(q);
}

/* Under the lock. */
static void start(struct workq *q)
{
	pthread_t tid;

	if (q->started || q->stop)
		return;
	q->refs++; /* the worker's, before it can let go of it */
	q->started = !pthread_create(&tid, NULL, worker, q);
	if (q->started)
		pthread_detach(tid);
	else
		q->refs--;
}

bool workq_start(struct workq *q)
{
	bool started;

	pthread_mutex_lock(&q->lock);
	start(q);
	started = q->started;
	pthread_mutex_unlock(&q->lock);
	return started;
}

bool workq_ask(struct workq *q, const void *entry)
{
	bool ok = false;

	pthread_mutex_lock(&q->lock);
	start(q);
	if (q->started && q->asked - q->taken < q->slots) {
		memcpy(entry_at(q, q->asked), entry, q->size);
		if (q->asked++ == q->answered)
			pthread_cond_signal(&q->work);
		ok = true;
	}
	pthread_mutex_unlock(&q->lock);
	return ok;
}

size_t workq_take(struct workq *q, void (*fn)(void *arg, const void *entry), void *arg)
{
	uint64_t from, to, i, n;

	if (q->notify >= 0 && read(q->notify, &n, sizeof(n)) < 0) {
		/* EAGAIN: nothing was pending */
	}
	pthread_mutex_lock(&q->lock);
	from = q->taken;
	to = q->answered;
	pthread_mutex_unlock(&q->lock);
	for (i = from; i < to; i++)
		fn(arg, entry_at(q, i));
	pthread_mutex_lock(&q->lock);
	q->taken = to;
	pthread_mutex_unlock(&q->lock);
	return (size_t)(to - from);
}

size_t workq_out(struct workq *q)
{
	size_t n;

	pthread_mutex_lock(&q->lock);
	n = (size_t)(q->asked - q->taken);
	pthread_mutex_unlock(&q->lock);
	return n;
}

bool workq_wait(struct workq *q, int timeout_ms)
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

int workq_fd(const struct workq *q)
{
	return q->notify;
}
