// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_hosttab.c: the host table: deltas and totals from increments, a bound on the
 * hosts held with "other" keeping the sums exact, history that belongs to an address,
 * rate windows, ordering, and the partial selection the outputs use. */
#include "hosts.h"

#include "fmt.h"
#include "hosttab.h"
#include "topk.h"

static struct flow_key nth(unsigned i)
{
	struct flow_key k = key("10.0.0.0");

	k.addr[13] = (uint8_t)(i >> 16);
	k.addr[14] = (uint8_t)(i >> 8);
	k.addr[15] = (uint8_t)i;
	return k;
}

static const struct host *find(const struct hosttab *t, const char *addr)
{
	struct flow_key k = key(addr);

	return hosttab_find(t, &k);
}

/* one frame of bytes from src to dst */
static void test_first_sample_counts_everything(void)
{
	struct hosttab *t = hosttab_new(16);
	const struct host *h;

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	frame(t, "10.0.0.1", "10.0.0.2", 200);
	frame(t, "10.0.0.2", "10.0.0.1", 60);
	hosttab_end(t, 2.0);
	h = find(t, "10.0.0.2");
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->total.rx_packets, 2);
		ASSERT_EQ(h->total.rx_bytes, 300);
		ASSERT_EQ(h->delta.tx_bytes, 60);
		ASSERT_DBL(per_second(h->delta.rx_bytes * 8, hosttab_interval(t)), 1200.0);
	}
	ASSERT_EQ(hosttab_count(t), 2);
	ASSERT_EQ(hosttab_active(t), 2);
	hosttab_free(t);
}

static void test_delta_between_samples(void)
{
	struct hosttab *t = hosttab_new(16);
	const struct host *a, *b;

	frame(t, "2001:db8::1", "2001:db8::2", 500);
	hosttab_end(t, 1.0);
	frame(t, "2001:db8::1", "2001:db8::3", 100);
	hosttab_end(t, 1.0);
	a = find(t, "2001:db8::1");
	b = find(t, "2001:db8::2");
	if (ASSERT_TRUE(a && b)) {
		ASSERT_EQ(a->total.tx_bytes, 600);
		ASSERT_EQ(a->delta.tx_bytes, 100);
		ASSERT_EQ(b->delta.rx_bytes, 0); /* idle in the last sample */
		ASSERT_EQ(b->total.rx_bytes, 500);
	}
	ASSERT_EQ(hosttab_active(t), 2);
	hosttab_end(t, 1.0); /* nothing at all */
	ASSERT_EQ(a->delta.tx_bytes, 0);
	ASSERT_EQ(hosttab_active(t), 0);
	hosttab_free(t);
}

/* A full table: a newcomer waits at its door, its frame in "other", and its second
 * frame makes it a host with both (the host idle the longest leaving, what it had
 * counted, pending traffic included, in "other"): hosts + other = everything. */
