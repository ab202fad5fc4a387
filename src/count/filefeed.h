/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* filefeed.h: a capture file's frames handed to the filter several to a run (struct
 * flow_file_frame), since each BPF_PROG_TEST_RUN costs a syscall: frames gather until a
 * run is full or the caller flushes, as it must before it reads a count. */
#ifndef FLOWTOP_FILEFEED_H
#define FLOWTOP_FILEFEED_H

#include <stddef.h>
#include <stdint.h>

struct flowtop_bpf;
struct filefeed;

struct filefeed *filefeed_new(struct flowtop_bpf *skel);
void filefeed_free(struct filefeed *f);

/* Adds a frame as bpf_load_run_frame() takes one: a 14-byte Ethernet header, then len -
 * 14 bytes from the network header on, extra bytes more on the wire. Runs the frames
 * gathered first when it does not fit. 0, or -errno from a run (see filefeed_flush). */
int filefeed_add(struct filefeed *f, const void *frame, size_t len, uint32_t extra);

/* Runs the frames gathered: every one counted when it returns 0; -errno when the
 * filter could not be run (the frames gathered are dropped then, and said lost by the
 * caller). */
int filefeed_flush(struct filefeed *f);

/* What a feed did so far: runs of the filter, frames handed to it, and of them those
 * run again whole. */
struct filefeed_stats {
	uint64_t runs, frames, again;
};
void filefeed_stats(const struct filefeed *f, struct filefeed_stats *out);

#endif
