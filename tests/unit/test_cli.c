// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_cli.c: option parsing, defaults, value checks, help and version. */
#include "test.h"

#include <errno.h>

#include "cli.h"
#include "columns.h"
#include "iface.h"

static char err[256];
static FILE *out;

static char *owned[32]; /* the last parse's argv strings: opts point into them */

/* cli_parse takes a mutable argv (getopt may permute it): hand it owned copies */
static enum cli_result parse(struct cli_opts *opts, const char *const *args)
{
	char *argv[32];
	int argc = 0, i;

	for (i = 0; owned[i]; i++) {
		free(owned[i]);
		owned[i] = NULL;
	}
	argv[argc++] = strdup("flowtop");
	for (; *args && argc < 31; args++)
		argv[argc++] = strdup(*args);
	argv[argc] = NULL;
	memcpy(owned, argv, sizeof(argv));
	return cli_parse(argc, argv, opts, out, err, sizeof(err));
}

#define PARSE(opts, ...) parse((opts), (const char *const[]){ __VA_ARGS__, NULL })

static void test_defaults(void)
{
	struct cli_opts o;

	ASSERT_EQ(parse(&o, (const char *const[]){ NULL }), CLI_RUN);
	ASSERT_STREQ(o.iface.text, "");
	ASSERT_DBL(o.delay, 1.0);
	ASSERT_EQ(o.iterations, 0);
	ASSERT_EQ(o.max_hosts, 65536);
	ASSERT_TRUE(!o.batch && !o.json && !o.snapshot);
}

static void test_all_options(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-i", "veth0", "-d", "0.25", "-n", "3", "-b", "--json", "-m", "64",
			"-o", "out.csv"),
		  CLI_RUN);
	ASSERT_STREQ(o.iface.text, "veth0");
	ASSERT_DBL(o.delay, 0.25);
	ASSERT_EQ(o.iterations, 3);
	ASSERT_TRUE(o.batch && o.json);
	ASSERT_EQ(o.max_hosts, 64);
	ASSERT_STREQ(o.snapshot, "out.csv");
	ASSERT_EQ(PARSE(&o, "--interface=lo", "--delay=2", "--iterations=1", "--batch",
			"--max-hosts=1", "--snapshot=x"),
		  CLI_RUN);
	ASSERT_STREQ(o.iface.text, "lo");
	ASSERT_EQ(o.max_hosts, 1);
}

/* -i takes one interface, a list, or "any"; a list's names are checked one by one. */
static void test_interface_lists(void)
{
	char names[4][IF_NAMESIZE], msg[128], many[1100];
	struct cli_opts o;
	size_t i;

	ASSERT_EQ(PARSE(&o, "-i", "eth0,wg0"), CLI_RUN);
	ASSERT_STREQ(o.iface.text, "eth0,wg0");
	ASSERT_EQ(PARSE(&o, "-i", "any"), CLI_RUN);
	ASSERT_STREQ(o.iface.text, "any");
	ASSERT_EQ(PARSE(&o, "-i", "eth0,,wg0"), CLI_USAGE);
	ASSERT_STREQ(err, "invalid interface name '' (1 to 15 bytes)");
	ASSERT_EQ(PARSE(&o, "-i", "eth0,"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-i", ""), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-i", "eth0,abcdefghijklmnop"), CLI_USAGE);
	ASSERT_STREQ(err, "invalid interface name 'abcdefghijklmnop' (1 to 15 bytes)");
	for (i = 0; i + 2 < sizeof(many); i += 2)
		memcpy(many + i, "a,", 2);
	many[i] = '\0';
	ASSERT_EQ(PARSE(&o, "-i", many), CLI_USAGE); /* longer than the option holds */

	/* each name once, in the order given */
	ASSERT_EQ(iface_split("b,a,b,c", names, 4, msg, sizeof(msg)), 3);
	ASSERT_STREQ(names[0], "b");
	ASSERT_STREQ(names[1], "a");
	ASSERT_STREQ(names[2], "c");
	ASSERT_EQ(iface_split("a,b,c,d,e", names, 4, msg, sizeof(msg)), -EINVAL);
	ASSERT_STREQ(msg, "more than 4 interfaces in 'a,b,c,d,e'");
	ASSERT_EQ(PARSE(&o, "-i", "b,a,b"), CLI_RUN); /* parsed once, for everything after */
	ASSERT_EQ(o.iface.n, 2);
	ASSERT_STREQ(o.iface.names[1], "a");
	ASSERT_TRUE(!o.iface.any);
	ASSERT_EQ(PARSE(&o, "-i", "any"), CLI_RUN);
	ASSERT_TRUE(o.iface.any && o.iface.n == 0);
}