static void test_full_table_folds_into_other(void)
{
	struct hosttab *t = hosttab_new(3);
	const struct host *h;
	uint64_t rx = 0, tx = 0, rxb = 0;
	size_t i;

	frame(t, "10.0.0.1", "10.0.0.9", 10); /* .1 and .9 */
	hosttab_end(t, 1.0);
	frame(t, "10.0.0.2", "10.0.0.9", 20); /* .2: full */
	hosttab_end(t, 1.0);
	frame(t, "10.0.0.3", "10.0.0.9", 30); /* .3 waits: no host leaves for one frame */
	ASSERT_TRUE(find(t, "10.0.0.3") == NULL);
	ASSERT_TRUE(find(t, "10.0.0.1") != NULL);
	ASSERT_EQ(hosttab_waiting(t), 1);
	ASSERT_EQ(hosttab_departed(t), 0);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 30);
	frame(t, "10.0.0.3", "10.0.0.9", 31); /* its second: .1, idle the longest, leaves */
	ASSERT_TRUE(find(t, "10.0.0.1") == NULL);
	h = find(t, "10.0.0.3");
	if (ASSERT_TRUE(h)) { /* its first frame moved with it, out of "other" */
		ASSERT_EQ(h->pending.tx_packets, 2);
		ASSERT_EQ(h->pending.tx_bytes, 61);
	}
	ASSERT_EQ(hosttab_waiting(t), 0);
	ASSERT_EQ(hosttab_departed(t), 1);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 10);
	ASSERT_TRUE(find(t, "10.0.0.9") != NULL);
	{ /* two frames at once are a second sighting: .2 leaves with nothing pending */
		struct flow_key k = key("10.0.0.4");

		ASSERT_OK(hosttab_add_frames(t, &k, 1, 2, 40, 0));
		ASSERT_TRUE(find(t, "10.0.0.4") != NULL);
		ASSERT_TRUE(find(t, "10.0.0.2") == NULL);
	}
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_count(t), 3);
	ASSERT_EQ(hosttab_departed(t), 2);
	ASSERT_EQ(hosttab_other(t)->tx_packets, 2);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 30);
	for (i = 0; i < hosttab_count(t); i++) {
		rx += hosttab_get(t, i)->total.rx_packets;
		tx += hosttab_get(t, i)->total.tx_packets;
		rxb += hosttab_get(t, i)->total.rx_bytes;
	}
	ASSERT_EQ(tx + hosttab_other(t)->tx_packets, 6);
	ASSERT_EQ(rx + hosttab_other(t)->rx_packets, 4); /* .4's two frames had no receiver */
	ASSERT_EQ(rxb, 91);				 /* .9, busy all along, stayed */
	hosttab_free(t);
}

/* A waiter let in a sample after it came: its first frame is in its total, not in the
 * sample it is let in (nor in its history); one sent away by another at its door leaves
 * its counts in "other", and comes back as new. */
static void test_door_keeps_counts_exact(void)
{
	struct hosttab *t = hosttab_new(2);
	struct flow_key a = key("10.0.0.1"), b = key("10.0.0.2"), w = key("10.1.0.0"), rival;
	const struct host *h;
	unsigned n;

	ASSERT_OK(hosttab_add_frame(t, &a, 1, 100, 0));
	ASSERT_OK(hosttab_add_frame(t, &b, 1, 100, 0));
	ASSERT_OK(hosttab_add_frame(t, &w, 1, 7, 0)); /* full: waits */
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 7);
	ASSERT_OK(hosttab_add_frame(t, &a, 1, 100, 0)); /* b is the idlest now */
	ASSERT_OK(hosttab_add_frame(t, &w, 1, 5, 0));
	hosttab_end(t, 1.0);
	h = hosttab_find(t, &w);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->total.tx_bytes, 12);
		ASSERT_EQ(h->delta.tx_bytes, 5);
		ASSERT_DBL(hosttab_rate(t, h, 1, 1), 5.0);
	}
	ASSERT_TRUE(hosttab_find(t, &b) == NULL);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 100); /* b's */
	ASSERT_EQ(hosttab_departed(t), 1);

	/* an address at the same door as b sends it away */
	for (n = 1; n < 65536; n++) { /* 10.2.x.y: 16 doors for a table of 2 */
		rival = key("10.2.0.0");
		rival.addr[14] = (uint8_t)(n >> 8);
		rival.addr[15] = (uint8_t)n;
		if (((hosttab_hash(&rival) ^ hosttab_hash(&b)) & 15) == 0)
			break;
	}
	ASSERT_TRUE(n < 65536);
	ASSERT_OK(hosttab_add_frame(t, &b, 1, 3, 0));
	ASSERT_OK(hosttab_add_frame(t, &rival, 1, 4, 0));
	ASSERT_EQ(hosttab_waiting(t), 1);
	ASSERT_EQ(hosttab_departed(t), 2);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 107);
	ASSERT_OK(hosttab_add_frame(t, &b, 1, 3, 0)); /* new again: it waits, rival leaves */
	ASSERT_TRUE(hosttab_find(t, &b) == NULL);
	ASSERT_EQ(hosttab_departed(t), 3);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 110);
	hosttab_clear(t); /* a new interface: nobody waits */
	ASSERT_EQ(hosttab_waiting(t), 0);
	ASSERT_OK(hosttab_add_frame(t, &a, 1, 1, 0));
	ASSERT_OK(hosttab_add_frame(t, &w, 1, 1, 0));
	ASSERT_OK(hosttab_add_frame(t, &b, 1, 1, 0)); /* full: b waits, its door cleared */
	ASSERT_TRUE(hosttab_find(t, &b) == NULL);
	ASSERT_OK(hosttab_add_frame(t, &rival, 1, 1, 0));
	ASSERT_EQ(hosttab_waiting(t), 1);
	ASSERT_EQ(hosttab_departed(t), 1);
	ASSERT_EQ(hosttab_other(t)->tx_bytes, 2);
	hosttab_free(t);
}

