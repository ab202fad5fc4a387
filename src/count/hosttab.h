/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* hosttab.h: the host table: per address, cumulative counts, the last sample's deltas and
 * the last HISTORY_SLOTS samples' bytes (for 2/10/40 s rates and the peak): the newest
 * HIST_RECENT in the host, the older ones in a block of the table's only while they hold
 * traffic (a host new, or whose traffic the newest hold, has none). It holds at
 * most `capacity` hosts. An address new to a full table waits at a door (its counts in
 * "other") until its second frame, which makes it a host, its counts moving with it: the
 * host idle the longest leaves, its counts folded into "other". A newcomer at a taken
 * door sends the one waiting there away, its counts left in "other". So hosts + other
 * always add up to everything counted, and a flood of sources that send once costs a
 * cache line each, not a host made and one evicted. Fed with increments, one frame or
 * one delta at a time; knows nothing of BPF: unit tests drive it directly. */
#ifndef FLOWTOP_HOSTTAB_H
#define FLOWTOP_HOSTTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flowtop.h"
#include "flowkey.h"

#define HISTORY_SLOTS 40 /* samples kept: 40 s at the default 1 s delay */
#define HIST_RECENT   8	 /* of them in the host itself: the 2 s window's and the peak's */
#define HIST_OLDER    (HISTORY_SLOTS - HIST_RECENT) /* in a block, when it needs one */
#define HOST_CB_LEN   12 /* bytes a host keeps for the layers above (host.cb) */
#define WAITER_CB_LEN 4	 /* of them, what an address at the door keeps (its first) */

/* One host, three cache lines. The first is all that folding a frame in touches; a
 * sample's close writes the three; the outputs read them and the older history. */
struct host {
	struct flow_key addr;	      /* the address */
	struct flow_counters pending; /* added since the last sample */
	uint32_t pending_tick;	      /* tick + 1 of the sample pending holds, or older */
	uint32_t seq;		      /* when it last moved to the newest end */
	uint32_t newer, older;	      /* neighbours by last activity (indices) */
	struct flow_counters total;   /* cumulative since attach */
	struct flow_counters delta;   /* added during the last sample */
	uint32_t tick;		      /* the last sample it had traffic in */
	float peak;		      /* highest 2 s rate both ways, bytes/s */
	uint64_t links;		      /* the interfaces it was seen on: link_bit() of their
				       * slots; 0 when one interface is watched */
	/* what the layers above keep of a host (src/model/hostinfo.h: where it is, a group's
	 * members; a peer's ports), as the kernel's sk_buff keeps its cb: zero when the host
	 * is made, or what its door kept (hosttab_waiter_cb()), copied by hosttab_put(); the
	 * table never reads it */
	unsigned char cb[HOST_CB_LEN];
	uint32_t older_hist; /* its block of older samples + 1, or 0: none */
	/* bytes received ([0]) and sent ([1]) in sample n, for n in (tick - HIST_RECENT,
	 * tick], at n % HIST_RECENT, in hist_encode()'s form: a sample's two in one 4-byte
	 * pair; those in (tick - HISTORY_SLOTS, tick - HIST_RECENT] are in its block, or
	 * zero when it has none */
	uint16_t recent[HIST_RECENT][2];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct host) == 192 && offsetof(struct host, tick) == 128,
	       "a host is three cache lines, its counts folded in the first");

/* A host's history as the outputs copy it: bytes received ([0]) and sent ([1]) in
 * sample n at n % HISTORY_SLOTS, for the HISTORY_SLOTS samples up to the clock's tick
 * (zero after the host's last traffic and before the first sample). */
struct host_hist {
	uint16_t v[HISTORY_SLOTS][2];
};

/* A sample's byte count in 16 bits: exact below 2048, within 1/2048 above (11 bits of
 * mantissa, 5 of exponent, up to 2^42 bytes): 4 bytes a host and sample. */
static inline uint16_t hist_encode(uint64_t v)
{
	unsigned shift = 0;
	uint64_t m = v;

	if (v >= (1u << 11)) {
		shift = 64 - (unsigned)__builtin_clzll(v) - 11;
		m = (v + (1ull << (shift - 1))) >> shift; /* rounded */
		if (m >> 11) {
			m >>= 1;
			shift++;
		}
		if (shift > 31)
			return UINT16_MAX; /* 2^42 bytes in one sample: clamp */
	}
	return (uint16_t)(shift << 11 | m);
}

static inline double hist_decode(uint16_t h)
{
	return (double)((uint64_t)(h & 0x7ff) << (h >> 11));
}

struct hosttab;

