// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* cli.c: the options, one table of them (name, kind, bounds, field, message) that
 * getopt_long's tables are made from and every value is checked by, the checks of
 * combinations, and the --help text (mirrored by man/flowtop.8). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "flowtop.h"
#include "columns.h"
#include "iface.h"
#include "playback.h"

/* bounds, written out: the messages say them as they are (STR()) */
#define MIN_DELAY 0.01
#define DELAY_RANGE                                                                                \
	"(seconds, " STR(MIN_DELAY) " to " STR(                                                    \
	    MAX_DELAY) ", or 0 with -r and -b: the whole capture "                                 \
		       "as one sample)"
#define MAX_DELAY	3600
#define MAX_HOSTS_LIMIT 16777216 /* 1 << 24 */
#define MAX_METRICS_TOP 100000	 /* series a scrape can take */
#define MAX_RING_MIB	65536	 /* --ring-memory: 64 GiB */
#define STR_(x)		#x
#define STR(x)		STR_(x)

enum opt_kind {
	OPT_FLAG,   /* sets a bool */
	OPT_TEXT,   /* a string, not empty, kept as given */
	OPT_UINT,   /* a whole number in [min, max], into an unsigned */
	OPT_LONG,   /* the same into a long */
	OPT_DOUBLE, /* a finite number in [min, max] */
	OPT_PARSE,  /* its own parse function */
	OPT_HELP,
	OPT_VERSION,
};

/* An option's own parse: 0, or -EINVAL with the reason in why (or why left empty: the
 * table's message says it). */
typedef int (*opt_parse_fn)(const char *arg, struct cli_opts *o, char *why, size_t len);

struct cli_option {
	const char *name; /* --name */
	int key;	  /* -k, or 0: --name alone */
	enum opt_kind kind;
	size_t field; /* offsetof(struct cli_opts, ...): where the value goes */
	double min, max;
	opt_parse_fn parse;
	const char *message; /* a wrong value's usage error; "%s" stands for the value */
};

static int parse_ifaces(const char *arg, struct cli_opts *o, char *why, size_t len)
{
	return iface_names_parse(&o->iface, arg, why, len);
}

static int parse_sort(const char *arg, struct cli_opts *o, char *why, size_t len)
{
	(void)why, (void)len;
	o->sort_column = column_by_name(arg);
	return o->sort_column < 0 ? -EINVAL : 0;
}

static int parse_filter(const char *arg, struct cli_opts *o, char *why, size_t len)
{
	return filter_parse(arg, &o->filter, why, len) ? -EINVAL : 0;
}

static int parse_group(const char *arg, struct cli_opts *o, char *why, size_t len)
{
	int by = group_by_parse(arg);

	(void)why, (void)len;
	if (by < 0)
		return -EINVAL;
	o->group.by = (enum group_by)by;
	return 0;
}

static int parse_metrics_group(const char *arg, struct cli_opts *o, char *why, size_t len)
{
	int by = group_by_parse(arg);

	(void)why, (void)len;
	if (by != GROUP_AS && by != GROUP_COUNTRY && by != GROUP_PORT)
		return -EINVAL;
	o->metrics_group = (enum group_by)by;
	return 0;
}

static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/* --prefix "24" or "24,48" */
static int parse_prefixes(const char *s, struct cli_opts *o, char *why, size_t len)
{
	char v4[16];
	const char *comma = strchr(s, ',');
	unsigned long a, b = o->group.prefix6;
	size_t n = comma ? (size_t)(comma - s) : strlen(s);

	(void)why, (void)len;
	if (n >= sizeof(v4))
		return -EINVAL;
	memcpy(v4, s, n);
	v4[n] = '\0';
	if (parse_ulong(v4, 1, 32, &a) || (comma && parse_ulong(comma + 1, 1, 128, &b)))
		return -EINVAL;
	o->group.prefix4 = (unsigned)a;
	o->group.prefix6 = (unsigned)b;
	return 0;
}

/* --columns "as,cc": the optional columns' VIEW_* bits */
static int parse_optional_columns(const char *s, struct cli_opts *o, char *why, size_t len)
{
	char list[64], *name, *save = NULL;
	int c;

	(void)why, (void)len;
	if (strlen(s) >= sizeof(list))
		return -EINVAL;
	strcpy(list, s);
	o->columns = 0;
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		c = column_by_name(name);
		if (c < 0 || !(columns[c].views & VIEW_OPTIONAL))
			return -EINVAL;
		o->columns |= columns[c].views & VIEW_OPTIONAL;
	}
	return o->columns ? 0 : -EINVAL;
}

