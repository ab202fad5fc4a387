/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* runner.h: one loaded program, its sampler and host table, as a kernel test drives
 * them: frames run through BPF_PROG_TEST_RUN (on a chosen CPU too), samples closed,
 * hosts found. For one test program each: the state is the including file's. */
#ifndef FLOWTOP_TEST_RUNNER_H
#define FLOWTOP_TEST_RUNNER_H

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_load.h"
#include "fmt.h"
#include "frames.h"
#include "hosttab.h"
#include "sampler.h"

static struct flowtop_bpf *skel;
static struct sampler *sampler;
static struct hosttab *tab;
static struct flow_totals totals;

static inline int run_frame(const struct frame *f)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = f->b, .data_size_in = (__u32)f->len);
	int err = bpf_prog_test_run_opts(bpf_load_prog_fd(skel), &opts);

	if (err)
		return err;
	return opts.retval == 0 ? 0 : -EBADMSG; /* the filter must never queue a frame */
}

/* f on CPU cpu: the caller is left pinned there (it restores its own mask). */
static inline int run_on_cpu(int cpu, const struct frame *f)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	return run_frame(f);
}

static inline void reset(void)
{
	if (sampler_reset(sampler, tab, &totals))
		abort();
}

static inline int sample(void)
{
	return sampler_read(sampler, tab, &totals, 1.0);
}

static inline const struct host *host(const char *addr)
{
	struct flow_key k;

	if (fmt_parse_addr(addr, &k))
		abort();
	return hosttab_find(tab, &k);
}

#endif
