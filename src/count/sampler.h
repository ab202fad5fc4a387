/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* sampler.h: empties the filter's per-CPU rings into a host table (often, between
 * samples) and closes one sample per interval with the totals. The only code that knows
 * how the BPF maps store counters. */
#ifndef FLOWTOP_SAMPLER_H
#define FLOWTOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flowtop.h"
#include "bpf_load.h"
#include "convo.h"
#include "hosttab.h"
#include "totals.h"

struct sampler;

/* Maps the rings of maps (fds not owned). NULL with errno set. */
struct sampler *sampler_new(const struct bpf_maps *maps);
void sampler_free(struct sampler *s);

/* Empties the maps, the table and the totals: call while no socket is attached. */
int sampler_reset(struct sampler *s, struct hosttab *t, struct flow_totals *totals);

/* Moves every record the rings hold into t (no system call), after taking the wake
 * ring's notices. Returns how many. */
uint64_t sampler_drain(struct sampler *s, struct hosttab *t);
/* An fd that polls readable while the filter's notice that a ring passed a quarter full waits
 * (the wake ring): drain then. sampler_wakes() counts the notices drains took. */
int sampler_wake_fd(const struct sampler *s);
uint64_t sampler_wakes(const struct sampler *s);
/* What a drain does with one ring's slots [tail, head) (ring[i & mask]): each record,
 * and the owner of each set of sets[nsets] a notice names, into its two hosts (seen on
 * the link of its interface's slot when track_links), and into convo when not NULL;
 * with t NULL, nowhere. With take, each is taken from the filter by an atomic exchange
 * of its count (struct flow_ring_ctl), so that no frame joins it after (without, its
 * count is read as it is: records no filter writes to). Returns the records and
 * notices, and their frames in *frames when not NULL. bench/tick folds with it too. */
struct convo;
/* Records that carry ports (FLOWTOP_PORTS_*): into the port rows `table` (NULL: read,
 * not counted); the sets' owners' ports are owner[nsets]. */
struct fold_ports {
	struct hosttab *table;
	const uint64_t *owner;
};
uint64_t sampler_fold(struct hosttab *t, union flow_ring_slot *ring, uint64_t mask, uint64_t tail,
		      uint64_t head, struct flow_pair_set *sets, uint64_t nsets, bool take,
		      bool track_links, struct convo *convo, const struct fold_ports *ports,
		      uint64_t *frames);

/* Closes one sample: the rings, the spill map when it took frames, and the stats, read
 * in an order that keeps every host's count within the totals. interval is the time
 * since the previous sample. 0 or -errno. */
int sampler_read(struct sampler *s, struct hosttab *t, struct flow_totals *totals, double interval);

/* Reads the stats of slots [0, nslots) (FLOWTOP_SLOT_NONE and those given to
 * interfaces); with track_links the hosts learn which interfaces they were seen on
 * (host.links). */
void sampler_set_slots(struct sampler *s, unsigned nslots, bool track_links);

/* A frame of slot `slot` that a filter expression rejected in user space (a capture
 * file's), of `bytes`: in the slot's `filtered` counters from the next sample on. */
void sampler_add_filtered(struct sampler *s, unsigned slot, uint64_t bytes);

/* Slot `slot` goes to another interface: from the next sample on, its totals count
 * from what the last sample read of it, and what it had counted is FLOWTOP_SLOT_NONE's,
 * "other interfaces" (so the slots still add up to the total). Call it once the slot's
 * last frames were sampled (no frame can have come since: its interface is gone). */
void sampler_restart_slot(struct sampler *s, unsigned slot);

/* Where the rings' ports go, when the program counts them (struct bpf_maps.ports): a
 * table of port rows (flow_key_port() keys), whose samples close with the host table's
 * and whose sums are exact as the hosts' are: each frame at its destination port as
 * received and at its source port as sent. NULL: none. Not owned. */
void sampler_set_ports(struct sampler *s, struct hosttab *ports);

/* From now on, also feeds every frame the rings carry to c (NULL: none), and closes
 * its samples with the table's. c is not owned. */
void sampler_set_convo(struct sampler *s, struct convo *c);

#endif
