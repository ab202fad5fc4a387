// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fuzz_filter.c: libFuzzer target: any text as a filter expression; what parses is
 * matched against a few addresses and must agree with itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rowfilter.h"
#include "fmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const addrs[] = { "10.0.0.1", "192.0.2.255", "2001:db8::1",
					     "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" };
	char *s = malloc(size + 1), err[256];
	struct flow_key k;
	struct filter f;
	size_t i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (filter_parse(s, &f, err, sizeof(err)) == 0) {
		if (f.kind == FILTER_NET && f.prefix > 128)
			abort();
		for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
			char text[FMT_ADDR_LEN];

			fmt_parse_addr(addrs[i], &k);
			fmt_addr(&k, text);
			/* a network filter never depends on the text shown */
			if (f.kind == FILTER_NET &&
			    filter_match(&f, &k, text) != filter_match(&f, &k, "x"))
				abort();
		}
	} else if (!err[0]) {
		abort(); /* a refused filter must say why */
	}
	free(s);
	return 0;
}