/* History belongs to the address: a host that takes a departed host's place, or comes
 * after a clear, starts with no past. */
static void test_history_belongs_to_the_address(void)
{
	struct hosttab *t = hosttab_new(1);
	const struct host *h;

	frame(t, "10.0.0.1", "10.0.0.1", 1000);
	hosttab_end(t, 1.0);
	ASSERT_DBL(hosttab_rate(t, find(t, "10.0.0.1"), 2, 1), 1000.0); /* 1 s kept so far */
	{ /* two frames: let into the full table at once */
		struct flow_key k = key("10.0.0.2");

		ASSERT_OK(hosttab_add_frames(t, &k, 1, 2, 10, 0));
	}
	hosttab_end(t, 1.0);
	h = find(t, "10.0.0.2");
	if (ASSERT_TRUE(h)) {
		ASSERT_DBL(hosttab_rate(t, h, 2, 1), 5.0);
		ASSERT_DBL(hosttab_rate(t, h, 2, 0), 0.0);
		ASSERT_DBL(h->peak, 5.0);
	}
	hosttab_clear(t);
	{
		struct flow_key k = key("10.0.0.3");

		ASSERT_OK(hosttab_add_frame(t, &k, 1, 10, 0));
	}
	hosttab_end(t, 1.0);
	ASSERT_DBL(hosttab_rate(t, find(t, "10.0.0.3"), 40, 1), 10.0);
	ASSERT_EQ(hosttab_departed(t), 0);
	hosttab_free(t);
}

/* 2/10/40 s windows, a host that goes quiet decays to zero without being visited, and
 * one back after a long silence does not see its old samples again. */
static void test_rate_windows_and_silence(void)
{
	struct hosttab *t = hosttab_new(8);
	const struct host *h;
	int i;

	for (i = 0; i < 40; i++) {
		frame(t, "10.0.0.1", "10.0.0.2", i < 30 ? 100 : 400);
		hosttab_end(t, 1.0);
	}
	h = find(t, "10.0.0.1");
	ASSERT_DBL(hosttab_rate(t, h, 2, 1), 400.0);
	ASSERT_DBL(hosttab_rate(t, h, 10, 1), 400.0);
	ASSERT_DBL(hosttab_rate(t, h, 40, 1), (30 * 100 + 10 * 400) / 40.0);
	ASSERT_DBL(h->peak, 400.0);
	for (i = 0; i < 5; i++)
		hosttab_end(t, 1.0);
	ASSERT_DBL(hosttab_rate(t, h, 2, 1), 0.0);
	ASSERT_DBL(hosttab_rate(t, h, 10, 1), 5 * 400 / 10.0);
	for (i = 0; i < 100; i++)
		hosttab_end(t, 1.0);
	ASSERT_DBL(hosttab_rate(t, h, 40, 1), 0.0);
	frame(t, "10.0.0.1", "10.0.0.2", 40);
	hosttab_end(t, 1.0);
	ASSERT_DBL(hosttab_rate(t, h, 40, 1), 1.0); /* 40 bytes in 40 s: no stale slot */
	ASSERT_DBL(hosttab_rate(t, h, 2, 1), 20.0);
	ASSERT_EQ(h->total.tx_packets, 41);
	hosttab_free(t);
}

/* The per-sample history a sparkline draws: oldest first, each sample over its own
 * length, silence after the last traffic, nothing before the first sample. */
