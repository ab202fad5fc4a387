// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* batch.c: the batch output, a sink of the run (run.h): the rows of each sample, printed
 * in one write; SIGUSR1's snapshot; -o at the end; and how the run ended, said. */
#include "batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "loop.h"
#include "report.h"
#include "run.h"
#include "snapshot.h"

struct batch {
	struct capture *cap;
	const struct batch_config *cfg;
	const struct host **rows;
	size_t rows_cap;
	struct timespec last;  /* CLOCK_MONOTONIC of the previous sample */
	bool out_closed;       /* stdout's reader went away (EPIPE) */
	struct geo *geo;       /* the location database, or NULL */
	struct groups *groups; /* the rows' groups (cfg->group), or NULL: hosts */
	bool final;	       /* the run's last sample is next: its groups wait for the
				* look-ups made aside (GROUPS_FINAL_WAIT_MS at most) */
	bool file;	       /* the samples are a capture file's (-r) */
	struct report r;       /* the last sample's */
	long done;	       /* samples printed */
};

#define GROUPS_FINAL_WAIT_MS 2000

static int select_rows(struct batch *b, struct report *r, size_t limit)
{
	/* the port rows are their own groups; other groupings group the hosts */
	struct hosttab *hosts =
	    b->cfg->group.by == GROUP_PORT ? capture_ports(b->cap) : capture_hosts(b->cap);
	size_t i;
	int err;

	r->groups = b->groups;
	r->geo = b->geo;
	if (b->groups) {
		err = groups_build(b->groups, hosts, &b->cfg->group);
		if (!err && b->final) { /* what the last output says has no host "looking up" */
			groups_settle(b->groups, hosts, GROUPS_FINAL_WAIT_MS);
			err = groups_build(b->groups, hosts, &b->cfg->group);
		}
		if (err)
			return err;
		return report_select(r, groups_table(b->groups), &b->cfg->filter, limit, &b->rows,
				     &b->rows_cap);
	}
	err = report_select(r, hosts, &b->cfg->filter, limit, &b->rows, &b->rows_cap);
	for (i = 0; !err && b->geo && i < r->nrows; i++) { /* where the rows' hosts are */
		struct host *h = hosttab_own(hosts, r->rows[i]);

		host_locate(b->geo, h);
	}
	return err;
}

/* The groups the rows are (cfg->group), when they are groups. 0 or -ENOMEM. */
static int batch_init(struct batch *b, struct capture *c, const struct batch_config *cfg,
		      struct geo *geo, bool file)
{
	*b = (struct batch){ .cap = c, .cfg = cfg, .geo = geo, .file = file };
	b->r.time_digits = file ? 6 : 0; /* a capture's stamps are to the microsecond */
	if (cfg->group.by == GROUP_HOST)
		return 0;
	b->groups = groups_new(hosttab_capacity(capture_hosts(c)), geo);
	if (b->groups && !file)
		groups_look_up_aside(b->groups);
	return b->groups ? 0 : -ENOMEM;
}

/* The sample just taken into the report, its time `when`, with the busiest rows. */
static int fill_report(struct batch *b, struct report *r, const struct timespec *when)
{
	r->time = *when;
	r->iface = capture_name(b->cap);
	r->links = capture_links(b->cap, &r->nlinks);
	r->several = capture_several(b->cap);
	r->netns = b->cfg->netns;
	r->expr = b->cfg->expr;
	r->totals = capture_totals(b->cap);
	if (b->file) { /* the path, and no interfaces */
		r->file = r->iface;
		r->links = NULL;
		r->nlinks = 0;
	}
	return select_rows(b, r, b->cfg->limit);
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
	select_rows(b, r, b->cfg->limit);
	return err;
}

/* One sample, one write(2) to stdout (report_send): a reader tailing the output never
 * finds half a sample at its end. A sample too large to build in memory goes through
 * stdio, in pieces, rather than not at all. A reader gone (EPIPE) ends the run. */
