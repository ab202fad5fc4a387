/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* keys.h: the key -> action table; the help screen and the man-page test read it. */
#ifndef FLOWTOP_KEYS_H
#define FLOWTOP_KEYS_H

#define KEY_ESC 27 /* curses has no name for it */

enum ui_action {
	ACT_NONE,
	ACT_QUIT,
	ACT_HELP,
	ACT_SORT_LEFT,
	ACT_SORT_RIGHT,
	ACT_REVERSE,
	ACT_FILTER,
	ACT_IFACE,
	ACT_EXPR,
	ACT_DUMP,
	ACT_PAUSE,
	ACT_NAMES,
	ACT_BITS,
	ACT_TOTALS,
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_REDRAW,
	ACT_GRAPH,
	ACT_MOUSE,
	ACT_OPEN,
	ACT_BACK,
	ACT_STEP,
	ACT_FASTER,
	ACT_SLOWER,
	ACT_GROUP,
	ACT_GEO,
	ACT__COUNT,
};

/* What an action leaves to be done, which the screen's loop (ui.c) does (htop's
 * reaction bitmask); the screen is drawn again after every key anyway. */
enum ui_reaction {
	REACT_NONE = 0,
	REACT_REBUILD = 1u << 0,     /* the rows: filter, sort or names changed */
	REACT_FOLLOW = 1u << 1,	     /* the selection moved: build more rows if it left them */
	REACT_REPAINT = 1u << 2,     /* repaint every cell, not only those that changed */
	REACT_PICKER = 1u << 3,	     /* open the interface picker */
	REACT_PLAY_PAUSE = 1u << 4,  /* a capture file's replay: stop or go on */
	REACT_PLAY_STEP = 1u << 5,   /* one more sample of it */
	REACT_PLAY_FASTER = 1u << 6, /* twice as fast */
	REACT_PLAY_SLOWER = 1u << 7, /* half as fast */
};

struct key_binding {
	int keys[4];	   /* curses key codes; 0 ends the list */
	const char *label; /* how the help names them */
	const char *help;  /* what they do */
	enum ui_action action;
};

extern const struct key_binding key_bindings[];
extern const unsigned key_bindings_count;

/* The action bound to key ch, or ACT_NONE. No key runs a command or a shell. */
enum ui_action keys_action(int ch);

#endif