static void test_history_per_sample(void)
{
	struct hosttab *t = hosttab_new(8);
	struct hist_clock c;
	struct host_hist hh;
	const struct host *h;
	double r[HISTORY_SLOTS];
	int i;

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	frame(t, "10.0.0.1", "10.0.0.2", 300);
	frame(t, "10.0.0.2", "10.0.0.1", 100);
	hosttab_end(t, 0.5);
	h = find(t, "10.0.0.1");
	hosttab_clock(t, &c);
	hosttab_history(t, h, &hh);
	ASSERT_EQ(host_history(&c, &hh, r, 4), 2);
	ASSERT_DBL(r[0], 0.0);
	ASSERT_DBL(r[1], 0.0);
	ASSERT_DBL(r[2], 100.0);
	ASSERT_DBL(r[3], 800.0); /* 300 out and 100 in over half a second */
	for (i = 0; i < 3; i++)
		hosttab_end(t, 1.0);
	hosttab_clock(t, &c);
	hosttab_history(t, h, &hh);
	ASSERT_EQ(host_history(&c, &hh, r, 4), 4);
	ASSERT_DBL(r[0], 800.0);
	ASSERT_DBL(r[1] + r[2] + r[3], 0.0); /* stopped: the newest samples are empty */
	for (i = 0; i < HISTORY_SLOTS; i++)
		hosttab_end(t, 1.0);
	hosttab_clock(t, &c);
	hosttab_history(t, h, &hh);
	ASSERT_EQ(host_history(&c, &hh, r, HISTORY_SLOTS), HISTORY_SLOTS);
	for (i = 0; i < HISTORY_SLOTS; i++)
		ASSERT_DBL(r[i], 0.0); /* 40 samples on: all gone, none read stale */
	hosttab_free(t);
}

/* The newest HIST_RECENT samples live in the host, the older ones in a block taken only
 * while they hold traffic: hosts sending in every sample, every 7th, twice then never, in
 * bursts, and late in pairs, over 130 samples of varying length, read back sample by
 * sample and as 2/10/40 s rates exactly as a plain record of every sample has them; the
 * blocks held are those of hosts whose traffic spans more than the recent samples. */
#define TIERS_HOSTS   6
#define TIERS_SAMPLES 130

static bool tiers_sends(unsigned host, unsigned s)
{
	switch (host) {
	case 0:
		return true; /* every sample */
	case 1:
		return s % 7 == 0; /* each the one before out of the recent ones */
	case 2:
		return s == 3 || s == 5; /* twice, then never */
	case 3:
		return s % 50 < 12; /* bursts longer than the recent ones, 38 quiet */
	case 4:
		return s % 41 == 0; /* once past everything kept */
	default:
		return s >= 100 && s % 5 < 2; /* late, two in every five */
	}
}

static void test_history_in_two_tiers(void)
{
	static uint64_t sent[TIERS_HOSTS][TIERS_SAMPLES + 1];
	struct hosttab *t = hosttab_new(16);
	double secs[TIERS_SAMPLES + 1];
	unsigned s, i, j;

	for (s = 1; s <= TIERS_SAMPLES; s++) {
		for (i = 0; i < TIERS_HOSTS; i++) {
			struct flow_key k = nth(i + 1);

			sent[i][s] = tiers_sends(i, s) ? 100 + 7 * s + i : 0;
			if (sent[i][s])
				ASSERT_OK(hosttab_add_frame(t, &k, 1, sent[i][s], 0));
		}
		secs[s] = s % 3 ? 1.0 : 0.5;
		hosttab_end(t, secs[s]);
		for (i = 0; i < TIERS_HOSTS; i++) {
			struct flow_key k = nth(i + 1);
			const struct host *h = hosttab_find(t, &k);
			struct host_hist hh;
			unsigned w;

			if (!h)
				continue;
			hosttab_history(t, h, &hh);
			for (j = 0; j < HISTORY_SLOTS && j < s; j++) {
				unsigned n = s - j;
				uint64_t want = sent[i][n];

				if (hh.v[n % HISTORY_SLOTS][1] != want ||
				    hh.v[n % HISTORY_SLOTS][0])
					FAILF("host %u, sample %u read at %u: %u, sent %llu", i, n,
					      s, hh.v[n % HISTORY_SLOTS][1],
					      (unsigned long long)want);
			}
			for (w = 0; w < 3; w++) {
				const unsigned window[] = { 2, 10, 40 };
				double bytes = 0, covered = 0;

				for (j = 0;
				     j < s && j < HISTORY_SLOTS && covered < window[w] - 1e-6;
				     j++) {
					bytes += (double)sent[i][s - j];
					covered += secs[s - j];
				}
				ASSERT_DBL(hosttab_rate(t, h, window[w], 1), bytes / covered);
			}
		}
		{ /* a block for each host whose kept traffic reaches past its recent samples */
			size_t want = 0;

			for (i = 0; i < TIERS_HOSTS; i++) {
				unsigned newest = 0, oldest = 0;

				for (j = 0; j < HISTORY_SLOTS && j < s; j++)
					if (sent[i][s - j]) {
						if (!newest)
							newest = s - j;
						oldest = s - j;
					}
				want += newest && newest - oldest >= HIST_RECENT;
			}
			if (hosttab_history_blocks(t) < want)
				FAILF("sample %u: %zu blocks held, %zu hosts need one", s,
				      hosttab_history_blocks(t), want);
		}
	}
	/* at the end: every sample's, every 7th's, the bursts' and the late one's; not the
	 * host that sent twice, nor the one once a while, whose traffic fits the recent */
	ASSERT_EQ(hosttab_history_blocks(t), 4);
	hosttab_clear(t);
	ASSERT_EQ(hosttab_history_blocks(t), 0);
	hosttab_free(t);
}

