/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* run.h: the one run under the batch output and the screen, its two sinks. It waits on
 * the event loop (loop.h) and the sink's own fds, empties the rings, takes the samples
 * (the wall clock's, or a capture file's through its playback), feeds the exporter,
 * checks the interfaces, answers the signals (SIGUSR1: a dump; the others: the end) and
 * writes -o at the end; the sink shows, says and decides what the run does next. */
#ifndef FLOWTOP_RUN_H
#define FLOWTOP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "capture.h"
#include "exporter.h"
#include "outcome.h"
#include "pcapfile.h"
#include "playback.h"

#define RUN_SINK_FDS 2 /* the sink's own fds: the keyboard, the resolver */

struct run;

struct run_config {
	double delay;	      /* seconds between samples (of a capture file's clock) */
	double speed;	      /* a capture file's pace, times its own (0: as fast as it goes) */
	const char *snapshot; /* -o, written by the sink at the end; or NULL */
	const char *netns;    /* the namespace watched, for the exporter's series */
	bool last_sample;     /* a signal that ends the run closes one last sample */
};

/* A sample just taken. */
struct run_sample {
	int err;	      /* 0, or capture_sample()'s -errno: the counters are not read */
	double interval;      /* seconds it spans */
	struct timespec when; /* the wall clock's time of it, or the capture file's */
	bool last;	      /* the run ends after it (a signal, every interface gone) */
	bool for_dump;	      /* taken for a dump (run_sample_now()), not to be shown */
};

/* What the run asks of its sink; arg is the sink's. Each may call run_stop() and
 * run_fail(). */
struct run_sink_ops {
	/* The run is set up (its playback made): before the first wait. May be NULL. */
	void (*start)(void *arg, struct run *r);
	/* Before each wait: the sink's fds into fds[0..RUN_SINK_FDS) (-1: none), and how
	 * long the wait may last in ms (-1: no limit; the run waits no longer than 0 while a
	 * capture file plays as fast as it goes). May be NULL: none, no limit. */
	void (*fds)(void *arg, int *fds, int *timeout_ms);
	/* A sample was taken (and went to the exporter). */
	void (*sampled)(void *arg, struct run *r, const struct run_sample *s);
	/* The interfaces changed: capture_link_event()'s err (-ENODEV: every watched one is
	 * gone) and what it said (may be ""). */
	void (*link)(void *arg, struct run *r, int err, const char *msg);
	/* SIGUSR1: a dump of what is shown. */
	void (*dump)(void *arg, struct run *r);
	/* A capture file ended (its last sample taken): status and why, as
	 * playback_status() and playback_error() say, with the frames fed; also at the end
	 * of a run stopped on the turn the file broke. May be NULL when there is never a
	 * file. */
	void (*file_end)(void *arg, struct run *r, int status, const char *why,
			 unsigned long long frames);
	/* The end of a turn: what the sink's fds reported, and the run's LOOP_* events (0: a
	 * timeout, or a capture file's turn). May be NULL. */
	void (*turn)(void *arg, struct run *r, const short *revents, int events);
	/* The run is over (or could not be set up): the sink lets go of the terminal, says
	 * how it ended. */
	void (*close)(void *arg, struct run *r);
	/* -o at the end: written, or why not said and the run's status set. */
	void (*snapshot)(void *arg, struct run *r, const char *path);
	/* A failure of the run's own (waiting, the metrics), said the sink's way. */
	void (*say)(void *arg, const char *msg);
};

/* Runs c (attached to interfaces, or to a capture file: pf not NULL) until the sink or a
 * signal stops it; exp (NULL: none) gets every sample but a dump's. The exit status: as
 * the sink set it (run_fail(), run_set_status()), or 1 when the loop could not be set up
 * or waiting failed. */
enum outcome run(struct capture *c, struct pcapfile *pf, struct exporter *exp,
		 const struct run_config *cfg, const struct run_sink_ops *ops, void *arg);

/* The run ends after this turn (with a last sample, when cfg->last_sample). */
void run_stop(struct run *r);
/* The run's exit status is this, unless a failure was set before (the first stands). */
void run_fail(struct run *r, enum outcome status);
/* The run's exit status is this (the last stands). */
void run_set_status(struct run *r, enum outcome status);
enum outcome run_status(const struct run *r);
/* The counters started over (another interface, another expression): the next sample's
 * interval starts now. */
void run_started_over(struct run *r);
/* A capture file's playback (NULL when live), for the sink's keys to move. */
struct playback *run_playback(struct run *r);
/* Plays a capture file's turn now (a step asked for): its samples go to the sink. */
void run_play(struct run *r);
/* Takes a live sample now, over the interval since the last, for a dump (SIGUSR1
 * before the first sample). */
void run_sample_now(struct run *r);

#endif
