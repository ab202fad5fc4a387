// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_docs.c: the manual page and the program agree: every option --help prints is in
 * the page's OPTIONS and no other; every key of the help screen is in its INTERACTIVE
 * COMMANDS and no other; every column of the table in its COLUMNS and no other; every
 * kernel feature kfeatures.c probes in its KERNEL and in the README's table. Reads man/flowtop.8
 * (run from the source tree). */
#include "test.h"

#include <ctype.h>
#include <curses.h>

#include "cli.h"
#include "column_layout.h"
#include "columns.h"
#include "keys.h"
#include "kfeatures.h"

#define MAX_ITEMS 64

struct set {
	char item[MAX_ITEMS][48];
	int n;
};

static void add(struct set *s, const char *v, size_t len)
{
	int i;

	if (len >= sizeof(s->item[0]) || s->n == MAX_ITEMS)
		return;
	for (i = 0; i < s->n; i++)
		if (strlen(s->item[i]) == len && !strncmp(s->item[i], v, len))
			return;
	memcpy(s->item[s->n], v, len);
	s->item[s->n++][len] = '\0';
}

static bool has(const struct set *s, const char *v)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->item[i], v))
			return true;
	return false;
}

/* "--name" words of text, with roff's \- read as - */
static void long_options(const char *text, struct set *s)
{
	char buf[16384];
	const char *p;
	size_t i, j = 0;

	for (i = 0; text[i] && j + 1 < sizeof(buf); i++) {
		if (text[i] == '\\' && text[i + 1] == '-')
			continue;
		buf[j++] = text[i];
	}
	buf[j] = '\0';
	for (p = buf; (p = strstr(p, "--")); p += 2) {
		size_t n = 2;

		while (isalnum((unsigned char)p[n]) || p[n] == '-')
			n++;
		if (n > 2)
			add(s, p, n);
	}
}

/* The text of section name in the page, up to the next .SH */
static char *section(const char *page, const char *name)
{
	char head[64];
	const char *start, *end;
	char *out;

	snprintf(head, sizeof(head), ".SH %s\n", name);
	start = strstr(page, head);
	if (!start)
		return NULL;
	start += strlen(head);
	end = strstr(start, "\n.SH ");
	if (!end)
		end = start + strlen(start);
	out = strndup(start, (size_t)(end - start));
	return out;
}