static void print_sample(struct batch *b, const struct report *r)
{
	enum report_format fmt = b->cfg->json ? REPORT_JSON : REPORT_TEXT;
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
static void batch_dump(void *arg, struct run *run)
{
	struct batch *b = arg;
	char path[512], msg[768];

	if (!b->r.totals)
		run_sample_now(run);
	if (!b->r.totals)
		return;
	if (b->cfg->snapshot)
		snprintf(path, sizeof(path), "%s", b->cfg->snapshot);
	else
		snapshot_default_name(b->r.iface, path, sizeof(path));
	if (write_snapshot(b, &b->r, path, msg, sizeof(msg)))
		fmt_complain(msg);
}

/* A sample: its rows printed; the run stops after -n of them, or when stdout's reader
 * went away. */
static void batch_sampled(void *arg, struct run *run, const struct run_sample *s)
{
	struct batch *b = arg;
	int err = s->err;

	b->final =
	    !s->for_dump && (s->last || (b->cfg->iterations && b->done + 1 >= b->cfg->iterations));
	if (!err)
		err = fill_report(b, &b->r, &s->when);
	if (err && s->for_dump) /* no snapshot, and the run goes on */
		return;
	if (err) {
		outcome_say(b->cfg->json, "cannot read the counters: %s", strerror(-err));
		run_set_status(run, OUTCOME_FAILED);
		run_stop(run);
		return;
	}
	if (s->for_dump)
		return;
	if (!b->cfg->headless)
		print_sample(b, &b->r);
	if (b->out_closed || (b->cfg->iterations && ++b->done >= b->cfg->iterations))
		run_stop(run);
}

/* The interfaces after a socket error or at a sample: what changed is said (down, back
 * up, new under any); when every listed one is gone the run ends, said after the last
 * sample, as the last line. */
static void batch_link(void *arg, struct run *run, int err, const char *msg)
{
	(void)arg;
	if (err == -ENODEV) {
		run_fail(run, OUTCOME_IFACE_GONE);
		run_stop(run);
	} else if (msg[0]) {
		fmt_complain(msg);
	}
}

static void batch_file_end(void *arg, struct run *run, int status, const char *why,
			   unsigned long long frames)
{
	struct batch *b = arg;

	(void)frames;
	if (status) {
		outcome_say(b->cfg->json, "%s", why);
		run_fail(run, outcome_of_replay(status));
	}
	run_stop(run);
}

static void batch_close(void *arg, struct run *run)
{
	struct batch *b = arg;

	if (run_status(run) == OUTCOME_IFACE_GONE)
		outcome_say(b->cfg->json,
			    "%s %s disappeared (removed, renamed or moved to another namespace)",
			    capture_several(b->cap) ? "interfaces" : "interface",
			    capture_name(b->cap));
}

/* -o on the way out, from the last sample: a failure is said, and fails a run that had
 * not failed otherwise. */
static void batch_snapshot(void *arg, struct run *run, const char *path)
{
	struct batch *b = arg;
	char msg[512];

	if (!b->r.totals || !write_snapshot(b, &b->r, path, msg, sizeof(msg)))
		return;
	outcome_say(b->cfg->json, "%s", msg);
	run_fail(run, OUTCOME_FAILED);
}

static void batch_say(void *arg, const char *msg)
{
	struct batch *b = arg;

	outcome_say(b->cfg->json, "%s", msg);
}

static const struct run_sink_ops batch_sink = {
	.sampled = batch_sampled,
	.link = batch_link,
	.dump = batch_dump,
	.file_end = batch_file_end,
	.close = batch_close,
	.snapshot = batch_snapshot,
	.say = batch_say,
};

enum outcome batch_run(struct capture *c, struct pcapfile *pf, const struct batch_config *cfg,
		       struct exporter *exp, struct geo *geo)
{
	struct run_config rc = { .delay = cfg->delay,
				 .speed = 0, /* a capture file as fast as it goes */
				 .snapshot = cfg->snapshot,
				 .netns = cfg->netns,
				 .last_sample = true };
	struct batch b;
	enum outcome status;

	/* before the look-ups' thread starts: it inherits the mask */
	loop_block_signals();
	if (batch_init(&b, c, cfg, geo, pf != NULL)) {
		outcome_say(cfg->json, "out of memory");
		return OUTCOME_FAILED;
	}
	status = run(c, pf, exp, &rc, &batch_sink, &b);
	free(b.rows);
	groups_free(b.groups);
	return status;
}
