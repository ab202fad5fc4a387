/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* topk.h: the first k of n elements in a comparator's order, without sorting all n: of
 * an array (a selection in place), or of a stream (a heap of k). */
#ifndef FLOWTOP_TOPK_H
#define FLOWTOP_TOPK_H

#include <stddef.h>

typedef int (*topk_cmp_fn)(const void *a, const void *b, void *arg);

/* Reorders base[0..n) so that base[0..k) holds the k first elements in cmp's order,
 * sorted, and base[k..n) the rest in no order: O(n + k log k) on average (quickselect,
 * then a sort of the k). cmp must be a total order. Elements of at most 64 bytes. */
void topk_select(void *base, size_t n, size_t size, size_t k, topk_cmp_fn cmp, void *arg);

/* The first k of a stream of elements in cmp's order, kept as they come: a heap of at
 * most k whose root is the last of them, so an element that does not get in costs one
 * comparison and nothing is stored for it. Set base (room for k elements of size bytes,
 * at most 64), size, k, cmp and arg, and n = 0. */
struct topk_heap {
	void *base;
	size_t size, k, n;
	topk_cmp_fn cmp;
	void *arg;
};

/* Keeps a copy of elem when it is among the first k offered so far. */
void topk_offer(struct topk_heap *h, const void *elem);
/* Sorts the kept, base[0..n), in cmp's order; no more may be offered after. */
void topk_finish(struct topk_heap *h);

#endif
