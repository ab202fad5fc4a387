// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* hosttab.c: a dense array of hosts indexed by an open-addressing hash of their
 * addresses, a list by last activity (the next to leave is its oldest end), and the
 * list of hosts touched since the last sample, so closing a sample visits only those.
 * A hash slot keeps its host's hash beside its index: a probe past another address, a
 * removal moving a cluster back and the hash growing read no host (a random cache line
 * each). The hosts' arrays are mapped for the table's bound when it is made and filled
 * in place, their pages taken as they are first written: the table never copies its
 * hosts to grow, which held a drain up for hundreds of MiB while the rings filled.
 * An address new to a full table waits at its door, one cache line, until its second
 * frame: a flood of sources that each send once makes no host and evicts none. A host
 * keeps its newest samples' bytes; the older ones go to a block from a pool only while
 * they hold traffic, so the history of a host new, or whose traffic the newest hold,
 * costs the 32 bytes in it. */
#include "hosttab.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#define EMPTY UINT32_MAX
#define NONE  UINT32_MAX

struct slot {
	uint32_t host; /* index into hosts, or EMPTY */
	uint32_t hash; /* hosttab_hash() of its address: its home is hash & (nslots - 1) */
};

/* An address new to a full table, at its door: what it counted is in "other" while it
 * waits; its second frame makes it a host and its counts move with it; another
 * newcomer at the same door sends it away, its counts left in "other". */
struct waiter {
	struct flow_key addr;
	struct flow_counters c;
	uint64_t links;
	uint32_t open; /* the sample (tick + 1) it last counted in; 0: the door is free */
	unsigned char cb[WAITER_CB_LEN]; /* its host's first, if it is let in */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct waiter) == 64, "a waiter is one cache line");
_Static_assert(WAITER_CB_LEN <= HOST_CB_LEN, "what a door keeps fits the cb of its host");

/* A host's older samples: sample n, for n in (tick - HISTORY_SLOTS, tick - HIST_RECENT],
 * at n % HIST_OLDER, as host.recent has the newer ones. A free block's first 4 bytes hold
 * the next free one's index + 1. */
struct hist_block {
	uint16_t v[HIST_OLDER][2];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct hist_block) == 128, "a block of older samples is two cache lines");

/* A rate's window: the fewest recent samples covering its seconds, and how long they
 * lasted. */
struct window {
	unsigned samples;
	double secs;
};

struct hosttab {
	struct host *hosts; /* dense: [0, count), mapped for max */
	size_t count, max;
	struct slot *slots; /* power-of-two size, at most half full */
	size_t nslots;
	uint32_t newest, oldest; /* ends of the activity list */
	uint32_t *touched;	 /* hosts with pending counts, each once */
	size_t ntouched;
	uint32_t *shown; /* hosts whose delta is not zero (touched in the last sample) */
	size_t nshown;
	uint32_t tick;			  /* samples closed */
	uint64_t pending_bytes;		  /* on hosts since the last sample (each frame twice) */
	double bytes_hist[HISTORY_SLOTS]; /* the same, per sample */
	uint32_t seq;			  /* moves to the newest end */
	float interval[HISTORY_SLOTS];
	double last_interval;
	struct window windows[3];   /* window_of() 2, 10 and 40 s, as of the last sample */
	struct flow_counters other; /* what departed hosts and waiters had counted */
	uint64_t departed;	    /* hosts and waiters that left */
	struct waiter *door;	    /* a power of two of them, a quarter of max or more */
	size_t ndoor;
	uint64_t waiting;	   /* doors taken (a door let go is free: its open is 0) */
	bool door_used;		   /* a door written since the last clear (a table that follows
				    * another has its waiting, and no door of its own in use) */
	struct hist_block *blocks; /* one a host at most: mapped for max */
	uint32_t nblocks;	   /* blocks ever taken since the last clear */
	uint32_t free_block;	   /* the first block given back + 1, or 0 */
	size_t blocks_held;	   /* blocks hosts hold */
};

#define DOOR_MIN 16

#define HUGE_PAGE (2u << 20)

/* Under AddressSanitizer the hosts past the count are poisoned, as an allocation's end
 * would be: mapped for the bound, they would otherwise read as good memory. */
