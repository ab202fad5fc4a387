/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* batch.h: the non-interactive output, a sink of the run (run.h): sample, print, repeat
 * until told to stop. */
#ifndef FLOWTOP_BATCH_H
#define FLOWTOP_BATCH_H

#include "capture.h"
#include "cli.h"
#include "exporter.h"
#include "outcome.h"
#include "pcapfile.h"

/* Prints a sample every opts->delay seconds to stdout (text, or JSON Lines; nothing when
 * opts->headless); on SIGINT, SIGTERM or SIGHUP it takes one last sample, prints it and
 * returns. Writes opts->snapshot, if any, from the last sample. Each sample goes to exp
 * too, when not NULL. geo is the location database (NULL: none), for the groups by AS or
 * country (opts->group) and the hosts' AS and country in JSON.
 *
 * With pf, the capture file (-r) instead: every frame through the filter, as fast as it
 * goes, a sample every opts->delay seconds of the capture's own time from its first
 * frame (the sample's time and rates are the capture's, to the microsecond), a silence
 * of several intervals as one sample, and a last one at the end of the file. A frame
 * stamped before the one before it counts in the current sample. */
enum outcome batch_run(struct capture *c, struct pcapfile *pf, const struct cli_opts *opts,
		       struct exporter *exp, struct geo *geo);

#endif
