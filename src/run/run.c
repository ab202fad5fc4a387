// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* run.c: the run's turns (see run.h): wait, empty the rings or play the file, answer a
 * signal, check the interfaces, sample, and hand the sink what its fds reported. A
 * signal or a vanished interface is handled between samples, never inside one. */
#include "run.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "loop.h"
#include "replay.h"

struct run {
	struct capture *cap;
	struct exporter *exp;
	const struct run_config *cfg;
	const struct run_sink_ops *ops;
	void *arg;
	struct playback *play; /* a capture file's, or NULL: live */
	struct timespec last;  /* CLOCK_MONOTONIC of the last live sample */
	bool stopping;	       /* the run ends after this turn */
	unsigned played;       /* a capture file's samples this turn */
	bool file_said;	       /* the sink was told the file ended */
	enum outcome status;
};

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static double now_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void say(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct run *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->ops->say(r->arg, msg);
}

void run_stop(struct run *r)
{
	r->stopping = true;
}

void run_fail(struct run *r, enum outcome status)
{
	if (r->status == OUTCOME_OK)
		r->status = status;
}

void run_set_status(struct run *r, enum outcome status)
{
	r->status = status;
}

enum outcome run_status(const struct run *r)
{
	return r->status;
}

void run_started_over(struct run *r)
{
	clock_gettime(CLOCK_MONOTONIC, &r->last);
}

struct playback *run_playback(struct run *r)
{
	return r->play;
}

/* The counters over the last interval seconds, to the exporter and the sink. */
static void take(struct run *r, double interval, const struct timespec *when, bool last,
		 bool for_dump)
{
	struct run_sample s = {
		.interval = interval, .when = *when, .last = last, .for_dump = for_dump
	};

	s.err = capture_sample(r->cap, interval);
	if (!s.err && !for_dump && r->exp && exporter_sample(r->exp, r->cap, r->cfg->netns))
		r->ops->say(r->arg, "cannot render the metrics: out of memory");
	r->ops->sampled(r->arg, r, &s);
}

static void sample_live(struct run *r, bool last, bool for_dump)
{
	struct timespec now, wall;
	double interval;

	clock_gettime(CLOCK_MONOTONIC, &now);
	interval = seconds_between(&r->last, &now);
	r->last = now;
	clock_gettime(CLOCK_REALTIME, &wall);
	take(r, interval, &wall, last, for_dump);
}

void run_sample_now(struct run *r)
{
	if (!r->play)
		sample_live(r, false, true);
}

static struct timespec capture_time(int64_t at)
{
	return (struct timespec){ .tv_sec = (time_t)(at / REPLAY_NSEC),
				  .tv_nsec = (long)(at % REPLAY_NSEC) };
}

/* Tells the sink the file ended, once. */
static void file_end(struct run *r)
{
	if (r->file_said || !r->ops->file_end)
		return;
	r->file_said = true;
	r->ops->file_end(r->arg, r, playback_status(r->play), playback_error(r->play),
			 playback_frames(r->play));
}

void run_play(struct run *r)
{
	enum playback_event ev;
	double interval;
	int64_t at;

	playback_turn(r->play, now_seconds());
	while ((ev = playback_next(r->play, r->cap, &interval, &at)) == PLAYBACK_SAMPLE) {
		struct timespec when = capture_time(at);

		r->played++;
		take(r, interval, &when, false, false);
	}
	if (ev == PLAYBACK_END)
		file_end(r);
}

/* A signal or a vanished interface ends the run: with cfg->last_sample, the sample in
 * progress closes now, as the last. */
static void last_sample(struct run *r)
{
	struct timespec when;
	double interval;
	int64_t at;

	if (!r->play) {
		sample_live(r, true, false);
		return;
	}
	playback_current(r->play, &interval, &at);
	when = capture_time(at);
	take(r, interval, &when, true, false);
}

/* One turn's events: the rings, the file, a signal, the interfaces, the sample. */
static void turn(struct run *r, int events, int signo)
{
	bool ending = false; /* a signal or the interfaces end the run: a last sample is due */

	r->played = 0;
	if (events & LOOP_DRAIN && !r->play)
		capture_drain(r->cap);
	if (r->play)
		run_play(r);
	if (events & LOOP_SIGNAL && signo == SIGUSR1) {
		r->ops->dump(r->arg, r);
	} else if (events & LOOP_SIGNAL && !r->stopping) {
		r->stopping = true;
		/* the sample the file closed this turn is the last, as is one the sink stopped
		 * at: only a turn that closed none closes the one in progress */
		ending = !r->played;
	}
	/* POLLERR says "down" at once; the sample re-checks, because a deletion reports
	 * ENETDOWN while the device still exists, and nothing after it */
	if (!r->play && events & (LOOP_LINK | LOOP_SAMPLE)) {
		char msg[512];
		int err = capture_link_event(r->cap, msg, sizeof(msg));
		bool was_stopping = r->stopping;

		r->ops->link(r->arg, r, err, msg);
		ending |= r->stopping && !was_stopping;
	}
	if (ending && r->cfg->last_sample)
		last_sample(r);
	else if (!r->play && events & LOOP_SAMPLE && !r->stopping)
		sample_live(r, false, false);
}

enum outcome run(struct capture *c, struct pcapfile *pf, struct exporter *exp,
		 const struct run_config *cfg, const struct run_sink_ops *ops, void *arg)
{
	struct run r = { .cap = c, .exp = exp, .cfg = cfg, .ops = ops, .arg = arg };
	struct loop *l = loop_new(cfg->delay, CAPTURE_DRAIN_SECONDS, capture_wake_fd(c));
	int wait_err = 0;

	if (!l) {
		int err = errno;

		ops->close(arg, &r);
		say(&r, "cannot set up the sampling loop: %s", strerror(err));
		return OUTCOME_FAILED;
	}
	if (pf && !(r.play = playback_new(pf, cfg->delay, cfg->speed, now_seconds()))) {
		ops->close(arg, &r);
		say(&r, "out of memory");
		loop_free(l);
		return OUTCOME_FAILED;
	}
	clock_gettime(CLOCK_MONOTONIC, &r.last);
	if (ops->start)
		ops->start(arg, &r);
	while (!r.stopping) {
		int fds[RUN_SINK_FDS] = { -1, -1 }, timeout_ms = -1, signo = 0, events;
		short revents[RUN_SINK_FDS] = { 0, 0 };

		if (ops->fds)
			ops->fds(arg, fds, &timeout_ms);
		if (r.play && playback_busy(r.play))
			timeout_ms = 0;
		events =
		    loop_wait(l, capture_fd(c), fds, revents, RUN_SINK_FDS, timeout_ms, &signo);
		if (events < 0) {
			wait_err = -events;
			run_set_status(&r, OUTCOME_FAILED);
			break;
		}
		turn(&r, events, signo);
		if (ops->turn)
			ops->turn(arg, &r, revents, events);
	}
	/* a run stopped on the turn its file broke: the break is still said, and counts */
	if (r.play && !wait_err && playback_status(r.play))
		file_end(&r);
	ops->close(arg, &r);
	if (wait_err)
		say(&r, "waiting for events failed: %s", strerror(wait_err));
	if (cfg->snapshot)
		ops->snapshot(arg, &r, cfg->snapshot);
	playback_free(r.play);
	loop_free(l);
	return r.status;
}