static int parse_color(const char *arg, struct cli_opts *o, char *why, size_t len)
{
	static const char *const names[] = { [CLI_COLOR_AUTO] = "auto",
					     [CLI_COLOR_ALWAYS] = "always",
					     [CLI_COLOR_NEVER] = "never" };
	size_t i;

	(void)why, (void)len;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			o->color = (enum cli_color)i;
			return 0;
		}
	return -EINVAL;
}

#define LONG_ONLY 0x100 /* getopt's value of options[i] with no letter: LONG_ONLY + i */

#define FIELD(f) offsetof(struct cli_opts, f)

static const struct cli_option options[] = {
	{ "interface", 'i', OPT_PARSE, 0, 0, 0, parse_ifaces, NULL },
	{ "read", 'r', OPT_TEXT, FIELD(read), 0, 0, NULL, "-r needs a capture file" },
	{ "delay", 'd', OPT_DOUBLE, FIELD(delay), 0, MAX_DELAY, NULL,
	  "invalid delay '%s' " DELAY_RANGE },
	{ "iterations", 'n', OPT_LONG, FIELD(iterations), 1, (double)LONG_MAX, NULL,
	  "invalid iteration count '%s' (-n takes how many samples to take: 1 to "
	  "9223372036854775807; iftop's and tcpdump's -n, no name lookups, is -N here)" },
	{ "batch", 'b', OPT_FLAG, FIELD(batch), 0, 0, NULL, NULL },
	{ "json", 0, OPT_FLAG, FIELD(json), 0, 0, NULL, NULL },
	{ "max-hosts", 'm', OPT_UINT, FIELD(max_hosts), 1, MAX_HOSTS_LIMIT, NULL,
	  "invalid host count '%s' (1 to " STR(MAX_HOSTS_LIMIT) ")" },
	{ "limit", 'L', OPT_UINT, FIELD(limit), 0, MAX_HOSTS_LIMIT, NULL,
	  "invalid limit '%s' (0 to " STR(MAX_HOSTS_LIMIT) ")" },
	{ "snapshot", 'o', OPT_TEXT, FIELD(snapshot), 0, 0, NULL, "empty snapshot file name" },
	{ "sort", 's', OPT_PARSE, 0, 0, 0, parse_sort, "unknown sort column '%s' (see --help)" },
	{ "filter", 'f', OPT_PARSE, 0, 0, 0, parse_filter, NULL },
	{ "numeric", 'N', OPT_FLAG, FIELD(numeric), 0, 0, NULL, NULL },
	{ "user", 'u', OPT_TEXT, FIELD(user), 0, 0, NULL, "-u needs a user name" },
	{ "netns", 0, OPT_TEXT, FIELD(netns), 0, 0, NULL, "--netns needs a namespace" },
	{ "listen", 0, OPT_TEXT, FIELD(listen), 0, 0, NULL, "--listen needs [ADDR:]PORT" },
	{ "metrics-top", 0, OPT_UINT, FIELD(metrics_top), 0, MAX_METRICS_TOP, NULL,
	  "--metrics-top takes 0 to " STR(MAX_METRICS_TOP) " hosts, not '%s'" },
	{ "ring-memory", 0, OPT_UINT, FIELD(ring_mib), 1, MAX_RING_MIB, NULL,
	  "--ring-memory takes 1 to " STR(MAX_RING_MIB) " MiB, not '%s'" },
	{ "speed", 0, OPT_DOUBLE, FIELD(speed), 0, PLAYBACK_MAX_SPEED, NULL,
	  "invalid speed '%s' (0 for as fast as it goes, or up to " STR(
	      PLAYBACK_MAX_SPEED) " times the capture's)" },
	{ "group", 0, OPT_PARSE, 0, 0, 0, parse_group,
	  "--group takes host, prefix, as, country or port, not '%s'" },
	{ "prefix", 0, OPT_PARSE, 0, 0, 0, parse_prefixes,
	  "--prefix takes V4[,V6]: 1 to 32 bits, then 1 to 128, not '%s'" },
	{ "geo-db", 0, OPT_TEXT, FIELD(geo_db), 0, 0, NULL, "--geo-db needs a file" },
	{ "metrics-group", 0, OPT_PARSE, 0, 0, 0, parse_metrics_group,
	  "--metrics-group takes as, country or port, not '%s'" },
	{ "columns", 0, OPT_PARSE, 0, 0, 0, parse_optional_columns,
	  "--columns takes optional columns: as, cc (not '%s')" },
	{ "color", 0, OPT_PARSE, 0, 0, 0, parse_color,
	  "--color takes auto, always or never, not '%s'" },
	{ "no-mouse", 0, OPT_FLAG, FIELD(no_mouse), 0, 0, NULL, NULL },
	{ "verbose", 'v', OPT_FLAG, FIELD(verbose), 0, 0, NULL, NULL },
	{ "help", 'h', OPT_HELP, 0, 0, 0, NULL, NULL },
	{ "version", 'V', OPT_VERSION, 0, 0, 0, NULL, NULL },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* -s: the sort columns, the column table's names (the completion reads them here),
 * wrapped under the help's text. */
static void usage_sort(FILE *out)
{
	size_t used = (size_t)fprintf(out, "  -s, --sort COLUMN      sort the screen by COLUMN:"),
	       i;
	char word[40];

	for (i = 0; i < COL__COUNT; i++) { /* the last with the default, on one line */
		if (i + 1 < COL__COUNT)
			snprintf(word, sizeof(word), " %s,", columns[i].name);
		else
			snprintf(word, sizeof(word), " %s (default %s)", columns[i].name,
				 columns[COL_RX2].name);
		if (used + strlen(word) > 80) {
			fprintf(out, "\n%24s", ""); /* the word's space makes the column */
			used = 24;
		}
		used += (size_t)fprintf(out, "%s", word);
	}
	fputc('\n', out);
}

void cli_usage(FILE *out)
{
	fprintf(out,
		"Usage: flowtop [OPTION]... [EXPRESSION]\n"
		"Per-IP traffic monitor: counts packets and bytes per address in the kernel\n"
		"with an eBPF socket filter, and shows rates like top. An EXPRESSION in\n"
		"tcpdump's syntax (pcap-filter(7)) counts only the frames it matches.\n"
		"\n"
		"  -i, --interface IFACE  interface to watch (default: the default route's); a\n"
		"                         list IFACE,IFACE... sums them, 'any' watches all\n"
		"  -r, --read FILE        count a capture file (pcap, pcapng; - for standard\n"
		"                         input) through the same filter, instead of an\n"
		"                         interface; samples follow the capture's own clock\n"
		"      --speed N          with -r on the screen, replay at N times the\n"
		"                         capture's pace (default 1; 0: as fast as it goes)\n"
		"  -d, --delay SECONDS    time between samples, fractional (default 1); with\n"
		"                         -r -b, 0: the whole capture as one sample\n"
		"  -n, --iterations N     take N samples, then exit (default: until stopped)\n"
		"  -b, --batch            print each sample as text instead of the screen\n"
		"      --json             each sample as one JSON object per line (implies -b)\n"
		"  -m, --max-hosts N      hosts flowtop keeps; beyond that the one idle the\n"
		"                         longest leaves, its counts summed as \"other\"\n"
		"                         (default %u)\n"
		"  -L, --limit N          with -b, print the N busiest hosts of each sample,\n"
		"                         0 for all (default %u)\n"
		"  -o, --snapshot FILE    on exit, write the table to FILE (.json, .csv or text);\n"
		"                         on the screen also the default file of the d key;\n"
		"                         - for standard output\n",
		FLOWTOP_DEFAULT_MAX_HOSTS, CLI_DEFAULT_LIMIT);
	usage_sort(out);
	fprintf(out,
		"  -f, --filter FILTER    show only hosts in a CIDR (10.0.0.0/8), one address,\n"
		"                         or whose address or name contains FILTER\n"
		"      --group BY         rows by host (default), prefix, as (autonomous\n"
		"                         system) or country: each group's hosts summed;\n"
		"                         or port: a row per protocol and port\n"
		"      --prefix V4[,V6]   prefix lengths of --group prefix (default %u,%u)\n"
		"      --geo-db FILE      the location database for AS and country (default\n"
		"                         libloc's, %s)\n"
		"      --columns LIST     optional columns the screen shows from the start:\n"
		"                         as, cc (the hosts' AS and country; c toggles them)\n"
		"  -N, --numeric          do not resolve addresses to names on the screen\n"
		"  -u, --user USER        once attached, run as USER (from root), keeping only\n"
		"                         what switching interfaces needs\n"
		"      --netns NS         watch inside network namespace NS: a name under\n"
		"                         /run/netns, a path, or the PID of a process in it\n"
		"      --listen [ADDR:]PORT  serve Prometheus metrics at /metrics (ADDR\n"
		"                         127.0.0.1 unless given); with no terminal and no\n"
		"                         -b, flowtop runs as a headless exporter\n"
		"      --metrics-top N    hosts with series of their own, the rest summed as\n"
		"                         ip=\"other\" (default %u)\n"
		"      --metrics-group BY series per AS, per country or per port too (as,\n"
		"                         country, port): the --metrics-top busiest, the\n"
		"                         rest as \"other\"\n"
		"      --ring-memory MIB  memory for the per-CPU rings the filter writes to,\n"
		"                         all CPUs together (default %u; a CPU's ring takes\n"
		"                         at least 64 KiB, at most 2 MiB)\n"
		"      --color WHEN       colours on the screen: auto (when the terminal has\n"
		"                         them and NO_COLOR is not set), always, never\n"
		"      --no-mouse         leave the mouse to the terminal (text selection)\n"
		"  -v, --verbose          print libbpf's debug messages\n"
		"  -h, --help             print this help and exit\n"
		"  -V, --version          print the version and exit\n",
		GROUP_DEFAULT_PREFIX4, GROUP_DEFAULT_PREFIX6, GEO_DEFAULT_DB,
		CLI_DEFAULT_METRICS_TOP, FLOWTOP_DEFAULT_RING_MIB);
}

static enum cli_result usage_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static enum cli_result usage_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return CLI_USAGE;
}

