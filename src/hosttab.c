// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* hosttab.c: an open-addressing table of hosts, keyed by address, with the counter
 * arithmetic that turns kernel cumulative counters into totals and deltas. */
#include "hosttab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY UINT32_MAX

struct hosttab {
	struct host *hosts; /* dense, in order of arrival */
	size_t count, cap;
	uint32_t *slots; /* index into hosts, or EMPTY; power-of-two size */
	size_t nslots;
	size_t live;
	uint32_t gen;
	double interval;
};

static uint64_t key_hash(const struct flow_key *key)
{
	uint64_t a, b;

	memcpy(&a, key->addr, 8);
	memcpy(&b, key->addr + 8, 8);
	a ^= b * 0x9e3779b97f4a7c15ULL;
	a ^= a >> 32;
	a *= 0xd6e8feb86659fd93ULL;
	return a ^ (a >> 32);
}

struct hosttab *hosttab_new(void)
{
	return calloc(1, sizeof(struct hosttab));
}

void hosttab_free(struct hosttab *t)
{
	if (!t)
		return;
	free(t->hosts);
	free(t->slots);
	free(t);
}

void hosttab_clear(struct hosttab *t)
{
	t->count = 0;
	t->live = 0;
	t->interval = 0;
	if (t->slots)
		memset(t->slots, 0xff, t->nslots * sizeof(*t->slots));
}

static uint32_t *slot_of(const struct hosttab *t, const struct flow_key *key)
{
	size_t mask = t->nslots - 1, i = key_hash(key) & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t *s = &t->slots[i];

		if (*s == EMPTY || !memcmp(&t->hosts[*s].addr, key, sizeof(*key)))
			return s;
	}
}

static int grow_slots(struct hosttab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 1024, i;
	uint32_t *slots = malloc(n * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	memset(slots, 0xff, n * sizeof(*slots));
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	for (i = 0; i < t->count; i++)
		*slot_of(t, &t->hosts[i].addr) = (uint32_t)i;
	return 0;
}

const struct host *hosttab_find(const struct hosttab *t, const struct flow_key *key)
{
	uint32_t *s;

	if (!t->nslots)
		return NULL;
	s = slot_of(t, key);
	return *s == EMPTY ? NULL : &t->hosts[*s];
}

static struct host *insert(struct hosttab *t, const struct flow_key *key)
{
	uint32_t *s;

	if (t->count + 1 > t->nslots / 2 && grow_slots(t))
		return NULL;
	s = slot_of(t, key);
	if (*s != EMPTY)
		return &t->hosts[*s];
	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct host *h = realloc(t->hosts, cap * sizeof(*h));

		if (!h)
			return NULL;
		t->hosts = h;
		t->cap = cap;
	}
	*s = (uint32_t)t->count;
	memset(&t->hosts[t->count], 0, sizeof(struct host));
	t->hosts[t->count].addr = *key;
	t->hosts[t->count].gen = t->gen - 1; /* not seen in this sample yet */
	return &t->hosts[t->count++];
}

void hosttab_begin(struct hosttab *t)
{
	t->gen++;
	t->live = 0;
}

/* What a kernel counter added since the last sample. A counter below the one seen last
 * means the entry was evicted and created anew in between: all it holds is new. */
static uint64_t counter_delta(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

int hosttab_observe(struct hosttab *t, const struct flow_key *key,
		    const struct flow_counters *kernel)
{
	struct host *h = insert(t, key);

	if (!h)
		return -ENOMEM;
	if (h->gen == t->gen)
		return 0; /* a key twice in one sample (a map walk racing an insert) */
	h->delta.rx_packets = counter_delta(kernel->rx_packets, h->seen.rx_packets);
	h->delta.rx_bytes = counter_delta(kernel->rx_bytes, h->seen.rx_bytes);
	h->delta.tx_packets = counter_delta(kernel->tx_packets, h->seen.tx_packets);
	h->delta.tx_bytes = counter_delta(kernel->tx_bytes, h->seen.tx_bytes);
	h->total.rx_packets += h->delta.rx_packets;
	h->total.rx_bytes += h->delta.rx_bytes;
	h->total.tx_packets += h->delta.tx_packets;
	h->total.tx_bytes += h->delta.tx_bytes;
	h->seen = *kernel;
	h->gen = t->gen;
	t->live++;
	return 0;
}

void hosttab_end(struct hosttab *t, double interval)
{
	size_t i;

	t->interval = interval;
	for (i = 0; i < t->count; i++) {
		struct host *h = &t->hosts[i];

		if (h->gen != t->gen) { /* evicted from the map: a new entry starts at 0 */
			memset(&h->delta, 0, sizeof(h->delta));
			memset(&h->seen, 0, sizeof(h->seen));
		}
	}
}

size_t hosttab_count(const struct hosttab *t)
{
	return t->count;
}

size_t hosttab_live(const struct hosttab *t)
{
	return t->live;
}

double hosttab_interval(const struct hosttab *t)
{
	return t->interval;
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
	return r ? r : memcmp(&a->addr, &b->addr, sizeof(a->addr));
}

struct sort_ctx {
	host_cmp_fn cmp;
};

static int sort_trampoline(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;

	return ctx->cmp(*(const struct host *const *)a, *(const struct host *const *)b);
}

void hosttab_sorted(const struct hosttab *t, const struct host **rows, host_cmp_fn cmp)
{
	struct sort_ctx ctx = { cmp };
	size_t i;

	if (!t->count)
		return; /* rows may be NULL: nothing to sort */
	for (i = 0; i < t->count; i++)
		rows[i] = &t->hosts[i];
	qsort_r(rows, t->count, sizeof(*rows), sort_trampoline, &ctx);
}
