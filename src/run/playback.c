// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* playback.c: a capture file against the wall clock (see playback.h): the replay, its
 * clock, and the screen's header line that says it. */
#include "playback.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "capture.h"
#include "replay.h"

#define FRAMES_PER_RUN	 20000 /* frames fed between two looks at the keyboard */
#define SAMPLES_PER_TURN 64    /* samples closed between two frames drawn */
#define SPEED_MIN	 (1.0 / 64)
#define WHOLE_CAPTURE_NS 1000000000000000000LL /* -d 0: an interval past any capture's span */

struct playback {
	struct replay *replay;
	int64_t to;   /* the capture's clock (ns) the frames run up to */
	double wall;  /* the wall clock when it last moved on */
	double speed; /* its pace; 0: as fast as it goes */
	bool paused, ended;
	unsigned samples; /* closed this turn */
	bool turn_over;	  /* no more samples this turn */
	char clock[96];	  /* playback_clock() */
};

static void say_clock(struct playback *p)
{
	char when[32], pace[16];
	struct tm tm;
	time_t secs = (time_t)(p->to / REPLAY_NSEC);
	int ms = (int)(p->to % REPLAY_NSEC / 1000000);

	if (p->to == INT64_MAX)
		secs = (time_t)(replay_clock(p->replay) / REPLAY_NSEC), ms = 0;
	gmtime_r(&secs, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (p->speed == 0)
		snprintf(pace, sizeof(pace), "max");
	else
		snprintf(pace, sizeof(pace), "x%g", p->speed);
	snprintf(p->clock, sizeof(p->clock), "capture %s.%03d  %s%s", when, ms, pace,
		 p->ended    ? "  end of capture"
		 : p->paused ? "  paused"
			     : "");
}

struct playback *playback_new(struct pcapfile *pf, double delay, double speed, double now)
{
	struct playback *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->replay = replay_new(pf, delay > 0 ? llround(delay * 1e9) : WHOLE_CAPTURE_NS, speed == 0);
	if (!p->replay) {
		free(p);
		return NULL;
	}
	p->speed = speed;
	p->to = replay_begin(p->replay);
	p->wall = now;
	p->turn_over = true; /* until the first turn */
	say_clock(p);
	return p;
}

void playback_free(struct playback *p)
{
	if (!p)
		return;
	replay_free(p->replay);
	free(p);
}

static bool flat_out(const struct playback *p)
{
	return p->speed == 0 && !p->paused;
}

void playback_turn(struct playback *p, double now)
{
	if (!p->paused && !p->ended && p->speed > 0)
		p->to += llround((now - p->wall) * p->speed * 1e9);
	p->wall = now;
	p->samples = 0;
	p->turn_over = false;
}

/* The turn is over: as fast as it goes with no sample closed, the clock is where the
 * frames are. */
static enum playback_event end_turn(struct playback *p, enum playback_event ev)
{
	if (!p->turn_over && flat_out(p) && !p->ended && p->samples == 0)
		p->to = replay_clock(p->replay);
	p->turn_over = true;
	say_clock(p);
	return ev;
}

enum playback_event playback_next(struct playback *p, struct capture *c, double *interval,
				  int64_t *at)
{
	int64_t ns, to = p->speed > 0 || p->paused ? p->to : INT64_MAX;
	enum replay_event ev;

	if (p->ended || p->turn_over || p->samples >= SAMPLES_PER_TURN)
		return end_turn(p, PLAYBACK_IDLE);
	ev = replay_run(p->replay, c, to, FRAMES_PER_RUN, &ns, at);
	capture_drain(c);
	if (ev == REPLAY_IDLE)
		return end_turn(p, PLAYBACK_IDLE);
	if (ev == REPLAY_END) {
		p->ended = true;
		return end_turn(p, PLAYBACK_END);
	}
	p->samples++;
	if (flat_out(p)) { /* as fast as it goes, but each sample drawn */
		p->to = *at;
		p->turn_over = true;
		say_clock(p);
	}
	*interval = (double)ns / REPLAY_NSEC;
	return PLAYBACK_SAMPLE;
}

void playback_current(const struct playback *p, double *interval, int64_t *at)
{
	int64_t ns;

	replay_current(p->replay, &ns, at);
	*interval = (double)ns / REPLAY_NSEC;
}

bool playback_busy(const struct playback *p)
{
	return flat_out(p) && !p->ended;
}

void playback_pause(struct playback *p)
{
	p->paused = !p->paused;
	if (p->speed == 0) /* from where it stands */
		p->to = replay_clock(p->replay);
	say_clock(p);
}

void playback_step(struct playback *p)
{
	if (!p->paused)
		playback_pause(p);
	if (replay_next_sample(p->replay) > p->to)
		p->to = replay_next_sample(p->replay);
}

double playback_speed(struct playback *p, bool faster)
{
	if (faster)
		p->speed = p->speed == 0 ? 0 : p->speed * 2 > PLAYBACK_MAX_SPEED ? 0 : p->speed * 2;
	else
		p->speed = p->speed == 0 ? PLAYBACK_MAX_SPEED : fmax(p->speed / 2, SPEED_MIN);
	if (p->speed > 0 && p->to == INT64_MAX)
		p->to = replay_clock(p->replay);
	/* as fast as it goes, a silence of years must not be years of samples */
	replay_merge_silence(p->replay, p->speed == 0);
	say_clock(p);
	return p->speed;
}

const char *playback_clock(const struct playback *p)
{
	return p->clock;
}

int playback_status(const struct playback *p)
{
	return replay_status(p->replay);
}

const char *playback_error(const struct playback *p)
{
	return replay_error(p->replay);
}

unsigned long long playback_frames(const struct playback *p)
{
	return replay_frames(p->replay);
}
