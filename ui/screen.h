/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* screen.h: drawing with ncursesw: header, table, status line, footer, help, picker. */
#ifndef FLOWTOP_SCREEN_H
#define FLOWTOP_SCREEN_H

#include <stdbool.h>
#include <net/if.h>

#include "sampler.h"
#include "view.h"

#define PICKER_MAX 64

/* Everything a frame shows, gathered by ui.c. */
struct screen_state {
	const struct view *view;
	const struct flow_totals *totals;
	const char *iface;
	bool iface_up, iface_lost;
	double elapsed;	    /* seconds since attaching */
	double cost_ns;	    /* filter cost per frame, < 0 unknown */
	const char *status; /* the status line, or NULL */
	const char *prompt; /* "Filter: 10.0" while typing, or NULL */
	bool help;
	int picker_count; /* > 0: the interface picker is open */
	const char (*picker_names)[IF_NAMESIZE];
	const char *const *picker_states;
	int picker_selected;
};

void screen_init(void);
void screen_end(void);

/* Rows of the table that fit now (for paging). */
int screen_table_rows(void);

void screen_draw(const struct screen_state *s);

#endif
