// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_lineedit.c: the prompts' line editor, key by key, without a terminal: the old
 * value offered and replaced or kept, the cursor keys, the kill keys and the history. */
#include "test.h"

#include <curses.h>

#include "lineedit.h"

#define CTRL(c) ((c)&0x1f)

/* Types the keys of s, each character a key. */
static void type(struct lineedit *e, const char *s)
{
	while (*s)
		ASSERT_EQ(lineedit_key(e, (unsigned char)*s++), LINEEDIT_EDITING);
}

/* The line with the cursor drawn as '|', to check both at once. */
static const char *line(const struct lineedit *e)
{
	static char buf[LINEEDIT_MAX + 2];

	snprintf(buf, sizeof(buf), "%.*s|%s", (int)e->cursor, e->buf, e->buf + e->cursor);
	return buf;
}

static void test_typing_replaces_the_old_value(void)
{
	struct lineedit e;

	lineedit_start(&e, "192.0.2.0/30", NULL);
	ASSERT_TRUE(e.offered);
	ASSERT_STREQ(line(&e), "192.0.2.0/30|");
	type(&e, "10.255");
	ASSERT_TRUE(!e.offered);
	ASSERT_STREQ(line(&e), "10.255|");
	lineedit_start(&e, NULL, NULL); /* nothing to offer */
	ASSERT_TRUE(!e.offered);
	type(&e, "ab");
	ASSERT_STREQ(line(&e), "ab|");
}

static void test_editing_keys_keep_the_old_value(void)
{
	static const int keys[] = { KEY_LEFT, KEY_RIGHT, KEY_END, KEY_HOME, CTRL('a'), CTRL('e') };
	struct lineedit e;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		lineedit_start(&e, "10.0.0.0/8", NULL);
		ASSERT_EQ(lineedit_key(&e, keys[i]), LINEEDIT_EDITING);
		if (e.offered || strcmp(e.buf, "10.0.0.0/8"))
			FAILF("key %d: '%s', offered %d", keys[i], e.buf, e.offered);
		type(&e, "x");
		if (!strchr(e.buf, 'x') || strlen(e.buf) != 11)
			FAILF("key %d, then x: '%s'", keys[i], e.buf);
	}
	lineedit_start(&e, "10.0.0.0/8", NULL);
	lineedit_key(&e, KEY_BACKSPACE); /* the last character goes, the rest stays */
	type(&e, "16");
	ASSERT_STREQ(line(&e), "10.0.0.0/16|");
	lineedit_start(&e, "10.0.0.0/8", NULL);
	lineedit_key(&e, KEY_RESIZE); /* not the line's key: still offered */
	ASSERT_TRUE(e.offered);
}

static void test_cursor_keys(void)
{
	struct lineedit e;

	lineedit_start(&e, NULL, NULL);
	type(&e, "10.0.0.1");
	lineedit_key(&e, KEY_LEFT);
	lineedit_key(&e, CTRL('b'));
	ASSERT_STREQ(line(&e), "10.0.0|.1");
	type(&e, "9");
	ASSERT_STREQ(line(&e), "10.0.09|.1");
	lineedit_key(&e, KEY_RIGHT);
	ASSERT_STREQ(line(&e), "10.0.09.|1");
	lineedit_key(&e, CTRL('f'));
	lineedit_key(&e, KEY_RIGHT); /* not past the end */
	ASSERT_STREQ(line(&e), "10.0.09.1|");
	lineedit_key(&e, KEY_HOME);
	lineedit_key(&e, KEY_LEFT); /* nor before the start */
	ASSERT_STREQ(line(&e), "|10.0.09.1");
	lineedit_key(&e, KEY_END);
	ASSERT_STREQ(line(&e), "10.0.09.1|");
	lineedit_key(&e, CTRL('a'));
	ASSERT_STREQ(line(&e), "|10.0.09.1");
	lineedit_key(&e, CTRL('e'));
	ASSERT_STREQ(line(&e), "10.0.09.1|");
}

static void test_delete_keys(void)
{
	struct lineedit e;

	lineedit_start(&e, NULL, NULL);
	type(&e, "abcdef");
	lineedit_key(&e, KEY_BACKSPACE);
	ASSERT_STREQ(line(&e), "abcde|");
	lineedit_key(&e, 127);
	lineedit_key(&e, CTRL('h'));
	ASSERT_STREQ(line(&e), "abc|");
	lineedit_key(&e, KEY_HOME);
	lineedit_key(&e, KEY_BACKSPACE); /* nothing before the start */
	lineedit_key(&e, KEY_DC);
	ASSERT_STREQ(line(&e), "|bc");
	lineedit_key(&e, CTRL('d'));
	ASSERT_STREQ(line(&e), "|c");
	lineedit_key(&e, KEY_END);
	lineedit_key(&e, KEY_DC); /* nothing after the end */
	ASSERT_STREQ(line(&e), "c|");
}

