// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* cli.c: the getopt_long table, value checks and the --help text (mirrored by
 * man/flowtop.8). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../bpf/flowtop.h"
#include "columns.h"
#include "iface.h"

#define MAX_DELAY	3600.0
#define MIN_DELAY	0.01
#define MAX_HOSTS_LIMIT (1U << 24)
#define MAX_METRICS_TOP 100000 /* series a scrape can take */
#define MAX_RING_MIB	65536  /* --ring-memory: 64 GiB */

enum {
	OPT_JSON = 0x100,
	OPT_COLOR,
	OPT_NO_MOUSE,
	OPT_NETNS,
	OPT_LISTEN,
	OPT_METRICS_TOP,
	OPT_RING_MEMORY,
	OPT_SPEED,
	OPT_GROUP,
	OPT_PREFIX,
	OPT_GEO_DB,
	OPT_METRICS_GROUP,
	OPT_COLUMNS,
};

static const struct option long_options[] = {
	{ "interface", required_argument, NULL, 'i' },
	{ "read", required_argument, NULL, 'r' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "batch", no_argument, NULL, 'b' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "max-hosts", required_argument, NULL, 'm' },
	{ "limit", required_argument, NULL, 'L' },
	{ "snapshot", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 's' },
	{ "filter", required_argument, NULL, 'f' },
	{ "numeric", no_argument, NULL, 'N' },
	{ "user", required_argument, NULL, 'u' },
	{ "netns", required_argument, NULL, OPT_NETNS },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "metrics-top", required_argument, NULL, OPT_METRICS_TOP },
	{ "ring-memory", required_argument, NULL, OPT_RING_MEMORY },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "prefix", required_argument, NULL, OPT_PREFIX },
	{ "geo-db", required_argument, NULL, OPT_GEO_DB },
	{ "metrics-group", required_argument, NULL, OPT_METRICS_GROUP },
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void cli_usage(FILE *out)
{
	fprintf(out,
		"Usage: flowtop [OPTION]...\n"
		"Per-IP traffic monitor: counts packets and bytes per address in the kernel\n"
		"with an eBPF socket filter, and shows rates like top.\n"
		"\n"
		"  -i, --interface IFACE  interface to watch (default: the default route's); a\n"
		"                         list IFACE,IFACE... sums them, 'any' watches all\n"
		"  -r, --read FILE        count a capture file (pcap, pcapng; - for standard\n"
		"                         input) through the same filter, instead of an\n"
		"                         interface; samples follow the capture's own clock\n"
		"      --speed N          with -r on the screen, replay at N times the\n"
		"                         capture's pace (default 1; 0: as fast as it goes)\n"
		"  -d, --delay SECONDS    time between samples, fractional (default 1)\n"
		"  -n, --iterations N     take N samples, then exit (default: until stopped)\n"
		"  -b, --batch            print each sample as text instead of the screen\n"
		"      --json             with -b, print each sample as one JSON object per line\n"
		"  -m, --max-hosts N      hosts flowtop keeps; beyond that the one idle the\n"
		"                         longest leaves, its counts summed as \"other\"\n"
		"                         (default %u)\n"
		"  -L, --limit N          with -b, print the N busiest hosts of each sample,\n"
		"                         0 for all (default %u)\n"
		"  -o, --snapshot FILE    on exit, write the table to FILE (.json, .csv or text);\n"
		"                         on the screen also the default file of the d key\n"
		"  -s, --sort COLUMN      sort the screen by COLUMN: addr, rx2, tx2, rx10, tx10,\n"
		"                         rx40, tx40, peak, rxpkts, rxbytes, txpkts, txbytes,\n"
		"                         iface, share, history (default rx2)\n"
		"  -f, --filter FILTER    show only hosts in a CIDR (10.0.0.0/8), one address,\n"
		"                         or whose address or name contains FILTER\n"
		"      --group BY         rows by host (default), prefix, as (autonomous\n"
		"                         system) or country: each group's hosts summed\n"
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
		"      --metrics-group BY series per AS or per country too (as, country):\n"
		"                         the --metrics-top busiest, the rest as \"other\"\n"
		"      --ring-memory MIB  memory for the per-CPU rings the filter writes to,\n"
		"                         all CPUs together (default %u; a CPU's ring takes\n"
		"                         at least 64 KiB, at most 2 MiB)\n"
		"      --color WHEN       colours on the screen: auto (when the terminal has\n"
		"                         them and NO_COLOR is not set), always, never\n"
		"      --no-mouse         leave the mouse to the terminal (text selection)\n"
		"  -v, --verbose          print libbpf's debug messages\n"
		"  -h, --help             print this help and exit\n"
		"  -V, --version          print the version and exit\n",
		FLOWTOP_DEFAULT_MAX_HOSTS, CLI_DEFAULT_LIMIT, GROUP_DEFAULT_PREFIX4,
		GROUP_DEFAULT_PREFIX6, GEO_DEFAULT_DB, CLI_DEFAULT_METRICS_TOP,
		FLOWTOP_DEFAULT_RING_MIB);
}

