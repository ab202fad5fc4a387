// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_run.c: the run (run.h) with a sink that records what it is asked: a capture
 * file's samples, its end and its break, -n's stop, a signal's last sample (or none),
 * SIGUSR1's dump, -o at the end, and live samples on lo. Root: it loads the program. */
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "capture.h"
#include "iface.h"
#include "loop.h"
#include "pcapfile.h"
#include "run.h"

#define MAX_SAMPLES 64

/* What the sink was asked, and what it does. */
struct record {
	struct run_sample samples[MAX_SAMPLES];
	uint64_t frames[MAX_SAMPLES]; /* each sample's delta */
	int nsamples, dumps, file_ends, closes, snapshots, opens;
	int file_status;
	char file_why[256];
	unsigned long long file_frames;
	/* behaviour */
	int stop_after;	     /* run_stop() after this many samples (0: never) */
	int raise_at_start;  /* a signal raised before the first wait (0: none) */
	int raise_at_dump;   /* a signal raised by the dump (0: none) */
	bool sample_at_dump; /* the dump takes a sample (run_sample_now()) */
	int snapshot_ret;
	struct capture *cap;
};

static void rec_start(void *arg, struct run *r)
{
	struct record *k = arg;

	(void)r;
	k->opens++;
	if (k->raise_at_start)
		raise(k->raise_at_start); /* blocked: it waits in the run's signalfd */
}

static void rec_fds(void *arg, int *fds, int *timeout_ms)
{
	(void)arg;
	(void)fds;
	*timeout_ms = 5000; /* a bound: no test waits this long for an event */
}

static void rec_sampled(void *arg, struct run *r, const struct run_sample *s)
{
	struct record *k = arg;

	if (k->nsamples >= MAX_SAMPLES) {
		run_stop(r);
		return;
	}
	k->frames[k->nsamples] = capture_totals(k->cap)->delta.frames;
	k->samples[k->nsamples++] = *s;
	if (k->stop_after && k->nsamples >= k->stop_after)
		run_stop(r);
}

static void rec_link(void *arg, struct run *r, int err, const char *msg)
{
	(void)arg, (void)r, (void)err, (void)msg;
}

static void rec_dump(void *arg, struct run *r)
{
	struct record *k = arg;

	k->dumps++;
	if (k->sample_at_dump)
		run_sample_now(r);
	if (k->raise_at_dump)
		raise(k->raise_at_dump);
}

static void rec_file_end(void *arg, struct run *r, int status, const char *why,
			 unsigned long long frames)
{
	struct record *k = arg;

	k->file_ends++;
	k->file_status = status;
	snprintf(k->file_why, sizeof(k->file_why), "%s", why);
	k->file_frames = frames;
	if (status)
		run_set_status(r, OUTCOME_USAGE);
	run_stop(r);
}

static void rec_close(void *arg, struct run *r)
{
	struct record *k = arg;

	(void)r;
	k->closes++;
}

static void rec_snapshot(void *arg, struct run *r, const char *path)
{
	struct record *k = arg;

	(void)path;
	k->snapshots++;
	if (k->snapshot_ret)
		run_fail(r, OUTCOME_FAILED);
}

static void rec_say(void *arg, const char *msg)
{
	(void)arg;
	printf("  said: %s\n", msg);
}

static const struct run_sink_ops recorder = {
	.start = rec_start,
	.fds = rec_fds,
	.sampled = rec_sampled,
	.link = rec_link,
	.dump = rec_dump,
	.file_end = rec_file_end,
	.close = rec_close,
	.snapshot = rec_snapshot,
	.say = rec_say,
};

/* ---- a capture file: four UDP frames at 1000.0, 1000.5, 1001.2 and 1003.7 s ---- */

#define BASE_S 1000
static const unsigned frame_us[] = { 0, 500000, 1200000, 3700000 };

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

/* Writes the capture to path, cut after `cut` bytes of it (0: whole). */
static void write_capture(const char *path, long cut)
{
	uint8_t frame[60] = { 0 };
	FILE *f = fopen(path, "w");
	size_t i;

	memset(frame, 0x02, 12);			/* the two MACs */
	frame[12] = 0x08, frame[13] = 0x00;		/* IPv4 */
	frame[14] = 0x45, frame[17] = 46;		/* header, total length 46 */
	frame[22] = 64, frame[23] = 17;			/* TTL, UDP */
	frame[26] = 10, frame[29] = 1;			/* 10.0.0.1 */
	frame[30] = 10, frame[33] = 2;			/* 10.0.0.2 */
	frame[35] = 53, frame[37] = 53, frame[39] = 26; /* ports, length */
	put32(f, 0xa1b2c3d4);
	put32(f, 2 | 4u << 16); /* version 2.4 */
	put32(f, 0);
	put32(f, 0);
	put32(f, 65535);
	put32(f, 1); /* Ethernet */
	for (i = 0; i < sizeof(frame_us) / sizeof(frame_us[0]); i++) {
		put32(f, BASE_S + frame_us[i] / 1000000);
		put32(f, frame_us[i] % 1000000);
		put32(f, sizeof(frame));
		put32(f, sizeof(frame));
		fwrite(frame, sizeof(frame), 1, f);
	}
	fclose(f);
	if (cut)
		truncate(path, cut);
}