#if defined(__SANITIZE_ADDRESS__)
#define HOSTS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOSTS_ASAN 1
#endif
#endif
#ifdef HOSTS_ASAN
#include <sanitizer/asan_interface.h>
#define HOSTS_UNUSED(p, n) ASAN_POISON_MEMORY_REGION(p, (n) * sizeof(struct host))
#define HOSTS_USED(p, n)   ASAN_UNPOISON_MEMORY_REGION(p, (n) * sizeof(struct host))
#else
#define HOSTS_UNUSED(p, n) ((void)(p), (void)(n))
#define HOSTS_USED(p, n)   ((void)(p), (void)(n))
#endif

/* Memory for the hash, 64-byte aligned and, past 2 MiB, in transparent huge pages where
 * the kernel allows: a million hosts' hash is read at random, and TLB misses would
 * double each lookup. */
static void *alloc_big(size_t len)
{
	void *p;

	if (len < HUGE_PAGE)
		return aligned_alloc(64, (len + 63) / 64 * 64);
	len = (len + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	p = aligned_alloc(HUGE_PAGE, len);
	if (p)
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* The bytes an array of n elements of size takes: past 2 MiB, whole huge pages. */
static size_t array_len(size_t n, size_t size)
{
	size_t len = n * size;

	return len < HUGE_PAGE ? len : (len + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

/* An array of n elements of size bytes for the table's bound: address space now, memory
 * as it is first written (MAP_NORESERVE: the bound is not charged to the system's
 * commit until used); past its first 2 MiB in transparent huge pages where the kernel
 * allows, the array starting on one. NULL with errno set, also when n * size does not
 * fit. */
static void *map_array(size_t n, size_t size)
{
	const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	size_t len, head;
	uint8_t *p;

	if (__builtin_mul_overflow(n, size, &len) || len > SIZE_MAX - 2 * HUGE_PAGE) {
		errno = ENOMEM;
		return NULL;
	}
	len = array_len(n, size);
	if (len < HUGE_PAGE) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (head)
		munmap(p, head);
	munmap(p + head + len, HUGE_PAGE - head);
	/* the first 2 MiB in small pages, also where huge pages are the default: a table of a
	 * few hosts stays small */
	madvise(p + head, HUGE_PAGE, MADV_NOHUGEPAGE);
	if (len > HUGE_PAGE)
		madvise(p + head + HUGE_PAGE, len - HUGE_PAGE, MADV_HUGEPAGE);
	return p + head;
}

static void unmap_array(void *p, size_t n, size_t size)
{
	if (p)
		munmap(p, array_len(n, size));
}

struct hosttab *hosttab_new(size_t capacity)
{
	struct hosttab *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		return NULL;
	t->max = capacity ? capacity : 1;
	if (t->max > UINT32_MAX - 1) /* an index is 32 bits, and UINT32_MAX is EMPTY */
		t->max = UINT32_MAX - 1;
	t->newest = t->oldest = NONE;
	t->hosts = map_array(t->max, sizeof(*t->hosts));
	t->touched = map_array(t->max, sizeof(*t->touched));
	t->shown = map_array(t->max, sizeof(*t->shown));
	for (t->ndoor = DOOR_MIN; t->ndoor < t->max / 4; t->ndoor *= 2)
		;
	t->door = map_array(t->ndoor, sizeof(*t->door));
	t->blocks = map_array(t->max, sizeof(*t->blocks));
	if (!t->hosts || !t->touched || !t->shown || !t->door || !t->blocks) {
		err = errno;
		hosttab_free(t);
		errno = err;
		return NULL;
	}
	HOSTS_UNUSED(t->hosts, t->max);
	return t;
}

void hosttab_free(struct hosttab *t)
{
	if (!t)
		return;
	if (t->hosts) /* unpoisoned: the addresses may be mapped again */
		HOSTS_USED(t->hosts, t->max);
	unmap_array(t->hosts, t->max, sizeof(*t->hosts));
	unmap_array(t->touched, t->max, sizeof(*t->touched));
	unmap_array(t->shown, t->max, sizeof(*t->shown));
	unmap_array(t->door, t->ndoor, sizeof(*t->door));
	unmap_array(t->blocks, t->max, sizeof(*t->blocks));
	free(t->slots);
	free(t);
}

void hosttab_clear(struct hosttab *t)
{
	HOSTS_UNUSED(t->hosts, t->count);
	t->count = t->ntouched = t->nshown = 0;
	t->newest = t->oldest = NONE;
	t->tick = 0;
	t->last_interval = 0;
	t->departed = 0;
	t->pending_bytes = 0;
	memset(t->bytes_hist, 0, sizeof(t->bytes_hist));
	memset(&t->other, 0, sizeof(t->other));
	memset(t->interval, 0, sizeof(t->interval));
	memset(t->windows, 0, sizeof(t->windows));
	if (t->slots)
		memset(t->slots, 0xff, t->nslots * sizeof(*t->slots));
	/* the doors' pages given back: they read as zeros, every door free */
	if (t->door_used && madvise(t->door, array_len(t->ndoor, sizeof(*t->door)), MADV_DONTNEED))
		memset(t->door, 0, t->ndoor * sizeof(*t->door));
	t->door_used = false;
	t->waiting = 0;
	t->nblocks = t->free_block = 0;
	t->blocks_held = 0;
}

/* A block of zeros for h's older samples. The pool cannot run dry: a host holds one at
 * most, and gives it back when it leaves (past max, blocks were lost: stop, rather than
 * write past the pool). */
static struct hist_block *take_block(struct hosttab *t, struct host *h)
{
	uint32_t i = t->free_block ? t->free_block - 1 : t->nblocks++;
	struct hist_block *b = &t->blocks[i];

	if (i >= t->max)
		abort();

	if (t->free_block)
		memcpy(&t->free_block, b, sizeof(t->free_block));
	memset(b, 0, sizeof(*b));
	h->older_hist = i + 1;
	t->blocks_held++;
	return b;
}

static void give_block(struct hosttab *t, struct host *h)
{
	if (!h->older_hist)
		return;
	memcpy(&t->blocks[h->older_hist - 1], &t->free_block, sizeof(t->free_block));
	t->free_block = h->older_hist;
	h->older_hist = 0;
	t->blocks_held--;
}

static struct hist_block *block_of(const struct hosttab *t, const struct host *h)
{
	return h->older_hist ? &t->blocks[h->older_hist - 1] : NULL;
}

/* h's bytes received (tx = 0) or sent in sample n, hist_encode()d: zero after its last
 * traffic and before the samples kept. */
static uint16_t sample_at(const struct hosttab *t, const struct host *h, uint32_t n, int tx)
{
	const struct hist_block *b;

	if (n > h->tick || h->tick - n >= HISTORY_SLOTS)
		return 0;
	if (h->tick - n < HIST_RECENT)
		return h->recent[n % HIST_RECENT][tx];
	b = block_of(t, h);
	return b ? b->v[n % HIST_OLDER][tx] : 0;
}

/* Whether a block holds no traffic. */
static bool block_empty(const struct hist_block *b)
{
	uint64_t v[sizeof(*b) / 8], any = 0;
	size_t i;

	memcpy(v, b, sizeof(v));
	for (i = 0; i < sizeof(v) / 8; i++)
		any |= v[i];
	return !any;
}

/* Sample `now`, later than h->tick, becomes h's newest with bytes rx and tx, the samples
 * between them zero: the recent samples it pushes out move to its block, which it takes
 * when one of them holds traffic and gives back when none of its samples does (a host
 * that stops sending keeps its block until it leaves the table or sends again). */
static void hist_push(struct hosttab *t, struct host *h, uint32_t now, uint16_t rx, uint16_t tx)
{
	const int64_t was = h->tick, w = now;
	struct hist_block *b = block_of(t, h);
	bool moved = false;
	int64_t n;

	/* the block's samples become (w - HISTORY_SLOTS, w - HIST_RECENT]: those it lacks
	 * are the recent ones up to `was`, then zeros */
	n = was - HIST_RECENT > w - HISTORY_SLOTS ? was - HIST_RECENT : w - HISTORY_SLOTS;
	for (n = n < 0 ? 1 : n + 1; n <= w - HIST_RECENT; n++) {
		uint16_t r = 0, s = 0;

		if (n <= was) {
			r = h->recent[n % HIST_RECENT][0];
			s = h->recent[n % HIST_RECENT][1];
		}
		if (!b && !(r | s))
			continue;
		if (!b)
			b = take_block(t, h);
		b->v[n % HIST_OLDER][0] = r;
		b->v[n % HIST_OLDER][1] = s;
		moved |= (r | s) != 0;
	}
	if (b && !moved && block_empty(b)) /* what it held has left the window */
		give_block(t, h);
	for (n = was > w - HIST_RECENT ? was + 1 : w - HIST_RECENT + 1; n < w; n++)
		h->recent[n % HIST_RECENT][0] = h->recent[n % HIST_RECENT][1] = 0;
	h->recent[w % HIST_RECENT][0] = rx;
	h->recent[w % HIST_RECENT][1] = tx;
	h->tick = now;
}

/* The slot of the address whose hosttab_hash() is hash, or the empty one it would take. */
static size_t slot_index(const struct hosttab *t, const struct flow_key *key, uint32_t hash)
{
	size_t mask = t->nslots - 1, i = hash & mask;
	const struct slot *s;

	for (s = &t->slots[i]; s->host != EMPTY; s = &t->slots[i]) {
		if (s->hash == hash && flow_key_eq(&t->hosts[s->host].addr, key))
			break;
		i = (i + 1) & mask;
	}
	return i;
}

const struct host *hosttab_find(const struct hosttab *t, const struct flow_key *key)
{
	uint32_t s;

	if (!t->nslots)
		return NULL;
	s = t->slots[slot_index(t, key, hosttab_hash(key))].host;
	return s == EMPTY ? NULL : &t->hosts[s];
}

/* Grows the hash so that `more` new hosts keep it at most half full (up to max: past
 * it, hosts are evicted). The slots move by the hashes they keep: no host is read. */
static int reserve(struct hosttab *t, size_t more)
{
	size_t want = t->count + more < t->max ? t->count + more : t->max, n, i, j, mask;
	struct slot *slots;

	for (n = t->nslots ? t->nslots : 1024; n < want * 2; n *= 2)
		;
	if (n <= t->nslots)
		return 0;
	slots = alloc_big(n * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	memset(slots, 0xff, n * sizeof(*slots));
	mask = n - 1;
	for (i = 0; i < t->nslots; i++) {
		if (t->slots[i].host == EMPTY)
			continue;
		for (j = t->slots[i].hash & mask; slots[j].host != EMPTY; j = (j + 1) & mask)
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

int hosttab_reserve(struct hosttab *t, size_t more)
{
	return reserve(t, more);
}

static void unlink_host(struct hosttab *t, uint32_t i)
{
	struct host *h = &t->hosts[i];

	if (h->newer != NONE)
		t->hosts[h->newer].older = h->older;
	else
		t->newest = h->older;
	if (h->older != NONE)
		t->hosts[h->older].newer = h->newer;
	else
		t->oldest = h->newer;
}

static void push_newest(struct hosttab *t, uint32_t i)
{
	struct host *h = &t->hosts[i];

	h->seq = ++t->seq;
	h->newer = NONE;
	h->older = t->newest;
	if (t->newest != NONE)
		t->hosts[t->newest].newer = i;
	t->newest = i;
	if (t->oldest == NONE)
		t->oldest = i;
}

/* Removes slot s from the hash, shifting later members of its cluster back (linear
 * probing has no tombstones). */
static void remove_slot(struct hosttab *t, size_t s)
{
	size_t mask = t->nslots - 1, i = s, j = s, home;

	for (;;) {
		j = (j + 1) & mask;
		if (t->slots[j].host == EMPTY)
			break;
		home = t->slots[j].hash & mask;
		/* j may move to i when its home is not in (i, j] (cyclically) */
		if ((i <= j) ? (home <= i || home > j) : (home <= i && home > j)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].host = EMPTY;
}

/* The host idle the longest leaves: its counts, those pending included, go to "other".
 * Returns its index, free for the newcomer. */
static uint32_t depart_oldest(struct hosttab *t)
{
	uint32_t i = t->oldest;
	struct host *h = &t->hosts[i];

	counters_add(&t->other, &h->total);
	counters_add(&t->other, &h->pending);
	t->departed++;
	give_block(t, h);
	unlink_host(t, i);
	remove_slot(t, slot_index(t, &h->addr, hosttab_hash(&h->addr)));
	return i;
}

/* The host of key (whose hosttab_hash() is hash) if the table holds it, marked touched
 * in the open sample; else NULL. */
static struct host *held(struct hosttab *t, const struct flow_key *key, uint32_t hash)
{
	uint32_t open = t->tick + 1, i;
	size_t s;
	struct host *h;

	if (!t->nslots)
		return NULL;
	s = slot_index(t, key, hash);
	if (t->slots[s].host == EMPTY)
		return NULL;
	i = t->slots[s].host;
	h = &t->hosts[i];
	if (h->pending_tick != open) {
		h->pending_tick = open;
		t->touched[t->ntouched++] = i;
	}
	/* back to the newest end once it drifted into the older half: a host in every
	 * frame never reaches the oldest end, at one move per capacity / 2 arrivals */
	if (t->seq - h->seq >= t->max / 2) {
		unlink_host(t, i);
		push_newest(t, i);
	}
	return h;
}

/* A host made for key, which the table does not hold, touched in the open sample; in a
 * full table the host idle the longest leaves for it. NULL when the hash cannot grow. */
static struct host *make(struct hosttab *t, const struct flow_key *key, uint32_t hash)
{
	uint32_t open = t->tick + 1, i;
	struct host *h;

	if (t->count < t->max && reserve(t, 1)) /* full: the hash has room for max */
		return NULL;
	if (t->count < t->max) {
		i = (uint32_t)t->count++;
		HOSTS_USED(&t->hosts[i], 1);
		t->touched[t->ntouched++] = i;
	} else { /* full: the slot of the host that leaves; it may be in touched already */
		i = depart_oldest(t);
		if (t->hosts[i].pending_tick != open)
			t->touched[t->ntouched++] = i;
	}
	h = &t->hosts[i];
	memset(h, 0, sizeof(*h));
	h->addr = *key;
	h->tick = t->tick; /* no past: its history reads as zeros */
	h->pending_tick = open;
	t->slots[slot_index(t, key, hash)] = (struct slot){ i, hash };
	push_newest(t, i);
	return h;
}

/* The host of key, made when new: past the door (a row put in a table of groups, which
 * is never a newcomer's to wait for). */
static struct host *touch(struct hosttab *t, const struct flow_key *key, uint32_t hash)
{
	struct host *h = held(t, key, hash);

	return h ? h : make(t, key, hash);
}

/* key, new to the full table, counts c (seen on links) at its door. True when it waits
 * there (c is in "other"); false when it is to be a host (its second frame, or c holds
 * two or more), *was then holding what it counted before (was->open 0: nothing). */
static bool waits(struct hosttab *t, const struct flow_key *key, uint32_t hash,
		  const struct flow_counters *c, uint64_t links, struct waiter *was)
{
	struct waiter *w = &t->door[hash & (t->ndoor - 1)];

	was->open = 0;
	if (w->open && flow_key_eq(&w->addr, key)) {
		*was = *w;
		w->open = 0;
		t->waiting--;
		counters_sub(&t->other, &was->c);
		return false;
	}
	if (c->rx_packets + c->tx_packets > 1)
		return false;
	if (!c->rx_packets && !c->tx_packets) { /* no frame to wait with: nobody sent away */
		counters_add(&t->other, c);
		return true;
	}
	if (w->open) { /* the one waiting here leaves, its counts in "other" */
		t->departed++;
		t->waiting--;
	}
	w->addr = *key;
	w->c = *c;
	w->links = links;
	w->open = t->tick + 1;
	memset(w->cb, 0, sizeof(w->cb));
	t->waiting++;
	t->door_used = true;
	counters_add(&t->other, c);
	return true;
}

/* Adds c to key's host, seen on `links` (0: not said); made when new, or at its door
 * when the table is full. 0 or -ENOMEM. */
static int add_counts(struct hosttab *t, const struct flow_key *key, uint32_t hash,
		      const struct flow_counters *c, uint64_t links)
{
	struct host *h = held(t, key, hash);
	struct waiter was;

	was.open = 0;
	if (!h && t->count == t->max && waits(t, key, hash, c, links, &was)) {
		t->pending_bytes += c->rx_bytes + c->tx_bytes;
		return 0;
	}
	if (!h) {
		h = make(t, key, hash); /* fails only while not full: no door was let go */
		if (!h)
			return -ENOMEM;
		if (was.open) { /* what it counted at the door moves with it: from samples
				 * closed to its total, not to its history */
			counters_add(was.open == t->tick + 1 ? &h->pending : &h->total, &was.c);
			memcpy(h->cb, was.cb, sizeof(was.cb));
			links |= was.links;
		}
	}
	t->pending_bytes += c->rx_bytes + c->tx_bytes;
	if (links) /* only then the host's second cache line */
		h->links |= links;
	counters_add(&h->pending, c);
	return 0;
}

int hosttab_add_frames_hashed(struct hosttab *t, const struct flow_key *key, uint32_t hash, int tx,
			      uint32_t frames, uint64_t bytes, uint64_t links)
{
	struct flow_counters c = { 0 };

	if (tx) {
		c.tx_packets = frames;
		c.tx_bytes = bytes;
	} else {
		c.rx_packets = frames;
		c.rx_bytes = bytes;
	}
	return add_counts(t, key, hash, &c, links);
}

int hosttab_add(struct hosttab *t, const struct flow_key *key, const struct flow_counters *c,
		uint64_t links)
{
	return add_counts(t, key, hosttab_hash(key), c, links);
}

unsigned char *hosttab_waiter_cb(struct hosttab *t, const struct flow_key *key)
{
	struct waiter *w = &t->door[hosttab_hash(key) & (t->ndoor - 1)];

	return w->open && flow_key_eq(&w->addr, key) ? w->cb : NULL;
}

void hosttab_forget_link(struct hosttab *t, unsigned slot)
{
	uint64_t bit = link_bit(slot);
	size_t i;

	if (!link_bit_own(slot))
		return;
	for (i = 0; i < t->count; i++)
		if (t->hosts[i].links & bit)
			t->hosts[i].links =
			    (t->hosts[i].links & ~bit) | link_bit(FLOWTOP_SLOT_NONE);
	for (i = 0; t->waiting && i < t->ndoor; i++)
		if (t->door[i].open && (t->door[i].links & bit))
			t->door[i].links = (t->door[i].links & ~bit) | link_bit(FLOWTOP_SLOT_NONE);
}

void hosttab_prefetch(const struct hosttab *t, uint32_t hash, int stage)
{
	size_t i;

	if (!t->nslots)
		return;
	i = hash & (t->nslots - 1);
	if (stage == 0) {
		__builtin_prefetch(&t->slots[i]);
		return;
	}
	/* the host of the first slot of its cluster with its hash (its hash alone: no host
	 * read), or, past the cluster, the door a full table keeps it at */
	for (; t->slots[i].host != EMPTY; i = (i + 1) & (t->nslots - 1))
		if (t->slots[i].hash == hash) {
			__builtin_prefetch(&t->hosts[t->slots[i].host], 1);
			return;
		}
	if (t->count == t->max)
		__builtin_prefetch(&t->door[hash & (t->ndoor - 1)], 1);
}

void hosttab_prefetch_host(const struct hosttab *t, size_t i)
{
	if (i < t->count) {
		__builtin_prefetch(&t->hosts[i]);
		__builtin_prefetch(&t->hosts[i].recent);
	}
}

/* The window of the last `seconds`: the fewest recent samples covering it. */
static struct window count_window(const struct hosttab *t, double seconds)
{
	unsigned kept = t->tick < HISTORY_SLOTS ? t->tick : HISTORY_SLOTS;
	struct window w = { 0, 0 };

	for (; w.samples < kept && w.secs < seconds - 1e-6; w.samples++)
		w.secs += t->interval[(t->tick - w.samples) % HISTORY_SLOTS];
	return w;
}

static const double window_seconds[3] = { 2, 10, 40 };

/* count_window(), counted once a sample for the windows the columns show (a view asks
 * once per host). */
static struct window window_of(const struct hosttab *t, double seconds)
{
	size_t i;

	for (i = 0; i < 3; i++)
		if (window_seconds[i] == seconds)
			return t->windows[i];
	return count_window(t, seconds);
}

/* The sample clock moved: the windows are counted again. */
static void count_windows(struct hosttab *t)
{
	size_t i;

	for (i = 0; i < 3; i++)
		t->windows[i] = count_window(t, window_seconds[i]);
}

/* h->tick, the last sample h had traffic in, read from h's first line where that tells:
 * a sample that closes sets the tick of each host it had traffic of to its pending_tick,
 * so the two differ only while traffic is pending (or in a row hosttab_put() made). */
static uint32_t last_traffic(const struct hosttab *t, const struct host *h)
{
	return h->pending_tick <= t->tick ? h->pending_tick : h->tick;
}

/* h's bytes a second over window w, received (tx = 0), sent (1) or both (-1: the sum
 * of the two rates, as the rows add them). */
static double window_rate(const struct hosttab *t, const struct host *h, struct window w, int tx)
{
	double bytes[2] = { 0, 0 };
	uint32_t n;

	if (t->tick - last_traffic(t, h) >= w.samples || w.secs <= 0)
		return 0; /* no traffic in the window: its history is not read */
	/* samples after its last traffic hold nothing */
	for (n = t->tick - w.samples + 1; n <= h->tick; n++) {
		if (h->tick - n < HIST_RECENT) { /* in the host's line, as a 2 s window is */
			bytes[0] += hist_decode(h->recent[n % HIST_RECENT][0]);
			bytes[1] += hist_decode(h->recent[n % HIST_RECENT][1]);
		} else {
			bytes[0] += hist_decode(sample_at(t, h, n, 0));
			bytes[1] += hist_decode(sample_at(t, h, n, 1));
		}
	}
	return tx < 0 ? bytes[0] / w.secs + bytes[1] / w.secs : bytes[tx] / w.secs;
}

double hosttab_rate(const struct hosttab *t, const struct host *h, double seconds, int tx)
{
	return window_rate(t, h, window_of(t, seconds), tx);
}

void hosttab_clock(const struct hosttab *t, struct hist_clock *c)
{
	c->tick = t->tick;
	memcpy(c->interval, t->interval, sizeof(c->interval));
}

void hosttab_history(const struct hosttab *t, const struct host *h, struct host_hist *out)
{
	uint32_t j, n;

	memset(out, 0, sizeof(*out));
	for (j = 0; j < HISTORY_SLOTS && j < t->tick; j++) {
		n = t->tick - j;
		out->v[n % HISTORY_SLOTS][0] = sample_at(t, h, n, 0);
		out->v[n % HISTORY_SLOTS][1] = sample_at(t, h, n, 1);
	}
}

unsigned host_history(const struct hist_clock *c, const struct host_hist *hist, double *rate,
		      unsigned n)
{
	unsigned kept = c->tick < HISTORY_SLOTS ? c->tick : HISTORY_SLOTS, j;
	uint32_t s;

	if (n > HISTORY_SLOTS)
		n = HISTORY_SLOTS;
	if (kept > n)
		kept = n;
	for (j = 0; j < n; j++) { /* j samples back from the newest, written from the end */
		double *out = &rate[n - 1 - j], secs;

		*out = 0;
		if (j >= kept)
			continue;
		s = c->tick - j;
		secs = c->interval[s % HISTORY_SLOTS];
		if (secs > 0)
			*out = (hist_decode(hist->v[s % HISTORY_SLOTS][0]) +
				hist_decode(hist->v[s % HISTORY_SLOTS][1])) /
			       secs;
	}
	return kept;
}

double hosttab_total_rate(const struct hosttab *t, double seconds)
{
	struct window w = window_of(t, seconds);
	double bytes = 0;
	unsigned j;

	for (j = 0; j < w.samples; j++)
		bytes += t->bytes_hist[(t->tick - j) % HISTORY_SLOTS];
	return w.secs > 0 ? bytes / w.secs : 0;
}

void hosttab_end(struct hosttab *t, double interval)
{
	uint32_t now = t->tick + 1;
	struct window two;
	size_t i;

	/* last sample's deltas that this one does not renew go back to zero */
	for (i = 0; i < t->nshown; i++)
		if (t->shown[i] < t->count && t->hosts[t->shown[i]].pending_tick != now)
			memset(&t->hosts[t->shown[i]].delta, 0, sizeof(struct flow_counters));
	t->tick = now;
	t->interval[now % HISTORY_SLOTS] = (float)interval;
	count_windows(t);
	t->bytes_hist[now % HISTORY_SLOTS] = (double)t->pending_bytes;
	t->pending_bytes = 0;
	t->last_interval = interval;
	two = window_of(t, 2.0);
	for (i = 0; i < t->ntouched; i++) {
		struct host *h = &t->hosts[t->touched[i]];

		if (i + 8 < t->ntouched) { /* every line it writes, a few hosts ahead */
			const struct host *ahead = &t->hosts[t->touched[i + 8]];

			__builtin_prefetch(&ahead->pending, 1);
			__builtin_prefetch(&ahead->delta, 1);
			__builtin_prefetch(&ahead->tick, 1);
		}

		hist_push(t, h, now, hist_encode(h->pending.rx_bytes),
			  hist_encode(h->pending.tx_bytes));
		h->delta = h->pending;
		counters_add(&h->total, &h->pending);
		memset(&h->pending, 0, sizeof(h->pending));
		{
			double r = window_rate(t, h, two, -1);

			if (r > h->peak)
				h->peak = (float)r;
		}
	}
	/* the touched become the shown; the arrays swap */
	{
		uint32_t *s = t->shown;

		t->shown = t->touched;
		t->nshown = t->ntouched;
		t->touched = s;
		t->ntouched = 0;
	}
}

struct host *hosttab_at(struct hosttab *t, size_t i)
{
	return &t->hosts[i];
}

struct host *hosttab_own(struct hosttab *t, const struct host *h)
{
	return &t->hosts[h - t->hosts];
}

long hosttab_put(struct hosttab *t, const struct host *h, const struct host_hist *hist)
{
	struct host *to = touch(t, &h->addr, hosttab_hash(&h->addr));
	uint32_t j, n;

	if (!to)
		return -ENOMEM;
	to->total = h->total;
	to->delta = h->delta;
	to->tick = h->tick;
	to->peak = h->peak;
	to->links = h->links;
	memcpy(to->cb, h->cb, sizeof(to->cb));
	for (j = 0; j < HISTORY_SLOTS && j < t->tick; j++) {
		const uint16_t *v = hist->v[(t->tick - j) % HISTORY_SLOTS];
		struct hist_block *b;

		n = t->tick - j;
		if (n > h->tick || h->tick - n >= HISTORY_SLOTS)
			continue;
		if (h->tick - n < HIST_RECENT) {
			memcpy(to->recent[n % HIST_RECENT], v, sizeof(to->recent[0]));
		} else if (v[0] | v[1]) {
			b = block_of(t, to);
			if (!b)
				b = take_block(t, to);
			memcpy(b->v[n % HIST_OLDER], v, sizeof(b->v[0]));
		}
	}
	return (long)(to - t->hosts);
}

void hosttab_follow(struct hosttab *t, const struct hosttab *src)
{
	t->tick = src->tick;
	memcpy(t->windows, src->windows, sizeof(t->windows));
	memcpy(t->interval, src->interval, sizeof(t->interval));
	memcpy(t->bytes_hist, src->bytes_hist, sizeof(t->bytes_hist));
	t->last_interval = src->last_interval;
	t->other = src->other;
	t->departed = src->departed;
	t->waiting = src->waiting;
}

size_t hosttab_count(const struct hosttab *t)
{
	return t->count;
}

size_t hosttab_capacity(const struct hosttab *t)
{
	return t->max;
}

size_t hosttab_active(const struct hosttab *t)
{
	return t->nshown;
}

const struct host *hosttab_active_host(const struct hosttab *t, size_t i)
{
	return &t->hosts[t->shown[i]];
}

double hosttab_interval(const struct hosttab *t)
{
	return t->last_interval;
}

uint64_t hosttab_departed(const struct hosttab *t)
{
	return t->departed;
}

size_t hosttab_history_blocks(const struct hosttab *t)
{
	return t->blocks_held;
}

uint64_t hosttab_waiting(const struct hosttab *t)
{
	return t->waiting;
}

const struct flow_counters *hosttab_other(const struct hosttab *t)
{
	return &t->other;
}

const struct host *hosttab_get(const struct hosttab *t, size_t i)
{
	return i < t->count ? &t->hosts[i] : NULL;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

int host_cmp_rate(const struct host *a, const struct host *b)
{
	int r = cmp_u64_desc(a->delta.rx_bytes + a->delta.tx_bytes,
			     b->delta.rx_bytes + b->delta.tx_bytes);

	if (!r)
		r = cmp_u64_desc(a->total.rx_bytes + a->total.tx_bytes,
				 b->total.rx_bytes + b->total.tx_bytes);
	return r ? r : flow_key_cmp(&a->addr, &b->addr);
}
