// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* topk.c: quickselect with a median-of-three pivot, then qsort_r of the selected; and a
 * bounded binary heap for a stream. The C library has qsort but no partial selection
 * (C++'s nth_element) and no heap. */
#include "topk.h"

#include <stdlib.h>
#include <string.h>

#define AT(i) (b + (i)*size)

static void swap(char *x, char *y, size_t size)
{
	char tmp[64];

	if (x == y)
		return;
	memcpy(tmp, x, size);
	memcpy(x, y, size);
	memcpy(y, tmp, size);
}

/* Moves the element that belongs at index k to k, smaller ones before it, larger after. */
static void select_nth(char *b, size_t n, size_t size, size_t k, topk_cmp_fn cmp, void *arg)
{
	size_t lo = 0, hi = n - 1; /* the answer lies in [lo, hi] */

	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2, i, store;

		/* median of three to hi, as the pivot */
		if (cmp(AT(mid), AT(lo), arg) < 0)
			swap(AT(mid), AT(lo), size);
		if (cmp(AT(hi), AT(lo), arg) < 0)
			swap(AT(hi), AT(lo), size);
		if (cmp(AT(mid), AT(hi), arg) < 0)
			swap(AT(mid), AT(hi), size);
		for (i = store = lo; i < hi; i++)
			if (cmp(AT(i), AT(hi), arg) < 0)
				swap(AT(i), AT(store++), size);
		swap(AT(store), AT(hi), size);
		if (store == k)
			return;
		if (store < k)
			lo = store + 1;
		else
			hi = store - 1;
	}
}

void topk_select(void *base, size_t n, size_t size, size_t k, topk_cmp_fn cmp, void *arg)
{
	char *b = base;

	if (k > n)
		k = n;
	if (k == 0 || size > 64)
		return;
	if (k < n)
		select_nth(b, n, size, k - 1, cmp, arg);
	qsort_r(b, k, size, cmp, arg);
}

/* The heap's order: a parent never comes before its children in cmp's (root: the last). */
static int later(const struct topk_heap *h, size_t i, size_t j)
{
	const char *b = h->base;
	size_t size = h->size;

	return h->cmp(AT(i), AT(j), h->arg) > 0;
}

void topk_offer(struct topk_heap *h, const void *elem)
{
	char *b = h->base;
	size_t size = h->size, i, c;

	if (h->k == 0 || size > 64)
		return;
	if (h->n < h->k) { /* room: in at the bottom, up while it comes after its parent */
		i = h->n++;
		memcpy(AT(i), elem, size);
		while (i > 0 && later(h, i, (i - 1) / 2)) {
			swap(AT(i), AT((i - 1) / 2), size);
			i = (i - 1) / 2;
		}
		return;
	}
	if (h->cmp(elem, b, h->arg) >= 0)
		return;	       /* not before the last kept */
	memcpy(b, elem, size); /* it replaces the root, which goes down to its place */
	for (i = 0;; i = c) {
		c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && later(h, c + 1, c))
			c++;
		if (!later(h, c, i))
			break;
		swap(AT(i), AT(c), size);
	}
}

void topk_finish(struct topk_heap *h)
{
	if (h->n > 1) /* (base may be NULL with nothing kept) */
		qsort_r(h->base, h->n, h->size, h->cmp, h->arg);
}