/* A whole number in [min, max], nothing after it. */
static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A finite number in [min, max], nothing after it. */
static int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* getopt_long's two tables, made from options[] once. */
static struct option long_options[NOPTIONS + 1];
static char short_options[1 + 2 * NOPTIONS + 1];

static void make_getopt_tables(void)
{
	size_t i, n = 0;

	if (short_options[0])
		return;
	short_options[n++] = ':'; /* a missing value is ':', not '?' */
	for (i = 0; i < NOPTIONS; i++) {
		bool value = options[i].kind != OPT_FLAG && options[i].kind != OPT_HELP &&
			     options[i].kind != OPT_VERSION;

		long_options[i] =
		    (struct option){ options[i].name, value ? required_argument : no_argument, NULL,
				     options[i].key ? options[i].key : LONG_ONLY + (int)i };
		if (options[i].key) {
			short_options[n++] = (char)options[i].key;
			if (value)
				short_options[n++] = ':';
		}
	}
}

/* The option getopt_long returned c for, or NULL. */
static const struct cli_option *option_of(int c)
{
	size_t i;

	if (c >= LONG_ONLY && c < LONG_ONLY + (int)NOPTIONS)
		return &options[c - LONG_ONLY];
	for (i = 0; i < NOPTIONS; i++)
		if (options[i].key && options[i].key == c)
			return &options[i];
	return NULL;
}

