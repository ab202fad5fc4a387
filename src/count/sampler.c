// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* sampler.c: the rings read through mmap (user space's side of the ring protocol:
 * struct flow_ring_ctl in bpf/flowtop.h), the spill map read in batches only when it
 * took frames, its cumulative counters turned into deltas, and the per-CPU stats summed. */
#include "sampler.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kfeatures.h"

/* The spill map's counters as last read, to subtract from the next read. */
struct seen {
	struct flow_spill_key *keys;
	struct flow_counters *vals;
	uint64_t *created; /* the sum of the copies' creation stamps */
	uint8_t *used;
	size_t nslots; /* power of two */
};

struct sampler {
	struct bpf_maps m;
	union flow_ring_slot *ring; /* ncpus * ring_slots slots (a record is taken by
				     * exchanging its count) */
	struct flow_ring_ctl *ctl;  /* ncpus heads and tails */
	struct flow_pair_set *sets; /* ncpus * join_sets pair sets (an owner is taken by
				     * exchanging its count for 0) */
	uint64_t *owner_ports;	    /* beside them, their owners' ports (m.ports) */
	size_t ring_len, ctl_len, sets_len, owner_ports_len; /* mmap lengths */
	struct ring_buffer *wake; /* the filter's notices that a ring passed a quarter full */
	uint64_t wakes;		  /* notices taken */
	struct flow_stats *stats; /* FLOWTOP_MAX_SLOTS * ncpus values: every slot's, per CPU */
	bool stats_batch;	  /* read them with one BPF_MAP_LOOKUP_BATCH (else a slot a call) */
	unsigned nslots;	  /* slots read: [0, nslots) */
	bool track_links;	  /* tell the host table which interface a frame came on */
	size_t spill_cap;	  /* keys the spill buffers hold */
	struct flow_spill_key *spill_keys;
	struct flow_spill *spill_vals;	   /* spill_cap * ncpus */
	struct seen seen, next;		   /* the last read, and the one being made */
	uint64_t spilled_read;		   /* stats.spilled when the spill map was last read */
	uint64_t found[FLOWTOP_MAX_SLOTS]; /* address updates the spill map's reads
					    * attributed, per slot */
	uint64_t lost[FLOWTOP_MAX_SLOTS];  /* updates known lost to hosts (sampler_read) */
	/* each slot's counters as the last sample read them, and as they were when the
	 * slot's interface took it (sampler_restart_slot()): what the totals show of it */
	struct flow_stats raw[FLOWTOP_MAX_SLOTS], base[FLOWTOP_MAX_SLOTS];
	/* what user space counted itself (sampler_add_filtered()), added to the kernel's */
	struct flow_stats user[FLOWTOP_MAX_SLOTS];
	unsigned *joins_off;   /* per CPU: drains since its filter stopped joining records,
				* 0 while it joins (joins_paid()) */
	bool no_batch;	       /* the kernel refused batch lookups once */
	struct convo *convo;   /* the focused address's conversations, or NULL */
	struct hosttab *ports; /* the port rows (m.ports), or NULL */
	/* the same of ports as found[] and lost[] of addresses */
	uint64_t ports_found[FLOWTOP_MAX_SLOTS], ports_lost[FLOWTOP_MAX_SLOTS];
};