/* A host evicted gives its block back, and the one made in its place starts with no
 * past: a pool of one host's blocks serves a churning table of one. */
static void test_history_block_leaves_with_its_host(void)
{
	struct hosttab *t = hosttab_new(1);
	struct flow_key a = key("10.0.0.1"), b = key("10.0.0.2");
	struct host_hist hh;
	unsigned s, j;

	for (s = 0; s < 12; s++) {
		ASSERT_OK(hosttab_add_frame(t, &a, 1, 1000, 0));
		hosttab_end(t, 1.0);
	}
	ASSERT_EQ(hosttab_history_blocks(t), 1);
	ASSERT_OK(hosttab_add_frames(t, &b, 1, 2, 50, 0)); /* let in at once: a leaves */
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_history_blocks(t), 0);
	hosttab_history(t, hosttab_find(t, &b), &hh);
	for (j = 0; j < HISTORY_SLOTS; j++)
		if (hh.v[j][0] || hh.v[j][1] != (j == 13 % HISTORY_SLOTS ? 50 : 0))
			FAILF("slot %u: %u %u after the host before it left", j, hh.v[j][0],
			      hh.v[j][1]);
	/* b's sample 13 leaves its recent ones at 21: it takes a's block, given back, and
	 * reads none of a's samples in it */
	for (s = 14; s < 21; s++)
		hosttab_end(t, 1.0);
	ASSERT_OK(hosttab_add_frame(t, &b, 1, 60, 0));
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_history_blocks(t), 1);
	hosttab_history(t, hosttab_find(t, &b), &hh);
	for (j = 0; j < HISTORY_SLOTS; j++)
		if (hh.v[j][0] || hh.v[j][1] != (j == 13 ? 50 : j == 21 ? 60 : 0))
			FAILF("slot %u: %u %u read from a block given back", j, hh.v[j][0],
			      hh.v[j][1]);
	hosttab_free(t);
}

/* A block goes back when the traffic it held leaves the window, though the host goes on
 * sending: 12 samples, then one at 47 (8 to 12 still kept), then one at 54 (none). */
static void test_history_block_given_back_when_empty(void)
{
	struct hosttab *t = hosttab_new(4);
	struct flow_key a = key("10.0.0.1");
	unsigned s;

	for (s = 1; s <= 54; s++) {
		if (s <= 12 || s == 47 || s == 54)
			ASSERT_OK(hosttab_add_frame(t, &a, 1, 1000, 0));
		hosttab_end(t, 1.0);
		if (s == 12 || s == 47)
			ASSERT_EQ(hosttab_history_blocks(t), 1);
	}
	ASSERT_EQ(hosttab_history_blocks(t), 0);
	ASSERT_DBL(hosttab_rate(t, hosttab_find(t, &a), 40, 1), 2000.0 / 40);
	hosttab_free(t);
}