/* Every option's usage error, word for word: what a user reads for each wrong value. */
static void test_every_usage_message(void)
{
	static const struct {
		const char *args[5], *said; /* args: NULL after the last */
	} cases[] = {
		{ { "-d", "0" },
		  "invalid delay '0' (seconds, 0.01 to 3600, or 0 with -r and -b: the whole "
		  "capture as one sample)" },
		{ { "-d", "0.001", "-rf", "-b" },
		  "invalid delay '0.001' (seconds, 0.01 to 3600, or 0 with -r and -b: the whole "
		  "capture as one sample)" },
		{ { "-d", "3601" },
		  "invalid delay '3601' (seconds, 0.01 to 3600, or 0 with -r and -b: the whole "
		  "capture as one sample)" },
		{ { "-d", "nan" },
		  "invalid delay 'nan' (seconds, 0.01 to 3600, or 0 with -r and -b: the whole "
		  "capture as one sample)" },
		{ { "-n", "0" },
		  "invalid iteration count '0' (-n takes how many samples to take: 1 to "
		  "9223372036854775807; iftop's and tcpdump's -n, no name lookups, is -N here)" },
		{ { "-n", "-i" }, /* iftop's hands: -n -i lo */
		  "invalid iteration count '-i' (-n takes how many samples to take: 1 to "
		  "9223372036854775807; iftop's and tcpdump's -n, no name lookups, is -N here)" },
		{ { "-m", "16777217" }, "invalid host count '16777217' (1 to 16777216)" },
		{ { "-m", "0" }, "invalid host count '0' (1 to 16777216)" },
		{ { "-L", "-1" }, "invalid limit '-1' (0 to 16777216)" },
		{ { "-o", "" }, "empty snapshot file name" },
		{ { "-s", "x" }, "unknown sort column 'x' (see --help)" },
		{ { "-u", "" }, "-u needs a user name" },
		{ { "-r", "" }, "-r needs a capture file" },
		{ { "-r", "f", "--speed", "1025" },
		  "invalid speed '1025' (0 for as fast as it goes, or up to 1024 times the "
		  "capture's)" },
		{ { "--group", "x" }, "--group takes host, prefix, as, country or port, not 'x'" },
		{ { "--prefix", "33" },
		  "--prefix takes V4[,V6]: 1 to 32 bits, then 1 to 128, not '33'" },
		{ { "--columns", "rx2" }, "--columns takes optional columns: as, cc (not 'rx2')" },
		{ { "--metrics-group", "host" },
		  "--metrics-group takes as, country or port, not 'host'" },
		{ { "--geo-db", "" }, "--geo-db needs a file" },
		{ { "--netns", "" }, "--netns needs a namespace" },
		{ { "--listen", "" }, "--listen needs [ADDR:]PORT" },
		{ { "--metrics-top", "100001" },
		  "--metrics-top takes 0 to 100000 hosts, not '100001'" },
		{ { "--ring-memory", "0" }, "--ring-memory takes 1 to 65536 MiB, not '0'" },
		{ { "--color", "x" }, "--color takes auto, always or never, not 'x'" },
		{ { "-i", "" }, "invalid interface name '' (1 to 15 bytes)" },
		{ { "-r", "f", "-i", "lo" },
		  "-r reads a capture file, -i watches interfaces: one or the other" },
		{ { "--speed", "2" }, "--speed paces a capture file's replay: it needs -r" },
		{ { "--metrics-group", "as" }, "--metrics-group needs --listen" },
		{ { "-r", "f", "-u", "x" },
		  "-r reads a capture file: --listen, --netns and -u are for interfaces" },
		{ { "--delay" }, "option '--delay' needs a value" },
		{ { "-Z" }, "unknown option '-Z'" },
	};
	struct cli_opts o;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(parse(&o, cases[i].args), CLI_USAGE);
		if (!ASSERT_STREQ(err, cases[i].said))
			printf("  (case %zu)\n", i);
	}
	/* the bounds themselves are taken */
	ASSERT_EQ(PARSE(&o, "-d", "0.01", "-m", "16777216", "-L", "0", "--metrics-top", "0"),
		  CLI_RUN);
	ASSERT_EQ(PARSE(&o, "-d", "3600", "--ring-memory", "65536", "--metrics-top", "100000"),
		  CLI_RUN);
	ASSERT_EQ(PARSE(&o, "-r", "f", "--speed", "1024"), CLI_RUN);
}