/* A wrong value's usage error: what its parse said, else the option's message with the
 * value for "%s". */
static enum cli_result bad_value(const struct cli_option *o, const char *arg, const char *why,
				 char *err, size_t errlen)
{
	const char *at = o->message ? strstr(o->message, "%s") : NULL;

	if (why[0])
		return usage_error(err, errlen, "%s", why);
	if (!o->message)
		return usage_error(err, errlen, "invalid value '%s' for --%s", arg, o->name);
	if (!at)
		return usage_error(err, errlen, "%s", o->message);
	return usage_error(err, errlen, "%.*s%s%s", (int)(at - o->message), o->message, arg,
			   at + 2);
}

/* Takes option o's value arg into opts, as the table says. */
static enum cli_result take(const struct cli_option *o, const char *arg, struct cli_opts *opts,
			    char *err, size_t errlen)
{
	char *field = (char *)opts + o->field, why[256] = "";
	unsigned long v;
	double d;

	switch (o->kind) {
	case OPT_FLAG:
		*(bool *)field = true;
		return CLI_RUN;
	case OPT_TEXT:
		if (!*arg)
			break;
		*(const char **)field = arg;
		return CLI_RUN;
	case OPT_UINT:
		if (parse_ulong(arg, (unsigned long)o->min, (unsigned long)o->max, &v))
			break;
		*(unsigned *)field = (unsigned)v;
		return CLI_RUN;
	case OPT_LONG:
		if (parse_ulong(arg, (unsigned long)o->min,
				o->max >= (double)LONG_MAX ? LONG_MAX : (unsigned long)o->max, &v))
			break;
		*(long *)field = (long)v;
		return CLI_RUN;
	case OPT_DOUBLE:
		if (parse_double(arg, o->min, o->max, &d))
			break;
		*(double *)field = d;
		return CLI_RUN;
	case OPT_PARSE:
		if (o->parse(arg, opts, why, sizeof(why)))
			break;
		return CLI_RUN;
	case OPT_HELP:
	case OPT_VERSION:
		return CLI_EXIT;
	}
	return bad_value(o, arg, why, err, errlen);
}

