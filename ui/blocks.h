/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* blocks.h: the cells the sparklines and the traffic graph draw: one to eight eighths of
 * a cell filled from the bottom, as Unicode block elements (U+2581..U+2588) or one ASCII
 * character, appended to a line that never runs past its buffer. */
#ifndef FLOWTOP_BLOCKS_H
#define FLOWTOP_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>

#define BLOCK_EIGHTHS 8

/* Appends the cell of `eighths` (0: a blank; 1..8) to buf[*used..], utf8 a block
 * element, else the character ascii, and NUL-terminates. False, with nothing appended,
 * when it does not fit in len. */
bool block_append(char *buf, size_t len, size_t *used, int eighths, bool utf8, char ascii);

#endif