static size_t page_round(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

static int seen_init(struct seen *t, size_t entries)
{
	size_t n = 64;

	while (n < entries * 2)
		n *= 2;
	t->nslots = n;
	t->keys = calloc(n, sizeof(*t->keys));
	t->vals = calloc(n, sizeof(*t->vals));
	t->created = calloc(n, sizeof(*t->created));
	t->used = calloc(n, 1);
	return t->keys && t->vals && t->created && t->used ? 0 : -ENOMEM;
}

static void seen_free(struct seen *t)
{
	free(t->keys);
	free(t->vals);
	free(t->created);
	free(t->used);
}

static bool spill_key_eq(const struct flow_spill_key *a, const struct flow_spill_key *b)
{
	return a->slot == b->slot && flow_key_eq(&a->addr, &b->addr);
}

static size_t seen_slot(const struct seen *t, const struct flow_spill_key *key)
{
	size_t mask = t->nslots - 1, i = (flow_key_hash(&key->addr) ^ key->slot) & mask;

	while (t->used[i] && !spill_key_eq(&t->keys[i], key))
		i = (i + 1) & mask;
	return i;
}

/* Every CPU's filter joins records again, until a drain finds it does not pay. */
static void joins_restart(struct sampler *s)
{
	unsigned c;

	for (c = 0; c < s->m.ncpus; c++) {
		s->joins_off[c] = 0;
		__atomic_store_n(&s->ctl[c].no_joins, 0, __ATOMIC_RELAXED);
	}
}

/* A notice of the wake ring: a drain follows, whatever it named. */
static int on_wake(void *ctx, void *data, size_t size)
{
	struct sampler *s = ctx;

	(void)data, (void)size;
	s->wakes++;
	return 0;
}

struct sampler *sampler_new(const struct bpf_maps *maps)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct sampler *s;
	int err;

	err = bpf_obj_get_info_by_fd(maps->spill_fd, &info, &len);
	if (err) {
		errno = -err;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->m = *maps;
	s->nslots = 2; /* FLOWTOP_SLOT_NONE and one interface, until told */
	s->ring = MAP_FAILED;
	s->ctl = MAP_FAILED;
	s->sets = MAP_FAILED;
	s->owner_ports = MAP_FAILED;
	s->ring_len = page_round((size_t)maps->ncpus * maps->ring_slots * sizeof(*s->ring));
	s->ctl_len = page_round((size_t)maps->ncpus * sizeof(*s->ctl));
	s->ring = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, maps->ring_fd, 0);
	s->ctl = mmap(NULL, s->ctl_len, PROT_READ | PROT_WRITE, MAP_SHARED, maps->ring_ctl_fd, 0);
	s->sets_len = page_round((size_t)maps->ncpus * maps->join_sets * sizeof(*s->sets));
	s->sets = mmap(NULL, s->sets_len, PROT_READ | PROT_WRITE, MAP_SHARED, maps->joins_fd, 0);
	if (maps->ports) {
		s->owner_ports_len = page_round((size_t)maps->ncpus * maps->join_sets * 8);
		s->owner_ports =
		    mmap(NULL, s->owner_ports_len, PROT_READ, MAP_SHARED, maps->owner_ports_fd, 0);
	}
	s->wake = ring_buffer__new(maps->wake_fd, on_wake, s, NULL);
	/* a walk racing inserts and evictions may meet more keys than the map holds */
	s->spill_cap = info.max_entries + info.max_entries / 8 + 64;
	s->spill_keys = calloc(s->spill_cap, sizeof(*s->spill_keys));
	s->spill_vals = calloc(s->spill_cap * maps->ncpus, sizeof(*s->spill_vals));
	s->stats = calloc((size_t)FLOWTOP_MAX_SLOTS * maps->ncpus, sizeof(*s->stats));
	s->joins_off = calloc(maps->ncpus, sizeof(*s->joins_off));
	s->stats_batch = true;
	if (s->ring == MAP_FAILED || s->ctl == MAP_FAILED || s->sets == MAP_FAILED ||
	    (maps->ports && s->owner_ports == MAP_FAILED) || !s->wake) {
		err = errno;
		sampler_free(s);
		errno = err;
		return NULL;
	}
	if (!s->spill_keys || !s->spill_vals || !s->stats || !s->joins_off ||
	    seen_init(&s->seen, s->spill_cap) || seen_init(&s->next, s->spill_cap)) {
		sampler_free(s);
		errno = ENOMEM;
		return NULL;
	}
	joins_restart(s); /* whatever a sampler before this one said */
	return s;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	if (s->ring != MAP_FAILED)
		munmap(s->ring, s->ring_len);
	if (s->ctl != MAP_FAILED)
		munmap((void *)s->ctl, s->ctl_len);
	if (s->sets != MAP_FAILED)
		munmap(s->sets, s->sets_len);
	if (s->owner_ports != MAP_FAILED)
		munmap(s->owner_ports, s->owner_ports_len);
	ring_buffer__free(s->wake);
	free(s->spill_keys);
	free(s->spill_vals);
	free(s->stats);
	free(s->joins_off);
	seen_free(&s->seen);
	seen_free(&s->next);
	free(s);
}

