// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_workq.c: the work queue under geoq.c and the screen's DNS names: answers in the
 * order asked, a bound on questions out, the notify fd, a wait with a deadline, and a
 * free that never waits for a slow answer (the worker frees the context after it). */
#include "test.h"

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "workq.h"

struct entry {
	unsigned question, answer;
};

/* The context: a gate the answers wait at while it is shut, and whether it was freed. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t open_cond;
	bool open;
	atomic_int answering; /* an answer is in progress */
	atomic_bool freed;
};

static void square(void *ctx, void *entry)
{
	struct gate *g = ctx;
	struct entry *e = entry;

	atomic_store(&g->answering, 1);
	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->open_cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
	e->answer = e->question * e->question;
}

static void gate_free(void *ctx)
{
	struct gate *g = ctx;

	atomic_store(&g->freed, true);
}

static const struct workq_ops square_ops = { .answer = square, .ctx_free = gate_free, .batch = 8 };

static void gate_init(struct gate *g, bool open)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->open_cond, NULL);
	g->open = open;
	atomic_init(&g->answering, 0);
	atomic_init(&g->freed, false);
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->open_cond);
	pthread_mutex_unlock(&g->lock);
}

struct seen {
	unsigned next, bad;
};

static void check_order(void *arg, const void *entry)
{
	struct seen *s = arg;
	const struct entry *e = entry;

	if (e->question != s->next || e->answer != e->question * e->question)
		s->bad++;
	s->next++;
}

static bool readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1;
}

/* 1,000 questions through 64 slots: in order, each answered, never more than 64 out. */
static void test_order_and_bound(void)
{
	static struct gate g;
	struct workq *q;
	struct seen s = { 0, 0 };
	unsigned asked = 0, rounds = 0;

	gate_init(&g, true);
	q = workq_new(64, sizeof(struct entry), &square_ops, &g, false);
	if (!ASSERT_TRUE(q))
		return;
	ASSERT_EQ(workq_fd(q), -1);
	while (asked < 1000 && rounds++ < 100000) {
		struct entry e = { .question = asked };

		if (workq_ask(q, &e))
			asked++;
		else {
			ASSERT_EQ(workq_out(q), 64);
			ASSERT_TRUE(workq_wait(q, 10000));
			workq_take(q, check_order, &s);
		}
	}
	ASSERT_TRUE(workq_wait(q, 10000));
	workq_take(q, check_order, &s);
	ASSERT_EQ(asked, 1000);
	ASSERT_EQ(s.next, 1000);
	ASSERT_EQ(s.bad, 0);
	ASSERT_EQ(workq_out(q), 0);
	workq_free(q);
}

/* The notify fd polls readable once answers are in, and quiet after they are taken. */
static void test_notify(void)
{
	static struct gate g;
	struct entry e = { .question = 7 };
	struct seen s = { 7, 0 };
	struct workq *q;

	gate_init(&g, true);
	q = workq_new(4, sizeof(struct entry), &square_ops, &g, true);
	if (!ASSERT_TRUE(q))
		return;
	ASSERT_TRUE(workq_fd(q) >= 0);
	ASSERT_TRUE(!readable(workq_fd(q), 0));
	ASSERT_TRUE(workq_ask(q, &e));
	ASSERT_TRUE(readable(workq_fd(q), 10000));
	ASSERT_EQ(workq_take(q, check_order, &s), 1);
	ASSERT_EQ(s.bad, 0);
	ASSERT_TRUE(!readable(workq_fd(q), 0));
	workq_free(q);
}

/* A slow answer: the wait gives up at its deadline, and the free returns at once; the
 * worker frees the context after the answer it was in. */
static void test_free_never_waits(void)
{
	static struct gate g;
	struct entry e = { .question = 3 };
	struct timespec t0, t1;
	struct workq *q;
	int i;

	gate_init(&g, false);
	q = workq_new(4, sizeof(struct entry), &square_ops, &g, true);
	if (!ASSERT_TRUE(q))
		return;
	ASSERT_TRUE(workq_ask(q, &e));
	for (i = 0; i < 10000 && !atomic_load(&g.answering); i++)
		usleep(1000);
	ASSERT_TRUE(atomic_load(&g.answering));
	ASSERT_TRUE(!workq_wait(q, 50));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	workq_free(q);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_TRUE(!atomic_load(&g.freed)); /* the worker still answers with it */
	ASSERT_TRUE(t1.tv_sec - t0.tv_sec < 2);
	gate_open(&g);
	for (i = 0; i < 10000 && !atomic_load(&g.freed); i++)
		usleep(1000);
	ASSERT_TRUE(atomic_load(&g.freed));
}

/* Without a question the worker never starts, and the free frees the context itself;
 * started at once, an idle worker lets go of it soon after the free. */
static void test_free_unstarted(void)
{
	static struct gate g, started;
	struct workq *q;
	int i;

	gate_init(&g, true);
	q = workq_new(4, sizeof(struct entry), &square_ops, &g, false);
	if (!ASSERT_TRUE(q))
		return;
	workq_free(q);
	ASSERT_TRUE(atomic_load(&g.freed));

	gate_init(&started, true);
	q = workq_new(4, sizeof(struct entry), &square_ops, &started, false);
	if (!ASSERT_TRUE(q))
		return;
	ASSERT_TRUE(workq_start(q));
	ASSERT_TRUE(workq_start(q)); /* once */
	workq_free(q);
	for (i = 0; i < 10000 && !atomic_load(&started.freed); i++)
		usleep(1000);
	ASSERT_TRUE(atomic_load(&started.freed));
}

int main(void)
{
	RUN_TEST(test_order_and_bound);
	RUN_TEST(test_notify);
	RUN_TEST(test_free_never_waits);
	RUN_TEST(test_free_unstarted);
	return test_summary("test_workq");
}
