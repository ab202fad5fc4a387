// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* batch.c: timerfd + signalfd + the socket's POLLERR in one poll loop, so a signal or
 * a vanished interface is handled between samples, never inside one. */
#include "batch.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#include "fmt.h"
#include "report.h"
#include "snapshot.h"
#include "topk.h"

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

static int rate_order(const void *a, const void *b, void *arg)
{
	(void)arg;
	return host_cmp_rate(*(const struct host *const *)a, *(const struct host *const *)b);
}

/* The hosts that pass -f, the first `limit` of them by rate (0: all), into the report. */
static int select_rows(struct batch *b, struct report *r, size_t limit)
{
	const struct hosttab *t = capture_hosts(b->cap);
	size_t n = hosttab_count(t), i, kept = 0;

	if (n > b->rows_cap) {
		const struct host **rows = realloc(b->rows, n * sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		b->rows = rows;
		b->rows_cap = n;
	}
	for (i = 0; i < n; i++) {
		const struct host *h = hosttab_get(t, i);
		char addr[FMT_ADDR_LEN];

		if (b->opts->filter.kind == FILTER_NONE ||
		    filter_match(&b->opts->filter, &h->addr, fmt_addr(&h->addr, addr)))
			b->rows[kept++] = h;
	}
	if (!limit || limit > kept)
		limit = kept;
	topk_select(b->rows, kept, sizeof(*b->rows), limit, rate_order, NULL);
	r->rows = b->rows;
	r->nrows = limit;
	r->nhosts = kept;
	return 0;
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
	r->iface = capture_iface(b->cap)->name;
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

static int make_timer(double delay)
{
	struct itimerspec its;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	its.it_interval.tv_sec = (time_t)delay;
	its.it_interval.tv_nsec = (long)((delay - floor(delay)) * 1e9);
	its.it_value = its.it_interval;
	if (timerfd_settime(fd, 0, &its, NULL)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int make_signalfd(sigset_t *mask)
{
	int fd;

	sigemptyset(mask);
	sigaddset(mask, SIGINT);
	sigaddset(mask, SIGTERM);
	sigaddset(mask, SIGHUP);
	sigaddset(mask, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, mask, NULL))
		return -errno;
	fd = signalfd(-1, mask, SFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

enum batch_exit batch_run(struct capture *c, const struct cli_opts *opts)
{
	struct batch b = { .cap = c, .opts = opts };
	enum batch_exit status = BATCH_OK;
	bool down_reported = false, stop = false;
	struct report r = {};
	long done = 0;
	sigset_t mask;
	int tfd, sfd, dfd, err;

	signal(SIGPIPE, SIG_IGN); /* a closed stdout is an EPIPE to handle, not a death */
	clock_gettime(CLOCK_MONOTONIC, &b.last);
	tfd = make_timer(opts->delay);
	dfd = make_timer(CAPTURE_DRAIN_SECONDS < opts->delay ? CAPTURE_DRAIN_SECONDS : opts->delay);
	sfd = make_signalfd(&mask);
	if (tfd < 0 || sfd < 0 || dfd < 0) {
		fprintf(stderr, "flowtop: cannot set up the sampling loop: %s\n",
			strerror(-(tfd < 0   ? tfd
				   : sfd < 0 ? sfd
					     : dfd)));
		status = BATCH_FAILED;
		goto out;
	}
	while (!stop) {
		struct pollfd pfd[4] = {
			{ .fd = tfd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
			{ .fd = capture_fd(c), .events = 0 }, /* POLLERR always reported */
			{ .fd = dfd, .events = POLLIN },
		};

		if (poll(pfd, 4, -1) < 0) {
			if (errno == EINTR)
				continue;
			status = BATCH_FAILED;
			break;
		}
		if (pfd[3].revents & POLLIN) {
			uint64_t ticks;

			if (read(dfd, &ticks, sizeof(ticks)) > 0)
				capture_drain(c);
		}
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			bool got = read(sfd, &si, sizeof(si)) == sizeof(si);

			if (got && si.ssi_signo == SIGUSR1)
				usr1_snapshot(&b, &r);
			else if (got)
				stop = true; /* one last sample below */
		}
		/* POLLERR says "down" at once; the tick re-checks, because a deletion
		 * reports ENETDOWN while the device still exists, and nothing after it */
		if (pfd[2].revents & (POLLERR | POLLHUP | POLLNVAL) || pfd[0].revents & POLLIN) {
			err = capture_link_event(c);
			if (err == -ENODEV) {
				batch_error(
				    opts,
				    "interface %s disappeared (removed, renamed or moved to "
				    "another namespace)",
				    capture_iface(c)->name);
				status = BATCH_IFACE_GONE;
				stop = true;
			} else if (err == -ENETDOWN && !down_reported) {
				fprintf(stderr, "flowtop: interface %s is down\n",
					capture_iface(c)->name);
				down_reported = true;
			} else if (!err) {
				down_reported = false;
			}
		}
		if (!stop && !(pfd[0].revents & POLLIN))
			continue;
		if (pfd[0].revents & POLLIN) {
			uint64_t ticks;

			if (read(tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
				break;
		}
		err = take_sample(&b, &r);
		if (err) {
			batch_error(opts, "cannot read the counters: %s", strerror(-err));
			status = BATCH_FAILED;
			break;
		}
		print_sample(&b, &r);
		if (b.out_closed || (opts->iterations && ++done >= opts->iterations))
			stop = true;
	}
	if (opts->snapshot && r.totals) {
		char msg[512];

		if (write_snapshot(&b, &r, opts->snapshot, msg, sizeof(msg))) {
			batch_error(opts, "%s", msg);
			if (status == BATCH_OK)
				status = BATCH_FAILED;
		}
	}
out:
	if (tfd >= 0)
		close(tfd);
	if (dfd >= 0)
		close(dfd);
	if (sfd >= 0)
		close(sfd);
	/* the signals stay blocked: one more arriving during shutdown must not kill what
	 * is ending cleanly (its default action would) */
	free(b.rows);
	return status;
}
