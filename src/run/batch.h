/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* batch.h: the non-interactive output, a sink of the run (run.h): sample, print, repeat
 * until told to stop. */
#ifndef FLOWTOP_BATCH_H
#define FLOWTOP_BATCH_H

#include "capture.h"
#include "exporter.h"
#include "rowfilter.h"
#include "groups.h"
#include "outcome.h"
#include "pcapfile.h"

/* What the batch output is told of the command line. */
struct batch_config {
	double delay;		 /* -d: seconds between samples (of a capture's clock) */
	long iterations;	 /* -n: samples to print, 0 for no limit */
	unsigned limit;		 /* -L: hosts a sample prints, 0 for all */
	bool json;		 /* JSON Lines, errors too */
	bool headless;		 /* print nothing (an exporter alone) */
	struct filter filter;	 /* -f: the rows printed */
	struct group_opts group; /* --group: rows by host, prefix, AS, country */
	const char *snapshot;	 /* -o, or NULL */
	const char *netns;	 /* --netns, or NULL */
	const char *expr;	 /* the filter expression counted by, or NULL */
};

/* Prints a sample every cfg->delay seconds to stdout (text, or JSON Lines; nothing when
 * cfg->headless); on SIGINT, SIGTERM or SIGHUP it takes one last sample, prints it and
 * returns. Writes cfg->snapshot, if any, from the last sample. Each sample goes to exp
 * too, when not NULL. geo is the location database (NULL: none), for the groups by AS or
 * country (cfg->group) and the hosts' AS and country in JSON.
 *
 * With pf, the capture file (-r) instead: every frame through the filter, as fast as it
 * goes, a sample every cfg->delay seconds of the capture's own time from its first
 * frame (the sample's time and rates are the capture's, to the microsecond), a silence
 * of several intervals as one sample, and a last one at the end of the file. A frame
 * stamped before the one before it counts in the current sample. */
enum outcome batch_run(struct capture *c, struct pcapfile *pf, const struct batch_config *cfg,
		       struct exporter *exp, struct geo *geo);

#endif
