/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* workq.h: questions answered by a worker thread off the asker's path, in the order
 * asked: a bounded ring of fixed-size entries (the question the asker writes, the answer
 * the worker writes beside it), handed back in that order. Its users: where new public
 * addresses are (geoq.c) and the screen's DNS names (ui/dns.c). */
#ifndef FLOWTOP_WORKQ_H
#define FLOWTOP_WORKQ_H

#include <stdbool.h>
#include <stddef.h>

struct workq;

struct workq_ops {
	/* Answers one entry in place, in the worker's thread, outside any lock. */
	void (*answer)(void *ctx, void *entry);
	/* Frees ctx once nobody answers with it any more: called by the owner's
	 * workq_free(), or by the worker after the answer it was in (NULL: nothing). */
	void (*ctx_free)(void *ctx);
	/* Answers made between two publications, at most (0: 1): many for fast answers,
	 * 1 where each may take seconds and is wanted at once. */
	unsigned batch;
};

/* A queue of `slots` entries of `size` bytes each, answered by ops->answer with ctx
 * (owned from here on, also when NULL is returned). The worker starts with the first
 * question, in the thread that asks it, so it has that thread's signal mask and
 * capabilities. With notify, workq_fd() polls readable when answers are in. NULL with
 * errno set. */
struct workq *workq_new(size_t slots, size_t size, const struct workq_ops *ops, void *ctx,
			bool notify);
/* Lets go of the queue; never waits for a slow answer (the worker frees the queue, and
 * ctx, after it). */
void workq_free(struct workq *q);

/* Starts the worker now, in this thread, rather than with the first question. False
 * when it cannot. */
bool workq_start(struct workq *q);
/* Asks: copies size bytes of entry in. False when `slots` questions are out already, or
 * the worker cannot start (ask again later). */
bool workq_ask(struct workq *q, const void *entry);
/* Hands each answer in so far to fn, in the order asked, and quiets workq_fd(). Returns
 * how many. */
size_t workq_take(struct workq *q, void (*fn)(void *arg, const void *entry), void *arg);
/* Questions asked and not yet taken back. */
size_t workq_out(struct workq *q);
/* Waits up to timeout_ms for every question to be answered: true if they are. */
bool workq_wait(struct workq *q, int timeout_ms);
/* An fd that polls readable when answers are in (notify), else -1. */
int workq_fd(const struct workq *q);

#endif
