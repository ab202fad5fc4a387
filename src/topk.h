/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* topk.h: the first k of n elements in a comparator's order, without sorting all n. */
#ifndef FLOWTOP_TOPK_H
#define FLOWTOP_TOPK_H

#include <stddef.h>

typedef int (*topk_cmp_fn)(const void *a, const void *b, void *arg);

/* Reorders base[0..n) so that base[0..k) holds the k first elements in cmp's order,
 * sorted, and base[k..n) the rest in no order: O(n + k log k) on average (quickselect,
 * then a sort of the k). cmp must be a total order. Elements of at most 64 bytes. */
void topk_select(void *base, size_t n, size_t size, size_t k, topk_cmp_fn cmp, void *arg);

#endif
