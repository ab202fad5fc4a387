/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* playback.h: a capture file (-r) against the wall clock. Its clock moves on at a pace
 * (--speed, + and -; the batch mode's: as fast as it goes), stops, steps one sample; it
 * feeds the frames to the capture and reports each sample it closes, which the run
 * (run.h) then takes. */
#ifndef FLOWTOP_PLAYBACK_H
#define FLOWTOP_PLAYBACK_H

#include <stdbool.h>
#include <stdint.h>

#define PLAYBACK_MAX_SPEED 1024 /* the fastest pace but "as fast as it goes" (--speed, +) */

struct capture;
struct pcapfile;
struct playback;

/* Samples every delay seconds of the capture's clock (0: the whole capture is one
 * sample), at speed times its pace (0: as fast as it goes, several intervals without a
 * frame closing as one sample), from the wall clock's now. NULL when out of memory. */
struct playback *playback_new(struct pcapfile *pf, double delay, double speed, double now);
void playback_free(struct playback *p);

enum playback_event {
	PLAYBACK_IDLE,	 /* nothing more this turn */
	PLAYBACK_SAMPLE, /* a sample closed: take it (capture_sample()) over *interval s,
			  * up to the capture's time *at (ns since 1970) */
	PLAYBACK_END,	 /* the file ended, or broke (playback_status()) */
};

/* A turn of the screen's loop: the clock moves on to the wall clock's now, then
 * playback_next() runs the frames up to it, a sample at a time, until it says
 * PLAYBACK_IDLE (or PLAYBACK_END, once). A turn closes 64 samples at most, and as fast
 * as it goes, one: each is drawn. */
void playback_turn(struct playback *p, double now);
enum playback_event playback_next(struct playback *p, struct capture *c, double *interval,
				  int64_t *at);
/* The sample in progress as it stands, to close it early (a signal ends the run). */
void playback_current(const struct playback *p, double *interval, int64_t *at);
/* Whether the loop should not wait for the next turn: as fast as it goes, not done. */
bool playback_busy(const struct playback *p);

/* p: the clock stops (or goes on); '.': stopped, one more sample (a turn follows). */
void playback_pause(struct playback *p);
void playback_step(struct playback *p);
/* Twice (past PLAYBACK_MAX_SPEED: as fast as it goes) or half as fast; the pace after. */
double playback_speed(struct playback *p, bool faster);

/* The header's "capture 2025-12-05 12:00:03.250  x1  paused". */
const char *playback_clock(const struct playback *p);
/* After PLAYBACK_END: 0, or why the file broke (see replay_status()), the frames fed. */
int playback_status(const struct playback *p);
const char *playback_error(const struct playback *p);
unsigned long long playback_frames(const struct playback *p);

#endif