/* A record as the fold reads it, a few records ahead of adding it to its hosts. */
struct decoded {
	struct flow_key src, dst;
	uint32_t src_hash, dst_hash; /* hosttab_hash(), once a record */
	uint64_t count;		     /* as read ahead (a record to take is taken later) */
	union flow_ring_slot *first; /* its first slot, or the owner a notice names */
	uint64_t taken;		     /* its count once taken: FLOWTOP_RECORD_TAKEN, an
				      * owner's 0 (free) */
	uint64_t ports;		     /* FLOWTOP_PORTS_*, when the records carry them */
};

#define FOLD_WINDOW 32 /* records decoded ahead, at most (a power of two) */
#define FOLD_FAR    16 /* decoded this far ahead: the hash slot of its source fetched */
#define FOLD_NEAR   6  /* then, this close, the host line that slot names */

struct fold {
	union flow_ring_slot *ring;
	struct flow_pair_set *sets; /* the CPU's pair sets, whose owners notices name */
	uint64_t nsets;
	const struct fold_ports *ports; /* NULL: the records carry none */
	uint64_t mask, pos, head;	/* the next slot to decode, and where the records end */
	uint64_t decoded;		/* records decoded */
	struct decoded win[FOLD_WINDOW];
};

/* The record at f->pos into d, its count as it is now: for a notice, the owner it
 * names. False past the last. */
static bool read_record(struct fold *f, struct decoded *d)
{
	union flow_ring_slot *first;
	uint64_t count, len;

	for (;;) {
		if (f->pos == f->head)
			return false;
		first = &f->ring[f->pos & f->mask];
		count = __atomic_load_n(&first->rec.count, __ATOMIC_RELAXED);
		if ((count & FLOWTOP_RECORD_NOTICE) != FLOWTOP_RECORD_NOTICE)
			break;
		f->pos++;
		count &= ~FLOWTOP_RECORD_NOTICE;
		if (count < f->nsets) { /* else cannot be: the filter names its own sets */
			/* its addresses stay until the exchange frees it (flow_ring_ctl) */
			d->first = &f->sets[count].owner;
			d->count = __atomic_load_n(&d->first->rec.count, __ATOMIC_RELAXED);
			d->taken = 0;
			flow_key_ipv4(&d->src, d->first->rec.src4);
			flow_key_ipv4(&d->dst, d->first->rec.dst4);
			d->ports = f->ports ? f->ports->owner[count] : 0;
			return true;
		}
	}
	len = count & FLOWTOP_RECORD_V6 ? FLOWTOP_RECORD_SLOTS_V6
	      : f->ports		? FLOWTOP_RECORD_SLOTS_V4_PORTS
					: FLOWTOP_RECORD_SLOTS_V4;
	if (f->head - f->pos < len)
		return false; /* cannot be: a record is whole before head moves past it */
	d->ports = 0;
	if (count & FLOWTOP_RECORD_V6) {
		memcpy(d->src.addr, f->ring[(f->pos + 1) & f->mask].addr, sizeof(d->src.addr));
		memcpy(d->dst.addr, f->ring[(f->pos + 2) & f->mask].addr, sizeof(d->dst.addr));
		if (f->ports)
			d->ports = first->word[1];
	} else {
		flow_key_ipv4(&d->src, first->rec.src4);
		flow_key_ipv4(&d->dst, first->rec.dst4);
		if (f->ports)
			d->ports = f->ring[(f->pos + 1) & f->mask].word[0];
	}
	d->first = first;
	d->count = count;
	d->taken = FLOWTOP_RECORD_TAKEN;
	f->pos += len;
	return true;
}

