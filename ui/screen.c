// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* screen.c: one frame drawn from a screen_state. Every frame is drawn whole into
 * curses' buffer; curses sends only the cells that changed, so nothing flickers. */
#include "screen.h"

#include <curses.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "column_layout.h"
#include "fmt.h"
#include "graph.h"
#include "help.h"
#include "spark.h"
#include "theme.h"

#define TOP_LINES      3 /* title, in/out, counters */
#define GRAPH_HEIGHT   3 /* rows per direction */
#define GRAPH_LINES    (2 * GRAPH_HEIGHT)
#define GRAPH_LABEL    20 /* " out peak 123 Mb/s " */
#define GRAPH_MIN_ROWS 4  /* the graph gives way below this many table rows */
#define MIN_COLS       20
#define MIN_LINES      6
#define ADDR_MIN       15
#define ADDR_MAX       39
#define LINK_LINES_MAX 8 /* header lines for the watched interfaces, a summary included */
/* The BPF cost is shown from this many frames a second: below, each frame meets cold
 * caches and pays for the statistics' clock reads alone, several times the cost. */
#define COST_MIN_RATE 1000

static bool utf8;	   /* block elements, else ASCII */
static bool graph_wanted;  /* screen_set_graph() */
static mmask_t mouse_mask; /* what screen_mouse(true) asks for */

/* Where the last frame put things, for screen_hit(). */
static struct {
	int title_y, first_row_y, rows, ncols;
	int x0[COL__COUNT], x1[COL__COUNT]; /* [x0, x1) of each column shown */
	enum col_id col[COL__COUNT];
	bool table; /* a table was drawn (not too small, no box over it) */
} drawn;

void screen_init(enum theme_color color, bool mouse)
{
	setlocale(LC_ALL, "");
	utf8 = spark_utf8_locale();
	initscr();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	theme_init(color);
	mouseinterval(0); /* presses at once; flowtop tells clicks from double clicks */
	mouse_mask = BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED;
	screen_mouse(mouse);
}

bool screen_mouse(bool on)
{
	mmask_t old;

	return mousemask(on ? mouse_mask : 0, &old) != 0 || !on;
}

/* Header lines the last frame gave the watched interfaces (see links_fit()). */
static int link_lines;

static bool graph_shown(void)
{
	return graph_wanted &&
	       LINES - TOP_LINES - link_lines - GRAPH_LINES - 1 /* titles */ -
		       2 /* status, footer */
		   >= GRAPH_MIN_ROWS &&
	       COLS >= GRAPH_LABEL + 10;
}

void screen_set_graph(bool on)
{
	graph_wanted = on;
}

bool screen_graph_by_default(void)
{
	return LINES >= SCREEN_GRAPH_LINES_AUTO;
}

static int header_lines(void)
{
	return TOP_LINES + link_lines + (graph_shown() ? GRAPH_LINES : 0);
}

void screen_end(void)
{
	if (!isendwin())
		endwin();
}

int screen_table_rows(void)
{
	int rows = LINES - header_lines() - 1 /* column titles */ - 2 /* status, footer */;

	return rows > 0 ? rows : 0;
}

int screen_width_for(const struct view *v, enum col_id col)
{
	int need = ADDR_MIN, c;

	for (c = 0; c < COL__COUNT; c++)
		if (c != COL_ADDR && column_in_view(c, view_columns(v)) &&
		    column_layout[c].keep >= column_layout[col].keep)
			need += 1 + column_layout[c].width;
	return need;
}

/* The columns that fit in the width (screen_width_for()), in table order; the address
 * takes what is left, up to the longest IPv6 address. Returns how many, and the
 * address width. */
static int layout(const struct view *v, enum col_id *shown, int *addr_width)
{
	int used = ADDR_MIN, n = 0, c;

	for (c = 0; c < COL__COUNT; c++) {
		if (c != COL_ADDR &&
		    (!column_in_view(c, view_columns(v)) || screen_width_for(v, c) > COLS))
			continue;
		if (c != COL_ADDR)
			used += 1 + column_layout[c].width;
		shown[n++] = (enum col_id)c;
	}
	*addr_width = ADDR_MIN + (COLS - used);
	if (*addr_width > ADDR_MAX)
		*addr_width = ADDR_MAX;
	if (*addr_width > COLS)
		*addr_width = COLS;
	return n;
}

