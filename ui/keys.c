// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* keys.c: every key flowtop answers to, once; htop's F-keys on the actions they name
 * there (F1 help, F3 search and F4 filter: the filter, F6 sort, F10 quit). */
#include "keys.h"

#include <curses.h>

#define CTRL(c) ((c)&0x1f)

const struct key_binding key_bindings[] = {
	{ { 'h', '?', KEY_F(1) }, "h ? F1", "show or close this help", ACT_HELP },
	{ { 'q', KEY_F(10) }, "q F10", "quit (Ctrl-C too)", ACT_QUIT },
	{ { '<' }, "<", "sort by the column to the left", ACT_SORT_LEFT },
	{ { '>', KEY_F(6) }, "> F6", "sort by the column to the right", ACT_SORT_RIGHT },
	{ { 'r' }, "r", "reverse the sort order", ACT_REVERSE },
	{ { '/', KEY_F(3), KEY_F(4) },
	  "/ F3 F4",
	  "filter: CIDR, address or text; Esc clears",
	  ACT_FILTER },
	{ { 'i' }, "i", "pick the interface to watch", ACT_IFACE },
	{ { 'e' },
	  "e",
	  "count only what an expression matches (tcp port 443); empty: all",
	  ACT_EXPR },
	{ { 'd' }, "d", "dump the rows to a file (.json, .csv, text)", ACT_DUMP },
	{ { 'p', 'P', ' ' },
	  "p P Space",
	  "pause the screen (counting goes on; a capture stops)",
	  ACT_PAUSE },
	{ { '.' }, ".", "a capture (-r): pause and step one sample", ACT_STEP },
	{ { '+' }, "+", "a capture (-r): replay twice as fast (past x1024: at once)", ACT_FASTER },
	{ { '-' }, "-", "a capture (-r): replay half as fast", ACT_SLOWER },
	{ { 'n' }, "n", "show reverse DNS names", ACT_NAMES },
	{ { 'b' }, "b", "rates in bits or bytes per second", ACT_BITS },
	{ { 't' }, "t", "rates view or cumulative totals view", ACT_TOTALS },
	{ { 'g' }, "g", "show or hide the traffic graph", ACT_GRAPH },
	{ { 'm' }, "m", "mouse on or off (off: the terminal selects text)", ACT_MOUSE },
	{ { 'a' }, "a", "rows by host, prefix, AS, country or port, in turn", ACT_GROUP },
	{ { 'c' }, "c", "show or hide the hosts' AS and country columns", ACT_GEO },
	{ { '\r', '\n', KEY_ENTER },
	  "Enter",
	  "the selected host's conversations, the selected group's hosts, or the hosts on the "
	  "selected port",
	  ACT_OPEN },
	{ { KEY_ESC },
	  "Esc",
	  "back from the conversations or a group's hosts; else clears the filter",
	  ACT_BACK },
	{ { KEY_UP, 'k' }, "Up k", "select the row above", ACT_UP },
	{ { KEY_DOWN, 'j' }, "Down j", "select the row below", ACT_DOWN },
	{ { KEY_PPAGE }, "PgUp", "one page up", ACT_PAGE_UP },
	{ { KEY_NPAGE }, "PgDn", "one page down", ACT_PAGE_DOWN },
	{ { KEY_HOME }, "Home", "first row, and the top from then on", ACT_HOME },
	{ { KEY_END }, "End", "last row", ACT_END },
	{ { CTRL('l') }, "Ctrl-L", "redraw the screen", ACT_REDRAW },
};

const unsigned key_bindings_count = sizeof(key_bindings) / sizeof(key_bindings[0]);

enum ui_action keys_action(int ch)
{
	unsigned i, k;

	for (i = 0; i < key_bindings_count; i++)
		for (k = 0; k < 4 && key_bindings[i].keys[k]; k++)
			if (key_bindings[i].keys[k] == ch)
				return key_bindings[i].action;
	return ACT_NONE;
}