static char capture_path[] = "/tmp/test_run.XXXXXX";

/* The run over the capture (cut after `cut` bytes, 0: whole), recorded in k. */
static enum outcome run_file(struct record *k, long cut, bool last_sample)
{
	struct run_config cfg = { .delay = 1, .speed = 0, .last_sample = last_sample };
	char err[512];
	struct pcapfile *pf;
	enum outcome status = OUTCOME_FAILED;

	write_capture(capture_path, cut);
	k->cap = capture_new(1024, 1 << 20, false, false, err, sizeof(err));
	if (!ASSERT_TRUE(k->cap)) {
		printf("  %s\n", err);
		return status;
	}
	pf = pcapfile_open(capture_path, err, sizeof(err));
	if (ASSERT_TRUE(pf) && ASSERT_OK(capture_attach_file(k->cap, capture_path,
							     pcapfile_hlen(pf), err, sizeof(err))))
		status = run(k->cap, pf, NULL, &cfg, &recorder, k);
	pcapfile_close(pf);
	capture_free(k->cap);
	return status;
}

static uint64_t frames_in(const struct record *k)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < k->nsamples; i++)
		n += k->frames[i];
	return n;
}

/* The whole file: every frame in some sample, the samples on the capture's clock, the
 * last at the last frame, the end said once with the frames, and no -o asked. */
static void test_file_to_its_end(void)
{
	struct record k = {};
	int i;

	ASSERT_EQ(run_file(&k, 0, true), OUTCOME_OK);
	ASSERT_EQ(k.opens, 1);
	ASSERT_EQ(k.closes, 1);
	ASSERT_EQ(k.file_ends, 1);
	ASSERT_EQ(k.file_status, 0);
	ASSERT_EQ(k.file_frames, 4);
	ASSERT_EQ(frames_in(&k), 4);
	ASSERT_EQ(k.snapshots, 0);
	if (!ASSERT_TRUE(k.nsamples >= 3))
		return;
	ASSERT_EQ(k.samples[0].when.tv_sec, BASE_S + 1);
	ASSERT_EQ(k.samples[0].when.tv_nsec, 0);
	ASSERT_DBL(k.samples[0].interval, 1.0);
	ASSERT_EQ(k.frames[0], 2);
	ASSERT_EQ(k.samples[k.nsamples - 1].when.tv_sec, BASE_S + 3);
	ASSERT_EQ(k.samples[k.nsamples - 1].when.tv_nsec, 700000000);
	for (i = 0; i < k.nsamples; i++) {
		ASSERT_EQ(k.samples[i].err, 0);
		ASSERT_TRUE(!k.samples[i].last && !k.samples[i].for_dump);
		if (i)
			ASSERT_TRUE(k.samples[i].when.tv_sec * 1000000000LL +
					k.samples[i].when.tv_nsec >
				    k.samples[i - 1].when.tv_sec * 1000000000LL +
					k.samples[i - 1].when.tv_nsec);
	}
}

/* -n 1: the sink stops the run at its first sample; the file's end is never reached. */
static void test_sink_stops_it(void)
{
	struct record k = { .stop_after = 1 };

	ASSERT_EQ(run_file(&k, 0, true), OUTCOME_OK);
	ASSERT_EQ(k.nsamples, 1);
	ASSERT_EQ(k.frames[0], 2);
	ASSERT_EQ(k.file_ends, 0);
	ASSERT_EQ(k.closes, 1);
}

/* A signal read in the turn a file's sample closed ends the run there: that sample is
 * the last, no other follows (as the batch output's old loop printed it), with
 * last_sample (the batch output) or without (the screen). */
static void test_signal_after_a_played_sample(void)
{
	struct record k = { .raise_at_start = SIGTERM };
	struct record screen = { .raise_at_start = SIGTERM };

	ASSERT_EQ(run_file(&k, 0, true), OUTCOME_OK);
	ASSERT_EQ(k.file_ends, 0);
	if (ASSERT_EQ(k.nsamples, 1)) {
		ASSERT_EQ(k.samples[0].when.tv_sec, BASE_S + 1);
		ASSERT_EQ(k.frames[0], 2);
	}
	ASSERT_EQ(run_file(&screen, 0, false), OUTCOME_OK);
	ASSERT_EQ(screen.nsamples, 1);
	ASSERT_TRUE(!screen.samples[0].last);
	ASSERT_EQ(screen.closes, 1);
}

