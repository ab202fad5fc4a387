// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* batch.c: the batch mode on the shared event loop (loop.h): a signal or a vanished
 * interface is handled between samples, never inside one. */
#include "batch.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "loop.h"
#include "pcapfile.h"
#include "replay.h"
#include "report.h"
#include "snapshot.h"

struct batch {
	struct capture *cap;
	const struct cli_opts *opts;
	const struct host **rows;
	size_t rows_cap;
	struct timespec last;  /* CLOCK_MONOTONIC of the previous sample */
	bool out_closed;       /* stdout's reader went away (EPIPE) */
	struct geo *geo;       /* the location database, or NULL */
	struct groups *groups; /* the rows' groups (opts->group), or NULL: hosts */
	bool final;	       /* the run's last sample is next: its groups wait for the
				* look-ups made aside (GROUPS_FINAL_WAIT_MS at most) */
};

#define GROUPS_FINAL_WAIT_MS 2000

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static int select_rows(struct batch *b, struct report *r, size_t limit)
{
	struct hosttab *hosts = capture_hosts(b->cap);
	size_t i;
	int err;

	r->groups = b->groups;
	r->geo = b->geo;
	if (b->groups) {
		err = groups_build(b->groups, hosts, &b->opts->group);
		if (!err && b->final) { /* what the last output says has no host "looking up" */
			groups_settle(b->groups, hosts, GROUPS_FINAL_WAIT_MS);
			err = groups_build(b->groups, hosts, &b->opts->group);
		}
		if (err)
			return err;
		return report_select(r, groups_table(b->groups), &b->opts->filter, limit, &b->rows,
				     &b->rows_cap);
	}
	err = report_select(r, hosts, &b->opts->filter, limit, &b->rows, &b->rows_cap);
	for (i = 0; !err && b->geo && i < r->nrows; i++) { /* where the rows' hosts are */
		struct host *h = hosttab_own(hosts, r->rows[i]);

		geo_locate(b->geo, &h->addr, &h->geo);
	}
	return err;
}

/* The groups the rows are (opts->group), when they are groups. 0 or -ENOMEM. */
static int batch_init(struct batch *b, struct capture *c, const struct cli_opts *opts,
		      struct geo *geo)
{
	*b = (struct batch){ .cap = c, .opts = opts, .geo = geo };
	if (opts->group.by == GROUP_HOST)
		return 0;
	b->groups = groups_new(hosttab_capacity(capture_hosts(c)), geo);
	if (b->groups && !opts->read)
		groups_look_up_aside(b->groups);
	return b->groups ? 0 : -ENOMEM;
}

/* Samples the counters over the last interval seconds, the sample's time `when`, and
 * fills the report with the busiest rows. */
static int sample_at(struct batch *b, struct report *r, double interval,
		     const struct timespec *when)
{
	int err = capture_sample(b->cap, interval);

	if (err)
		return err;
	r->time = *when;
	r->iface = capture_name(b->cap);
	r->links = capture_links(b->cap, &r->nlinks);
	r->several = capture_several(b->cap);
	r->netns = b->opts->netns;
	r->expr = b->opts->expr[0] ? b->opts->expr : NULL;
	r->totals = capture_totals(b->cap);
	return select_rows(b, r, b->opts->limit);
}

/* A live sample: the interval since the previous one, now. */
static int take_sample(struct batch *b, struct report *r)
{
	struct timespec now, wall;
	double interval;

	clock_gettime(CLOCK_MONOTONIC, &now);
	interval = seconds_between(&b->last, &now);
	b->last = now;
	clock_gettime(CLOCK_REALTIME, &wall);
	return sample_at(b, r, interval, &wall);
}

/* A snapshot holds every host (that passes -f), busiest first. */
static int write_snapshot(struct batch *b, struct report *r, const char *path, char *msg,
			  size_t len)
{
	int err = select_rows(b, r, 0);

	if (err) {
		snprintf(msg, len, "cannot write %s: %s", path, strerror(-err));
		return err;
	}
	err = snapshot_write(path, r, msg, len);
	select_rows(b, r, b->opts->limit);
	return err;
}