static void test_kill_keys(void)
{
	struct lineedit e;

	lineedit_start(&e, "host 10.0.0.1 and port 53", NULL);
	lineedit_key(&e, CTRL('w'));
	ASSERT_STREQ(line(&e), "host 10.0.0.1 and port |");
	lineedit_key(&e, CTRL('w')); /* the blanks before the word too */
	ASSERT_STREQ(line(&e), "host 10.0.0.1 and |");
	lineedit_key(&e, KEY_LEFT);
	lineedit_key(&e, KEY_LEFT);
	lineedit_key(&e, CTRL('w'));
	ASSERT_STREQ(line(&e), "host 10.0.0.1 |d ");
	lineedit_key(&e, CTRL('k'));
	ASSERT_STREQ(line(&e), "host 10.0.0.1 |");
	lineedit_key(&e, KEY_LEFT);
	lineedit_key(&e, CTRL('u'));
	ASSERT_STREQ(line(&e), "| ");
	lineedit_start(&e, "192.0.2.0/30", NULL);
	lineedit_key(&e, CTRL('u')); /* the whole old value */
	type(&e, "10/8");
	ASSERT_STREQ(line(&e), "10/8|");
}

static void test_full_line(void)
{
	struct lineedit e;
	int i;

	lineedit_start(&e, NULL, NULL);
	for (i = 0; i < LINEEDIT_MAX + 5; i++)
		lineedit_key(&e, 'a');
	ASSERT_EQ(e.len, LINEEDIT_MAX);
	ASSERT_EQ(strlen(e.buf), LINEEDIT_MAX);
}

static void test_enter_and_escape(void)
{
	struct lineedit e;

	lineedit_start(&e, "old", NULL);
	ASSERT_EQ(lineedit_key(&e, '\r'), LINEEDIT_ENTER);
	ASSERT_STREQ(e.buf, "old"); /* the old value, taken as it is */
	ASSERT_EQ(lineedit_key(&e, '\n'), LINEEDIT_ENTER);
	ASSERT_EQ(lineedit_key(&e, KEY_ENTER), LINEEDIT_ENTER);
	ASSERT_EQ(lineedit_key(&e, 27), LINEEDIT_ESCAPE);
}

static void test_history(void)
{
	struct lineedit_history h = { .n = 0 };
	struct lineedit e;
	int i;

	lineedit_remember(&h, "a");
	lineedit_remember(&h, "");
	lineedit_remember(&h, "b");
	lineedit_remember(&h, "c");
	lineedit_remember(&h, "a"); /* moves up: c b a, newest last */
	ASSERT_EQ(h.n, 3);
	ASSERT_STREQ(h.item[0], "b");
	ASSERT_STREQ(h.item[2], "a");
	lineedit_start(&e, "now", &h);
	type(&e, "draft");
	lineedit_key(&e, KEY_UP);
	ASSERT_STREQ(line(&e), "a|");
	ASSERT_TRUE(!e.offered);
	lineedit_key(&e, KEY_UP);
	lineedit_key(&e, KEY_UP);
	lineedit_key(&e, KEY_UP); /* no older one */
	ASSERT_STREQ(line(&e), "b|");
	type(&e, "x");
	ASSERT_STREQ(line(&e), "bx|");
	lineedit_key(&e, KEY_DOWN);
	ASSERT_STREQ(line(&e), "c|");
	lineedit_key(&e, KEY_DOWN);
	lineedit_key(&e, KEY_DOWN); /* past the newest: the line typed before Up */
	ASSERT_STREQ(line(&e), "draft|");
	lineedit_key(&e, KEY_DOWN);
	ASSERT_STREQ(line(&e), "draft|");
	for (i = 0; i < LINEEDIT_HISTORY + 3; i++) {
		char s[8];

		snprintf(s, sizeof(s), "v%d", i);
		lineedit_remember(&h, s);
	}
	ASSERT_EQ(h.n, LINEEDIT_HISTORY); /* the oldest forgotten */
	ASSERT_STREQ(h.item[0], "v3");
	ASSERT_STREQ(h.item[LINEEDIT_HISTORY - 1], "v10");
	lineedit_start(&e, NULL, NULL); /* no history: Up does nothing */
	lineedit_key(&e, KEY_UP);
	ASSERT_STREQ(line(&e), "|");
}

int main(void)
{
	RUN_TEST(test_typing_replaces_the_old_value);
	RUN_TEST(test_editing_keys_keep_the_old_value);
	RUN_TEST(test_cursor_keys);
	RUN_TEST(test_delete_keys);
	RUN_TEST(test_kill_keys);
	RUN_TEST(test_full_line);
	RUN_TEST(test_enter_and_escape);
	RUN_TEST(test_history);
	return test_summary("test_lineedit");
}
