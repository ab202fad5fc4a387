/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* hosts.h: what the unit tests of tables of hosts share: an address from text, and a
 * frame from one address to another into a host table. */
#ifndef FLOWTOP_TEST_HOSTS_H
#define FLOWTOP_TEST_HOSTS_H

#include "test.h"

#include "fmt.h"
#include "hosttab.h"

/* The key of an address given as text (the test aborts on a typo). */
static inline struct flow_key key(const char *s)
{
	struct flow_key k;

	if (fmt_parse_addr(s, &k))
		abort();
	return k;
}

/* One frame of `bytes` from src to dst into t. */
static inline void frame(struct hosttab *t, const char *src, const char *dst, uint64_t bytes)
{
	struct flow_key s = key(src), d = key(dst);

	ASSERT_OK(hosttab_add_frame(t, &s, 1, bytes, 0));
	ASSERT_OK(hosttab_add_frame(t, &d, 0, bytes, 0));
}

#endif