/* One sample, one write(2) to stdout (report_send): a reader tailing the output never
 * finds half a sample at its end. A sample too large to build in memory goes through
 * stdio, in pieces, rather than not at all. A reader gone (EPIPE) ends the run. */
static void print_sample(struct batch *b, const struct report *r)
{
	enum report_format fmt = b->opts->json ? REPORT_JSON : REPORT_TEXT;
	int err;

	if (b->out_closed)
		return;
	if (fflush(stdout) && errno == EPIPE) { /* what went through stdio first */
		b->out_closed = true;
		return;
	}
	err = report_send(STDOUT_FILENO, r, fmt);
	if (err == -ENOMEM) {
		report_write(stdout, r, fmt);
		err = fflush(stdout) ? -errno : 0;
	}
	if (err == -EPIPE)
		b->out_closed = true;
}

/* SIGUSR1: the last sample (one is taken if there is none yet) to the -o file, or to
 * flowtop-IFACE-DATE-TIME.txt; flowtop goes on. */
static void usr1_snapshot(struct batch *b, struct report *r)
{
	char path[512], msg[768];

	if (!r->totals && take_sample(b, r))
		return;
	if (b->opts->snapshot)
		snprintf(path, sizeof(path), "%s", b->opts->snapshot);
	else
		snapshot_default_name(r->iface, path, sizeof(path));
	if (write_snapshot(b, r, path, msg, sizeof(msg)))
		fmt_complain(msg);
}

/* The interfaces after a socket error or at a sample: what changed is said (down,
 * back up, gone, new under any); false when every listed one is gone (the run ends). */
static bool link_ok(struct capture *c)
{
	char msg[512];

	if (capture_link_event(c, msg, sizeof(msg)) == -ENODEV)
		return false; /* said after the last sample, as the last line */
	if (msg[0])
		fmt_complain(msg);
	return true;
}

/* -o on the way out, from the last sample: a failure is said, and fails a run that
 * had not failed otherwise. */
static enum outcome exit_snapshot(struct batch *b, struct report *r, enum outcome status)
{
	char msg[512];

	if (!b->opts->snapshot || !r->totals ||
	    !write_snapshot(b, r, b->opts->snapshot, msg, sizeof(msg)))
		return status;
	outcome_say(b->opts->json, "%s", msg);
	return status == OUTCOME_OK ? OUTCOME_FAILED : status;
}

enum outcome batch_run(struct capture *c, const struct cli_opts *opts, struct exporter *exp,
		       struct geo *geo)
{
	struct batch b;
	enum outcome status = OUTCOME_OK;
	bool stop = false;
	struct report r = {};
	struct loop *l;
	long done = 0;
	int ev, signo, err;

	if (batch_init(&b, c, opts, geo)) {
		outcome_say(opts->json, "out of memory");
		return OUTCOME_FAILED;
	}
	clock_gettime(CLOCK_MONOTONIC, &b.last);
	l = loop_new(opts->delay, CAPTURE_DRAIN_SECONDS, capture_wake_fd(c));
	if (!l) {
		groups_free(b.groups);
		outcome_say(opts->json, "cannot set up the sampling loop: %s", strerror(errno));
		return OUTCOME_FAILED;
	}
	while (!stop) {
		ev = loop_wait(l, capture_fd(c), NULL, NULL, 0, -1, &signo);
		if (ev < 0) {
			outcome_say(opts->json, "cannot wait for events: %s", strerror(-ev));
			status = OUTCOME_FAILED;
			break;
		}
		if (ev & LOOP_DRAIN)
			capture_drain(c);
		if (ev & LOOP_SIGNAL && signo == SIGUSR1)
			usr1_snapshot(&b, &r);
		else if (ev & LOOP_SIGNAL)
			stop = true; /* one last sample below */
		/* POLLERR says "down" at once; the sample re-checks, because a deletion
		 * reports ENETDOWN while the device still exists, and nothing after it */
		if (ev & (LOOP_LINK | LOOP_SAMPLE) && !link_ok(c)) {
			status = OUTCOME_IFACE_GONE;
			stop = true;
		}
		if (!stop && !(ev & LOOP_SAMPLE))
			continue;
		b.final = stop || (opts->iterations && done + 1 >= opts->iterations);
		err = take_sample(&b, &r);
		if (err) {
			outcome_say(opts->json, "cannot read the counters: %s", strerror(-err));
			status = OUTCOME_FAILED;
			break;
		}
		if (exp && exporter_sample(exp, c, opts->netns))
			outcome_say(opts->json, "cannot render the metrics: out of memory");
		if (!opts->headless)
			print_sample(&b, &r);
		if (b.out_closed || (opts->iterations && ++done >= opts->iterations))
			stop = true;
	}
	if (status == OUTCOME_IFACE_GONE)
		outcome_say(opts->json,
			    "%s %s disappeared (removed, renamed or moved to another namespace)",
			    capture_several(c) ? "interfaces" : "interface", capture_name(c));
	status = exit_snapshot(&b, &r, status);
	loop_free(l);
	free(b.rows);
	groups_free(b.groups);
	return status;
}

