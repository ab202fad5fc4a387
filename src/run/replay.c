// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* replay.c: one frame read ahead; the clock, the next sample's time, and a silence of
 * several intervals held back as one sample when merged. */
#include "replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct replay {
	struct pcapfile *pf;
	int64_t delay;
	bool merge;
	struct pcap_frame ahead; /* read, not fed */
	bool have_ahead, eof, started, last_taken;
	int64_t t;			/* the clock: the latest stamp fed */
	int64_t next_sample;		/* when the current sample closes */
	int64_t silent_from, silent_to; /* silent_to > 0: a merged silence to take */
	unsigned long long frames;
	int status;
	char err[512];
};

struct replay *replay_new(struct pcapfile *pf, int64_t delay_ns, bool merge_silence)
{
	struct replay *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->pf = pf;
	r->delay = delay_ns > 0 ? delay_ns : 1;
	r->merge = merge_silence;
	return r;
}

void replay_free(struct replay *r)
{
	free(r);
}

void replay_merge_silence(struct replay *r, bool merge)
{
	r->merge = merge;
}

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * REPLAY_NSEC + t->tv_nsec;
}

/* Whether the clock can hold the frame's stamp, with room for any sum of it and a delay:
 * from 1970 to 2106, as far as the classic pcap format's 32-bit seconds go (pcapng's
 * 64-bit stamps reach further, and a sum of them would overflow). Else the error, in
 * r->err, names the frame. */
static bool stamp_fits(struct replay *r)
{
	const struct timespec *ts = &r->ahead.ts;

	if (ts->tv_sec >= 0 && ts->tv_sec <= REPLAY_MAX_SEC && ts->tv_nsec >= 0 &&
	    ts->tv_nsec < REPLAY_NSEC)
		return true;
	snprintf(r->err, sizeof(r->err),
		 "frame %llu is stamped %lld.%09ld s from 1970: flowtop reads stamps from "
		 "1970 to 2106 only",
		 r->frames + 1, (long long)ts->tv_sec, (long)ts->tv_nsec);
	return false;
}

/* Reads the next frame ahead, once the one before is fed; false at the end (or break). */
static bool read_ahead(struct replay *r)
{
	int ret;

	if (r->have_ahead || r->eof)
		return r->have_ahead;
	ret = pcapfile_next(r->pf, &r->ahead, r->err, sizeof(r->err));
	if (ret == 1 && !stamp_fits(r))
		ret = -1;
	if (ret == 1) {
		r->have_ahead = true;
		if (!r->started) {
			r->started = true;
			r->t = ns_of(&r->ahead.ts);
			r->next_sample = r->t + r->delay;
		}
	} else {
		r->eof = true;
		if (ret < 0)
			r->status = -1;
	}
	return r->have_ahead;
}

/* The filter could not be run on a batch of frames (src/count/filefeed.h) that ends at frame
 * `last`: the replay ends there, with its last sample. */
static void fail(struct replay *r, int err, unsigned long long last)
{
	snprintf(r->err, sizeof(r->err),
		 "cannot run the filter on the frames of a batch up to frame %llu: %s", last,
		 strerror(-err));
	r->status = err;
	r->eof = true;
	r->have_ahead = false;
}

/* replay_run() but for running the frames left in the last batch. */
static enum replay_event feed(struct replay *r, struct capture *c, int64_t to, unsigned max_frames,
			      int64_t *interval, int64_t *at)
{
	unsigned fed = 0, room = capture_file_room(c);
	int64_t when;
	int err;

	if (max_frames > room) /* what the rings hold until the caller drains them */
		max_frames = room;
	while (fed < max_frames) {
		if (r->silent_to) { /* a merged silence, after the sample before it */
			if (r->silent_to > to)
				return REPLAY_IDLE;
			*interval = r->silent_to - r->silent_from;
			*at = r->silent_to;
			r->silent_to = 0;
			return REPLAY_SAMPLE;
		}
		if (!read_ahead(r)) {
			if (r->last_taken)
				return REPLAY_END;
			r->last_taken = true;
			replay_current(r, interval, at);
			return REPLAY_SAMPLE;
		}
		when = ns_of(&r->ahead.ts);
		if (when < r->t)
			when = r->t;	      /* stamped before the last: counted now */
		if (when >= r->next_sample) { /* the sample closes before this frame */
			int64_t closes = r->next_sample, silent;

			if (closes > to)
				return REPLAY_IDLE;
			silent = closes + (when - closes) / r->delay * r->delay;
			*interval = r->delay;
			*at = closes;
			if (r->merge && silent > closes) {
				r->silent_from = closes;
				r->silent_to = silent;
				r->next_sample = silent + r->delay;
			} else {
				r->next_sample = closes + r->delay;
			}
			return REPLAY_SAMPLE;
		}
		if (when > to)
			return REPLAY_IDLE;
		err = 0;
		if (r->ahead.filtered) /* counted there alone, by the capture's clock still */
			capture_feed_filtered(c, r->ahead.wire_len);
		else
			err = capture_feed(c, r->ahead.data, r->ahead.len, r->ahead.extra);
		if (err) {
			fail(r, err, r->frames + 1);
			continue; /* the last sample, then the end */
		}
		r->t = when;
		r->have_ahead = false;
		r->frames++;
		fed++;
	}
	return REPLAY_IDLE;
}

enum replay_event replay_run(struct replay *r, struct capture *c, int64_t to, unsigned max_frames,
			     int64_t *interval, int64_t *at)
{
	enum replay_event ev = feed(r, c, to, max_frames, interval, at);
	int err = capture_flush(c); /* every frame fed is counted before a sample is read */

	if (err && !r->status)
		fail(r, err, r->frames);
	return ev;
}

int64_t replay_begin(struct replay *r)
{
	read_ahead(r);
	return r->t;
}

void replay_current(const struct replay *r, int64_t *interval, int64_t *at)
{
	int64_t opened = r->next_sample - r->delay;

	/* just after a sample closed, the clock is at the last frame fed, before the
	 * boundary: the sample in progress is then empty, not of a negative span */
	*at = r->started && r->t < opened ? opened : r->t;
	*interval = r->started ? *at - opened : 0;
}

int64_t replay_clock(const struct replay *r)
{
	return r->t;
}

int64_t replay_next_sample(const struct replay *r)
{
	return r->next_sample;
}

unsigned long long replay_frames(const struct replay *r)
{
	return r->frames;
}

int replay_status(const struct replay *r)
{
	return r->status;
}

const char *replay_error(const struct replay *r)
{
	return r->err;
}
