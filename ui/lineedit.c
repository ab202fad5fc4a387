// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* lineedit.c: a line of text, its cursor and the keys that edit it (see lineedit.h). */
#include "lineedit.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define CTRL_KEY(c) ((c)&0x1f)
#define KEY_ESCAPE  27
#define KEY_DEL	    127

/* The line becomes s, the cursor at its end, nothing offered. */
static void set_line(struct lineedit *e, const char *s)
{
	snprintf(e->buf, sizeof(e->buf), "%s", s ? s : "");
	e->len = e->cursor = strlen(e->buf);
	e->offered = false;
}

void lineedit_start(struct lineedit *e, const char *old, struct lineedit_history *h)
{
	set_line(e, old);
	e->offered = e->len > 0; /* an empty line has nothing to replace */
	e->history = h;
	e->recalled = h ? h->n : 0;
	e->draft[0] = '\0';
}

/* Removes [from, to) from the line, the cursor at from. */
static void cut(struct lineedit *e, size_t from, size_t to)
{
	memmove(e->buf + from, e->buf + to, e->len - to + 1);
	e->len -= to - from;
	e->cursor = from;
}

/* The start of the word before the cursor: blanks, then what is not blank, as
 * readline's unix-word-rubout (Ctrl-W) takes them. */
static size_t word_start(const struct lineedit *e)
{
	size_t i = e->cursor;

	while (i > 0 && e->buf[i - 1] == ' ')
		i--;
	while (i > 0 && e->buf[i - 1] != ' ')
		i--;
	return i;
}

/* Up (-1, older) or Down (+1, newer) through the history; past the newest, the line
 * typed before the first Up. */
static void recall(struct lineedit *e, int dir)
{
	struct lineedit_history *h = e->history;
	int to;

	if (!h)
		return;
	to = e->recalled + dir;
	if (to < 0 || to > h->n)
		return;
	if (e->recalled == h->n)
		snprintf(e->draft, sizeof(e->draft), "%s", e->buf);
	e->recalled = to;
	set_line(e, to == h->n ? e->draft : h->item[to]);
}

enum lineedit_result lineedit_key(struct lineedit *e, int ch)
{
	bool offered = e->offered;

	e->offered = false; /* any key but a character typed takes the old value as it is */
	switch (ch) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		return LINEEDIT_ENTER;
	case KEY_ESCAPE:
		return LINEEDIT_ESCAPE;
	case KEY_BACKSPACE:
	case KEY_DEL:
	case CTRL_KEY('h'):
		if (e->cursor > 0)
			cut(e, e->cursor - 1, e->cursor);
		break;
	case KEY_DC:
	case CTRL_KEY('d'):
		if (e->cursor < e->len)
			cut(e, e->cursor, e->cursor + 1);
		break;
	case KEY_LEFT:
	case CTRL_KEY('b'):
		if (e->cursor > 0)
			e->cursor--;
		break;
	case KEY_RIGHT:
	case CTRL_KEY('f'):
		if (e->cursor < e->len)
			e->cursor++;
		break;
	case KEY_HOME:
	case CTRL_KEY('a'):
		e->cursor = 0;
		break;
	case KEY_END:
	case CTRL_KEY('e'):
		e->cursor = e->len;
		break;
	case CTRL_KEY('u'):
		cut(e, 0, e->cursor);
		break;
	case CTRL_KEY('k'):
		cut(e, e->cursor, e->len);
		break;
	case CTRL_KEY('w'):
		cut(e, word_start(e), e->cursor);
		break;
	case KEY_UP:
		recall(e, -1);
		break;
	case KEY_DOWN:
		recall(e, 1);
		break;
	default:
		if (ch < 0x20 || ch >= 0x7f) {
			e->offered = offered; /* not a key of the line's: nothing changes */
			break;
		}
		if (offered)
			set_line(e, "");
		if (e->len >= LINEEDIT_MAX)
			break;
		memmove(e->buf + e->cursor + 1, e->buf + e->cursor, e->len - e->cursor + 1);
		e->buf[e->cursor++] = (char)ch;
		e->len++;
		break;
	}
	return LINEEDIT_EDITING;
}

void lineedit_remember(struct lineedit_history *h, const char *s)
{
	int i;

	if (!s[0])
		return;
	for (i = 0; i < h->n; i++)
		if (!strcmp(h->item[i], s))
			break;
	if (i == h->n && h->n == LINEEDIT_HISTORY)
		i = 0; /* full: the oldest goes */
	if (i < h->n) {
		memmove(h->item[i], h->item[i + 1], (size_t)(h->n - i - 1) * sizeof(h->item[0]));
		h->n--;
	}
	snprintf(h->item[h->n++], sizeof(h->item[0]), "%s", s);
}
