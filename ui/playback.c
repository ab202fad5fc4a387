// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* playback.c: a capture file on the screen (-r): its clock moves on with the wall clock
 * at a pace (--speed, + and -), stops with p, steps one sample with '.', and the samples
 * it closes are the screen's; "end of capture" stays until q. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "outcome.h"
#include "ui_state.h"

#define FRAMES_PER_TICK	 20000 /* frames fed between two looks at the keyboard */
#define SAMPLES_PER_TICK 64    /* samples closed between two frames drawn */
#define SPEED_MIN	 (1.0 / 64)

static void say_clock(struct ui *u)
{
	char when[32], pace[16];
	struct tm tm;
	time_t secs = (time_t)(u->replay_to / REPLAY_NSEC);
	int ms = (int)(u->replay_to % REPLAY_NSEC / 1000000);

	if (u->replay_to == INT64_MAX)
		secs = (time_t)(replay_clock(u->replay) / REPLAY_NSEC), ms = 0;
	gmtime_r(&secs, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (u->speed == 0)
		snprintf(pace, sizeof(pace), "max");
	else
		snprintf(pace, sizeof(pace), "x%g", u->speed);
	snprintf(u->replay_text, sizeof(u->replay_text), "capture %s.%03d  %s%s", when, ms, pace,
		 u->replay_ended    ? "  end of capture"
		 : u->replay_paused ? "  paused"
				    : "");
}

int ui_playback_start(struct ui *u, struct pcapfile *pf)
{
	u->replay = replay_new(pf, llround(u->opts->delay * 1e9), u->opts->speed == 0);
	if (!u->replay)
		return -1;
	u->speed = u->opts->speed;
	u->replay_to = replay_begin(u->replay);
	u->replay_wall = ui_now();
	say_clock(u);
	return 0;
}

void ui_playback_end(struct ui *u)
{
	replay_free(u->replay);
	u->replay = NULL;
}

/* The replay's end: said on the status line for good, an error as the error. */
static void ended(struct ui *u)
{
	u->replay_ended = true;
	if (replay_status(u->replay)) {
		ui_status(u, "%s", replay_error(u->replay));
		u->status_code = outcome_of_replay(replay_status(u->replay));
	} else {
		ui_status(u, "end of capture: %llu frames; q quits", replay_frames(u->replay));
	}
	u->status_until = INFINITY;
}

bool ui_playback_tick(struct ui *u)
{
	double now = ui_now();
	int64_t interval, at, to;
	unsigned samples = 0;
	enum replay_event ev;

	if (!u->replay_paused && !u->replay_ended && u->speed > 0)
		u->replay_to += llround((now - u->replay_wall) * u->speed * 1e9);
	u->replay_wall = now;
	to = u->speed > 0 || u->replay_paused ? u->replay_to : INT64_MAX;
	while (!u->replay_ended && samples < SAMPLES_PER_TICK) {
		ev = replay_run(u->replay, u->cap, to, FRAMES_PER_TICK, &interval, &at);
		capture_drain(u->cap);
		if (ev == REPLAY_IDLE)
			break;
		if (ev == REPLAY_END) {
			ended(u);
			break;
		}
		ui_sample(u, (double)interval / REPLAY_NSEC);
		samples++;
		if (u->speed == 0 && !u->replay_paused) {
			u->replay_to = at;
			break; /* as fast as it goes, but each sample drawn */
		}
	}
	if (u->speed == 0 && !u->replay_paused && !u->replay_ended && samples == 0)
		u->replay_to = replay_clock(u->replay);
	say_clock(u);
	return u->speed == 0 && !u->replay_paused && !u->replay_ended;
}

void ui_playback_pause(struct ui *u)
{
	u->replay_paused = !u->replay_paused;
	if (u->speed == 0) /* from where it stands */
		u->replay_to = replay_clock(u->replay);
	say_clock(u);
}

void ui_playback_step(struct ui *u)
{
	if (!u->replay_paused)
		ui_playback_pause(u);
	if (replay_next_sample(u->replay) > u->replay_to)
		u->replay_to = replay_next_sample(u->replay);
	ui_playback_tick(u);
}

void ui_playback_speed(struct ui *u, bool faster)
{
	if (faster)
		u->speed = u->speed == 0 ? 0 : u->speed * 2 > CLI_MAX_SPEED ? 0 : u->speed * 2;
	else
		u->speed = u->speed == 0 ? CLI_MAX_SPEED : fmax(u->speed / 2, SPEED_MIN);
	if (u->speed > 0 && u->replay_to == INT64_MAX)
		u->replay_to = replay_clock(u->replay);
	/* as fast as it goes, a silence of years must not be years of samples */
	replay_merge_silence(u->replay, u->speed == 0);
	if (u->speed == 0)
		ui_status(u, "replaying as fast as it goes");
	else
		ui_status(u, "replaying at %g times the capture's pace", u->speed);
	say_clock(u);
}