/* ---- a capture file ---- */

#define FEED_FRAMES 4096 /* frames between two drains: far fewer than a ring holds */

/* One sample of the file's clock: the interval [at - interval, at), printed. */
static int file_sample(struct batch *b, struct report *r, int64_t interval, int64_t at)
{
	struct timespec when = { .tv_sec = (time_t)(at / REPLAY_NSEC),
				 .tv_nsec = (long)(at % REPLAY_NSEC) };
	int err = sample_at(b, r, (double)interval / REPLAY_NSEC, &when);

	r->file = r->iface; /* the path, and no interfaces */
	r->links = NULL;
	r->nlinks = 0;
	if (err)
		outcome_say(b->opts->json, "cannot read the counters: %s", strerror(-err));
	else if (!b->opts->headless)
		print_sample(b, r);
	return err;
}

/* SIGINT, SIGTERM or SIGHUP arrived (they are blocked: read here, between frames). */
static bool told_to_stop(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	return sigtimedwait(&mask, NULL, &zero) > 0;
}

#define WHOLE_CAPTURE_NS 1000000000000000000LL /* 31 years */

enum outcome batch_read(struct capture *c, struct pcapfile *pf, const struct cli_opts *opts,
			struct geo *geo)
{
	/* -d 0: the whole capture as one sample (an interval past any capture's span) */
	struct replay *rp =
	    replay_new(pf, opts->delay > 0 ? llround(opts->delay * 1e9) : WHOLE_CAPTURE_NS, true);
	struct batch b;
	struct report r = { .time_digits = 6 };
	enum outcome status = OUTCOME_OK;
	enum replay_event ev = REPLAY_IDLE;
	int64_t interval, at;
	long done = 0;

	if (!rp || batch_init(&b, c, opts, geo)) {
		outcome_say(opts->json, "out of memory");
		replay_free(rp);
		return OUTCOME_FAILED;
	}
	loop_block_signals();
	while (ev != REPLAY_END) {
		bool stop;

		ev = replay_run(rp, c, INT64_MAX, FEED_FRAMES, &interval, &at);
		if (ev == REPLAY_END)
			break;
		stop = told_to_stop(); /* after every run: samples may come without end */
		if (ev == REPLAY_IDLE) {
			capture_drain(c);
			if (!stop)
				continue;
			replay_current(rp, &interval, &at); /* the last sample, as at the end */
		}
		if (file_sample(&b, &r, interval, at)) {
			status = OUTCOME_FAILED;
			break;
		}
		if (stop || b.out_closed || (opts->iterations && ++done >= opts->iterations))
			break;
	}
	if (replay_status(rp)) {
		outcome_say(opts->json, "%s", replay_error(rp));
		if (status == OUTCOME_OK)
			status = outcome_of_replay(replay_status(rp));
	}
	status = exit_snapshot(&b, &r, status);
	replay_free(rp);
	free(b.rows);
	groups_free(b.groups);
	return status;
}
