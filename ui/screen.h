/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* screen.h: drawing with ncursesw: header (or a conversation's), traffic graph, table with
 * sparklines, status line, footer, picker, or the help (help.c) instead; and where the
 * last frame put things, for the mouse. */
#ifndef FLOWTOP_SCREEN_H
#define FLOWTOP_SCREEN_H

#include <stdbool.h>
#include <net/if.h>

#include "capture.h"
#include "convo.h"
#include "graph.h"
#include "iface.h"
#include "picker.h"
#include "theme.h"
#include "totals.h"
#include "view.h"

#define SCREEN_GRAPH_LINES_AUTO 40 /* the graph is on by default from this height */

/* Everything a frame shows, gathered by ui.c. */
struct screen_state {
	const struct view *view;
	const struct flow_totals *totals;
	const char *iface;
	const char *netns; /* --netns, or NULL */
	const char *expr;  /* the filter expression frames must match, or NULL */
	bool iface_up, iface_lost;
	const char *replay; /* a capture file's clock and pace (-r), instead of the state */
	const struct iface_watch *links; /* the watched interfaces: a header line each when */
	size_t nlinks;			 /* several are (view->several) */
	double elapsed;			 /* seconds since attaching */
	struct capture_cost cost;	 /* the socket filter's over the last sample */
	const char *status;		 /* the status line, or NULL */
	const char *prompt;		 /* "Filter: " while a prompt is open, or NULL */
	const char *prompt_text;	 /* its line */
	size_t prompt_cursor;		 /* the cursor's place in it */
	bool prompt_offered;		 /* the line is the old value, shown selected */
	const struct graph *graph;	 /* the header's traffic graph (see screen_set_graph) */
	const char *conv_focus;		 /* the conversation view's focus, or NULL: every host */
	bool conv_of_port;		 /* the focus is a port: the rows are the hosts on it */
	const char *rows_are;		 /* "by AS", "hosts of AS15169 GOOGLE", or NULL */
	const struct convo_proto_counts *conv_protos; /* its traffic by protocol */
	double conv_elapsed;			      /* seconds since it opened */
	bool help;				      /* the help instead of all this (help.h), */
	int help_top;				      /* from its line help_top */
	const struct picker *picker; /* drawn over the table while open (count > 0) */
};

/* Sets the terminal up: colours as `color` says (theme.h), the mouse on or not. */
void screen_init(enum theme_color color, bool mouse);
void screen_end(void);

/* Asks for mouse clicks and the wheel, or leaves the mouse to the terminal (selecting
 * text). Returns false when the terminal cannot report the mouse. */
bool screen_mouse(bool on);

/* Shows the traffic graph above the table, when the rows would still have room. */
void screen_set_graph(bool on);
/* Whether the terminal is tall enough for the graph to be on by default. */
bool screen_graph_by_default(void);

/* Rows of the table that fit now (for paging). */
int screen_table_rows(void);
/* The picker's entries that fit in its box on this terminal. */
int screen_picker_rows(void);

/* The terminal's width from which v's column col is shown: on a narrow terminal the
 * columns with the lowest keep (ui/column_layout.h) go first. */
int screen_width_for(const struct view *v, enum col_id col);

/* What the last frame drew at a cell: a column title, a table row (its offset from the
 * first row shown), or nothing that answers the mouse. */
struct screen_hit {
	enum {
		HIT_NONE,
		HIT_TITLE,
		HIT_ROW
	} kind;
	enum col_id col; /* HIT_TITLE */
	int row;	 /* HIT_ROW */
};

struct screen_hit screen_hit(int y, int x);

void screen_draw(const struct screen_state *s);

#endif
