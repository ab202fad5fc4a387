/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lineedit.h: the prompts' line editor, as readline users expect it: the old value
 * offered (shown selected: the first character typed replaces it, an editing key keeps
 * it), a cursor, the kill keys, and a history of the prompt's last values. It takes
 * curses key codes and draws nothing: unit tests drive it without a terminal. */
#ifndef FLOWTOP_LINEEDIT_H
#define FLOWTOP_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#define LINEEDIT_MAX	 200 /* characters on the line */
#define LINEEDIT_HISTORY 8   /* values a prompt remembers */

/* The last values entered at one prompt, the oldest first. */
struct lineedit_history {
	char item[LINEEDIT_HISTORY][LINEEDIT_MAX + 1];
	int n; /* items kept */
};

struct lineedit {
	char buf[LINEEDIT_MAX + 1];	  /* the line, NUL-terminated */
	size_t len;			  /* its length */
	size_t cursor;			  /* where a character typed goes, 0..len */
	bool offered;			  /* buf is the old value, selected: a character
					   * typed replaces it */
	struct lineedit_history *history; /* Up and Down walk it, or NULL */
	int recalled;			  /* the history item shown; history->n: none */
	char draft[LINEEDIT_MAX + 1];	  /* the line typed before Up, for Down to return */
};

enum lineedit_result {
	LINEEDIT_EDITING, /* the key was taken (or ignored): go on */
	LINEEDIT_ENTER,	  /* Enter: buf is the answer */
	LINEEDIT_ESCAPE,  /* Esc: the prompt was left */
};

/* Opens the line with old (may be NULL) offered, the cursor at its end. */
void lineedit_start(struct lineedit *e, const char *old, struct lineedit_history *h);

/* One key (a curses code): printable ASCII is typed; Backspace, Delete (Ctrl-D), Left
 * (Ctrl-B), Right (Ctrl-F), Home (Ctrl-A), End (Ctrl-E), Ctrl-U (kill to the start),
 * Ctrl-K (kill to the end), Ctrl-W (kill the word before the cursor), Up and Down
 * (history) edit; Enter and Esc end. Others are ignored. */
enum lineedit_result lineedit_key(struct lineedit *e, int ch);

/* Remembers s (not empty) as the newest value, the oldest forgotten when full; s once
 * only (an earlier copy moves up). */
void lineedit_remember(struct lineedit_history *h, const char *s);

#endif