/* A file that breaks in its third frame: its end says so, with the frames before; also
 * when the sink stopped the run at the sample the break closed (-b -n 1). */
static void test_file_breaks(void)
{
	struct record k = {};
	struct record stopped = { .stop_after = 1 };

	ASSERT_EQ(run_file(&k, 24 + 2 * (16 + 60) + 30, true), OUTCOME_USAGE);
	ASSERT_EQ(k.file_ends, 1);
	ASSERT_EQ(k.file_status, -1);
	ASSERT_TRUE(strstr(k.file_why, "frame 3") != NULL);
	ASSERT_EQ(k.file_frames, 2);
	ASSERT_EQ(frames_in(&k), 2);
	ASSERT_EQ(k.nsamples, 1); /* the last, at the last frame read */

	ASSERT_EQ(run_file(&stopped, 24 + 2 * (16 + 60) + 30, true), OUTCOME_USAGE);
	ASSERT_EQ(stopped.nsamples, 1);
	ASSERT_EQ(stopped.file_ends, 1);
	ASSERT_EQ(stopped.file_status, -1);
}

/* ---- live, on lo ---- */

/* Runs on lo every 50 ms, recorded in k; -o "snap" when snapshot. */
static enum outcome run_lo(struct record *k, bool snapshot)
{
	struct run_config cfg = { .delay = 0.05,
				  .last_sample = true,
				  .snapshot = snapshot ? "snap" : NULL };
	struct iface_names lo = {};
	char err[512];
	enum outcome status = OUTCOME_FAILED;

	iface_names_add(&lo, "lo");
	k->cap = capture_new(1024, 1 << 20, false, false, err, sizeof(err));
	if (!ASSERT_TRUE(k->cap)) {
		printf("  %s\n", err);
		return status;
	}
	if (ASSERT_OK(capture_attach(k->cap, &lo, err, sizeof(err))))
		status = run(k->cap, NULL, NULL, &cfg, &recorder, k);
	else
		printf("  %s\n", err);
	capture_free(k->cap);
	return status;
}

/* The sample timer's samples, their intervals adding up to the time since the run began
 * (a delayed turn makes one longer and the next shorter), stamped by the wall clock; -o
 * at the end, its failure the run's. */
static void test_live_samples(void)
{
	struct record k = { .stop_after = 3, .snapshot_ret = -EACCES };
	struct timespec before, after, wall;
	double sum = 0, span;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &before);
	ASSERT_EQ(run_lo(&k, true), OUTCOME_FAILED);
	clock_gettime(CLOCK_MONOTONIC, &after);
	clock_gettime(CLOCK_REALTIME, &wall);
	ASSERT_EQ(k.nsamples, 3);
	ASSERT_EQ(k.snapshots, 1);
	for (i = 0; i < k.nsamples; i++) {
		ASSERT_TRUE(k.samples[i].interval > 0);
		sum += k.samples[i].interval;
	}
	span =
	    (double)(after.tv_sec - before.tv_sec) + (double)(after.tv_nsec - before.tv_nsec) / 1e9;
	ASSERT_TRUE(sum >= 3 * 0.05 * 0.99 && sum <= span);
	ASSERT_TRUE(k.samples[2].when.tv_sec <= wall.tv_sec &&
		    k.samples[2].when.tv_sec >= wall.tv_sec - 1 - (time_t)span);
}

/* SIGUSR1 asks the sink for a dump (which may take a sample for it first), and the run
 * goes on; SIGTERM then ends it with a last sample. */
static void test_usr1_then_term(void)
{
	struct record k = { .raise_at_start = SIGUSR1,
			    .raise_at_dump = SIGTERM,
			    .sample_at_dump = true };

	ASSERT_EQ(run_lo(&k, false), OUTCOME_OK);
	ASSERT_EQ(k.dumps, 1);
	ASSERT_EQ(k.snapshots, 0);
	if (ASSERT_TRUE(k.nsamples >= 2)) {
		ASSERT_TRUE(k.samples[0].for_dump && !k.samples[0].last);
		ASSERT_TRUE(k.samples[k.nsamples - 1].last);
	}
}

int main(void)
{
	int fd;

	if (!test_need_root("test_run", 6))
		return test_summary("test_run");
	fd = mkstemp(capture_path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	RUN_TEST(test_file_to_its_end);
	RUN_TEST(test_sink_stops_it);
	RUN_TEST(test_signal_after_a_played_sample);
	RUN_TEST(test_file_breaks);
	RUN_TEST(test_live_samples);
	RUN_TEST(test_usr1_then_term);
	unlink(capture_path);
	return test_summary("test_run");
}