/* The trailing arguments are the filter expression, joined as tcpdump joins them; options
 * may come after it (getopt_long moves them in front); none: every frame. */
static void test_filter_expression(void)
{
	static char big[CLI_EXPR_LEN + 8];
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "-b", "tcp", "port", "443"), CLI_RUN);
	ASSERT_STREQ(o.expr, "tcp port 443");
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "not port 22", "-b"), CLI_RUN);
	ASSERT_STREQ(o.expr, "not port 22");
	ASSERT_TRUE(o.batch);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap"), CLI_RUN);
	ASSERT_STREQ(o.expr, "");
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "--", "-b"), CLI_RUN); /* after --, all of it */
	ASSERT_STREQ(o.expr, "-b");
	memset(big, 'a', sizeof(big) - 1);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", big), CLI_USAGE);
	ASSERT_STREQ(err, "filter expression too long (4095 bytes)");
}

/* --help's sort columns are the column table's, every one (the completion offers them
 * from there), and its lines fit 80 columns. */
static void test_help_sort_columns_from_the_table(void)
{
	char *text = NULL, *at, *end, *line;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int c;

	if (!ASSERT_TRUE(f))
		return;
	cli_usage(f);
	fclose(f);
	at = strstr(text, "--sort COLUMN");
	end = at ? strstr(at, "(default rx2)") : NULL;
	if (ASSERT_TRUE(at && end)) {
		for (c = 0; c < COL__COUNT; c++) {
			char word[40];

			snprintf(word, sizeof(word), " %s%s", columns[c].name,
				 c + 1 < COL__COUNT ? "," : " (");
			if (!ASSERT_TRUE(strstr(at, word) && strstr(at, word) < end + 1))
				printf("  column '%s' is not in --help's -s\n", columns[c].name);
		}
	}
	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		ASSERT_TRUE((strchr(line, '\n') ? (size_t)(strchr(line, '\n') - line)
						: strlen(line)) <= 80);
	free(text);
}

/* The picker's list, made a name at a time: each once, "any" wins, as many as fit. */
static void test_interface_names_added(void)
{
	static struct iface_names l;
	char name[IF_NAMESIZE];
	int i;

	iface_names_clear(&l);
	ASSERT_OK(iface_names_add(&l, "eth0"));
	ASSERT_OK(iface_names_add(&l, "wg0"));
	ASSERT_OK(iface_names_add(&l, "eth0"));
	ASSERT_STREQ(l.text, "eth0,wg0");
	ASSERT_EQ(l.n, 2);
	ASSERT_EQ(iface_names_add(&l, ""), -EINVAL);
	ASSERT_EQ(iface_names_add(&l, "abcdefghijklmnop"), -EINVAL);
	ASSERT_OK(iface_names_add(&l, IFACE_ANY));
	ASSERT_OK(iface_names_add(&l, "lo"));
	ASSERT_TRUE(l.any && l.n == 0);
	ASSERT_STREQ(l.text, "any");
	iface_names_clear(&l);
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "veth%d", i);
		if (iface_names_add(&l, name))
			break;
	}
	ASSERT_EQ(i, 141); /* 1,023 bytes hold veth0 .. veth140 and their commas */
	ASSERT_TRUE(strlen(l.text) < sizeof(l.text));
}