/* A table of at most capacity hosts (at least 1), its address space taken for all of
 * them now (some 350 bytes a host with the older history's blocks, and 16 for the doors)
 * and its memory as they arrive.
 * NULL with errno set. */
struct hosttab *hosttab_new(size_t capacity);
void hosttab_free(struct hosttab *t);
/* Forgets every host and "other" (a new interface). */
void hosttab_clear(struct hosttab *t);

/* host.links, the interfaces a host was seen on: the rule every output reads it by.
 * Slots 1 .. LINK_BITS - 1 have a bit of their own; FLOWTOP_SLOT_NONE and the slots past
 * them share bit LINK_BIT_OTHER, "another interface". */
#define LINK_BITS      64
#define LINK_BIT_OTHER 0 /* the bit of the interfaces without one of their own ("other") */
_Static_assert(LINK_BIT_OTHER == FLOWTOP_SLOT_NONE,
	       "link_bit(FLOWTOP_SLOT_NONE) is the bit of \"other\"");

/* The bit of host.links that stands for slot `slot`. */
static inline uint64_t link_bit(unsigned slot)
{
	return 1ull << (slot < LINK_BITS ? slot : LINK_BIT_OTHER);
}

/* Whether slot `slot` has a bit of its own: then an interface's name, else "other". */
static inline bool link_bit_own(unsigned slot)
{
	return slot != FLOWTOP_SLOT_NONE && slot < LINK_BITS;
}

/* The slot whose bit comes k-th (0 <= k < LINK_BITS) when the bits are named: the
 * interfaces' in slot order, "other" last. */
static inline unsigned link_bit_nth(unsigned k)
{
	return (k + 1) % LINK_BITS;
}

/* The hash the table files key under. */
static inline uint32_t hosttab_hash(const struct flow_key *key);

/* Adds `frames` frames of `bytes` in all to key, as their sender (tx) or receiver, seen
 * on the interfaces `links` (link_bit()s, or 0 not to say). 0 or -ENOMEM. The _hashed
 * form takes key's hosttab_hash() from a caller that has it (the fold: once a record). */
int hosttab_add_frames_hashed(struct hosttab *t, const struct flow_key *key, uint32_t hash, int tx,
			      uint32_t frames, uint64_t bytes, uint64_t links);
static inline int hosttab_add_frames(struct hosttab *t, const struct flow_key *key, int tx,
				     uint32_t frames, uint64_t bytes, uint64_t links)
{
	return hosttab_add_frames_hashed(t, key, hosttab_hash(key), tx, frames, bytes, links);
}
/* One frame. */
static inline int hosttab_add_frame(struct hosttab *t, const struct flow_key *key, int tx,
				    uint64_t bytes, uint64_t links)
{
	return hosttab_add_frames(t, key, tx, 1, bytes, links);
}
/* Slot `slot` is another interface's from now on: the hosts seen on the one that held
 * it were seen on "another interface" (a bit of its own only; O(hosts)). */
void hosttab_forget_link(struct hosttab *t, unsigned slot);
/* Makes room for `more` new hosts (up to the table's bound), so that adding them
 * cannot fail: what a caller that must add all or nothing calls first. 0 or -ENOMEM. */
int hosttab_reserve(struct hosttab *t, size_t more);
/* Adds counters to key (the spill map's deltas), seen on `links`. 0 or -ENOMEM. */
int hosttab_add(struct hosttab *t, const struct flow_key *key, const struct flow_counters *c,
		uint64_t links);
/* Closes the sample: what was added since the last call becomes the hosts' deltas and
 * their newest history slot. Costs what changed: hosts without traffic are not visited. */
void hosttab_end(struct hosttab *t, double interval);

size_t hosttab_count(const struct hosttab *t);	  /* hosts held */
size_t hosttab_capacity(const struct hosttab *t); /* most hosts held */
/* Hosts with traffic in the last sample, and the seconds it covered: what the tests
 * read to check how a sample closes (the outputs read each host's delta instead) */
size_t hosttab_active(const struct hosttab *t);
/* Active host i, 0 <= i < hosttab_active(t): one with traffic in the last sample. */
const struct host *hosttab_active_host(const struct hosttab *t, size_t i);
double hosttab_interval(const struct hosttab *t);
/* Hosts that left a full table and waiters sent away, and everything they had counted
 * with the waiters' still at the door (so "other" goes down when a waiter is let in). */
uint64_t hosttab_departed(const struct hosttab *t);
/* Hosts holding a block of older samples (HIST_OLDER x 4 bytes): those whose kept
 * traffic reached past their HIST_RECENT newest samples when they last sent. */