/* The trailing arguments, joined by spaces as tcpdump joins them: the expression. */
static enum cli_result take_expression(int n, char **args, struct cli_opts *opts, char *err,
				       size_t errlen)
{
	size_t used = 0;
	int i;

	for (i = 0; i < n; i++) {
		int w = snprintf(opts->expr + used, sizeof(opts->expr) - used, "%s%s", i ? " " : "",
				 args[i]);

		if (w < 0 || (size_t)w >= sizeof(opts->expr) - used)
			return usage_error(err, errlen, "filter expression too long (%zu bytes)",
					   sizeof(opts->expr) - 1);
		used += (size_t)w;
	}
	return CLI_RUN;
}

/* Whether the option named name was on the command line. */
static bool given(const bool *seen, const char *name)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++)
		if (!strcmp(options[i].name, name))
			return seen[i];
	return false;
}

/* What the options mean together: the combinations that make no sense. */
static enum cli_result check_combinations(const struct cli_opts *opts, const bool *seen, char *err,
					  size_t errlen)
{
	if (opts->read && opts->iface.text[0])
		return usage_error(err, errlen,
				   "-r reads a capture file, -i watches interfaces: "
				   "one or the other");
	if (opts->delay < MIN_DELAY && !(opts->delay == 0 && opts->read && opts->batch))
		return usage_error(err, errlen, "invalid delay '%g' " DELAY_RANGE, opts->delay);
	if (given(seen, "speed") && !opts->read)
		return usage_error(err, errlen,
				   "--speed paces a capture file's replay: it needs -r");
	if (opts->metrics_group && !opts->listen)
		return usage_error(err, errlen, "--metrics-group needs --listen");
	if (opts->read && (opts->listen || opts->netns || opts->user))
		return usage_error(err, errlen,
				   "-r reads a capture file: --listen, --netns and "
				   "-u are for interfaces");
	return CLI_RUN;
}

enum cli_result cli_parse(int argc, char **argv, struct cli_opts *opts, FILE *out, char *err,
			  size_t errlen)
{
	bool seen[NOPTIONS] = { false };
	const struct cli_option *o;
	enum cli_result r;
	int c;

	*opts = (struct cli_opts){ .delay = 1.0,
				   .max_hosts = FLOWTOP_DEFAULT_MAX_HOSTS,
				   .limit = CLI_DEFAULT_LIMIT,
				   .metrics_top = CLI_DEFAULT_METRICS_TOP,
				   .ring_mib = FLOWTOP_DEFAULT_RING_MIB,
				   .speed = 1,
				   .sort_column = COL_RX2,
				   .group = { GROUP_HOST, GROUP_DEFAULT_PREFIX4,
					      GROUP_DEFAULT_PREFIX6 } };
	err[0] = '\0';
	make_getopt_tables();
	optind = 0; /* full reset: parse again from argv[1] */
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (c == ':')
			return usage_error(err, errlen, "option '%s' needs a value",
					   argv[optind - 1]);
		o = option_of(c);
		if (!o) {
			if (optopt > 0 && optopt < LONG_ONLY)
				return usage_error(err, errlen, "unknown option '-%c'", optopt);
			return usage_error(err, errlen, "unknown option '%s'", argv[optind - 1]);
		}
		seen[o - options] = true;
		r = take(o, optarg, opts, err, errlen);
		if (r == CLI_EXIT && o->kind == OPT_HELP)
			cli_usage(out);
		else if (r == CLI_EXIT)
			fprintf(out, "flowtop %s (eBPF per-IP traffic monitor)\n", FLOWTOP_VERSION);
		if (r != CLI_RUN)
			return r;
	}
	r = take_expression(argc - optind, argv + optind, opts, err, errlen);
	if (r != CLI_RUN)
		return r;
	if (opts->json) /* JSON lines are batch output: no screen to draw them on */
		opts->batch = true;
	return check_combinations(opts, seen, err, errlen);
}