/* Decodes the record at f->pos into the window; false past the last. */
static bool decode(struct fold *f, struct hosttab *t)
{
	struct decoded *d = &f->win[f->decoded % FOLD_WINDOW];

	if (!read_record(f, d))
		return false;
	d->src_hash = hosttab_hash(&d->src);
	d->dst_hash = hosttab_hash(&d->dst);
	f->decoded++;
	if (t) /* a random host per record: fetch its hash slot, then its line */
		hosttab_prefetch(t, d->src_hash, 0);
	return true;
}

/* A record's frames into the port rows: at its destination port as received, at its
 * source port as sent (FLOWTOP_PORTS_*; a protocol's "no port" both, when it has none). */
static void fold_ports(struct hosttab *ports, uint8_t proto, uint64_t w, uint32_t frames,
		       uint64_t bytes, uint64_t links)
{
	bool known = w & FLOWTOP_PORTS_KNOWN;
	struct flow_key key;

	flow_key_port(&key, proto, FLOWTOP_PORTS_DST(w), known);
	hosttab_add_frames(ports, &key, 0, frames, bytes, links);
	flow_key_port(&key, proto, FLOWTOP_PORTS_SRC(w), known);
	hosttab_add_frames(ports, &key, 1, frames, bytes, links);
}

uint64_t sampler_fold(struct hosttab *t, union flow_ring_slot *ring, uint64_t mask, uint64_t tail,
		      uint64_t head, struct flow_pair_set *sets, uint64_t nsets, bool take,
		      bool track_links, struct convo *convo, const struct fold_ports *ports,
		      uint64_t *frames_out)
{
	struct fold f = { .ring = ring,
			  .sets = sets,
			  .nsets = nsets,
			  .ports = ports,
			  .mask = mask,
			  .pos = tail,
			  .head = head };
	uint64_t done, all_frames = 0;

	while (f.decoded < FOLD_FAR && decode(&f, t))
		;
	for (done = 0; done < f.decoded; done++) {
		struct decoded *d = &f.win[done % FOLD_WINDOW];
		uint64_t count = d->count, bytes, links;
		uint32_t frames;

		if (take) /* no frame joins it after this */
			count =
			    __atomic_exchange_n(&d->first->rec.count, d->taken, __ATOMIC_ACQ_REL);
		decode(&f, t);
		frames =
		    (uint32_t)(count >> FLOWTOP_RECORD_FRAME_SHIFT) & FLOWTOP_RECORD_FRAMES_MAX;
		all_frames += frames;
		if (!t || !count)
			continue; /* dropped (a reset), taken all the same */
		if (done + FOLD_NEAR < f.decoded)
			hosttab_prefetch(t, f.win[(done + FOLD_NEAR) % FOLD_WINDOW].src_hash, 1);
		bytes = count & FLOWTOP_RECORD_BYTES_MASK;
		links = track_links
			    ? link_bit((unsigned)(count >> FLOWTOP_RECORD_SLOT_SHIFT) & 0xff)
			    : 0;
		/* on ENOMEM the frame is not lost from the totals, only from its hosts */
		hosttab_add_frames_hashed(t, &d->src, d->src_hash, 1, frames, bytes, links);
		hosttab_add_frames_hashed(t, &d->dst, d->dst_hash, 0, frames, bytes, links);
		if (convo)
			convo_frames(convo, &d->src, &d->dst,
				     (uint8_t)(count >> FLOWTOP_RECORD_PROTO_SHIFT), d->ports,
				     frames, bytes);
		if (ports && ports->table)
			fold_ports(ports->table, (uint8_t)(count >> FLOWTOP_RECORD_PROTO_SHIFT),
				   d->ports, frames, bytes, links);
	}
	if (frames_out)
		*frames_out = all_frames;
	return done;
}