/* -r and what goes with it: --speed, and what does not. */
static void test_read_options(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-r", "x.pcap"), CLI_RUN);
	ASSERT_STREQ(o.read, "x.pcap");
	ASSERT_DBL(o.speed, 1);
	ASSERT_EQ(PARSE(&o, "--read=-", "--speed", "0"), CLI_RUN);
	ASSERT_DBL(o.speed, 0);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "--speed", "2.5"), CLI_RUN);
	ASSERT_DBL(o.speed, 2.5);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "--speed", "-1"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "--speed", "2000"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "--speed", "fast"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-r", ""), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "-i", "lo"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "--listen", "9560"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-r", "x.pcap", "--netns", "blue"), CLI_USAGE);
	/* --speed paces a replay: without -r it says so, not ignored */
	ASSERT_EQ(PARSE(&o, "--speed", "2"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-i", "lo", "--speed", "2"), CLI_USAGE);
}

static void test_screen_options(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-s", "txbytes", "-f", "10.0.0.0/8", "-N"), CLI_RUN);
	ASSERT_EQ(o.sort_column, COL_TX_BYTES);
	ASSERT_EQ(o.filter.kind, FILTER_NET);
	ASSERT_EQ(o.filter.prefix, 104);
	ASSERT_TRUE(o.numeric);
	ASSERT_EQ(PARSE(&o, "--sort=ADDR", "--filter=db8", "--numeric"), CLI_RUN);
	ASSERT_EQ(o.sort_column, COL_ADDR);
	ASSERT_EQ(o.filter.kind, FILTER_TEXT);
	ASSERT_EQ(PARSE(&o, "-s", "bogus"), CLI_USAGE);
	ASSERT_STREQ(err, "unknown sort column 'bogus' (see --help)");
	ASSERT_EQ(PARSE(&o, "-f", "10.0.0.0/40"), CLI_USAGE);
	ASSERT_TRUE(strstr(err, "prefix length") != NULL);
}

static void test_color_and_mouse(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-i", "lo"), CLI_RUN);
	ASSERT_EQ(o.color, CLI_COLOR_AUTO);
	ASSERT_TRUE(!o.no_mouse);
	ASSERT_EQ(PARSE(&o, "--color=always"), CLI_RUN);
	ASSERT_EQ(o.color, CLI_COLOR_ALWAYS);
	ASSERT_EQ(PARSE(&o, "--color", "never", "--no-mouse"), CLI_RUN);
	ASSERT_EQ(o.color, CLI_COLOR_NEVER);
	ASSERT_TRUE(o.no_mouse);
	ASSERT_EQ(PARSE(&o, "--color=auto"), CLI_RUN);
	ASSERT_EQ(o.color, CLI_COLOR_AUTO);
	ASSERT_EQ(PARSE(&o, "--color=sometimes"), CLI_USAGE);
	ASSERT_STREQ(err, "--color takes auto, always or never, not 'sometimes'");
}

static void test_user(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-i", "lo"), CLI_RUN);
	ASSERT_TRUE(o.user == NULL);
	ASSERT_EQ(PARSE(&o, "-u", "nobody"), CLI_RUN);
	ASSERT_STREQ(o.user, "nobody");
	ASSERT_EQ(PARSE(&o, "--user=flowtop"), CLI_RUN);
	ASSERT_STREQ(o.user, "flowtop");
	ASSERT_EQ(PARSE(&o, "-u", ""), CLI_USAGE);
	ASSERT_STREQ(err, "-u needs a user name");
	ASSERT_EQ(PARSE(&o, "-u"), CLI_USAGE);
	ASSERT_STREQ(err, "option '-u' needs a value");
}

static void test_netns(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-i", "lo"), CLI_RUN);
	ASSERT_TRUE(o.netns == NULL);
	ASSERT_EQ(PARSE(&o, "--netns", "blue"), CLI_RUN);
	ASSERT_STREQ(o.netns, "blue");
	ASSERT_EQ(PARSE(&o, "--netns=1234"), CLI_RUN);
	ASSERT_STREQ(o.netns, "1234");
	ASSERT_EQ(PARSE(&o, "--netns="), CLI_USAGE);
	ASSERT_STREQ(err, "--netns needs a namespace");
}

static void test_listen(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-i", "lo"), CLI_RUN);
	ASSERT_TRUE(o.listen == NULL);
	ASSERT_EQ(o.metrics_top, CLI_DEFAULT_METRICS_TOP);
	ASSERT_EQ(PARSE(&o, "--listen", "9560", "--metrics-top", "0"), CLI_RUN);
	ASSERT_STREQ(o.listen, "9560");
	ASSERT_EQ(o.metrics_top, 0);
	ASSERT_EQ(PARSE(&o, "--listen=[::1]:9560", "--metrics-top=5000"), CLI_RUN);
	ASSERT_STREQ(o.listen, "[::1]:9560");
	ASSERT_EQ(o.metrics_top, 5000);
	ASSERT_EQ(PARSE(&o, "--metrics-top", "many"), CLI_USAGE);
	ASSERT_STREQ(err, "--metrics-top takes 0 to 100000 hosts, not 'many'");
	ASSERT_EQ(PARSE(&o, "--listen="), CLI_USAGE);
}

static void test_bad_values(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-d", "0"), CLI_USAGE);
	ASSERT_TRUE(strstr(err, "delay") != NULL);
	ASSERT_EQ(PARSE(&o, "-d", "abc"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-d", "nan"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-d", "1e9"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-n", "0"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-n", "-3"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-n", "5x"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-m", "0"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-m", "99999999999"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-i", "a-name-far-too-long-for-linux"), CLI_USAGE);
	ASSERT_EQ(PARSE(&o, "-o", ""), CLI_USAGE);
}

static void test_usage_errors_name_the_problem(void)
{
	struct cli_opts o;

	ASSERT_EQ(PARSE(&o, "-x"), CLI_USAGE);
	ASSERT_STREQ(err, "unknown option '-x'");
	ASSERT_EQ(PARSE(&o, "--frobnicate"), CLI_USAGE);
	ASSERT_STREQ(err, "unknown option '--frobnicate'");
	ASSERT_EQ(PARSE(&o, "-i"), CLI_USAGE);
	ASSERT_STREQ(err, "option '-i' needs a value");
	ASSERT_EQ(PARSE(&o, "-r", "f", "stray"), CLI_RUN); /* tcpdump's way: an expression */
	ASSERT_STREQ(o.expr, "stray");
	ASSERT_EQ(PARSE(&o, "--json"), CLI_RUN); /* JSON lines are batch output */
	ASSERT_TRUE(o.batch && o.json);
}

static void test_help_lists_every_option(void)
{
	static const char *const names[] = { "--interface", "--delay",	 "--iterations",
					     "--batch",	    "--json",	 "--max-hosts",
					     "--snapshot",  "--verbose", "--user",
					     "--help",	    "--version" };
	struct cli_opts o;
	char text[4096] = "";
	size_t i, n;

	rewind(out);
	ASSERT_EQ(PARSE(&o, "--help"), CLI_EXIT);
	fflush(out);
	rewind(out);
	n = fread(text, 1, sizeof(text) - 1, out);
	text[n] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strstr(text, names[i]))
			FAILF("--help does not mention %s", names[i]);
	ASSERT_EQ(PARSE(&o, "-V"), CLI_EXIT);
}

int main(void)
{
	out = tmpfile();
	RUN_TEST(test_defaults);
	RUN_TEST(test_all_options);
	RUN_TEST(test_interface_lists);
	RUN_TEST(test_interface_names_added);
	RUN_TEST(test_every_usage_message);
	RUN_TEST(test_filter_expression);
	RUN_TEST(test_help_sort_columns_from_the_table);
	RUN_TEST(test_read_options);
	RUN_TEST(test_screen_options);
	RUN_TEST(test_user);
	RUN_TEST(test_netns);
	RUN_TEST(test_listen);
	RUN_TEST(test_color_and_mouse);
	RUN_TEST(test_bad_values);
	RUN_TEST(test_usage_errors_name_the_problem);
	RUN_TEST(test_help_lists_every_option);
	parse(&(struct cli_opts){}, (const char *const[]){ NULL });
	free(owned[0]);
	fclose(out);
	return test_summary("test_cli");
}
