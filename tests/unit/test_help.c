// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_help.c: the help screen's layout and keys, without a terminal: every key's text
 * wrapped to any width from the narrowest screen's, nothing lost or past the edge,
 * words cut only when longer than the column; the scrolling keys kept within the lines. */
#include "test.h"

#include <curses.h>

#include "help.h"
#include "keys.h"

#define LINES_MAX 4096

static struct help_line lines[LINES_MAX];

/* The lines of one width hold each key's text, in order, whole: each line starts where
 * the one before ended, less the spaces it was wrapped at. */
static void check_width(int width)
{
	int n = help_layout(width, lines, LINES_MAX), label = help_label_width(), i;
	int text_width = width - label - HELP_LABEL_GAP;
	unsigned b = 0;
	const char *next = NULL;

	if (!ASSERT_TRUE(n > 0 && n <= LINES_MAX))
		return;
	for (i = 0; i < n; i++) {
		const struct help_line *l = &lines[i];
		const char *help = key_bindings[l->binding].help;

		if (l->first) {
			if (next && *next)
				FAILF("width %d: key %u's text stops at '%s'", width, b, next);
			if (l->binding != (i ? b + 1 : 0))
				FAILF("width %d: line %d starts key %u after key %u", width, i,
				      l->binding, b);
			b = l->binding;
			next = help;
		} else if (l->binding != b) {
			FAILF("width %d: line %d goes on with key %u in key %u", width, i,
			      l->binding, b);
		}
		if (label + HELP_LABEL_GAP + l->len > width)
			FAILF("width %d: line %d is %d columns", width, i,
			      label + HELP_LABEL_GAP + l->len);
		while (!l->first && *next == ' ')
			next++;
		if (l->text != next)
			FAILF("width %d: line %d starts at '%.10s', not at '%.10s'", width, i,
			      l->text, next);
		next = l->text + l->len;
		/* a cut inside a word: only a word longer than the column */
		if (*next && *next != ' ' && l->len == text_width && memchr(l->text, ' ', l->len))
			FAILF("width %d: line %d cuts a word that fits the next: '%.*s'", width, i,
			      l->len, l->text);
	}
	if (b + 1 != key_bindings_count || (next && *next))
		FAILF("width %d: the lines end with key %u of %u", width, b, key_bindings_count);
}

static void test_every_width_holds_every_key(void)
{
	int width;

	for (width = 18; width <= 300; width++)
		check_width(width);
}

/* As wide as the longest text: a line a key, as the old box had them. */
static void test_wide_enough_one_line_a_key(void)
{
	int longest = 0, n;
	unsigned i;

	for (i = 0; i < key_bindings_count; i++)
		if ((int)strlen(key_bindings[i].help) > longest)
			longest = (int)strlen(key_bindings[i].help);
	n = help_layout(help_label_width() + HELP_LABEL_GAP + longest, lines, LINES_MAX);
	ASSERT_EQ(n, (int)key_bindings_count);
	n = help_layout(help_label_width() + HELP_LABEL_GAP + longest - 1, lines, LINES_MAX);
	ASSERT_TRUE(n > (int)key_bindings_count);
	ASSERT_EQ(help_layout(40, NULL, 0), help_layout(40, lines, LINES_MAX)); /* counts alone */
}

static void test_keys_scroll_within_the_lines(void)
{
	int top = 0;

	ASSERT_TRUE(help_key(KEY_DOWN, &top, 50, 8));
	ASSERT_EQ(top, 1);
	ASSERT_TRUE(help_key('j', &top, 50, 8));
	ASSERT_EQ(top, 2);
	ASSERT_TRUE(help_key(KEY_UP, &top, 50, 8));
	ASSERT_TRUE(help_key('k', &top, 50, 8));
	ASSERT_TRUE(help_key(KEY_UP, &top, 50, 8)); /* at the top already */
	ASSERT_EQ(top, 0);
	ASSERT_TRUE(help_key(KEY_NPAGE, &top, 50, 8));
	ASSERT_EQ(top, 8);
	ASSERT_TRUE(help_key(' ', &top, 50, 8));
	ASSERT_EQ(top, 16);
	ASSERT_TRUE(help_key(KEY_PPAGE, &top, 50, 8));
	ASSERT_EQ(top, 8);
	ASSERT_TRUE(help_key(KEY_END, &top, 50, 8)); /* the last page full */
	ASSERT_EQ(top, 42);
	ASSERT_TRUE(help_key(KEY_DOWN, &top, 50, 8));
	ASSERT_TRUE(help_key(KEY_NPAGE, &top, 50, 8));
	ASSERT_EQ(top, 42);
	ASSERT_TRUE(help_key(KEY_HOME, &top, 50, 8));
	ASSERT_EQ(top, 0);
	ASSERT_TRUE(help_key(KEY_END, &top, 5, 8)); /* it all fits: nowhere to go */
	ASSERT_EQ(top, 0);
	help_scroll(&top, HELP_WHEEL_LINES, 50, 8);
	ASSERT_EQ(top, HELP_WHEEL_LINES);
}

static void test_other_keys_close(void)
{
	static const int closing[] = { 'q', KEY_ESC, 'x', 'h', '?', KEY_F(1), '\r', 'p', '/' };
	size_t i;
	int top = 3;

	for (i = 0; i < sizeof(closing) / sizeof(closing[0]); i++)
		if (help_key(closing[i], &top, 50, 8))
			FAILF("key %d scrolls the help, where it should close it", closing[i]);
	ASSERT_EQ(top, 3);
}

int main(void)
{
	RUN_TEST(test_every_width_holds_every_key);
	RUN_TEST(test_wide_enough_one_line_a_key);
	RUN_TEST(test_keys_scroll_within_the_lines);
	RUN_TEST(test_other_keys_close);
	return test_summary("test_help");
}
