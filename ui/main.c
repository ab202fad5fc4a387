// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* main.c: the program, on top of the run and its sinks: parse the command line, check
 * what is needed, load, attach, then hand over to the batch output or the screen. The
 * only file that decides the exit status. */
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

/* A fatal error, said (outcome_say()); returns the exit status. */
static int fail(const struct cli_opts *opts, enum outcome status, const char *msg)
{
	outcome_say(opts->json, "%s", msg);
	return (int)status;
}

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
	if (!geo && (opts->geo_db || opts->group.by == GROUP_AS ||
		     opts->group.by == GROUP_COUNTRY || opts->metrics_group))
		snprintf(why, len, "%s: AS and country show as -", err);
	return geo;
}

/* The batch modes say it on stderr, the screen on its status line. */
static struct geo *open_geo_said(const struct cli_opts *opts)
{
	char why[600];
	struct geo *geo = open_geo(opts, why, sizeof(why));

	if (why[0])
		fmt_complain(why);
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

/* -r: a capture file through the filter, in batch mode or on the screen. */
static int read_file(const struct cli_opts *opts)
{
	char err[1024], missing[64];
	struct geo *geo = NULL;
	struct pcapfile *pf = NULL;
	bool usage = false; /* the file or the expression: the user's to fix (exit 2) */
	char why[600];
	struct capture *cap;
	int ret;

	if (caps_missing(missing, sizeof(missing), false)) {
		snprintf(err, sizeof(err),
			 "missing %s: reading a capture loads a BPF program (CAP_BPF, and "
			 "CAP_PERFMON for the verifier to accept its loop); run it as root or "
			 "grant them: setcap cap_bpf,cap_perfmon+ep %s",
			 missing, self_path());
		return fail(opts, OUTCOME_USAGE, err);
	}
	cap = capture_new(opts->max_hosts, (size_t)opts->ring_mib << 20, opts->verbose, err,
			  sizeof(err));
	ret = cap ? 0 : errno == EOPNOTSUPP ? -EOPNOTSUPP : -1;
	/* the program is loaded: the file (anyone may have made it) is parsed and the
	 * expression compiled with no privilege left, but CAP_BPF where the kernel gates
	 * every bpf() command (the counters are read through it) */
	if (!ret && (ret = caps_drop(NULL, caps_bpf_gated() ? CAPS_KEEP_BPF : CAPS_KEEP_NONE)))
		snprintf(err, sizeof(err), "cannot drop privileges: %s", strerror(-ret));
	if (!ret && !(pf = pcapfile_open(opts->read, err, sizeof(err))))
		ret = -EINVAL, usage = true;
	if (!ret && opts->expr[0] && pcapfile_set_expression(pf, opts->expr, err, sizeof(err)))
		ret = -EINVAL, usage = true;
	if (!ret)
		ret = capture_attach_file(cap, opts->read, pcapfile_hlen(pf), err, sizeof(err));
	if (ret)
		ret = fail(opts, usage ? OUTCOME_USAGE : outcome_of_error(ret), err);
	else if (opts->batch)
		ret = (int)batch_run(cap, pf, opts, NULL, geo = open_geo_said(opts));
	else
		ret = ui_run(cap, opts, NULL, pf, geo = open_geo(opts, why, sizeof(why)), why);
	capture_free(cap);
	geo_close(geo);
	pcapfile_close(pf);
	return ret;
}

int main(int argc, char **argv)
{
	struct cli_opts opts;
	struct capture *cap;
	struct caps_user user;
	char err[1024], missing[64];
	struct exporter *exp = NULL;
	struct geo *geo = NULL;
	char why[600] = "";
	int ret, listen_fd = -1;

	caps_secure_environment(); /* before any library reads it */
	switch (cli_parse(argc, argv, &opts, stdout, err, sizeof(err))) {
	case CLI_EXIT:
		return OUTCOME_OK;
	case CLI_USAGE:
		fmt_complain(err);
		fputs("Try 'flowtop --help' for more information.\n", stderr);
		return OUTCOME_USAGE;
	case CLI_RUN:
		break;
	}
	if (opts.snapshot && snapshot_check(opts.snapshot, err, sizeof(err)))
		return fail(&opts, OUTCOME_USAGE, err);
	/* text after a sample is read by eye; among JSON Lines it breaks every reader */
	if (opts.snapshot && !strcmp(opts.snapshot, "-") && opts.json)
		return fail(&opts, OUTCOME_USAGE,
			    "-o - with --json: standard output carries one JSON object per line");
	if (!opts.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		if (!opts.listen)
			return fail(&opts, OUTCOME_USAGE,
				    "the screen needs a terminal: use -b for batch output");
		opts.headless = opts.batch = true; /* an exporter alone: no screen, no output */
	}
	if (opts.read)
		return read_file(&opts);
	/* before the namespace and the drop: in flowtop's own namespace, any port */
	if (opts.listen) {
		listen_fd = exporter_listen(opts.listen, err, sizeof(err));
		if (listen_fd < 0)
			return fail(&opts, OUTCOME_USAGE, err);
	}
	/* for good, before anything is looked up or opened: the interfaces, the default
	 * route and the sockets are then the namespace's (switching needs no setns) */
	if (opts.netns && netns_enter(opts.netns, err, sizeof(err)))
		return fail(&opts, OUTCOME_USAGE, err);
	if (!opts.iface.text[0]) {
		char name[IF_NAMESIZE];

		iface_default(name);
		iface_names_add(&opts.iface, name);
	}
	if (check_ifaces(&opts.iface, err, sizeof(err)))
		return fail(&opts, OUTCOME_USAGE, err);
	if (opts.user && lookup_user(opts.user, &user, err, sizeof(err)))
		return fail(&opts, OUTCOME_USAGE, err);
	if (caps_missing(missing, sizeof(missing), true)) {
		snprintf(
		    err, sizeof(err),
		    "missing %s: flowtop loads a BPF program (CAP_BPF, and CAP_PERFMON for "
		    "the verifier to accept its loop) and opens a packet socket (CAP_NET_RAW); "
		    "run it as root or grant them: setcap cap_bpf,cap_perfmon,cap_net_raw+ep %s",
		    missing, self_path());
		return fail(&opts, OUTCOME_USAGE, err);
	}
	cap = capture_new(opts.max_hosts, (size_t)opts.ring_mib << 20, opts.verbose, err,
			  sizeof(err));
	if (!cap)
		return fail(&opts, outcome_of_error(-errno), err);
	ret = capture_set_expression(cap, opts.expr, err, sizeof(err));
	if (ret) {
		capture_free(cap);
		return fail(&opts, OUTCOME_USAGE, err);
	}
	ret = capture_attach(cap, &opts.iface, err, sizeof(err));
	if (ret) {
		capture_free(cap);
		return fail(&opts, outcome_of_error(ret), err);
	}
	/* the screen's cost figure and the metrics need BPF statistics: switched on while
	 * privileged */
	if (!opts.batch || opts.listen)
		capture_enable_stats(cap);
	/* the screen keeps CAP_BPF for e (a new expression is a new program); the batch
	 * modes and the exporter keep the packet socket's alone, but where the kernel
	 * gates every bpf() command (5.10), CAP_BPF too, to read the counters */
	ret = caps_drop(opts.user ? &user : NULL,
			CAPS_KEEP_NET_RAW | (opts.batch && !caps_bpf_gated() ? 0 : CAPS_KEEP_BPF));
	if (ret) {
		capture_free(cap);
		snprintf(err, sizeof(err), "cannot drop privileges%s%s: %s",
			 opts.user ? " and become " : "", opts.user ? opts.user : "",
			 strerror(-ret));
		return fail(&opts, OUTCOME_FAILED, err);
	}
	/* the snapshot is written as the user flowtop now runs as */
	if (opts.user && opts.snapshot && snapshot_check(opts.snapshot, err, sizeof(err))) {
		capture_free(cap);
		return fail(&opts, OUTCOME_USAGE, err);
	}
	geo = open_geo(&opts, why, sizeof(why));
	if (why[0] && opts.batch) /* the screen says it on its status line */
		fmt_complain(why);
	/* the server's thread after the drop and with the signals blocked: it inherits both */
	if (opts.listen) {
		ret = loop_block_signals();
		exp = ret ? NULL : exporter_start(listen_fd, opts.metrics_top, err, sizeof(err));
		listen_fd = -1;
		if (exp && opts.metrics_group) {
			if (exporter_group(exp, opts.metrics_group, geo)) {
				exporter_stop(exp);
				exp = NULL;
				snprintf(err, sizeof(err), "--metrics-group: out of memory");
			}
		}
		if (!exp) {
			capture_free(cap);
			geo_close(geo);
			return fail(&opts, OUTCOME_FAILED, ret ? strerror(-ret) : err);
		}
	}
	if (opts.batch)
		ret = (int)batch_run(cap, NULL, &opts, exp, geo);
	else
		ret = ui_run(cap, &opts, exp, NULL, geo, why);
	exporter_stop(exp);
	capture_free(cap);
	geo_close(geo);
	return ret;
}