/* A table cleared again and again (a new interface each time) takes its blocks afresh:
 * a hundred clears of a table of one host, each after the host took a block. */
static void test_history_blocks_after_clears(void)
{
	struct hosttab *t = hosttab_new(1);
	struct flow_key a = key("10.0.0.1");
	unsigned c, s;

	for (c = 0; c < 100; c++) {
		for (s = 0; s < 12; s++) {
			ASSERT_OK(hosttab_add_frame(t, &a, 1, 100 + c, 0));
			hosttab_end(t, 1.0);
		}
		ASSERT_EQ(hosttab_history_blocks(t), 1);
		ASSERT_DBL(hosttab_rate(t, hosttab_find(t, &a), 40, 1), 12.0 * (100 + c) / 12);
		hosttab_clear(t);
		ASSERT_EQ(hosttab_history_blocks(t), 0);
	}
	hosttab_free(t);
}

static int rate_order(const void *a, const void *b, void *arg)
{
	(void)arg;
	return host_cmp_rate(*(const struct host *const *)a, *(const struct host *const *)b);
}

static void test_sorted_by_rate_then_total_then_address(void)
{
	struct hosttab *t = hosttab_new(8);
	const struct host *rows[4];
	char addr[FMT_ADDR_LEN];
	size_t i;

	frame(t, "10.0.0.4", "10.0.0.4", 1000); /* 2000 both ways, all earlier */
	hosttab_end(t, 1.0);
	frame(t, "10.0.0.2", "10.0.0.3", 50);
	frame(t, "10.0.0.1", "10.0.0.2", 50);
	hosttab_end(t, 1.0);
	for (i = 0; i < 4; i++)
		rows[i] = hosttab_get(t, i);
	topk_select(rows, 4, sizeof(rows[0]), 4, rate_order, NULL);
	ASSERT_STREQ(fmt_addr(&rows[0]->addr, addr), "10.0.0.2"); /* 100 this sample */
	ASSERT_STREQ(fmt_addr(&rows[1]->addr, addr), "10.0.0.1"); /* 50, tie by address */
	ASSERT_STREQ(fmt_addr(&rows[2]->addr, addr), "10.0.0.3");
	ASSERT_STREQ(fmt_addr(&rows[3]->addr, addr), "10.0.0.4"); /* idle, largest total */
	hosttab_free(t);
}

/* Churn far past the bound: the table stays at its capacity, every host it holds is
 * found (the hash survives removals), and the sums stay exact; then a flood of sources
 * that send once: they wait at the door and leave from it, no host leaves for them. */
static void test_churn_keeps_bound_and_sums(void)
{
	struct hosttab *t = hosttab_new(1000);
	uint64_t tx = 0;
	size_t i, found = 0;
	unsigned n;

	for (n = 0; n < 100000; n++) { /* two frames each: the second lets it in */
		struct flow_key k = nth(n);

		ASSERT_OK(hosttab_add_frame(t, &k, 1, 1, 0));
		ASSERT_OK(hosttab_add_frame(t, &k, 1, 1, 0));
		if (n % 777 == 0)
			hosttab_end(t, 1.0);
	}
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_count(t), 1000);
	ASSERT_EQ(hosttab_departed(t), 99000);
	ASSERT_EQ(hosttab_waiting(t), 0);
	for (i = 0; i < hosttab_count(t); i++) {
		const struct host *h = hosttab_get(t, i);

		found += hosttab_find(t, &h->addr) == h;
		tx += h->total.tx_packets;
	}
	ASSERT_EQ(found, 1000);
	ASSERT_EQ(tx + hosttab_other(t)->tx_packets, 200000);
	for (n = 99000; n < 100000; n++) { /* the newest are the ones kept */
		struct flow_key k = nth(n);

		found -= hosttab_find(t, &k) != NULL;
	}
	ASSERT_EQ(found, 0);
	for (n = 100000; n < 200000; n++) { /* once each */
		struct flow_key k = nth(n);

		ASSERT_OK(hosttab_add_frame(t, &k, 1, 1, 0));
		if (n % 777 == 0)
			hosttab_end(t, 1.0);
	}
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_count(t), 1000);
	ASSERT_EQ(hosttab_departed(t) + hosttab_waiting(t), 199000);
	ASSERT_TRUE(hosttab_waiting(t) > 0 && hosttab_waiting(t) <= 256); /* doors: 1000 / 4 */
	ASSERT_EQ(tx + hosttab_other(t)->tx_packets, 300000);
	for (n = 99000; n < 100000; n++) { /* still held, their counts their own */
		struct flow_key k = nth(n);
		const struct host *h = hosttab_find(t, &k);

		found += h && h->total.tx_packets == 2;
	}
	ASSERT_EQ(found, 1000);
	hosttab_clear(t);
	ASSERT_EQ(hosttab_count(t), 0);
	ASSERT_EQ(hosttab_waiting(t), 0);
	ASSERT_TRUE(hosttab_find(t, &(struct flow_key){ 0 }) == NULL);
	hosttab_free(t);
}