#define JOINS_JUDGED 1024 /* records a drain takes at least before joins are judged */
#define JOINS_PROBE  16	  /* drains without joins before a drain with them again */

/* Whether joining records paid in a drain of a CPU's ring that took `records` records of
 * `frames` frames: more than one frame in 16 joined a record, or too few records to
 * tell. In a flood of pairs that do not repeat (spoofed sources, a scan) no frame joins
 * one, and the filter's look-up of each pair's set is a cache line missed in vain
 * (bench/alone.sh at 1,048,576 sources); every JOINS_PROBE drains the filter joins again
 * for one, so pairs that come to repeat are soon joined. */
static bool joins_paid(uint64_t records, uint64_t frames)
{
	return records < JOINS_JUDGED || frames - records > records / 16;
}

/* Every record CPU c published into t, each taken; the tail then hands their slots back
 * (struct flow_ring_ctl). With t NULL they are dropped. Then whether the CPU's filter
 * joins records in the next interval (joins_paid()). Returns how many. */
static uint64_t drain_cpu(struct sampler *s, struct hosttab *t, unsigned c)
{
	struct flow_ring_ctl *ctl = &s->ctl[c];
	union flow_ring_slot *ring = s->ring + (size_t)c * s->m.ring_slots;
	uint64_t tail = ctl->tail, head = __atomic_load_n(&ctl->head, __ATOMIC_ACQUIRE), frames;
	struct fold_ports ports = {
		.table = t ? s->ports : NULL,
		.owner = s->m.ports ? s->owner_ports + (size_t)c * s->m.join_sets : NULL,
	};
	uint64_t n =
	    sampler_fold(t, ring, s->m.ring_slots - 1, tail, head,
			 s->sets + (size_t)c * s->m.join_sets, s->m.join_sets, true, s->track_links,
			 t ? s->convo : NULL, s->m.ports ? &ports : NULL, &frames);
	unsigned off = s->joins_off[c];

	__atomic_store_n(&ctl->tail, head, __ATOMIC_RELEASE);
	if (!off)
		s->joins_off[c] = !joins_paid(n, frames);
	else
		s->joins_off[c] = off < JOINS_PROBE ? off + 1 : 0;
	if (!off != !s->joins_off[c])
		__atomic_store_n(&ctl->no_joins, s->joins_off[c] != 0, __ATOMIC_RELAXED);
	return n;
}

int sampler_wake_fd(const struct sampler *s)
{
	return ring_buffer__epoll_fd(s->wake);
}

uint64_t sampler_wakes(const struct sampler *s)
{
	return s->wakes;
}

uint64_t sampler_drain(struct sampler *s, struct hosttab *t)
{
	uint64_t n = 0;
	unsigned c;

	ring_buffer__consume(s->wake); /* the notices this drain answers */
	for (c = 0; c < s->m.ncpus; c++)
		n += drain_cpu(s, t, c);
	return n;
}

void sampler_add_filtered(struct sampler *s, unsigned slot, uint64_t bytes)
{
	if (slot < FLOWTOP_MAX_SLOTS) {
		s->user[slot].filtered++;
		s->user[slot].filtered_bytes += bytes;
	}
}

void sampler_restart_slot(struct sampler *s, unsigned slot)
{
	if (slot == FLOWTOP_SLOT_NONE || slot >= FLOWTOP_MAX_SLOTS)
		return;
		/* what the slot's interface had counted moves to FLOWTOP_SLOT_NONE's totals (a base
		 * below its counters: unsigned, so it wraps and the difference comes out right) */
#define MOVE(f, json, text, family, help)                                                          \
	s->base[FLOWTOP_SLOT_NONE].f -= s->raw[slot].f - s->base[slot].f;                          \
	s->base[slot].f = s->raw[slot].f;
	FLOW_STATS_FIELDS(MOVE)
#undef MOVE
}

void sampler_set_ports(struct sampler *s, struct hosttab *ports)
{
	s->ports = s->m.ports ? ports : NULL;
}