/* A rate of bytes_per_s in the table's unit ('b'): bits or bytes per second. */
static const char *rate_text(const struct view *v, double bytes_per_s, char *buf, size_t len)
{
	return fmt_scaled(v->bits ? bytes_per_s * 8 : bytes_per_s, v->bits ? "b/s" : "B/s", buf,
			  len);
}

/* A header line, built in pieces, then drawn cut at the terminal's width (between
 * characters: an expression or an AS name may be UTF-8): curses would wrap the rest
 * onto the lines below, under the table's. */
struct line {
	char text[1024];
	size_t len;
};

static void line_add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line_add(struct line *l, const char *fmt, ...)
{
	size_t room = sizeof(l->text) - l->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->text + l->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Draws l at line y and empties it for the next. */
static void line_draw(struct line *l, int y)
{
	mvaddnstr(y, 0, l->text, (int)fmt_utf8_cut(l->text, COLS > 0 ? (size_t)COLS : 0));
	l->len = 0;
	l->text[0] = '\0';
}

/* In the conversation view, lines 1 and 2: the focus, and its traffic by protocol in
 * the last sample and since the view opened. */
static void draw_conversation_header(const struct screen_state *s, struct line *l)
{
	double dt = s->totals->interval > 0 ? s->totals->interval : 1;
	int secs = (int)s->conv_elapsed, p;
	char rate[16], total[16];

	line_add(l,
		 s->conv_of_port
		     ? " hosts on %s, counted for %02d:%02d:%02d; RX and TX are each host's"
		     : " conversations of %s, counted for %02d:%02d:%02d; RX and TX are its own",
		 s->conv_focus, secs / 3600, secs / 60 % 60, secs % 60);
	line_draw(l, 1);
	for (p = 0; p < CONVO__PROTOS; p++) {
		const struct convo_proto_counts *c = &s->conv_protos[p];
		double r = (double)c->delta_bytes / dt;

		rate_text(s->view, r, rate, sizeof(rate));
		fmt_scaled((double)c->bytes, "B", total, sizeof(total));
		line_add(l, " %s %s (%s) ", convo_proto_name((enum convo_proto)p), rate, total);
	}
	line_draw(l, 2);
}

static void draw_header(const struct screen_state *s)
{
	const struct flow_totals *t = s->totals;
	char a[16], b[16], c[16], d[16], e[16], f[16], g[16], h[16], cost[64];
	struct line l = { .len = 0 };
	size_t i;
	double dt = t->interval > 0 ? t->interval : 1;
	uint64_t in_f = t->delta.frames - t->delta.out_frames,
		 in_b = t->delta.bytes - t->delta.out_bytes;
	int secs = (int)s->elapsed;

	attron(theme_attr(THEME_BAR_LINE));
	mvhline(0, 0, ' ', COLS);
	if (s->replay)
		line_add(&l, " flowtop  %s%s%s%s  %s  hosts %llu/%llu", s->iface,
			 s->expr ? "  '" : "", s->expr ? s->expr : "", s->expr ? "'" : "",
			 s->replay, (unsigned long long)t->live_hosts,
			 (unsigned long long)t->capacity);
	else
		/* the state by the interface's name, the expression after them */
		line_add(
		    &l, " flowtop  %s (%s)%s%s%s%s%s  up %02d:%02d:%02d  hosts %llu/%llu", s->iface,
		    s->iface_lost ? "GONE"
		    : s->iface_up ? "up"
				  : "down",
		    s->netns ? " in netns " : "", s->netns ? s->netns : "", s->expr ? "  '" : "",
		    s->expr ? s->expr : "", s->expr ? "'" : "", secs / 3600, secs / 60 % 60,
		    secs % 60, (unsigned long long)t->live_hosts, (unsigned long long)t->capacity);
	line_add(&l, "%s%s%s%s%s", s->rows_are ? "  " : "", s->rows_are ? s->rows_are : "",
		 s->view->paused ? "  PAUSED" : "", s->view->filter.kind ? "  row filter: " : "",
		 s->view->filter.text);
	line_draw(&l, 0);
	attroff(theme_attr(THEME_BAR_LINE));
	if (s->conv_focus) {
		draw_conversation_header(s, &l);
		return;
	}
	line_add(&l, " in  %s %s  (%s, %s)   out %s %s  (%s, %s)",
		 rate_text(s->view, (double)in_b / dt, a, sizeof(a)),
		 fmt_scaled((double)in_f / dt, "p/s", b, sizeof(b)),
		 fmt_scaled((double)(t->total.bytes - t->total.out_bytes), "B", c, sizeof(c)),
		 fmt_scaled((double)(t->total.frames - t->total.out_frames), "p", d, sizeof(d)),
		 rate_text(s->view, (double)t->delta.out_bytes / dt, e, sizeof(e)),
		 fmt_scaled((double)t->delta.out_frames / dt, "p/s", f, sizeof(f)),
		 fmt_scaled((double)t->total.out_bytes, "B", g, sizeof(g)),
		 fmt_scaled((double)t->total.out_frames, "p", h, sizeof(h)));
	line_draw(&l, 1);
	if (!s->cost.known)
		snprintf(cost, sizeof(cost), "n/a");
	else if ((double)s->cost.frames / dt < COST_MIN_RATE)
		snprintf(cost, sizeof(cost), "- (under %d frames/s)", COST_MIN_RATE);
	else
		snprintf(cost, sizeof(cost), "%.0f ns/frame%s", s->cost.ns,
			 s->cost.expression ? " with the expression" : "");
	for (i = 0; i < stats_nfields; i++)
		if (stats_fields[i].text)
			line_add(&l, " %s %llu ", stats_fields[i].text,
				 (unsigned long long)stats_value(&t->total, &stats_fields[i]));
	line_add(&l, " evicted %llu ", (unsigned long long)t->evicted);
	if (t->waiting)
		line_add(&l, " waiting %llu ", (unsigned long long)t->waiting);
	line_add(&l, " BPF cost %s", cost);
	line_draw(&l, 2);
}

/* The interfaces a line each: those with a slot, and frames without one once there
 * were any. */
static size_t link_count(const struct screen_state *s, size_t *order)
{
	const struct flow_totals *t = s->totals;
	size_t n = 0, i, j;

	for (i = 0; i < s->nlinks; i++)
		if (totals_have_slot(t, s->links[i].slot))
			order[n++] = i;
	if (totals_have_no_slot(t))
		order[n++] = s->nlinks; /* "other" */
	/* busiest first over the last sample, then as listed: insertion, n is small */
	for (i = 1; i < n; i++) {
		size_t k = order[i];
		unsigned sk = k < s->nlinks ? s->links[k].slot : TOTALS_SLOT_OTHER;

		for (j = i; j > 0; j--) {
			size_t p = order[j - 1];
			unsigned sp = p < s->nlinks ? s->links[p].slot : TOTALS_SLOT_OTHER;

			if (t->slot_delta[sp].bytes >= t->slot_delta[sk].bytes)
				break;
			order[j] = p;
		}
		order[j] = k;
	}
	return n;
}

/* Lines for the interfaces: one each while they fit beside a table of GRAPH_MIN_ROWS
 * rows (at most LINK_LINES_MAX), the last of them then summing the rest; none with
 * one interface, or in the conversation view. */
static int links_fit(const struct screen_state *s, size_t n)
{
	int room = LINES - TOP_LINES - 1 /* titles */ - 2 /* status, footer */ - GRAPH_MIN_ROWS;

	if (!s->view->several || s->conv_focus || !n || room < 1)
		return 0;
	if (room > LINK_LINES_MAX)
		room = LINK_LINES_MAX;
	return (size_t)room < n ? room : (int)n;
}

static void link_line(const struct view *v, int y, const char *name, const char *state,
		      const struct flow_stats *d, const struct flow_stats *tot, double dt)
{
	char a[16], b[16], c[16], e[16], f[16], g[16];

	mvprintw(y, 0, " %-15.15s %-5s in %9s %9s (%s)  out %9s %9s (%s)", name, state,
		 rate_text(v, (double)(d->bytes - d->out_bytes) / dt, a, sizeof(a)),
		 fmt_scaled((double)(d->frames - d->out_frames) / dt, "p/s", b, sizeof(b)),
		 fmt_scaled((double)(tot->bytes - tot->out_bytes), "B", c, sizeof(c)),
		 rate_text(v, (double)d->out_bytes / dt, e, sizeof(e)),
		 fmt_scaled((double)d->out_frames / dt, "p/s", f, sizeof(f)),
		 fmt_scaled((double)tot->out_bytes, "B", g, sizeof(g)));
}

static void draw_links(const struct screen_state *s, int y, const size_t *order, size_t n)
{
	const struct flow_totals *t = s->totals;
	double dt = t->interval > 0 ? t->interval : 1;
	struct flow_stats rest_d = {}, rest_t = {};
	char more[32];
	size_t i, shown;

	if (!link_lines)
		return;
	shown = (size_t)link_lines < n ? (size_t)link_lines - 1 : n;
	for (i = 0; i < n; i++) {
		const struct iface_watch *l = order[i] < s->nlinks ? &s->links[order[i]] : NULL;
		unsigned slot = l ? l->slot : TOTALS_SLOT_OTHER;

		if (i < shown) {
			link_line(s->view, y + (int)i, l ? l->info.name : "(no slot)",
				  !l	       ? ""
				  : l->gone    ? "GONE"
				  : l->info.up ? "up"
					       : "down",
				  &t->slot_delta[slot], &t->slot_total[slot], dt);
			continue;
		}
#define ADD(field, json, text, family, help)                                                       \
	rest_d.field += t->slot_delta[slot].field;                                                 \
	rest_t.field += t->slot_total[slot].field;
		FLOW_STATS_FIELDS(ADD)
#undef ADD
	}
	if (shown < n) {
		snprintf(more, sizeof(more), "+%zu more", n - shown);
		link_line(s->view, y + (int)shown, more, "", &rest_d, &rest_t, dt);
	}
}

/* The interface's traffic over the last samples, in then out, each scaled to the peak
 * of what fits, with that peak beside it. */
static void draw_graph(const struct screen_state *s, int y)
{
	static const char *const label[2] = { " in  peak ", " out peak " };
	const enum theme_role role[2] = { THEME_IN, THEME_OUT };
	unsigned n = (unsigned)(COLS - GRAPH_LABEL), i;
	double v[GRAPH_SAMPLES];
	char row[GRAPH_SAMPLES * 3 + 1], peak_text[16];
	int d, r;

	if (n > GRAPH_SAMPLES)
		n = GRAPH_SAMPLES;
	for (d = GRAPH_IN; d <= GRAPH_OUT; d++) {
		double peak = 0;

		graph_last(s->graph, (enum graph_dir)d, n, v);
		for (i = 0; i < n; i++)
			peak = v[i] > peak ? v[i] : peak;
		rate_text(s->view, peak, peak_text, sizeof(peak_text));
		mvprintw(y, 0, "%s%-*s", label[d], GRAPH_LABEL - (int)strlen(label[d]), peak_text);
		for (r = 0; r < GRAPH_HEIGHT; r++) {
			graph_row(v, n, peak, GRAPH_HEIGHT, r, utf8, row, sizeof(row));
			attron(theme_attr(role[d]));
			mvaddstr(y + r, GRAPH_LABEL, row);
			attroff(theme_attr(role[d]));
		}
		y += GRAPH_HEIGHT;
	}
}

/* The sparkline of a row: its last 40 samples both ways, two to a cell. */
static void draw_history(const struct screen_state *s, const struct row *row, int y, int x, int w,
			 bool selected)
{
	double v[HISTORY_SLOTS];
	char line[HISTORY_SLOTS * 3 + 1];

	host_history(&s->view->clock, &row->hist, v, HISTORY_SLOTS);
	spark_format(v, HISTORY_SLOTS, (unsigned)w, utf8, line, sizeof(line));
	if (!selected)
		attron(theme_attr(THEME_IN));
	mvaddstr(y, x, line);
	if (!selected)
		attroff(theme_attr(THEME_IN));
}

/* The address column's title on a table of groups. */
static const char *group_title(const struct groups *g)
{
	switch (groups_by(g)) {
	case GROUP_PREFIX:
		return "PREFIX";
	case GROUP_AS:
		return "AS";
	case GROUP_COUNTRY:
		return "COUNTRY";
	case GROUP_PORT:
		return "PORT";
	case GROUP_HOST:
		break;
	}
	return "ADDRESS";
}

static void draw_table(const struct screen_state *s, int y0)
{
	const struct view *v = s->view;
	enum col_id shown[COL__COUNT];
	int n, aw, i, y, x, rows = screen_table_rows();
	char cell[64];
	size_t r;

	n = layout(v, shown, &aw);
	drawn.title_y = y0;
	drawn.first_row_y = y0 + 1;
	drawn.rows = rows;
	drawn.ncols = n;
	attron(theme_attr(THEME_TITLES));
	mvhline(y0, 0, ' ', COLS);
	for (i = 0, x = 0; i < n; i++) {
		const struct column *c = &columns[shown[i]];
		int w = shown[i] == COL_ADDR ? aw : column_layout[shown[i]].width;

		if (shown[i] == v->sort)
			attron(theme_attr(THEME_SORTED));
		/* the arrow tells the order shown: numbers fall, addresses rise, unless 'r' */
		snprintf(cell, sizeof(cell), "%s%s",
			 shown[i] == COL_ADDR && v->groups ? group_title(v->groups)
							   : column_layout[shown[i]].title,
			 shown[i] != v->sort		    ? ""
			 : (c->value != NULL) != v->reverse ? " v"
							    : " ^");
		mvprintw(y0, x,
			 c->kind == KIND_RATE || c->kind == KIND_PACKETS || c->kind == KIND_BYTES ||
				 c->kind == KIND_COUNT
			     ? "%*.*s"
			     : "%-*.*s",
			 w, w, cell);
		if (shown[i] == v->sort) {
			attroff(theme_attr(THEME_SORTED));
			attron(theme_attr(THEME_TITLES));
		}
		drawn.col[i] = shown[i];
		drawn.x0[i] = x;
		drawn.x1[i] = x + w + 1; /* the space after it belongs to it */
		x += w + 1;
	}
	attroff(theme_attr(THEME_TITLES));
	for (y = 0, r = v->top; y < rows && r < v->nbuilt; y++, r++) {
		const struct row *row = &v->rows[r];
		bool selected = r == v->selected;
		int line = y0 + 1 + y;

		if (selected)
			attron(theme_attr(THEME_SELECTED));
		mvhline(line, 0, ' ', COLS);
		for (i = 0, x = 0; i < n; i++) {
			const struct column *c = &columns[shown[i]];
			int w = shown[i] == COL_ADDR ? aw : column_layout[shown[i]].width;

			if (c->kind == KIND_HISTORY) {
				draw_history(s, row, line, x, w, selected);
			} else {
				column_format(shown[i], row, v->bits, cell,
					      (size_t)w < sizeof(cell) ? (size_t)w + 1
								       : sizeof(cell));
				if (c->kind == KIND_BAR && !selected)
					attron(theme_attr(THEME_SHARE));
				mvprintw(line, x,
					 c->kind == KIND_TEXT || c->kind == KIND_BAR ||
						 column_is_text(shown[i])
					     ? "%-*.*s"
					     : "%*.*s",
					 w, w, cell);
				if (c->kind == KIND_BAR && !selected)
					attroff(theme_attr(THEME_SHARE));
			}
			x += w + 1;
		}
		if (selected)
			attroff(theme_attr(THEME_SELECTED));
	}
	if (!v->nrows)
		mvprintw(y0 + 2, 2, "%s",
			 v->filter.kind ? (v->groups ? "no group matches the row filter"
						     : "no host matches the row filter")
					: "no traffic yet");
}

static int prompt_cursor_x; /* where draw_prompt() left the cursor */

/* The prompt's label and line, the line scrolled to keep the cursor in view, an offered
 * old value in reverse video. */
static void draw_prompt(const struct screen_state *s)
{
	const char *text = s->prompt_text ? s->prompt_text : "";
	int label = (int)strlen(s->prompt), room = COLS - label - 1, cur = (int)s->prompt_cursor;
	int from = 0;

	mvprintw(LINES - 2, 0, "%.*s", COLS, s->prompt);
	if (room < 1) {
		prompt_cursor_x = COLS - 1;
		return;
	}
	if (cur > room)
		from = cur - room;
	if (s->prompt_offered)
		attron(A_REVERSE);
	printw("%.*s", room + 1, text + from);
	if (s->prompt_offered)
		attroff(A_REVERSE);
	prompt_cursor_x = label + cur - from;
}

static void draw_footer(const struct screen_state *s)
{
	static const char keys[] = " h Help  q Quit  < > Sort  r Rev  / Filter  i Iface  d Dump  "
				   "p Pause  n DNS  b Bits  t Totals  g Graph";

	move(LINES - 2, 0);
	clrtoeol();
	if (s->prompt) {
		draw_prompt(s);
		curs_set(1);
	} else {
		curs_set(0);
		if (s->status)
			mvprintw(LINES - 2, 0, " %s", s->status);
	}
	attron(theme_attr(THEME_BAR_LINE));
	mvhline(LINES - 1, 0, ' ', COLS);
	mvprintw(LINES - 1, 0, "%.*s", COLS, keys);
	attroff(theme_attr(THEME_BAR_LINE));
	if (s->prompt)
		move(LINES - 2, prompt_cursor_x);
}

/* Lines of the picker's box that are not entries (its top and bottom lines, a blank line
 * under each), and of the screen it leaves to the status line and the footer. */
#define PICKER_CHROME 4
#define PICKER_BELOW  2

/* A box in the middle of the screen above the status line and the footer, clipped to
 * it. */
static void box_at(int h, int w, int *y0, int *x0)
{
	int y, x, room = LINES - PICKER_BELOW; /* the status line and the footer stay */

	if (h > room)
		h = room;
	if (w > COLS)
		w = COLS;
	*y0 = room > h ? (room - h) / 2 : 0;
	*x0 = (COLS - w) / 2;
	for (y = 0; y < h; y++)
		mvhline(*y0 + y, *x0, ' ', w);
	for (x = 0; x < w; x++) {
		mvaddch(*y0, *x0 + x, '-');
		mvaddch(*y0 + h - 1, *x0 + x, '-');
	}
}

int screen_picker_rows(void)
{
	int rows = LINES - PICKER_BELOW - PICKER_CHROME;

	return rows > 1 ? rows : 1;
}

/* The box of entries, scrolled to p->top (kept within them here too: the terminal may
 * have shrunk since); where not all fit, the title says which are shown. */
static void draw_picker(const struct screen_state *s)
{
	const struct picker *p = s->picker;
	int rows = screen_picker_rows(), top, h, w = 48, y0, x0, i;

	if (rows > p->count)
		rows = p->count;
	top = picker_top(p, rows); /* the terminal may have shrunk since the last key */
	h = rows + PICKER_CHROME;
	box_at(h, w, &y0, &x0);
	if (rows < p->count)
		mvprintw(y0, x0 + 2, " watch which interface? %d-%d of %d ", top + 1, top + rows,
			 p->count);
	else
		mvprintw(y0, x0 + 2, " watch which interface? ");
	for (i = top; i < top + rows; i++) {
		if (i == p->selected)
			attron(A_REVERSE);
		mvprintw(y0 + 2 + i - top, x0 + 2, "[%c] %-*s %-8s%s", p->marked[i] ? 'x' : ' ',
			 IF_NAMESIZE, p->names[i], p->states[i], p->now[i] ? " (now)" : "");
		attroff(A_REVERSE);
	}
	mvprintw(y0 + h - 1, x0 + 2, " Space marks, Enter picks, Esc cancels ");
}

void screen_draw(const struct screen_state *s)
{
	size_t order[TOTALS_SLOTS + 1], nl;
	bool picking;

	erase();
	drawn.table = false;
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		mvprintw(0, 0, "%.*s", COLS, "flowtop: terminal too small");
		refresh();
		return;
	}
	if (s->help) { /* the whole terminal */
		curs_set(0);
		help_draw(s->help_top, utf8);
		refresh();
		return;
	}
	nl = link_count(s, order);
	link_lines = links_fit(s, nl);
	draw_header(s);
	draw_links(s, TOP_LINES, order, nl);
	if (graph_shown())
		draw_graph(s, TOP_LINES + link_lines);
	draw_table(s, header_lines());
	picking = s->picker && s->picker->count > 0;
	drawn.table = !picking && !s->prompt;
	if (picking)
		draw_picker(s);
	draw_footer(s);
	refresh();
}

struct screen_hit screen_hit(int y, int x)
{
	struct screen_hit h = { .kind = HIT_NONE };
	int i;

	if (!drawn.table)
		return h;
	if (y == drawn.title_y) {
		for (i = 0; i < drawn.ncols; i++)
			if (x >= drawn.x0[i] && x < drawn.x1[i]) {
				h.kind = HIT_TITLE;
				h.col = drawn.col[i];
			}
	} else if (y >= drawn.first_row_y && y < drawn.first_row_y + drawn.rows) {
		h.kind = HIT_ROW;
		h.row = y - drawn.first_row_y;
	}
	return h;
}
