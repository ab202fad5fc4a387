/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* column_layout.h: how the screen and a text dump show each column of the one table
 * (src/model/columns.h, which says what a column is): its title, its width, and which
 * columns go first on a narrow terminal. */
#ifndef FLOWTOP_COLUMN_LAYOUT_H
#define FLOWTOP_COLUMN_LAYOUT_H

#include "columns.h"

struct column_layout {
	const char *title; /* header */
	int width;	   /* columns of text, without the separating space */
	int keep;	   /* on a narrow terminal the lowest go first */
};

extern const struct column_layout column_layout[COL__COUNT];

#endif
