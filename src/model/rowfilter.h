/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* rowfilter.h: the row filter typed after '/' or given with -f. */
#ifndef FLOWTOP_ROWFILTER_H
#define FLOWTOP_ROWFILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "flowtop.h"
#include "flowkey.h"

#define FILTER_TEXT_MAX 64

struct filter {
	enum {
		FILTER_NONE,
		FILTER_NET,
		FILTER_TEXT
	} kind;
	struct flow_key net;		/* FILTER_NET: the network, IPv4 as IPv4-mapped */
	unsigned prefix;		/* FILTER_NET: bits of net that must match, 0..128 */
	char text[FILTER_TEXT_MAX + 1]; /* as typed (FILTER_TEXT: a substring) */
};

/* Parses "" (everything), a CIDR ("10.0.0.0/8", "2001:db8::/32"), an address (itself
 * only), or any other text: a substring of the address or name shown. 0, or -EINVAL
 * with the reason in err (a '/' that is not a valid CIDR, text too long). */
int filter_parse(const char *s, struct filter *f, char *err, size_t errlen);

/* Whether a row passes: addr is the host's key, shown is what its row shows (the
 * address, or its name). */
bool filter_match(const struct filter *f, const struct flow_key *addr, const char *shown);

#endif