void sampler_set_convo(struct sampler *s, struct convo *c)
{
	s->convo = c;
}

void sampler_set_slots(struct sampler *s, unsigned nslots, bool track_links)
{
	s->nslots = nslots < 1 ? 1 : nslots > FLOWTOP_MAX_SLOTS ? FLOWTOP_MAX_SLOTS : nslots;
	s->track_links = track_links;
}

/* Reads up to spill_cap entries with BPF_MAP_LOOKUP_BATCH; kfeatures_unsupported(): no
 * batch. */
static int read_batch(struct sampler *s, size_t *n)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 token, count;
	void *in = NULL;
	int err;

	*n = 0;
	while (*n < s->spill_cap) {
		count = (__u32)(s->spill_cap - *n);
		err = bpf_map_lookup_batch(s->m.spill_fd, in, &token, s->spill_keys + *n,
					   s->spill_vals + *n * s->m.ncpus, &count, &opts);
		*n += count;
		if (err == -ENOENT)
			return 0; /* the walk is complete */
		if (err)
			return err;
		in = &token;
	}
	return 0;
}

static int read_by_key(struct sampler *s, size_t *n)
{
	struct flow_spill_key *prev = NULL;
	int err;

	*n = 0;
	while (*n < s->spill_cap) {
		err = bpf_map_get_next_key(s->m.spill_fd, prev, &s->spill_keys[*n]);
		if (err == -ENOENT)
			return 0;
		if (err)
			return err;
		err = bpf_map_lookup_elem(s->m.spill_fd, &s->spill_keys[*n],
					  s->spill_vals + *n * s->m.ncpus);
		prev = &s->spill_keys[*n];
		if (err == -ENOENT)
			continue; /* evicted between the two calls */
		if (err)
			return err;
		(*n)++;
	}
	return 0;
}

static int read_spill_entries(struct sampler *s, size_t *n)
{
	int err = s->no_batch ? -EINVAL : read_batch(s, n);

	if (kfeatures_unsupported(err)) {
		s->no_batch = true;
		err = read_by_key(s, n);
	}
	return err;
}

/* What a cumulative counter added since the last read. A counter below the one seen
 * means the entry was evicted and created anew in between: all it holds is new. */
