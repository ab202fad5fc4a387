/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* snapshot.h: a report written to a file atomically: whole, or not at all. */
#ifndef FLOWTOP_SNAPSHOT_H
#define FLOWTOP_SNAPSHOT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* Writes r to path in the format its extension names. The data goes to a new temporary
 * file beside path (O_EXCL|O_NOFOLLOW, mode 0644 under the umask), is synced, and is
 * renamed over path: a reader sees the old file or the new one, never a part. Up to the
 * rename, a failure leaves an existing path as it was and no temporary file. The last
 * step, syncing the directory, comes after it: when that fails the new file is in place
 * but a crash may still lose it, and err says so. 0, or -errno with err filled. */
int snapshot_write(const char *path, const struct report *r, char *err, size_t errlen);

/* The same for any writer: write(f, arg) fills the temporary file, 0 or -errno. */
int snapshot_commit(const char *path, int (*write)(FILE *f, void *arg), void *arg, char *err,
		    size_t errlen);

/* Whether a snapshot could be written to path now (its directory exists and is
 * writable, path is not a directory), so a bad -o fails at start, not after the run.
 * 0, or -errno with err filled. */
int snapshot_check(const char *path, char *err, size_t errlen);

/* The default snapshot name: flowtop-IFACE-YYYYmmdd-HHMMSS.txt (local time), for the
 * screen's d key and SIGUSR1 when there is no -o. A list of interfaces longer than
 * SNAPSHOT_NAME_IFACES bytes is named by its first and how many more ("eth0+5"), so
 * the name stays well within a file name's 255 bytes. */
#define SNAPSHOT_NAME_IFACES 64
void snapshot_default_name(const char *iface, char *buf, size_t len);

#endif
