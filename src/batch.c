// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* batch.c: the batch mode on the shared event loop (loop.h): a signal or a vanished
 * interface is handled between samples, never inside one. */
#include "batch.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "loop.h"
#include "report.h"
#include "snapshot.h"

struct batch {
	struct capture *cap;
	const struct cli_opts *opts;
	const struct host **rows;
	size_t rows_cap;
	struct timespec last; /* CLOCK_MONOTONIC of the previous sample */
	bool out_closed;      /* stdout's reader went away (EPIPE) */
};

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static int select_rows(struct batch *b, struct report *r, size_t limit)
{
	return report_select(r, capture_hosts(b->cap), &b->opts->filter, limit, &b->rows,
			     &b->rows_cap);
}

/* Samples the counters and fills the report with the busiest rows. */
static int take_sample(struct batch *b, struct report *r)
{
	struct timespec now;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &now);
	err = capture_sample(b->cap, seconds_between(&b->last, &now));
	if (err)
		return err;
	b->last = now;
	clock_gettime(CLOCK_REALTIME, &r->time);
	r->iface = capture_name(b->cap);
	r->links = capture_links(b->cap, &r->nlinks);
	r->netns = b->opts->netns;
	r->totals = capture_totals(b->cap);
	return select_rows(b, r, b->opts->limit);
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

/* A run-time error: on stderr, and in JSON mode also as one {"error": ...} line on
 * stdout (bpftool's convention), so a pipeline reading stdout sees why it ended. */
static void batch_error(const struct cli_opts *opts, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void batch_error(const struct cli_opts *opts, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "flowtop: %s\n", msg);
	if (opts->json) {
		fputs("{\"error\":", stdout);
		report_json_string(stdout, msg);
		fputs("}\n", stdout);
		fflush(stdout);
	}
}

static void print_sample(struct batch *b, const struct report *r)
{
	if (b->out_closed)
		return;
	report_write(stdout, r, b->opts->json ? REPORT_JSON : REPORT_TEXT);
	if (fflush(stdout) && errno == EPIPE)
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
		fprintf(stderr, "flowtop: %s\n", msg);
}

/* The interfaces after a socket error or at a sample: what changed is said (down,
 * back up, gone, new under any); false when every listed one is gone (the run ends). */
static bool link_ok(struct capture *c)
{
	char msg[512];

	if (capture_link_event(c, msg, sizeof(msg)) == -ENODEV)
		return false; /* said after the last sample, as the last line */
	if (msg[0])
		fprintf(stderr, "flowtop: %s\n", msg);
	return true;
}

enum batch_exit batch_run(struct capture *c, const struct cli_opts *opts, struct exporter *exp)
{
	struct batch b = { .cap = c, .opts = opts };
	enum batch_exit status = BATCH_OK;
	bool stop = false;
	struct report r = {};
	struct loop *l;
	long done = 0;
	int ev, signo, err;

	clock_gettime(CLOCK_MONOTONIC, &b.last);
	l = loop_new(opts->delay, CAPTURE_DRAIN_SECONDS);
	if (!l) {
		batch_error(opts, "cannot set up the sampling loop: %s", strerror(errno));
		return BATCH_FAILED;
	}
	while (!stop) {
		ev = loop_wait(l, capture_fd(c), NULL, NULL, 0, -1, &signo);
		if (ev < 0) {
			batch_error(opts, "cannot wait for events: %s", strerror(-ev));
			status = BATCH_FAILED;
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
			status = BATCH_IFACE_GONE;
			stop = true;
		}
		if (!stop && !(ev & LOOP_SAMPLE))
			continue;
		err = take_sample(&b, &r);
		if (err) {
			batch_error(opts, "cannot read the counters: %s", strerror(-err));
			status = BATCH_FAILED;
			break;
		}
		if (exp && exporter_sample(exp, c, opts->netns))
			batch_error(opts, "cannot render the metrics: out of memory");
		if (!opts->headless)
			print_sample(&b, &r);
		if (b.out_closed || (opts->iterations && ++done >= opts->iterations))
			stop = true;
	}
	if (status == BATCH_IFACE_GONE)
		batch_error(
		    opts, "%s %s disappeared (removed, renamed or moved to another namespace)",
		    strchr(capture_name(c), ',') ? "interfaces" : "interface", capture_name(c));
	if (opts->snapshot && r.totals) {
		char msg[512];

		if (write_snapshot(&b, &r, opts->snapshot, msg, sizeof(msg))) {
			batch_error(opts, "%s", msg);
			if (status == BATCH_OK)
				status = BATCH_FAILED;
		}
	}
	loop_free(l);
	free(b.rows);
	return status;
}