static uint64_t counter_delta(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

/* Adds what each spill entry gained since the last read to t. */
static int read_spill(struct sampler *s, struct hosttab *t)
{
	struct seen swap;
	size_t n, i;
	unsigned c;
	int err;

	err = read_spill_entries(s, &n);
	if (err)
		return err;
	/* all or nothing: the deltas added below are what `seen` then says was read, so a
	 * failure halfway would add them again at the next read */
	err = hosttab_reserve(t, n);
	if (!err && s->ports)
		err = hosttab_reserve(s->ports, n);
	if (err)
		return err;
	memset(s->next.used, 0, s->next.nslots);
	for (i = 0; i < n; i++) {
		const struct flow_spill *v = s->spill_vals + i * s->m.ncpus;
		struct flow_counters sum = {}, d;
		struct hosttab *to_tab;
		uint32_t slot, port;
		size_t was = seen_slot(&s->seen, &s->spill_keys[i]), to;
		uint64_t created = 0;

		for (c = 0; c < s->m.ncpus; c++) {
			counters_add(&sum, &v[c].c);
			created += v[c].created_ns;
		}
		to = seen_slot(&s->next, &s->spill_keys[i]);
		if (s->next.used[to])
			continue; /* a key twice in one walk (racing an insert) */
		s->next.used[to] = 1;
		s->next.keys[to] = s->spill_keys[i];
		s->next.vals[to] = sum;
		s->next.created[to] = created;
		d = sum; /* new, or made anew since the last read: all it holds is new */
		if (s->seen.used[was] && s->seen.created[was] == created) {
#define DELTA_OF(field) d.field = counter_delta(sum.field, s->seen.vals[was].field);
			FLOW_COUNTERS_FIELDS(DELTA_OF)
#undef DELTA_OF
		}
		port = s->spill_keys[i].slot & FLOWTOP_SPILL_PORT;
		slot = s->spill_keys[i].slot & ~FLOWTOP_SPILL_PORT;
		to_tab = port ? s->ports : t;
		if (to_tab && (d.rx_packets || d.tx_packets) &&
		    hosttab_add(to_tab, &s->spill_keys[i].addr, &d,
				s->track_links ? link_bit(slot) : 0))
			return -ENOMEM; /* not after hosttab_reserve() */
		if (slot < FLOWTOP_MAX_SLOTS)
			(port ? s->ports_found : s->found)[slot] += d.rx_packets + d.tx_packets;
	}
	swap = s->seen;
	s->seen = s->next;
	s->next = swap;
	return 0;
}

/* The per-CPU stats of the slots in use into s->stats: one BPF_MAP_LOOKUP_BATCH, or a
 * lookup a slot where the kernel has no batch for per-CPU arrays (the version that
 * brought it is in kfeatures[], src/kernel/kfeatures.c). */
static int fetch_stats(struct sampler *s)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 keys[FLOWTOP_MAX_SLOTS], count = s->nslots, out;
	__u32 i;
	int err;

	if (s->stats_batch) {
		err =
		    bpf_map_lookup_batch(s->m.stats_fd, NULL, &out, keys, s->stats, &count, &opts);
		if ((!err || err == -ENOENT) && count == s->nslots)
			return 0;
		if (!kfeatures_unsupported(err))
			return err ? err : -EIO;
		s->stats_batch = false;
	}
	for (i = 0; i < s->nslots; i++) {
		err = bpf_map_lookup_elem(s->m.stats_fd, &i, s->stats + (size_t)i * s->m.ncpus);
		if (err)
			return err;
	}
	return 0;
}

/* The filter's counters of each slot in use (summed over the CPUs) into slot[], and of
 * all of them into *sum. */
static int read_stats(struct sampler *s, struct flow_stats *slot, struct flow_stats *sum)
{
	unsigned c;
	__u32 i;
	int err = fetch_stats(s);

	if (err)
		return err;
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < s->nslots; i++) {
		const struct flow_stats *cpu = s->stats + (size_t)i * s->m.ncpus;

		memset(&slot[i], 0, sizeof(slot[i]));
		for (c = 0; c < s->m.ncpus; c++) {
#define SUM(field, json, text, family, help) slot[i].field += cpu[c].field;
			FLOW_STATS_FIELDS(SUM)
#undef SUM
		}
		slot[i].filtered += s->user[i].filtered;
		slot[i].filtered_bytes += s->user[i].filtered_bytes;
#define SUM(field, json, text, family, help) sum->field += slot[i].field;
		FLOW_STATS_FIELDS(SUM)
#undef SUM
	}
	return 0;
}

/* What a sample adds to a cumulative counter; one below the last means it started over. */
static void stats_delta(struct flow_stats *delta, const struct flow_stats *now,
			const struct flow_stats *before)
{
#define DELTA_OF(f, json, text, family, help)                                                      \
	delta->f = now->f >= before->f ? now->f - before->f : now->f;
	FLOW_STATS_FIELDS(DELTA_OF)
#undef DELTA_OF
}

/* What the host table says of the whole interface: written here alone. */
static void table_totals(struct flow_totals *totals, const struct hosttab *t)
{
	totals->other = *hosttab_other(t);
	totals->live_hosts = hosttab_count(t);
	totals->evicted = hosttab_departed(t);
	totals->waiting = hosttab_waiting(t);
	totals->capacity = hosttab_capacity(t);
}

