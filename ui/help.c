// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* help.c: the help screen (see help.h): the key table's lines wrapped to the terminal's
 * width, its scrolling, and its drawing over the whole terminal. */
#include "help.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "keys.h"
#include "theme.h"

#define HELP_LINES_MAX 1024 /* the narrowest screen, 20 columns, takes some 350 */
#define MARGIN	       1    /* a blank column on either side */

int help_label_width(void)
{
	int width = 0, len;
	unsigned i;

	for (i = 0; i < key_bindings_count; i++) {
		len = (int)strlen(key_bindings[i].label);
		if (len > width)
			width = len;
	}
	return width;
}

int help_layout(int width, struct help_line *out, int max)
{
	int text_width = width - help_label_width() - HELP_LABEL_GAP, n = 0;
	unsigned i;

	if (text_width < 1)
		text_width = 1;
	for (i = 0; i < key_bindings_count; i++) {
		const char *p = key_bindings[i].help;
		bool first = true;

		do {
			int len = (int)strlen(p), cut = len;

			if (len > text_width) { /* cut at the last space that fits */
				for (cut = text_width; cut > 0 && p[cut] != ' '; cut--)
					;
				if (cut == 0)
					cut = text_width; /* a word longer than the column */
			}
			if (n < max)
				out[n] = (struct help_line){
					.binding = i, .first = first, .text = p, .len = cut
				};
			n++;
			first = false;
			for (p += cut; *p == ' '; p++)
				;
		} while (*p);
	}
	return n;
}

void help_scroll(int *top, int by, int total, int page)
{
	int last = total > page ? total - page : 0, to = *top + by;

	*top = to < 0 ? 0 : to > last ? last : to;
}

bool help_key(int ch, int *top, int total, int page)
{
	int by;

	if (ch == ' ') {
		by = page;
	} else {
		switch (keys_action(ch)) {
		case ACT_UP:
			by = -1;
			break;
		case ACT_DOWN:
			by = 1;
			break;
		case ACT_PAGE_UP:
			by = -page;
			break;
		case ACT_PAGE_DOWN:
			by = page;
			break;
		case ACT_HOME:
			by = -total;
			break;
		case ACT_END:
			by = total;
			break;
		default:
			return false;
		}
	}
	help_scroll(top, by, total, page);
	return true;
}

static int text_width(void)
{
	return COLS - 2 * MARGIN;
}

/* The lines laid out for the terminal now, the first HELP_LINES_MAX in out; how many
 * of them there are (no more than that). */
static int lines_now(struct help_line *out)
{
	int n = help_layout(text_width(), out, out ? HELP_LINES_MAX : 0);

	return n < HELP_LINES_MAX ? n : HELP_LINES_MAX;
}

int help_total_lines(void)
{
	return lines_now(NULL);
}

int help_page_lines(void)
{
	int page = LINES - 2; /* the title line, the last line */

	return page > 1 ? page : 1;
}

/* The columns text takes on the screen: its characters (UTF-8 lead bytes). */
static int columns_of(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += ((unsigned char)*text & 0xc0) != 0x80;
	return n;
}

/* The last line: where more of the help is, which keys show, how to close it; what fits
 * of that, in that order. */
static void draw_hint(const struct help_line *lines, int top, int total, int page, bool utf8)
{
	bool above = top > 0, below = top + page < total;
	int shown_end = below ? top + page : total, i;
	const char *where = above && below ? (utf8 ? "\u2191\u2193" : "^v")
			    : above	   ? (utf8 ? "\u2191" : "^")
					   : (utf8 ? "\u2193" : "v");
	char more[16], keys_shown[64], full[80];
	const char *hint[3] = { full, keys_shown, more }; /* the longest first */

	if (!above && !below) {
		hint[0] = " every key shown; q or Esc closes";
		hint[1] = " q or Esc closes";
		hint[2] = " q closes";
	} else {
		snprintf(more, sizeof(more), " %s more", where);
		snprintf(keys_shown, sizeof(keys_shown), "%s: keys %u-%u of %u", more,
			 lines[top].binding + 1, lines[shown_end - 1].binding + 1,
			 key_bindings_count);
		snprintf(full, sizeof(full), "%s; q closes", keys_shown);
	}
	for (i = 0; i < 2 && columns_of(hint[i]) > COLS; i++)
		;
	attron(theme_attr(THEME_BAR_LINE));
	mvhline(LINES - 1, 0, ' ', COLS);
	mvaddnstr(LINES - 1, 0, hint[i], (int)fmt_utf8_cut(hint[i], COLS > 0 ? (size_t)COLS : 0));
	attroff(theme_attr(THEME_BAR_LINE));
}

void help_draw(int top, bool utf8)
{
	static struct help_line lines[HELP_LINES_MAX];
	int total = lines_now(lines), page = help_page_lines(), label = help_label_width(), y;

	help_scroll(&top, 0, total, page);
	erase(); /* nothing of the table shows through */
	attron(theme_attr(THEME_BAR_LINE));
	mvhline(0, 0, ' ', COLS);
	mvaddnstr(0, 0, " flowtop keys", COLS);
	attroff(theme_attr(THEME_BAR_LINE));
	for (y = 0; y < page && top + y < total; y++) {
		const struct help_line *l = &lines[top + y];

		if (l->first) {
			attron(A_BOLD);
			mvaddstr(1 + y, MARGIN, key_bindings[l->binding].label);
			attroff(A_BOLD);
		}
		mvaddnstr(1 + y, MARGIN + label + HELP_LABEL_GAP, l->text, l->len);
	}
	if (total > 0)
		draw_hint(lines, top, total, page, utf8);
}
