/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* snapshot.h: a report written to a file atomically: whole, or not at all. */
#ifndef FLOWTOP_SNAPSHOT_H
#define FLOWTOP_SNAPSHOT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* Writes r to path in the format its extension names. To a regular file or a new name
 * the data goes to a new temporary file beside it (O_EXCL|O_NOFOLLOW, mode 0600, or the
 * replaced file's), is synced, and is renamed over it: a reader sees the old file or the
 * new one, never a part. Up to the rename, a failure leaves an existing path as it was
 * and no temporary file. The last step, syncing the directory, comes after it: when that
 * fails the new file is in place but a crash may still lose it, and err says so.
 * A symbolic link is followed (tcpdump -w's way): its target is what is replaced or
 * made, and the link stays. A character device or a FIFO is opened as it is (never
 * created, truncated or replaced) and the whole snapshot written, a FIFO without a
 * reader being -ENXIO; "-", or a name of flowtop's own standard output, is standard
 * output. A directory (-EISDIR), a socket or a block device (-EINVAL) is refused.
 * 0, or -errno with err filled. */
int snapshot_write(const char *path, const struct report *r, char *err, size_t errlen);

/* The same for any writer: write(f, arg) fills the temporary file, 0 or -errno. */
int snapshot_commit(const char *path, int (*write)(FILE *f, void *arg), void *arg, char *err,
		    size_t errlen);

/* Whether a snapshot could be written to path now, so a bad -o fails at start, not
 * after the run: a kind snapshot_write() refuses is refused, a device or FIFO must be
 * writable, and a file is created and removed where a new one would go (/proc and /sys
 * refuse it). 0, or -errno with err filled. */
int snapshot_check(const char *path, char *err, size_t errlen);

/* The default snapshot name: flowtop-IFACE-YYYYmmdd-HHMMSS.txt (local time), for the
 * screen's d key and SIGUSR1 when there is no -o. A list of interfaces longer than
 * SNAPSHOT_NAME_IFACES bytes is named by its first and how many more ("eth0+5"), so
 * the name stays well within a file name's 255 bytes. */
#define SNAPSHOT_NAME_IFACES 64
void snapshot_default_name(const char *iface, char *buf, size_t len);

#endif
