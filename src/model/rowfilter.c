// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* rowfilter.c: CIDR, address and substring filters over host rows. */
#include "rowfilter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

static int fail(char *err, size_t errlen, const char *what, const char *s)
{
	snprintf(err, errlen, "invalid filter '%s': %s", s, what);
	return -EINVAL;
}

int filter_parse(const char *s, struct filter *f, char *err, size_t errlen)
{
	const char *slash = strchr(s, '/');
	char addr[FILTER_TEXT_MAX + 1], *end;
	unsigned long bits;
	struct in_addr v4;
	bool is_v4;

	memset(f, 0, sizeof(*f));
	if (strlen(s) > FILTER_TEXT_MAX)
		return fail(err, errlen, "longer than 64 characters", s);
	strcpy(f->text, s);
	if (!*s)
		return 0;
	if (!slash) {
		if (fmt_parse_addr(s, &f->net) == 0) {
			f->kind = FILTER_NET;
			f->prefix = 128;
		} else {
			f->kind = FILTER_TEXT;
		}
		return 0;
	}
	snprintf(addr, sizeof(addr), "%.*s", (int)(slash - s), s);
	is_v4 = inet_pton(AF_INET, addr, &v4) == 1;
	if (fmt_parse_addr(addr, &f->net))
		return fail(err, errlen, "not an address before '/'", s);
	if (!slash[1] || slash[1] == '-' || slash[1] == '+')
		return fail(err, errlen, "no prefix length after '/'", s);
	errno = 0;
	bits = strtoul(slash + 1, &end, 10);
	if (errno || *end || bits > (is_v4 ? 32UL : 128UL))
		return fail(err, errlen,
			    is_v4 ? "prefix length not 0..32" : "prefix length not 0..128", s);
	f->kind = FILTER_NET;
	f->prefix = (unsigned)bits + (is_v4 ? 96 : 0);
	return 0;
}

bool filter_match(const struct filter *f, const struct flow_key *addr, const char *shown)
{
	switch (f->kind) {
	case FILTER_NONE:
		return true;
	case FILTER_TEXT:
		return strcasestr(shown, f->text) != NULL;
	case FILTER_NET:
		return flow_key_in_net(addr, &f->net, f->prefix);
	}
	return false;
}
