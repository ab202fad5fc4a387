/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* replay.h: a capture file fed through the capture against the capture's own clock: the
 * frames up to a capture time, and the samples that close on the way, every `delay` of
 * capture time from the first frame. The batch mode runs it as fast as it goes; the
 * screen moves the time on with the wall clock, at a speed. No curses, no wall clock:
 * the caller says how far. */
#ifndef FLOWTOP_REPLAY_H
#define FLOWTOP_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "capture.h"
#include "pcapfile.h"

#define REPLAY_NSEC    1000000000LL
#define REPLAY_MAX_SEC 4294967295LL /* the last stamp read: 2106-02-07 06:28:15 UTC */

enum replay_event {
	REPLAY_IDLE,   /* caught up with the time asked, or done the frames allowed */
	REPLAY_SAMPLE, /* a sample closes: take it (interval, at), then call again */
	REPLAY_END,    /* the file ended, its last sample taken: see replay_error() */
};

struct replay;

/* A replay of pf (not owned) sampled every delay_ns. With merge_silence, several
 * intervals without a frame close as one sample (its interval the silence), as the
 * batch mode wants; without, each closes on its own, as a screen shows time passing. */
struct replay *replay_new(struct pcapfile *pf, int64_t delay_ns, bool merge_silence);
void replay_free(struct replay *r);
/* Merges silences from now on, or not (the screen's pace changed). */
void replay_merge_silence(struct replay *r, bool merge);

/* Feeds c the frames stamped up to capture time `to` (ns since 1970; INT64_MAX: all),
 * at most max_frames of them and no more than the rings hold (capture_file_room(): the
 * caller drains them before the next call, or takes a sample), and stops at the first
 * sample that closes on the way: REPLAY_SAMPLE with its interval and closing time (ns),
 * which the caller takes before the next call. A frame stamped before the one before it
 * counts at the clock's time (the clock never goes back). The end of the file closes a
 * last, shorter sample at its last frame's time (a file without a frame: one of 0 s at
 * time 0), then REPLAY_END. */
enum replay_event replay_run(struct replay *r, struct capture *c, int64_t to, unsigned max_frames,
			     int64_t *interval, int64_t *at);

/* Reads the first frame ahead: its time (the clock's start), or 0 for an empty file. */
int64_t replay_begin(struct replay *r);

/* The sample in progress as it stands: since it opened up to the clock, or of 0 s when
 * the clock is still before its opening (to close it early, on a signal). */
void replay_current(const struct replay *r, int64_t *interval, int64_t *at);

/* The capture's clock: the first frame's time before any is fed (0 before one is read),
 * then the latest stamp fed. */
int64_t replay_clock(const struct replay *r);
/* When the next sample closes (0 before the first frame is read). */
int64_t replay_next_sample(const struct replay *r);
/* Frames fed so far. */
unsigned long long replay_frames(const struct replay *r);

/* After REPLAY_END: 0, or -1 when the file broke (the message, with the frame where,
 * in replay_error()), or -errno when the filter could not be run. */
int replay_status(const struct replay *r);
const char *replay_error(const struct replay *r);

#endif
