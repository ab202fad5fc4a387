/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* bpf_load.h: the embedded BPF object: open, size the maps, load, destroy. */
#ifndef FLOWTOP_BPF_LOAD_H
#define FLOWTOP_BPF_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flowtop.h"

struct flowtop_bpf;

/* The rings' memory, every CPU's together, unless said otherwise (--ring-memory), and
 * the fewest slots a CPU's ring gets whatever the budget. */
#define BPF_LOAD_RING_BUDGET ((size_t)FLOWTOP_DEFAULT_RING_MIB << 20)
#define BPF_LOAD_RING_FLOOR  4096u

#define BPF_LOAD_LOG_SIZE 65536 /* the verifier's statistics of one program */

/* How big to make the maps; 0 takes the default (flowtop.h). */
struct bpf_load_opts {
	unsigned ring_slots;   /* slots per CPU ring, rounded up to a power of two (0: as
				* ring_budget allows) */
	size_t ring_budget;    /* bytes for all the rings (0: BPF_LOAD_RING_BUDGET) */
	unsigned spill_hosts;  /* entries of the spill map */
	bool verbose;	       /* libbpf's own messages on stderr */
	bool exchange_head;    /* publish ring records with a fully ordered exchange even on a
				* CPU that keeps stores in order (x86): for the tests */
	bool no_fetch_atomics; /* load the program as for a kernel without BPF atomics that
				* return the old value (5.10, 5.11): for the tests */
	bool ports;	       /* count the frames' transport ports too (FLOWTOP_PORTS_*) */
	struct bpf_load_verified *verified; /* when set: what the verifier processed for
					     * each program (BPF_LOAD_PROGS entries) */
};

/* The programs of the object, and what the verifier did for one of them. */
#define BPF_LOAD_PROGS 4
struct bpf_load_verified {
	char prog[32];		     /* its name */
	unsigned long insns;	     /* instructions processed, from the verifier's log */
	unsigned long prog_info;     /* and from bpf_prog_info.verified_insns (Linux 5.16;
				      * 0 before) */
	unsigned long states;	     /* the states it kept (total_states) */
	char log[BPF_LOAD_LOG_SIZE]; /* its statistics, as the kernel wrote them */
};

/* The map fds a sampler reads, and the ring's geometry. */
struct bpf_maps {
	int ring_fd, ring_ctl_fd, joins_fd, owner_ports_fd, wake_fd, spill_fd, stats_fd, links_fd;
	bool ports;	     /* records carry ports (FLOWTOP_PORTS_*) */
	unsigned ring_slots; /* per CPU */
	unsigned join_sets;  /* pair sets per CPU (struct flow_pair_set) */
	unsigned ncpus;	     /* rings (possible CPUs) */
};

/* Slots per CPU ring for ncpus rings in budget bytes: the largest power of two that
 * fits, at most FLOWTOP_DEFAULT_RING_SLOTS and at least BPF_LOAD_RING_FLOOR (so the
 * floor may take more than the budget); 0 when ncpus rings would not fit one map. */
unsigned bpf_load_ring_slots(size_t budget, unsigned ncpus);
/* Join hints per CPU for ncpus CPUs: FLOWTOP_JOIN_HINTS, halved while they all take more
 * than FLOWTOP_JOIN_TOTAL, never under FLOWTOP_JOIN_FLOOR (4,096 CPUs: 1 Mi hints, 8 MiB). */
unsigned bpf_load_join_hints(unsigned ncpus);

/* Opens the skeleton, sizes the maps and loads it into the kernel. NULL on failure,
 * with the reason in err, and errno EOPNOTSUPP when the kernel cannot run the program
 * (a feature missing, named in err; or its verifier gave up). With opts->verified, the kernel
 * writes each program's statistics (log level 4), and they are read back into it. */
struct flowtop_bpf *bpf_load(const struct bpf_load_opts *opts, char *err, size_t errlen);
void bpf_unload(struct flowtop_bpf *skel);

/* A BPF object flowtop embeds (an ELF file of sz bytes): the one that counts ports, or
 * the one without them. */
const void *bpf_load_object(bool ports, size_t *sz);
/* Whether the loaded program joins a pair's frames into one record: with BPF atomics that
 * fetch (Linux 5.12); without them, every frame is a record of its own. */
bool bpf_load_joins(const struct flowtop_bpf *skel);
int bpf_load_prog_fd(const struct flowtop_bpf *skel);
/* flowtop_gate, and the array of the programs it hands frames to (src/expr/gate.h). */
int bpf_load_gate_fd(const struct flowtop_bpf *skel);
int bpf_load_gate_progs_fd(const struct flowtop_bpf *skel);
void bpf_load_maps(const struct flowtop_bpf *skel, struct bpf_maps *maps);
/* Gives interface ifindex slot `slot` (1 .. FLOWTOP_MAX_SLOTS - 1, or FLOWTOP_SLOT_NONE:
 * its frames count there, but with their link header) and a link header of hlen bytes
 * in the program's links array. 0, -EBUSY when its entry holds another interface (see
 * struct flow_link), or -errno. */
int bpf_load_link_put(struct flowtop_bpf *skel, int ifindex, unsigned slot, unsigned hlen);
/* Runs the program once on frame (a 14-byte Ethernet header, then the network header:
 * BPF_PROG_TEST_RUN on loopback's index), extra bytes longer on the wire than given; a
 * frame shorter than a run takes is padded, and the program told. 0 or -errno. */
#define BPF_LOAD_RUN_MAX 3500 /* bytes a run takes at most (a page, less the skb's room) */
#define BPF_LOAD_RUN_MIN 34   /* and at least (an Ethernet and an IPv4 header) */
int bpf_load_run_frame(struct flowtop_bpf *skel, const void *frame, size_t len, uint32_t extra);
/* Runs the program's capture-file entry once on a batch of frames (struct
 * flow_file_frame, after a 14-byte Ethernet header; BPF_LOAD_RUN_MIN to BPF_LOAD_RUN_MAX
 * bytes); *again: the mask of the frames to run again whole. 0 or -errno. */
int bpf_load_run_file(struct flowtop_bpf *skel, const void *run, size_t len, uint32_t *again);
/* Takes ifindex's slot away (its frames then count in FLOWTOP_SLOT_NONE). 0 or -errno. */
int bpf_load_link_drop(struct flowtop_bpf *skel, int ifindex);

#endif