static int int_order(const void *a, const void *b, void *arg)
{
	int x = *(const int *)a, y = *(const int *)b;

	(void)arg;
	return x < y ? -1 : x > y;
}

/* The first k of a selection equal the first k of a full sort, for every k. */
static void test_topk_matches_a_full_sort(void)
{
	int v[300], sorted[300], w[300];
	size_t i, k;

	for (i = 0; i < 300; i++)
		v[i] = (int)(i * 7919 % 300); /* distinct, shuffled */
	memcpy(sorted, v, sizeof(v));
	qsort_r(sorted, 300, sizeof(int), int_order, NULL);
	for (k = 0; k <= 300; k += 13) {
		memcpy(w, v, sizeof(v));
		topk_select(w, 300, sizeof(int), k, int_order, NULL);
		if (memcmp(w, sorted, k * sizeof(int)))
			FAILF("k = %zu: the first k differ from a sort", k);
	}
}

/* The first k of a stream, kept by a heap as they come, equal the first k of a sort: for
 * every k (none, some, more than offered), in ascending, descending and shuffled order,
 * with ties. */
static void test_topk_heap_matches_a_full_sort(void)
{
	int v[300], sorted[300], kept[310];
	size_t i, k;
	int order;

	for (order = 0; order < 3; order++) {
		for (i = 0; i < 300; i++)
			v[i] = order == 0   ? (int)i / 3
			       : order == 1 ? (int)(300 - i) / 3
					    : (int)(i * 7919 % 300) / 2;
		memcpy(sorted, v, sizeof(v));
		qsort_r(sorted, 300, sizeof(int), int_order, NULL);
		for (k = 0; k <= 310; k += 7) {
			struct topk_heap h = { kept, sizeof(int), k, 0, int_order, NULL };

			for (i = 0; i < 300; i++)
				topk_offer(&h, &v[i]);
			topk_finish(&h);
			if (h.n != (k < 300 ? k : 300) || memcmp(kept, sorted, h.n * sizeof(int)))
				FAILF("order %d, k = %zu: %zu kept, or not the first", order, k,
				      h.n);
		}
	}
	{ /* no room asked for: nothing kept, nothing touched */
		struct topk_heap none = { NULL, sizeof(int), 0, 0, int_order, NULL };

		topk_offer(&none, &v[0]);
		topk_finish(&none);
		ASSERT_EQ(none.n, 0);
	}
}

/* Traffic pending in the open sample does not hide a host's closed samples from its
 * rates, and a host idle past a window reads 0 in it but not in a longer one. */