static enum cli_result usage_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/* --columns "as,cc": the optional columns' VIEW_* bits */
static int parse_optional_columns(const char *s, unsigned *bits)
{
	char list[64], *name, *save = NULL;
	int c;

	if (strlen(s) >= sizeof(list))
		return -EINVAL;
	strcpy(list, s);
	*bits = 0;
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		c = column_by_name(name);
		if (c < 0 || !(columns[c].views & VIEW_OPTIONAL))
			return -EINVAL;
		*bits |= columns[c].views & VIEW_OPTIONAL;
	}
	return *bits ? 0 : -EINVAL;
}

/* --prefix "24" or "24,48" */
static int parse_prefixes(const char *s, struct group_opts *o)
{
	char v4[16];
	const char *comma = strchr(s, ',');
	unsigned long a, b = o->prefix6;
	size_t n = comma ? (size_t)(comma - s) : strlen(s);

	if (n >= sizeof(v4))
		return -EINVAL;
	memcpy(v4, s, n);
	v4[n] = '\0';
	if (parse_ulong(v4, 1, 32, &a) || (comma && parse_ulong(comma + 1, 1, 128, &b)))
		return -EINVAL;
	o->prefix4 = (unsigned)a;
	o->prefix6 = (unsigned)b;
	return 0;
}

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