size_t hosttab_history_blocks(const struct hosttab *t);
/* The first WAITER_CB_LEN bytes of the cb key's host will have if the door it waits at
 * lets it in (zero when it comes), for the layers above to note what its first frame
 * said; NULL when key does not wait. */
unsigned char *hosttab_waiter_cb(struct hosttab *t, const struct flow_key *key);
/* Addresses at the door, their counts in "other". */
uint64_t hosttab_waiting(const struct hosttab *t);
const struct flow_counters *hosttab_other(const struct hosttab *t);
/* Host i, 0 <= i < count, in no particular order (indices stay while it stays). */
const struct host *hosttab_get(const struct hosttab *t, size_t i);
const struct host *hosttab_find(const struct hosttab *t, const struct flow_key *key);
/* Host i as hosttab_get() has it, to fill in what the table leaves to its users (geo). */
struct host *hosttab_at(struct hosttab *t, size_t i);
/* h, a host of t's found or got, to fill in what the table leaves to its users. */
struct host *hosttab_own(struct hosttab *t, const struct host *h);

/* A table of rows made from another's hosts (groups of them, src/model/groups.h), so that
 * everything that shows hosts shows them: hosttab_put() adds h as it is (counters,
 * history `hist` up to h->tick, peak, links, cb) under h->addr, which t must not hold
 * yet, and returns its index or -ENOMEM; hosttab_follow() gives t src's sample clock, totals
 * history and "other", so that rates, shares and "other" read as src's do. Follow first,
 * then put: a row put before its table's clock moves would read as idle. */
long hosttab_put(struct hosttab *t, const struct host *h, const struct host_hist *hist);
void hosttab_follow(struct hosttab *t, const struct hosttab *src);

/* Bytes per second counted on hosts (each frame twice: at its source and destination)
 * over the last `seconds`, departed hosts included. */
double hosttab_total_rate(const struct hosttab *t, double seconds);

/* Warms the cache for a frame of the key whose hosttab_hash() is hash, which
 * hosttab_add_frames_hashed() will get soon: stage 0 (well ahead) fetches its hash slot,
 * stage 1 (just ahead) the host of the first slot in its cluster with its hash, or, past
 * the cluster in a full table, the door the key will wait at. */
void hosttab_prefetch(const struct hosttab *t, uint32_t hash, int stage);

/* Warms the cache for host i (hosttab_get()) a pass over the hosts will read soon: its
 * first line and its recent history. */
void hosttab_prefetch_host(const struct hosttab *t, size_t i);

/* Bytes per second of h over the last `seconds` (the fewest recent samples covering
 * that long, or all kept), received (tx = 0), sent (1) or both ways (-1). */
double hosttab_rate(const struct hosttab *t, const struct host *h, double seconds, int tx);

/* The sample clock the history of every host is read against: the last sample closed and
 * how long each kept sample lasted. Copied out (164 bytes), it lets a paused screen read
 * the hosts it copied exactly as they were. */
struct hist_clock {
	uint32_t tick;
	float interval[HISTORY_SLOTS];
};

void hosttab_clock(const struct hosttab *t, struct hist_clock *c);

/* h's history as of t's clock (hosttab_clock()), copied out: a row of a paused screen
 * keeps it. */
void hosttab_history(const struct hosttab *t, const struct host *h, struct host_hist *out);

/* A history's bytes per second both ways in each of the last n samples of clock c
 * (n <= HISTORY_SLOTS), oldest first, into rate[0..n-1]; samples before the first one
 * closed read 0. Returns how many of the n are real samples (at the end of rate). */
unsigned host_history(const struct hist_clock *c, const struct host_hist *hist, double *rate,
		      unsigned n);

/* Busiest first: bytes both ways over the last sample, then cumulative bytes, then
 * address, so the order is total and stable from one sample to the next. */
int host_cmp_rate(const struct host *a, const struct host *b);

static inline double per_second(uint64_t delta, double interval)
{
	return interval > 0 ? (double)delta / interval : 0.0;
}

static inline void counters_add(struct flow_counters *to, const struct flow_counters *c)
{
#define ADD(field) to->field += c->field;
	FLOW_COUNTERS_FIELDS(ADD)
#undef ADD
}

static inline void counters_sub(struct flow_counters *to, const struct flow_counters *c)
{
#define SUB(field) to->field -= c->field;
	FLOW_COUNTERS_FIELDS(SUB)
#undef SUB
}

static inline uint32_t hosttab_hash(const struct flow_key *key)
{
	return (uint32_t)flow_key_hash(key);
}

#endif
