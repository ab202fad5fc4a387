// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpf_load.c: skeleton open, map sizing, load, and the libbpf print callback. */
#include "bpf_load.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/utsname.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "flowtop.h"
#include "fetchless.h"
#include "kfeatures.h"

/* generated code: bpftool casts the const away from the embedded object */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#include "flowtop.skel.h"
#include "flowtop_ports.skel.h"

/* flowtop_bpf's skeleton opens the object that counts ports too (open_object()): the
 * two must keep their globals where each other does (their maps and programs, by name) */
#define SAME_GLOBAL(sec, var)                                                                      \
	_Static_assert(offsetof(struct flowtop_bpf__##sec, var) ==                                 \
			   offsetof(struct flowtop_ports_bpf__##sec, var),                         \
		       #var " where both objects have it")
SAME_GLOBAL(rodata, ring_mask);
SAME_GLOBAL(rodata, set_mask);
SAME_GLOBAL(rodata, exchange_head);
SAME_GLOBAL(rodata, fetch_atomics);
SAME_GLOBAL(rodata, want_ports);
SAME_GLOBAL(bss, pad_bytes);
SAME_GLOBAL(bss, extra_bytes);
_Static_assert(sizeof(struct flowtop_bpf__rodata) == sizeof(struct flowtop_ports_bpf__rodata) &&
		   sizeof(struct flowtop_bpf__bss) == sizeof(struct flowtop_ports_bpf__bss),
	       "the two objects' globals alike");
#pragma GCC diagnostic pop

static bool libbpf_verbose;

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	if (!libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static unsigned pow2_at_least(unsigned n)
{
	unsigned p = 64;

	while (p < n && p < (1u << 30))
		p <<= 1;
	return p;
}

/* That the kernel lacks what the program needs (missing: the features, with their
 * versions); errno EOPNOTSUPP. */
static void describe_missing(const char *missing, char *err, size_t errlen)
{
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(err, errlen,
		 "this kernel (Linux %s) lacks what flowtop's program needs: %s; flowtop runs on "
		 "Linux " KFEATURES_OLDEST " or later",
		 u.release, missing);
	errno = EOPNOTSUPP;
}

/* Why the kernel refused the maps or the program, in terms a user can act on. Leaves
 * errno EOPNOTSUPP when the kernel cannot run the program: it lacks a feature flowtop
 * needs (kfeatures.c probes them only now, after the refusal), or its verifier gave up. */
static void describe_load_error(int ret, char *err, size_t errlen)
{
	char missing[512];
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	if (ret != -EPERM && ret != -EACCES && ret != -ENOMEM &&
	    kfeatures_missing(missing, sizeof(missing)) > 0) {
		describe_missing(missing, err, errlen);
		return;
	}
	if (ret == -E2BIG) {
		snprintf(err, errlen,
			 "the verifier of this kernel (Linux %s) gave up on flowtop's program "
			 "(it walks at most 1,000,000 instructions): please report it, with the "
			 "output of flowtop -v",
			 u.release);
		errno = EOPNOTSUPP;
		return;
	}
	errno = -ret;
	if (ret == -EPERM || ret == -EACCES)
		snprintf(err, errlen,
			 "the kernel refused to load the BPF program (%s): flowtop needs "
			 "CAP_BPF, CAP_PERFMON and CAP_NET_RAW, or root",
			 strerror(-ret));
	else if (ret == -ENOMEM)
		snprintf(err, errlen,
			 "the kernel has no memory for flowtop's maps (%s): with CAP_BPF the "
			 "memory comes from the memory cgroup",
			 strerror(-ret));
	else
		snprintf(err, errlen,
			 "cannot load the BPF program: %s (run with -v for libbpf's log)",
			 strerror(-ret));
}

/* Whether this CPU makes stores visible in program order (TSO), so that a plain store
 * of a ring's head publishes the record written before it. */
#if defined(__x86_64__) || defined(__i386__) || defined(__s390x__)
#define CPU_STORES_IN_ORDER 1
#else
#define CPU_STORES_IN_ORDER 0
#endif

unsigned bpf_load_ring_slots(size_t budget, unsigned ncpus)
{
	size_t per_cpu = ncpus ? budget / ncpus / sizeof(union flow_ring_slot) : 0;
	unsigned slots = FLOWTOP_DEFAULT_RING_SLOTS;

	while (slots > BPF_LOAD_RING_FLOOR && slots > per_cpu)
		slots >>= 1;
	/* one map holds every ring: its entries must fit 32 bits */
	if (!ncpus || (uint64_t)slots * ncpus > UINT32_MAX)
		return 0;
	return slots;
}

unsigned bpf_load_join_hints(unsigned ncpus)
{
	unsigned hints = FLOWTOP_JOIN_HINTS;

	while (hints > FLOWTOP_JOIN_FLOOR && (uint64_t)hints * ncpus > FLOWTOP_JOIN_TOTAL)
		hints >>= 1;
	return hints;
}

#define BPF_LOG_STATS 4 /* the verifier's log level for its statistics alone */

/* Has the kernel write each program's statistics into v (BPF_LOAD_PROGS entries). */
static void ask_verifier_stats(struct flowtop_bpf *skel, struct bpf_load_verified *v)
{
	struct bpf_program *prog;
	int i = 0;

	memset(v, 0, BPF_LOAD_PROGS * sizeof(*v));
	bpf_object__for_each_program(prog, skel->obj)
	{
		if (i == BPF_LOAD_PROGS)
			break;
		snprintf(v[i].prog, sizeof(v[i].prog), "%s", bpf_program__name(prog));
		bpf_program__set_log_buf(prog, v[i].log, sizeof(v[i].log));
		bpf_program__set_log_level(prog, BPF_LOG_STATS);
		i++;
	}
}

/* A number that follows `label` in the verifier's log, or 0. */
static unsigned long log_number(const char *log, const char *label)
{
	const char *at = strstr(log, label);

	return at ? strtoul(at + strlen(label), NULL, 10) : 0;
}

/* Reads back what ask_verifier_stats() asked for, and the kernel's own count. */
static void read_verifier_stats(struct flowtop_bpf *skel, struct bpf_load_verified *v)
{
	struct bpf_program *prog;
	int i = 0;

	bpf_object__for_each_program(prog, skel->obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (i == BPF_LOAD_PROGS)
			break;
		v[i].insns = log_number(v[i].log, "processed ");
		v[i].states = log_number(v[i].log, "total_states ");
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			v[i].prog_info = info.verified_insns;
		i++;
	}
}

/* The skeleton opened on the embedded object (or its twin that counts ports), or where
 * the kernel lacks fetching atomics on its copy without them (fetchless.c):
 * flowtop_bpf__open() with the object chosen. */
static struct flowtop_bpf *open_object(bool fetch, bool ports)
{
	struct flowtop_bpf *skel = calloc(1, sizeof(*skel));
	const void *fetchless;
	size_t rewritten, sz;
	int ret;

	if (!skel)
		return NULL;
	ret = flowtop_bpf__create_skeleton(skel);
	if (!ret && ports) { /* the object that counts ports: the same layout (Makefile) */
		skel->skeleton->data = (void *)(uintptr_t)flowtop_ports_bpf__elf_bytes(&sz);
		skel->skeleton->data_sz = sz;
	}
	if (!ret && !fetch) {
		fetchless =
		    fetchless_object(skel->skeleton->data, skel->skeleton->data_sz, &rewritten);
		if (fetchless)
			skel->skeleton->data = (void *)(uintptr_t)fetchless;
		else
			ret = -errno;
	}
	ret = ret ?: bpf_object__open_skeleton(skel->skeleton, NULL);
	if (ret) {
		flowtop_bpf__destroy(skel);
		errno = -ret;
		return NULL;
	}
	return skel;
}

struct flowtop_bpf *bpf_load(const struct bpf_load_opts *opts, char *err, size_t errlen)
{
	unsigned spill = opts->spill_hosts ? opts->spill_hosts : FLOWTOP_DEFAULT_SPILL_HOSTS;
	struct flowtop_bpf *skel;
	unsigned slots, hints;
	bool fetch, exchange;
	int ncpus, ret;

	libbpf_verbose = opts->verbose;
	libbpf_set_print(print_libbpf);
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0) {
		snprintf(err, errlen, "cannot count the possible CPUs: %s", strerror(-ncpus));
		return NULL;
	}
	slots = opts->ring_slots ? pow2_at_least(opts->ring_slots)
				 : bpf_load_ring_slots(opts->ring_budget ? opts->ring_budget
									 : BPF_LOAD_RING_BUDGET,
						       (unsigned)ncpus);
	if (!slots || (uint64_t)slots * (unsigned)ncpus > UINT32_MAX) {
		snprintf(err, errlen, "rings for %d CPUs do not fit one map", ncpus);
		return NULL;
	}
	/* without them (5.10, 5.11) frames join no record; an exchange of the head needs
	 * them still. When the probe cannot tell, the load does */
	fetch = !opts->no_fetch_atomics && kfeatures_fetch_atomics() != 0;
	exchange = opts->exchange_head || !CPU_STORES_IN_ORDER;
	if (!fetch && exchange) {
		describe_missing("BPF atomics (fetch-and-add, exchange) (Linux 5.12), which "
				 "flowtop needs on a CPU that may reorder stores",
				 err, errlen);
		return NULL;
	}
	skel = open_object(fetch, opts->ports);
	if (!skel) {
		snprintf(err, errlen, "cannot open the embedded BPF object: %s", strerror(errno));
		return NULL;
	}
	hints = bpf_load_join_hints((unsigned)ncpus);
	skel->rodata->ring_mask = slots - 1;
	skel->rodata->set_mask = hints / 2 - 1;
	skel->rodata->exchange_head = exchange;
	skel->rodata->fetch_atomics = fetch;
	ret = bpf_map__set_max_entries(skel->maps.ring, slots * (unsigned)ncpus);
	ret = ret ?: bpf_map__set_max_entries(skel->maps.ring_ctl, (unsigned)ncpus);
	ret = ret ?: bpf_map__set_max_entries(skel->maps.joins, hints / 2 * (unsigned)ncpus);
	ret = ret
		  ?: bpf_map__set_max_entries(skel->maps.owner_ports,
					      opts->ports ? hints / 2 * (unsigned)ncpus : 1);
	ret = ret ?: bpf_map__set_max_entries(skel->maps.spill, spill);
	if (ret) {
		snprintf(err, errlen, "cannot size the maps: %s", strerror(-ret));
		goto out_destroy;
	}
	if (opts->verified)
		ask_verifier_stats(skel, opts->verified);
	ret = flowtop_bpf__load(skel);
	if (opts->verified)
		read_verifier_stats(skel, opts->verified);
	if (ret) {
		describe_load_error(ret, err, errlen);
		goto out_destroy;
	}
	return skel;

out_destroy:
	flowtop_bpf__destroy(skel);
	return NULL;
}

void bpf_unload(struct flowtop_bpf *skel)
{
	flowtop_bpf__destroy(skel);
}

const void *bpf_load_object(bool ports, size_t *sz)
{
	return ports ? flowtop_ports_bpf__elf_bytes(sz) : flowtop_bpf__elf_bytes(sz);
}

bool bpf_load_joins(const struct flowtop_bpf *skel)
{
	return skel->rodata->fetch_atomics;
}

int bpf_load_prog_fd(const struct flowtop_bpf *skel)
{
	return bpf_program__fd(skel->progs.flowtop_count);
}

int bpf_load_gate_fd(const struct flowtop_bpf *skel)
{
	return bpf_program__fd(skel->progs.flowtop_gate);
}

int bpf_load_gate_progs_fd(const struct flowtop_bpf *skel)
{
	return bpf_map__fd(skel->maps.gate_progs);
}

void bpf_load_maps(const struct flowtop_bpf *skel, struct bpf_maps *maps)
{
	maps->ring_fd = bpf_map__fd(skel->maps.ring);
	maps->ring_ctl_fd = bpf_map__fd(skel->maps.ring_ctl);
	maps->joins_fd = bpf_map__fd(skel->maps.joins);
	maps->owner_ports_fd = bpf_map__fd(skel->maps.owner_ports);
	maps->ports = skel->rodata->want_ports;
	maps->wake_fd = bpf_map__fd(skel->maps.wake);
	maps->spill_fd = bpf_map__fd(skel->maps.spill);
	maps->stats_fd = bpf_map__fd(skel->maps.stats);
	maps->links_fd = bpf_map__fd(skel->maps.links);
	maps->ring_slots = skel->rodata->ring_mask + 1;
	maps->join_sets = skel->rodata->set_mask + 1;
	maps->ncpus = bpf_map__max_entries(skel->maps.ring_ctl);
}

int bpf_load_link_put(struct flowtop_bpf *skel, int ifindex, unsigned slot, unsigned hlen)
{
	int fd = bpf_map__fd(skel->maps.links);
	__u32 idx = (__u32)ifindex % FLOWTOP_LINK_INDEX;
	struct flow_link now = {}, link = {
		.ifindex = (__u32)ifindex,
		.slot = (__u16)slot,
		.hlen = (__u16)hlen,
	};
	int err;

	if (ifindex <= 0 || slot >= FLOWTOP_MAX_SLOTS)
		return -EINVAL;
	err = bpf_map_lookup_elem(fd, &idx, &now);
	if (err)
		return err;
	if (now.ifindex && now.ifindex != link.ifindex)
		return -EBUSY;
	return bpf_map_update_elem(fd, &idx, &link, BPF_ANY);
}

int bpf_load_run_frame(struct flowtop_bpf *skel, const void *frame, size_t len, uint32_t extra)
{
	unsigned char padded[BPF_LOAD_RUN_MIN] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = (__u32)len,
		    .repeat = 1);

	if (len > BPF_LOAD_RUN_MAX)
		return -EMSGSIZE;
	skel->bss->extra_bytes = extra;
	skel->bss->pad_bytes = 0;
	if (len < BPF_LOAD_RUN_MIN) { /* zeros the program is told are not the frame's */
		memcpy(padded, frame, len);
		opts.data_in = padded;
		opts.data_size_in = BPF_LOAD_RUN_MIN;
		skel->bss->pad_bytes = (__u32)(BPF_LOAD_RUN_MIN - len);
	}
	return bpf_prog_test_run_opts(bpf_program__fd(skel->progs.flowtop_count), &opts);
}

int bpf_load_run_file(struct flowtop_bpf *skel, const void *run, size_t len, uint32_t *again)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = run, .data_size_in = (__u32)len,
		    .repeat = 1);
	int err;

	if (len < BPF_LOAD_RUN_MIN || len > BPF_LOAD_RUN_MAX)
		return -EMSGSIZE;
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.flowtop_count_file), &opts);
	*again = err ? 0 : opts.retval;
	return err;
}

int bpf_load_link_drop(struct flowtop_bpf *skel, int ifindex)
{
	int fd = bpf_map__fd(skel->maps.links);
	__u32 idx = (__u32)ifindex % FLOWTOP_LINK_INDEX;
	struct flow_link now = {};
	int err;

	err = bpf_map_lookup_elem(fd, &idx, &now);
	if (err || now.ifindex != (__u32)ifindex)
		return err;
	memset(&now, 0, sizeof(now));
	return bpf_map_update_elem(fd, &idx, &now, BPF_ANY);
}