enum cli_result cli_parse(int argc, char **argv, struct cli_opts *opts, FILE *out, char *err,
			  size_t errlen)
{
	bool speed_given = false;
	unsigned long v;
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
	optind = 0; /* full reset: parse again from argv[1] */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:r:d:n:bm:L:o:s:f:Nu:vhV", long_options, NULL)) !=
	       -1) {
		switch (c) {
		case 'i':
			if (iface_names_parse(&opts->iface, optarg, err, errlen))
				return CLI_USAGE;
			break;
		case 'd':
			if (parse_double(optarg, MIN_DELAY, MAX_DELAY, &opts->delay))
				return usage_error(err, errlen,
						   "invalid delay '%s' (seconds, %g to %g)", optarg,
						   MIN_DELAY, MAX_DELAY);
			break;
		case 'n':
			if (parse_ulong(optarg, 1, LONG_MAX, &v))
				return usage_error(
				    err, errlen,
				    "invalid iteration count '%s' (a whole number > 0)", optarg);
			opts->iterations = (long)v;
			break;
		case 'b':
			opts->batch = true;
			break;
		case OPT_JSON:
			opts->json = true;
			break;
		case 'm':
			if (parse_ulong(optarg, 1, MAX_HOSTS_LIMIT, &v))
				return usage_error(err, errlen, "invalid host count '%s' (1 to %u)",
						   optarg, MAX_HOSTS_LIMIT);
			opts->max_hosts = (unsigned)v;
			break;
		case 'L':
			if (parse_ulong(optarg, 0, MAX_HOSTS_LIMIT, &v))
				return usage_error(err, errlen, "invalid limit '%s' (0 to %u)",
						   optarg, MAX_HOSTS_LIMIT);
			opts->limit = (unsigned)v;
			break;
		case 'o':
			if (!*optarg)
				return usage_error(err, errlen, "empty snapshot file name");
			opts->snapshot = optarg;
			break;
		case 's':
			opts->sort_column = column_by_name(optarg);
			if (opts->sort_column < 0)
				return usage_error(err, errlen,
						   "unknown sort column '%s' (see --help)", optarg);
			break;
		case 'f': {
			char why[256];

			if (filter_parse(optarg, &opts->filter, why, sizeof(why)))
				return usage_error(err, errlen, "%s", why);
			break;
		}
		case 'N':
			opts->numeric = true;
			break;
		case 'u':
			if (!optarg[0])
				return usage_error(err, errlen, "-u needs a user name");
			opts->user = optarg;
			break;
		case 'r':
			if (!*optarg)
				return usage_error(err, errlen, "-r needs a capture file");
			opts->read = optarg;
			break;
		case OPT_SPEED:
			speed_given = true;
			if (parse_double(optarg, 0, CLI_MAX_SPEED, &opts->speed))
				return usage_error(
				    err, errlen,
				    "invalid speed '%s' (0 for as fast as it goes, or "
				    "up to %d times the capture's)",
				    optarg, CLI_MAX_SPEED);
			break;
		case OPT_GROUP:
			c = group_by_parse(optarg);
			if (c < 0)
				return usage_error(
				    err, errlen,
				    "--group takes host, prefix, as or country, not '%s'", optarg);
			opts->group.by = (enum group_by)c;
			break;
		case OPT_PREFIX:
			if (parse_prefixes(optarg, &opts->group))
				return usage_error(
				    err, errlen,
				    "--prefix takes V4[,V6]: 1 to 32 bits, then 1 to "
				    "128, not '%s'",
				    optarg);
			break;
		case OPT_COLUMNS:
			if (parse_optional_columns(optarg, &opts->columns))
				return usage_error(err, errlen,
						   "--columns takes optional columns: as, cc (not "
						   "'%s')",
						   optarg);
			break;
		case OPT_METRICS_GROUP:
			c = group_by_parse(optarg);
			if (c != GROUP_AS && c != GROUP_COUNTRY)
				return usage_error(err, errlen,
						   "--metrics-group takes as or country, not '%s'",
						   optarg);
			opts->metrics_group = (enum group_by)c;
			break;
		case OPT_GEO_DB:
			if (!*optarg)
				return usage_error(err, errlen, "--geo-db needs a file");
			opts->geo_db = optarg;
			break;
		case OPT_NETNS:
			if (!*optarg)
				return usage_error(err, errlen, "--netns needs a namespace");
			opts->netns = optarg;
			break;
		case OPT_LISTEN:
			if (!*optarg)
				return usage_error(err, errlen, "--listen needs [ADDR:]PORT");
			opts->listen = optarg;
			break;
		case OPT_METRICS_TOP:
			if (parse_ulong(optarg, 0, MAX_METRICS_TOP, &v))
				return usage_error(err, errlen,
						   "--metrics-top takes 0 to %u hosts, not '%s'",
						   MAX_METRICS_TOP, optarg);
			opts->metrics_top = (unsigned)v;
			break;
		case OPT_RING_MEMORY:
			if (parse_ulong(optarg, 1, MAX_RING_MIB, &v))
				return usage_error(err, errlen,
						   "--ring-memory takes 1 to %u MiB, not '%s'",
						   MAX_RING_MIB, optarg);
			opts->ring_mib = (unsigned)v;
			break;
		case OPT_COLOR:
			if (!strcmp(optarg, "auto"))
				opts->color = CLI_COLOR_AUTO;
			else if (!strcmp(optarg, "always"))
				opts->color = CLI_COLOR_ALWAYS;
			else if (!strcmp(optarg, "never"))
				opts->color = CLI_COLOR_NEVER;
			else
				return usage_error(err, errlen,
						   "--color takes auto, always or never, not '%s'",
						   optarg);
			break;
		case OPT_NO_MOUSE:
			opts->no_mouse = true;
			break;
		case 'v':
			opts->verbose = true;
			break;
		case 'h':
			cli_usage(out);
			return CLI_EXIT;
		case 'V':
			fprintf(out, "flowtop %s (eBPF per-IP traffic monitor)\n", FLOWTOP_VERSION);
			return CLI_EXIT;
		case ':':
			return usage_error(err, errlen, "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			if (optopt > 0 && optopt < 0x100)
				return usage_error(err, errlen, "unknown option '-%c'", optopt);
			return usage_error(err, errlen, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error(err, errlen, "unexpected argument '%s'", argv[optind]);
	if (opts->json && !opts->batch)
		return usage_error(err, errlen, "--json needs -b/--batch");
	if (opts->read && opts->iface.text[0])
		return usage_error(err, errlen,
				   "-r reads a capture file, -i watches interfaces: "
				   "one or the other");
	if (speed_given && !opts->read)
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
