// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* spark.c: sparklines in block elements or ASCII. */
#include "spark.h"

#include <langinfo.h>
#include <string.h>

#include "blocks.h"

static const char ascii[SPARK_LEVELS + 1] = "._-:=+*#";

bool spark_utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

int spark_format(const double *v, unsigned n, unsigned cells, bool utf8, char *buf, size_t len)
{
	double mean[256], peak = 0;
	size_t used = 0;
	unsigned c, i;

	if (!len)
		return 0;
	if (cells > sizeof(mean) / sizeof(mean[0]))
		cells = sizeof(mean) / sizeof(mean[0]);
	for (c = 0; c < cells; c++) { /* cell c covers v[c*n/cells .. (c+1)*n/cells) */
		unsigned from = c * n / cells, to = (c + 1) * n / cells;
		double sum = 0;

		if (to == from && from < n)
			to = from + 1; /* fewer values than cells: a value spans cells */
		for (i = from; i < to; i++)
			sum += v[i] > 0 ? v[i] : 0;
		mean[c] = to > from ? sum / (to - from) : 0;
		if (mean[c] > peak)
			peak = mean[c];
	}
	buf[0] = '\0';
	for (c = 0; c < cells; c++) {
		int level = 0; /* eighths: 0 blank, any traffic at least 1 */

		if (mean[c] > 0 && peak > 0) {
			level = (int)(mean[c] / peak * SPARK_LEVELS + 0.5);
			level = level < 1 ? 1 : level > SPARK_LEVELS ? SPARK_LEVELS : level;
		}
		if (!block_append(buf, len, &used, level, utf8, level ? ascii[level - 1] : ' '))
			break;
	}
	return (int)c;
}