int sampler_read(struct sampler *s, struct hosttab *t, struct flow_totals *totals, double interval)
{
	struct flow_stats now, slot_now[FLOWTOP_MAX_SLOTS];
	unsigned i;
	int err;

	/* hosts first, then stats: the filter counts a frame in the stats before it
	 * publishes its record or adds it to one, so every record drained here (taken: no
	 * frame joins it after) is in the stats read after */
	sampler_drain(s, t);
	err = read_stats(s, slot_now, &now);
	if (err)
		return err;
	if (now.spilled != s->spilled_read) { /* the spill map took frames since its last read */
		err = read_spill(s, t);
		if (err)
			return err;
		s->spilled_read = now.spilled;
		/* Each spilled frame is two updates, its source's and its destination's. Those
		 * the reads did not find were refused (the filter's lost) or dropped with an
		 * entry the map's LRU evicted before a read: lost to hosts, not to the totals.
		 * Frames spilled after the stats were read can only make found larger, so this
		 * never says too much, and says it all once the map is read again. */
		for (i = 0; i < s->nslots; i++) {
			uint64_t missing = 2 * slot_now[i].spilled;

			if (missing > s->found[i] && missing - s->found[i] > s->lost[i])
				s->lost[i] = missing - s->found[i];
			/* a port's updates likewise (the filter counts none of them lost) */
			if (s->m.ports && missing > s->ports_found[i] &&
			    missing - s->ports_found[i] > s->ports_lost[i])
				s->ports_lost[i] = missing - s->ports_found[i];
		}
	}
	err = read_stats(s, slot_now, &now);
	if (err)
		return err;
	now.lost = 0;
	totals->ports_lost = 0;
	for (i = 0; i < s->nslots; i++) {
		totals->ports_lost += s->ports_lost[i];
		if (slot_now[i].lost > s->lost[i])
			s->lost[i] = slot_now[i].lost;
		slot_now[i].lost = s->lost[i];
		now.lost += s->lost[i];
	}
	/* each slot's: what it gained since the last sample, and what its interface counted
	 * since it took the slot */
	for (i = 0; i < s->nslots; i++) {
		stats_delta(&totals->slot_delta[i], &slot_now[i], &s->raw[i]);
		s->raw[i] = slot_now[i];
#define SINCE(f, json, text, family, help) totals->slot_total[i].f = slot_now[i].f - s->base[i].f;
		FLOW_STATS_FIELDS(SINCE)
#undef SINCE
	}
	hosttab_end(t, interval);
	if (s->ports)
		hosttab_end(s->ports, interval);
	if (s->convo)
		convo_end(s->convo, interval);

	stats_delta(&totals->delta, &now, &totals->total);
	totals->total = now;
	totals->nslots = s->nslots;
	table_totals(totals, t);
	totals->interval = interval;
	return 0;
}

int sampler_reset(struct sampler *s, struct hosttab *t, struct flow_totals *totals)
{
	__u32 slot;
	size_t n, i;
	int err;

	sampler_drain(s, NULL); /* what the rings hold is dropped */
	joins_restart(s);
	err = read_by_key(s, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		err = bpf_map_delete_elem(s->m.spill_fd, &s->spill_keys[i]);
		if (err && err != -ENOENT)
			return err;
	}
	memset(s->seen.used, 0, s->seen.nslots);
	s->spilled_read = 0;
	memset(s->found, 0, sizeof(s->found));
	memset(s->lost, 0, sizeof(s->lost));
	memset(s->ports_found, 0, sizeof(s->ports_found));
	memset(s->ports_lost, 0, sizeof(s->ports_lost));
	memset(s->raw, 0, sizeof(s->raw));
	memset(s->user, 0, sizeof(s->user));
	memset(s->base, 0, sizeof(s->base));
	memset(s->stats, 0, s->m.ncpus * sizeof(*s->stats));
	for (slot = 0; slot < FLOWTOP_MAX_SLOTS; slot++) {
		err = bpf_map_update_elem(s->m.stats_fd, &slot, s->stats, BPF_ANY);
		if (err)
			return err;
	}
	hosttab_clear(t);
	if (s->ports)
		hosttab_clear(s->ports);
	memset(totals, 0, sizeof(*totals));
	table_totals(totals, t);
	return 0;
}
