// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* main.c: the program, on top of the run and its sinks: parse the command line, check
 * what is needed, load, attach (interfaces, or a capture file), then hand over to the
 * batch output or the screen; one start path, one clean-up path. The only file that
 * decides the exit status. */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "capture.h"
#include "caps.h"
#include "cli.h"
#include "exporter.h"
#include "fmt.h"
#include "iface.h"
#include "loop.h"
#include "netns.h"
#include "outcome.h"
#include "pcapfile.h"
#include "report.h"
#include "snapshot.h"
#include "ui.h"

/* -u: the user's uid and primary group, and whether flowtop may become it. */
static int lookup_user(const char *name, struct caps_user *user, char *err, size_t errlen)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(name);
	if (!pw) {
		snprintf(err, errlen, "-u %s: %s", name, errno ? strerror(errno) : "no such user");
		return -1;
	}
	if (!caps_can_change_user()) {
		snprintf(err, errlen,
			 "-u %s: becoming another user takes root (CAP_SETUID, CAP_SETGID and "
			 "CAP_SETPCAP); run flowtop as root, or without -u",
			 name);
		return -1;
	}
	user->uid = pw->pw_uid;
	user->gid = pw->pw_gid;
	return 0;
}

/* Whether every interface of an -i list exists and has a link header flowtop knows:
 * said before the capabilities are checked, as a usage error. 0 or -errno. */
