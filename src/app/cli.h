/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* cli.h: the command line: what flowtop was asked to do. */
#ifndef FLOWTOP_CLI_H
#define FLOWTOP_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <net/if.h>

#include "rowfilter.h"
#include "groups.h"
#include "iface.h"

#define FLOWTOP_VERSION		"0.2.0"
#define CLI_DEFAULT_LIMIT	100  /* -L */
#define CLI_DEFAULT_METRICS_TOP 100  /* --metrics-top */
#define CLI_EXPR_LEN		4096 /* the longest filter expression, its NUL included */

enum cli_color {
	CLI_COLOR_AUTO,	  /* when the terminal has colours and NO_COLOR is unset or empty */
	CLI_COLOR_ALWAYS, /* whenever the terminal can */
	CLI_COLOR_NEVER,
};

struct cli_opts {
	struct iface_names iface; /* -i: one, a list "eth0,wg0", or "any"; empty: the
				   * default interface */
	const char *read;	  /* -r: the capture file to read, or NULL */
	char expr[CLI_EXPR_LEN];  /* the trailing arguments, tcpdump's way: the filter
				   * expression (pcap-filter(7)) frames must match to count;
				   * "": every frame */
	double delay;		  /* seconds between samples */
	double speed;		  /* --speed: a replay's pace against the capture's, 0: at once */
	long iterations;	  /* samples to take, 0 for no limit */
	bool batch;		  /* -b: print samples instead of the screen */
	bool json;		  /* --json: batch samples as JSON Lines */
	unsigned max_hosts;	  /* -m: hosts the table holds */
	unsigned limit;		  /* -L: hosts printed per batch sample, 0 for all */
	const char *snapshot;	  /* -o: write the final table here on exit */
	bool verbose;		  /* -v: libbpf's debug output */
	int sort_column;	  /* -s: the screen's sort column (enum col_id) */
	struct filter filter;	  /* -f: rows shown and printed */
	bool numeric;		  /* -N: no reverse DNS names on the screen */
	const char *user;	  /* -u: the user to become once attached, or NULL */
	const char *netns;	  /* --netns: the network namespace to watch in, or NULL */
	const char *listen;	  /* --listen [ADDR:]PORT: serve /metrics, or NULL */
	unsigned metrics_top;	  /* --metrics-top: hosts with series of their own */
	unsigned ring_mib;	  /* --ring-memory: MiB for all the rings together */
	bool headless;		  /* set by main: --listen with neither a terminal nor -b */
	enum cli_color color;	  /* --color */
	bool no_mouse;		  /* --no-mouse: the terminal keeps the mouse */
	struct group_opts group;  /* --group, --prefix: rows by host, prefix, AS, country */
	const char *geo_db;	  /* --geo-db: the location database, or NULL: libloc's */
	enum group_by metrics_group; /* --metrics-group: series per AS or country too */
	unsigned columns;	     /* --columns: the optional columns shown (VIEW_AS...) */
};

enum cli_result {
	CLI_RUN,   /* options parsed: run */
	CLI_EXIT,  /* --help or --version printed: exit 0 */
	CLI_USAGE, /* bad usage, message in err: exit 2 */
};

/* Parses argv into opts. Help and version text go to out; a usage error is described in
 * err. Uses getopt_long, so it resets optind itself and can be called again. */
enum cli_result cli_parse(int argc, char **argv, struct cli_opts *opts, FILE *out, char *err,
			  size_t errlen);

void cli_usage(FILE *out);

#endif
