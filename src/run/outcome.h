/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* outcome.h: how a run of flowtop ends, in one place: its exit statuses, which errors
 * map to which, and how an error is said (plain on stderr; in JSON mode also as one
 * {"error": ...} line on stdout, bpftool's convention, so that a pipeline reading stdout
 * sees why it ended). */
#ifndef FLOWTOP_OUTCOME_H
#define FLOWTOP_OUTCOME_H

#include <stdbool.h>

enum outcome {
	OUTCOME_OK = 0,		/* done, or stopped by a signal */
	OUTCOME_FAILED = 1,	/* a system failure while running: the counts may be short */
	OUTCOME_USAGE = 2,	/* bad options or input: an unknown interface, missing
				 * privileges, a kernel that cannot run the filter, a capture
				 * file that breaks (the counts up to there printed) */
	OUTCOME_IFACE_GONE = 3, /* every watched interface disappeared */
};

/* What a setup step's failure (-errno) says of the run: the user's to fix (no such
 * interface, a link type or a kernel flowtop cannot count on, two interfaces that cannot
 * be watched at once), else (0 too: a failure that set no errno) a failure. */
enum outcome outcome_of_error(int err);

/* What a capture file's read that ended with replay_status() `status` says: 0 fine,
 * -1 the file broke (the user's input), -errno the filter could not be run. */
enum outcome outcome_of_replay(int status);

/* "flowtop: MSG" on stderr, and with json {"error":"MSG"} on stdout, flushed. */
void outcome_say(bool json, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