static int check_ifaces(const struct iface_names *l, char *err, size_t errlen)
{
	struct iface_info info;
	size_t i;
	int ret;

	for (i = 0; i < l->n; i++) {
		ret = iface_get_watchable(l->names[i], &info, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* The location database (AS and country), when there is one; that there is none is
 * said (in why: "" when not) only where it was asked for: --geo-db, --group as or
 * country. */
static struct geo *open_geo(const struct cli_opts *opts, char *why, size_t len)
{
	char err[512];
	struct geo *geo = geo_open(opts->geo_db, err, sizeof(err));

	why[0] = '\0';
	if (!geo &&
	    (opts->geo_db || opts->group.by == GROUP_AS || opts->group.by == GROUP_COUNTRY ||
	     opts->metrics_group == GROUP_AS || opts->metrics_group == GROUP_COUNTRY))
		snprintf(why, len, "%s: AS and country show as -", err);
	return geo;
}

/* This program's path, for the setcap line a user can paste. */
static const char *self_path(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return "/path/to/flowtop";
	path[n] = '\0';
	return path;
}

/* What a run starts with, let go of in one place (finish()). */
struct start {
	struct cli_opts opts;
	struct capture *cap;
	struct pcapfile *pf;   /* -r's, or NULL */
	struct exporter *exp;  /* --listen's, or NULL */
	struct geo *geo;       /* the location database, or NULL */
	int listen_fd;	       /* --listen's socket until the exporter takes it */
	struct caps_user user; /* -u's */
	char err[1024];	       /* why the start failed */
	char why[600];	       /* why there is no location database, or "" */
};

/* The options that need nothing loaded: -o, -o - with --json, a terminal for the screen
 * (without one, --listen alone runs headless). */
static enum outcome check_options(struct start *s)
{
	struct cli_opts *o = &s->opts;

	if (o->snapshot && snapshot_check(o->snapshot, s->err, sizeof(s->err)))
		return OUTCOME_USAGE;
	/* text after a sample is read by eye; among JSON Lines it breaks every reader */
	if (o->snapshot && !strcmp(o->snapshot, "-") && o->json) {
		snprintf(s->err, sizeof(s->err),
			 "-o - with --json: standard output carries one JSON object per line");
		return OUTCOME_USAGE;
	}
	if (!o->batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		if (!o->listen) {
			snprintf(s->err, sizeof(s->err),
				 "the screen needs a terminal: use -b for batch output");
			return OUTCOME_USAGE;
		}
		o->headless = o->batch = true; /* an exporter alone: no screen, no output */
	}
	return OUTCOME_OK;
}

/* The capabilities a run needs (live: the packet socket's too), or why not, with the
 * setcap line to grant them. */
static enum outcome check_caps(struct start *s, bool live)
{
	char missing[64];

	if (!caps_missing(missing, sizeof(missing), live))
		return OUTCOME_OK;
	snprintf(s->err, sizeof(s->err),
		 "missing %s: %s a BPF program (CAP_BPF, and CAP_PERFMON for the verifier to "
		 "accept its loop)%s; run it as root or grant them: setcap %s+ep %.600s",
		 missing, live ? "flowtop loads" : "reading a capture loads",
		 live ? " and opens a packet socket (CAP_NET_RAW)" : "",
		 live ? "cap_bpf,cap_perfmon,cap_net_raw" : "cap_bpf,cap_perfmon", self_path());
	return OUTCOME_USAGE;
}

/* Interfaces: the exporter's port, the namespace, the interfaces (the default one when
 * none is named), -u's user and the capabilities, before anything is loaded. */
static enum outcome prepare_live(struct start *s)
{
	struct cli_opts *o = &s->opts;

	/* before the namespace and the drop: in flowtop's own namespace, any port */
	if (o->listen) {
		s->listen_fd = exporter_listen(o->listen, s->err, sizeof(s->err));
		if (s->listen_fd < 0)
			return OUTCOME_USAGE;
	}
	/* for good, before anything is looked up or opened: the interfaces, the default
	 * route and the sockets are then the namespace's (switching needs no setns) */
	if (o->netns && netns_enter(o->netns, s->err, sizeof(s->err)))
		return OUTCOME_USAGE;
	iface_names_or_default(&o->iface);
	if (check_ifaces(&o->iface, s->err, sizeof(s->err)))
		return OUTCOME_USAGE;
	if (o->user && lookup_user(o->user, &s->user, s->err, sizeof(s->err)))
		return OUTCOME_USAGE;
	return check_caps(s, true);
}

/* -r: the program is loaded; the file (anyone may have made it) is parsed and the
 * expression compiled with no privilege left, but CAP_BPF where the kernel gates every
 * bpf() command (the counters are read through it). */
static enum outcome attach_file(struct start *s)
{
	const struct cli_opts *o = &s->opts;
	int ret = caps_drop(NULL, caps_bpf_gated() ? CAPS_KEEP_BPF : CAPS_KEEP_NONE);

	if (ret) {
		snprintf(s->err, sizeof(s->err), "cannot drop privileges: %s", strerror(-ret));
		return outcome_of_error(ret);
	}
	s->pf = pcapfile_open(o->read, s->err, sizeof(s->err));
	if (!s->pf ||
	    (o->expr[0] && pcapfile_set_expression(s->pf, o->expr, s->err, sizeof(s->err))))
		return OUTCOME_USAGE; /* the file or the expression: the user's to fix */
	ret = capture_attach_file(s->cap, o->read, pcapfile_hlen(s->pf), s->err, sizeof(s->err));
	return ret ? outcome_of_error(ret) : OUTCOME_OK;
}

/* Interfaces: the expression, the sockets, the statistics; then the privileges dropped
 * (and -u's user become). */
static enum outcome attach_live(struct start *s)
{
	const struct cli_opts *o = &s->opts;
	int ret = capture_set_expression(s->cap, o->expr, s->err, sizeof(s->err));

	if (ret)
		return OUTCOME_USAGE;
	ret = capture_attach(s->cap, &o->iface, s->err, sizeof(s->err));
	if (ret)
		return outcome_of_error(ret);
	/* the screen's cost figure and the metrics need BPF statistics: switched on while
	 * privileged */
	if (!o->batch || o->listen)
		capture_enable_stats(s->cap);
	/* the screen keeps CAP_BPF for e (a new expression is a new program); the batch
	 * modes and the exporter keep the packet socket's alone, but where the kernel
	 * gates every bpf() command (5.10), CAP_BPF too, to read the counters */
	ret = caps_drop(o->user ? &s->user : NULL,
			CAPS_KEEP_NET_RAW | (o->batch && !caps_bpf_gated() ? 0 : CAPS_KEEP_BPF));
	if (ret) {
		snprintf(s->err, sizeof(s->err), "cannot drop privileges%s%s: %s",
			 o->user ? " and become " : "", o->user ? o->user : "", strerror(-ret));
		return OUTCOME_FAILED;
	}
	/* the snapshot is written as the user flowtop now runs as */
	if (o->user && o->snapshot && snapshot_check(o->snapshot, s->err, sizeof(s->err)))
		return OUTCOME_USAGE;
	return OUTCOME_OK;
}

/* The counting program loaded, and attached to the file or the interfaces. */
static enum outcome load(struct start *s)
{
	const struct cli_opts *o = &s->opts;

	bool asked = o->group.by == GROUP_PORT || o->metrics_group == GROUP_PORT;

	/* ports are counted where asked for, and on the screen, whose a key may ask; where
	 * their program cannot load and only the screen wanted them, it does without */
	s->cap = capture_new(o->max_hosts, (size_t)o->ring_mib << 20, asked || !o->batch,
			     o->verbose, s->err, sizeof(s->err));
	if (!s->cap && !asked && !o->batch) {
		s->cap = capture_new(o->max_hosts, (size_t)o->ring_mib << 20, false, o->verbose,
				     s->err, sizeof(s->err));
		if (s->cap)
			s->err[0] = '\0';
	}
	if (!s->cap) /* reading a file, only an unsupported kernel is the user's to fix */
		return outcome_of_error(o->read && errno != EOPNOTSUPP ? -1 : -errno);
	return o->read ? attach_file(s) : attach_live(s);
}

/* The location database (said now by the batch modes, by the screen on its status
 * line) and the exporter's thread, after the drop and with the signals blocked: it
 * inherits both. */
static enum outcome serve(struct start *s)
{
	const struct cli_opts *o = &s->opts;
	int ret;

	s->geo = open_geo(o, s->why, sizeof(s->why));
	if (s->why[0] && o->batch)
		fmt_complain(s->why);
	if (!o->listen || o->read)
		return OUTCOME_OK;
	ret = loop_block_signals();
	s->exp = ret ? NULL : exporter_start(s->listen_fd, o->metrics_top, s->err, sizeof(s->err));
	s->listen_fd = -1;
	if (s->exp && o->metrics_group && exporter_group(s->exp, o->metrics_group, s->geo)) {
		exporter_stop(s->exp);
		s->exp = NULL;
		snprintf(s->err, sizeof(s->err), "--metrics-group: out of memory");
	}
	if (!s->exp && ret)
		snprintf(s->err, sizeof(s->err), "%s", strerror(-ret));
	return s->exp ? OUTCOME_OK : OUTCOME_FAILED;
}

/* The batch output's part of the command line. */
static struct batch_config batch_config_of(const struct cli_opts *o)
{
	return (struct batch_config){ .delay = o->delay,
				      .iterations = o->iterations,
				      .limit = o->limit,
				      .json = o->json,
				      .headless = o->headless,
				      .filter = o->filter,
				      .group = o->group,
				      .snapshot = o->snapshot,
				      .netns = o->netns,
				      .expr = o->expr[0] ? o->expr : NULL };
}

/* --color, as the screen's theme takes it. */
static enum theme_color theme_color_of(enum cli_color color)
{
	switch (color) {
	case CLI_COLOR_ALWAYS:
		return THEME_COLOR_ALWAYS;
	case CLI_COLOR_NEVER:
		return THEME_COLOR_NEVER;
	case CLI_COLOR_AUTO:
		break;
	}
	return THEME_COLOR_AUTO;
}

/* The screen's part of the command line. */
static struct screen_config screen_config_of(const struct cli_opts *o)
{
	return (struct screen_config){ .delay = o->delay,
				       .speed = o->speed,
				       .snapshot = o->snapshot,
				       .netns = o->netns,
				       .expr = o->expr[0] ? o->expr : NULL,
				       .filter = o->filter,
				       .group = o->group,
				       .sort = (enum col_id)o->sort_column,
				       .columns = o->columns,
				       .names = !o->numeric,
				       .mouse = !o->no_mouse,
				       .color = theme_color_of(o->color) };
}

/* The run, with the batch output or the screen as its sink. */
static enum outcome hand_over(struct start *s)
{
	struct screen_config sc;
	struct batch_config bc;

	if (!s->opts.batch) {
		sc = screen_config_of(&s->opts);
		return (enum outcome)ui_run(s->cap, &sc, s->exp, s->pf, s->geo, s->why);
	}
	bc = batch_config_of(&s->opts);
	return batch_run(s->cap, s->pf, &bc, s->exp, s->geo);
}

/* Lets go of what the start made, whatever it got to. */
static void finish(struct start *s)
{
	exporter_stop(s->exp);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	capture_free(s->cap);
	geo_close(s->geo);
	pcapfile_close(s->pf);
}

int main(int argc, char **argv)
{
	struct start s = { .listen_fd = -1 };
	enum outcome status;

	caps_secure_environment(); /* before any library reads it */
	switch (cli_parse(argc, argv, &s.opts, stdout, s.err, sizeof(s.err))) {
	case CLI_EXIT:
		return OUTCOME_OK;
	case CLI_USAGE:
		fmt_complain(s.err);
		fputs("Try 'flowtop --help' for more information.\n", stderr);
		return OUTCOME_USAGE;
	case CLI_RUN:
		break;
	}
	status = check_options(&s);
	if (status == OUTCOME_OK)
		status = s.opts.read ? check_caps(&s, false) : prepare_live(&s);
	if (status == OUTCOME_OK)
		status = load(&s);
	if (status == OUTCOME_OK)
		status = serve(&s);
	if (status != OUTCOME_OK)
		outcome_say(s.opts.json, "%s", s.err);
	else
		status = hand_over(&s);
	finish(&s);
	return (int)status;
}
