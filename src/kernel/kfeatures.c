// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kfeatures.c: the kernel features flowtop relies on (the README's and the man page's
 * table, tests/unit/test_docs.c holds them to this one), and a probe for each that has
 * no other feature implying it: a map or a small program the kernel accepts or refuses,
 * as libbpf's own probes do. */
#include "kfeatures.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#define ENOTSUPP 524 /* the kernel's own "operation not supported", as BPF returns it */

/* 1 when the kernel made a map of this kind, 0 when it refused (EINVAL: a type or flag
 * it does not know), -errno otherwise. */
static int probe_map(enum bpf_map_type type, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd = bpf_map_create(type, NULL, sizeof(__u32), sizeof(__u64), 1, &opts);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL ? 0 : -errno;
}

/* The same for a socket filter of these instructions. */
static int probe_prog(const struct bpf_insn *insns, size_t n)
{
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns, n, NULL);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL || errno == E2BIG ? 0 : -errno;
}

#define INSN(c, d, s, o, i)                                                                        \
	{                                                                                          \
		.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)                \
	}
#define MOV_K(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define EXIT	    INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static int probe_socket_filter(void)
{
	return libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SOCKET_FILTER, NULL);
}

static int probe_percpu_array(void)
{
	return libbpf_probe_bpf_map_type(BPF_MAP_TYPE_PERCPU_ARRAY, NULL);
}

static int probe_lru_percpu_hash(void)
{
	return libbpf_probe_bpf_map_type(BPF_MAP_TYPE_LRU_PERCPU_HASH, NULL);
}

static int probe_test_run(void)
{
	const struct bpf_insn insns[] = { MOV_K(BPF_REG_0, 0), EXIT };
	unsigned char frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = sizeof(frame));
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns, 2, NULL), err;

	if (fd < 0)
		return -errno;
	err = bpf_prog_test_run_opts(fd, &opts) ? -errno : 1;
	close(fd);
	return kfeatures_unsupported(err) ? 0 : err;
}

bool kfeatures_unsupported(int err)
{
	return err == -EINVAL || err == -ENOTSUPP || err == -ENOTSUP || err == -EOPNOTSUPP;
}

static int probe_load_bytes_relative(void)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_SOCKET_FILTER,
				       BPF_FUNC_skb_load_bytes_relative, NULL);
}

static int probe_global_data(void)
{
	return probe_map(BPF_MAP_TYPE_ARRAY, BPF_F_RDONLY_PROG);
}

/* for (r1 = 0; r1 < 4; r1++); a back edge, refused before 5.3 */
static int probe_bounded_loops(void)
{
	const struct bpf_insn insns[] = {
		MOV_K(BPF_REG_1, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_JMP | BPF_JLT | BPF_K, BPF_REG_1, 0, -2, 4),
		MOV_K(BPF_REG_0, 0),
		EXIT,
	};

	return probe_prog(insns, sizeof(insns) / sizeof(insns[0]));
}

static int probe_mmapable_array(void)
{
	return probe_map(BPF_MAP_TYPE_ARRAY, BPF_F_MMAPABLE);
}

static int probe_ringbuf(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, 4096, NULL);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL ? 0 : -errno;
}

/* a fetch-and-add on a stack slot, as ring_join() does on a record */
int kfeatures_fetch_atomics(void)
{
	const struct bpf_insn insns[] = {
		MOV_K(BPF_REG_0, 0),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_0, -8, 0),
		MOV_K(BPF_REG_1, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_10, BPF_REG_1, -8, BPF_ADD | BPF_FETCH),
		EXIT,
	};

	return probe_prog(insns, sizeof(insns) / sizeof(insns[0]));
}

const struct kfeature kfeatures[] = {
	{ "socket filters of eBPF (SO_ATTACH_BPF)", "3.19", "the filter on each packet socket",
	  NULL, probe_socket_filter },
	{ "per-CPU arrays", "4.6", "the frame counters", NULL, probe_percpu_array },
	{ "per-CPU LRU hashes", "4.10", "the spill map, when a ring is full", NULL,
	  probe_lru_percpu_hash },
	{ "BPF_PROG_TEST_RUN of socket filters", "4.16", "reading capture files", NULL,
	  probe_test_run },
	{ "bpf_skb_load_bytes_relative()", "4.18", "a VLAN tag in front of the network header",
	  NULL, probe_load_bytes_relative },
	{ "PACKET_IGNORE_OUTGOING", "4.20", "each loopback frame counted once", NULL, NULL },
	{ "global data (.bss, .rodata) and 1,000,000 verified instructions", "5.2",
	  "the ring's size set before load", NULL, probe_global_data },
	{ "bounded loops", "5.3", "the IPv6 options walk", NULL, probe_bounded_loops },
	{ "mmap-able arrays (BPF_F_MMAPABLE)", "5.5", "the rings, read without a system call", NULL,
	  probe_mmapable_array },
	{ "global functions", "5.6", "a capture file's frames in one run", NULL, NULL },
	{ "BPF ring buffers", "5.8", "the filter wakes flowtop when a ring passes a quarter full",
	  NULL, probe_ringbuf },
	{ "run-time statistics (BPF_ENABLE_STATS)", "5.8", "the filter's cost per frame",
	  "the cost is not shown", NULL },
	{ "BPF atomics (fetch-and-add, exchange)", "5.12",
	  "a frame joins its pair's record, which user space may be taking",
	  "every frame a record of its own (on x86; other CPUs cannot run)",
	  kfeatures_fetch_atomics },
	/* 5.6 brought BPF_MAP_LOOKUP_BATCH for hashes and plain arrays; per-CPU arrays got it
	 * in 5.13 (percpu_array_map_ops' .map_lookup_batch) */
	{ "batch lookups of per-CPU arrays", "5.13", "every slot's counters in one call",
	  "a lookup a slot", NULL },
	{ "verified_insns in bpf_prog_info", "5.16", "the verifier budget test",
	  "the count read from the verifier's log", NULL },
};
const size_t kfeatures_count = sizeof(kfeatures) / sizeof(kfeatures[0]);

int kfeatures_missing(char *out, size_t outlen)
{
	size_t i, used = 0;
	int missing = 0;

	if (outlen)
		out[0] = '\0';
	for (i = 0; i < kfeatures_count; i++) {
		const struct kfeature *f = &kfeatures[i];
		int n;

		if (f->fallback || !f->probe || f->probe() != 0)
			continue;
		n = snprintf(out + used, outlen - used, "%s%s (Linux %s)", missing ? ", " : "",
			     f->name, f->since);
		if (n > 0 && (size_t)n < outlen - used)
			used += (size_t)n;
		missing++;
	}
	return missing;
}