/* The text of a file of the source tree (its first 64 KiB), or NULL. */
static char *read_text(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static char *read_page(void)
{
	static char page[65536];

	return read_text("man/flowtop.8", page, sizeof(page));
}

static void test_options_match_help(void)
{
	struct set help = {}, man = {};
	char text[8192] = "", *page = read_page(), *opts;
	FILE *f = tmpfile();
	size_t n;
	int i;

	if (!ASSERT_TRUE(page && f))
		return;
	cli_usage(f);
	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	long_options(text, &help);
	opts = section(page, "OPTIONS");
	if (!ASSERT_TRUE(opts))
		return;
	long_options(opts, &man);
	free(opts);
	ASSERT_TRUE(help.n >= 13);
	for (i = 0; i < help.n; i++)
		if (!has(&man, help.item[i]))
			FAILF("%s is in --help, not in the man page's OPTIONS", help.item[i]);
	for (i = 0; i < man.n; i++)
		if (!has(&help, man.item[i]))
			FAILF("%s is in the man page's OPTIONS, not in --help", man.item[i]);
}

static void test_keys_match_help_screen(void)
{
	char *page = read_page(), *cmds, *line;
	struct set man = {}, prog = {};
	unsigned i;
	int k;

	if (!ASSERT_TRUE(page))
		return;
	cmds = section(page, "INTERACTIVE COMMANDS");
	if (!ASSERT_TRUE(cmds))
		return;
	/* each key entry is ".TP" then ".B <label>" */
	for (line = strstr(cmds, ".TP\n.B "); line; line = strstr(line + 1, ".TP\n.B ")) {
		char label[64], *src = line + 7, *dst = label;

		while (*src && *src != '\n' && dst < label + sizeof(label) - 1) {
			if (*src == '\\' && src[1] == '-')
				src++;
			*dst++ = *src++;
		}
		*dst = '\0';
		add(&man, label, strlen(label));
	}
	free(cmds);
	for (i = 0; i < key_bindings_count; i++)
		add(&prog, key_bindings[i].label, strlen(key_bindings[i].label));
	ASSERT_EQ(prog.n, (int)key_bindings_count);
	for (k = 0; k < prog.n; k++)
		if (!has(&man, prog.item[k]))
			FAILF("key '%s' is on the help screen, not in the man page", prog.item[k]);
	for (k = 0; k < man.n; k++)
		if (!has(&prog, man.item[k]))
			FAILF("key '%s' is in the man page, not on the help screen", man.item[k]);
}

/* The page's COLUMNS has an entry per column of the table, with its title and name,
 * and no other. */
static void test_columns_match_table(void)
{
	char *page = read_page(), *cols, *line;
	bool seen[COL__COUNT] = { false };
	int entries = 0, c;

	if (!ASSERT_TRUE(page))
		return;
	cols = section(page, "COLUMNS");
	if (!ASSERT_TRUE(cols))
		return;
	/* each entry: .TP, then .BR "TITLE" " (" name ) */
	for (line = strstr(cols, ".TP\n.BR \""); line; line = strstr(line + 1, ".TP\n.BR \"")) {
		char title[32], name[32];

		entries++;
		if (sscanf(line, ".TP\n.BR \"%31[^\"]\" \" (\" %31[a-z0-9] )", title, name) != 2) {
			FAILF("a COLUMNS entry the test cannot read: %.40s", line + 4);
			continue;
		}
		c = column_by_name(name);
		if (c < 0)
			FAILF("column '%s' is in the man page, not in the table", name);
		else if (strcmp(column_layout[c].title, title))
			FAILF("column '%s' is titled '%s' in the man page, '%s' on screen", name,
			      title, column_layout[c].title);
		else
			seen[c] = true;
	}
	free(cols);
	ASSERT_EQ(entries, COL__COUNT);
	for (c = 0; c < COL__COUNT; c++)
		if (!seen[c])
			FAILF("column '%s' is in the table, not in the man page", columns[c].name);
}

/* The page's title line names the version --version prints, and its -s entry every
 * column -s takes. */
static void test_version_and_sort_columns(void)
{
	char *page = read_page(), *sort, *end, want[64];
	int c;

	if (!ASSERT_TRUE(page))
		return;
	snprintf(want, sizeof(want), "\"flowtop %s\"", FLOWTOP_VERSION);
	if (!strstr(page, want))
		FAILF("the man page's .TH does not say %s", want);
	sort = strstr(page, ".B \\-s, \\-\\-sort");
	end = sort ? strstr(sort, ".TP") : NULL;
	if (!ASSERT_TRUE(sort && end))
		return;
	for (c = 0; c < COL__COUNT; c++) {
		char br[48], b[48];

		snprintf(br, sizeof(br), "\n.BR %s ,", columns[c].name);
		snprintf(b, sizeof(b), "\n.B %s\n", columns[c].name);
		if (!memmem(sort, (size_t)(end - sort), br, strlen(br)) &&
		    !memmem(sort, (size_t)(end - sort), b, strlen(b)))
			FAILF("-s takes '%s', which the man page's -s does not name",
			      columns[c].name);
	}
}

static char *read_readme(void)
{
	static char text[65536];

	return read_text("README.md", text, sizeof(text));
}

/* The README's key table names every key of a letter or sign, and every function key,
 * the screen answers to. */
static void test_readme_lists_every_key(void)
{
	char *readme = read_readme(), *table, *end, want[16];
	unsigned i, k;

	table = readme ? strstr(readme, "| key | does |") : NULL;
	end = table ? strstr(table, "\n\n") : NULL;
	if (!ASSERT_TRUE(table && end))
		return;
	for (i = 0; i < key_bindings_count; i++)
		for (k = 0; k < sizeof(key_bindings[i].keys) / sizeof(key_bindings[i].keys[0]);
		     k++) {
			int key = key_bindings[i].keys[k];

			if (key >= KEY_F(1) && key <= KEY_F(12))
				snprintf(want, sizeof(want), " F%d ", key - KEY_F0);
			else if (key > ' ' && key <= '~')
				snprintf(want, sizeof(want), "`%c`", key);
			else
				continue;
			if (!memmem(table, (size_t)(end - table), want, strlen(want)))
				FAILF("key '%s' (%s) is not in the README's key table", want,
				      key_bindings[i].help);
		}
}

/* The README's kernel table and the page's KERNEL section say what kfeatures.c probes:
 * every feature with its version, its use and its fallback, and the oldest kernel. */
static void test_kernel_features_match_table(void)
{
	char *page = read_page(), *readme = read_readme(), *kernel, *flat, want[512];
	size_t i;

	if (!ASSERT_TRUE(page && readme))
		return;
	kernel = section(page, "KERNEL");
	if (!ASSERT_TRUE(kernel))
		return;
	flat = strdup(kernel); /* its lines as one */
	for (i = 0; flat && flat[i]; i++)
		if (flat[i] == '\n')
			flat[i] = ' ';
	if (!ASSERT_TRUE(flat)) {
		free(kernel);
		return;
	}
	if (!strstr(kernel, "runs on Linux " KFEATURES_OLDEST " or later"))
		FAILF("the page's KERNEL does not name Linux %s as the oldest", KFEATURES_OLDEST);
	if (!strstr(readme, "runs on **Linux " KFEATURES_OLDEST " or later**"))
		FAILF("the README does not name Linux %s as the oldest", KFEATURES_OLDEST);
	for (i = 0; i < kfeatures_count; i++) {
		const struct kfeature *f = &kfeatures[i];

		snprintf(want, sizeof(want), "| %s | %s | %s | %s |\n", f->name, f->since, f->use,
			 f->fallback ? f->fallback : "cannot run");
		if (!strstr(readme, want))
			FAILF("the README's kernel table lacks the row %s", want);
		snprintf(want, sizeof(want), ".B %s\nLinux %s: %s", f->name, f->since, f->use);
		if (!strstr(kernel, want))
			FAILF("the page's KERNEL lacks '%s'", want);
		if (f->fallback) {
			snprintf(want, sizeof(want), "without it, %s", f->fallback);
			if (!strstr(flat, want))
				FAILF("the page's KERNEL lacks '%s'", want);
		}
	}
	free(flat);
	free(kernel);
}

/* The README's Prometheus section says what the manual's PROMETHEUS does: the first
 * sample puts all traffic under ip="other" (every host is new to the top, and a series
 * starts at 0), so that a first scrape does not read as a bug. */
static void test_readme_says_why_the_first_scrape_is_other(void)
{
	char *readme = read_readme(), *from, *to, *p;

	from = readme ? strstr(readme, "\n## Prometheus\n") : NULL;
	to = from ? strstr(from + 1, "\n## ") : NULL;
	if (!ASSERT_TRUE(from && to))
		return;
	*to = '\0';
	for (p = from; *p; p++) /* one line: the sentence may wrap anywhere */
		if (*p == '\n')
			*p = ' ';
	ASSERT_TRUE(strstr(from, "series starts at 0 when it enters the top") != NULL);
	ASSERT_TRUE(strstr(from, "first sample, where every host is new, puts all traffic under "
				 "`ip=\"other\"`") != NULL);
}

int main(void)
{
	RUN_TEST(test_options_match_help);
	RUN_TEST(test_keys_match_help_screen);
	RUN_TEST(test_columns_match_table);
	RUN_TEST(test_kernel_features_match_table);
	RUN_TEST(test_version_and_sort_columns);
	RUN_TEST(test_readme_lists_every_key);
	RUN_TEST(test_readme_says_why_the_first_scrape_is_other);
	return test_summary("test_docs");
}
