// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* blocks.c: block-element cells. */
#include "blocks.h"

#include <string.h>

static const char *const eighths_glyph[BLOCK_EIGHTHS] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};

bool block_append(char *buf, size_t len, size_t *used, int eighths, bool utf8, char ascii)
{
	char one[2] = { eighths > 0 ? ascii : ' ', '\0' };
	const char *s = utf8 && eighths > 0 ? eighths_glyph[eighths > 8 ? 7 : eighths - 1] : one;
	size_t w = strlen(s);

	if (*used + w + 1 > len)
		return false;
	memcpy(buf + *used, s, w + 1);
	*used += w;
	return true;
}
