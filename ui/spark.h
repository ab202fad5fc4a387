/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* spark.h: a row of numbers as a sparkline, one cell a character: Unicode block elements
 * (U+2581..U+2588) in a UTF-8 locale, ASCII elsewhere. No curses: unit tests drive it. */
#ifndef FLOWTOP_SPARK_H
#define FLOWTOP_SPARK_H

#include <stdbool.h>
#include <stddef.h>

#define SPARK_LEVELS 8

/* Draws v[0..n-1] (oldest first) into `cells` characters, each the mean of its share of
 * the values, scaled so that the largest cell is a full block; zero is a blank and any
 * traffic at least the lowest block. NUL-terminated; buf needs cells * 3 + 1 bytes for
 * UTF-8. Returns the cells drawn. */
int spark_format(const double *v, unsigned n, unsigned cells, bool utf8, char *buf, size_t len);

/* Whether the current locale's character set is UTF-8 (after setlocale). */
bool spark_utf8_locale(void);

#endif
