// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fuzz_sort.c: libFuzzer target: any text as a sort column name (-s). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "columns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	int c;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	c = column_by_name(s);
	if (c >= COL__COUNT || c < -1 || (c >= 0 && strcasecmp(columns[c].name, s)))
		abort(); /* a name maps to its own column, or to none */
	free(s);
	return 0;
}