static void test_rates_with_traffic_pending(void)
{
	struct hosttab *t = hosttab_new(16);
	const struct host *h;
	int i;

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	frame(t, "10.0.0.1", "10.0.0.2", 900); /* pending */
	h = find(t, "10.0.0.1");
	if (ASSERT_TRUE(h))
		ASSERT_DBL(hosttab_rate(t, h, 2, 1), 100.0);
	hosttab_end(t, 1.0);
	for (i = 0; i < 2; i++)
		hosttab_end(t, 1.0);
	h = find(t, "10.0.0.1");
	if (ASSERT_TRUE(h)) {
		ASSERT_DBL(hosttab_rate(t, h, 2, 1), 0.0);
		ASSERT_DBL(hosttab_rate(t, h, 10, 1), 1000.0 / 4);
	}
	frame(t, "10.0.0.3", "10.0.0.1", 50); /* pending again, after idle samples */
	h = find(t, "10.0.0.1");
	if (ASSERT_TRUE(h))
		ASSERT_DBL(hosttab_rate(t, h, 10, 1), 1000.0 / 4);
	hosttab_free(t);
}

/* flow_key_cmp() orders keys as memcmp() does, for keys that differ anywhere. */
static void test_key_order_is_memcmp(void)
{
	unsigned i, bad = 0;

	srand(7);
	for (i = 0; i < 20000; i++) {
		struct flow_key a, b;
		unsigned j;
		int want, got;

		for (j = 0; j < 16; j++)
			a.addr[j] = b.addr[j] = (uint8_t)rand();
		b.addr[rand() % 16] = (uint8_t)rand(); /* one byte may differ, or none */
		want = memcmp(&a, &b, sizeof(a));
		got = flow_key_cmp(&a, &b);
		bad += (want > 0) != (got > 0) || (want < 0) != (got < 0);
	}
	ASSERT_EQ(bad, 0);
}

/* A table growing from empty to its bound, its hash doubling six times (1,024 slots to
 * 65,536), hosts leaving it once full, then new ones: every host held is found with its
 * own counts, none lost (hosts and "other" add up), and a host that left is not found. */
static void test_growing_hash_finds_every_host(void)
{
	const unsigned max = 20000, sent = 30000;
	struct hosttab *t = hosttab_new(max);
	uint64_t held = 0, frames = 0;
	unsigned i;

	if (!ASSERT_TRUE(t))
		return;
	for (i = 0; i < sent; i++) { /* host i sends i % 7 + 2 frames of 100 bytes */
		struct flow_key k = nth(i);

		frames += i % 7 + 2;
		ASSERT_OK(hosttab_add_frames(t, &k, 1, i % 7 + 2, 100 * (i % 7 + 2), 0));
		if (i % 5000 == 4999)
			hosttab_end(t, 1.0); /* samples in between: some hosts leave idle */
	}
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_count(t), max);
	ASSERT_EQ(hosttab_departed(t), sent - max);
	for (i = 0; i < sent; i++) {
		struct flow_key k = nth(i);
		const struct host *h = hosttab_find(t, &k);

		if (i < sent - max) { /* the oldest left for "other" */
			ASSERT_TRUE(!h);
			continue;
		}
		if (!ASSERT_TRUE(h))
			break;
		ASSERT_EQ(h->total.tx_packets, i % 7 + 2);
		held += h->total.tx_packets;
	}
	ASSERT_EQ(held + hosttab_other(t)->tx_packets, frames);
	hosttab_free(t);
}

int main(void)
{
	RUN_TEST(test_first_sample_counts_everything);
	RUN_TEST(test_delta_between_samples);
	RUN_TEST(test_full_table_folds_into_other);
	RUN_TEST(test_door_keeps_counts_exact);
	RUN_TEST(test_history_belongs_to_the_address);
	RUN_TEST(test_rate_windows_and_silence);
	RUN_TEST(test_history_per_sample);
	RUN_TEST(test_history_in_two_tiers);
	RUN_TEST(test_history_block_leaves_with_its_host);
	RUN_TEST(test_history_block_given_back_when_empty);
	RUN_TEST(test_history_blocks_after_clears);
	RUN_TEST(test_sorted_by_rate_then_total_then_address);
	RUN_TEST(test_churn_keeps_bound_and_sums);
	RUN_TEST(test_topk_matches_a_full_sort);
	RUN_TEST(test_topk_heap_matches_a_full_sort);
	RUN_TEST(test_rates_with_traffic_pending);
	RUN_TEST(test_key_order_is_memcmp);
	RUN_TEST(test_growing_hash_finds_every_host);
	return test_summary("test_hosttab");
}
