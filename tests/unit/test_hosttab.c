// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_hosttab.c: counter deltas, rates, evictions and ordering of the host table. */
#include "test.h"

#include "fmt.h"
#include "hosttab.h"

static struct flow_key key(const char *s)
{
	struct flow_key k;

	if (fmt_parse_addr(s, &k))
		abort();
	return k;
}

static struct flow_counters ctr(uint64_t rxp, uint64_t rxb, uint64_t txp, uint64_t txb)
{
	return (struct flow_counters){ rxp, rxb, txp, txb };
}

static void sample(struct hosttab *t, double dt, int n, const char **addrs,
		   const struct flow_counters *c)
{
	int i;

	hosttab_begin(t);
	for (i = 0; i < n; i++) {
		struct flow_key k = key(addrs[i]);

		hosttab_observe(t, &k, &c[i]);
	}
	hosttab_end(t, dt);
}

static void test_first_sample_counts_everything(void)
{
	struct hosttab *t = hosttab_new();
	const char *a[] = { "10.0.0.1" };
	struct flow_counters c[] = { ctr(3, 300, 1, 60) };
	struct flow_key k = key("10.0.0.1");
	const struct host *h;

	sample(t, 2.0, 1, a, c);
	h = hosttab_find(t, &k);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->total.rx_packets, 3);
		ASSERT_EQ(h->total.rx_bytes, 300);
		ASSERT_EQ(h->delta.tx_bytes, 60);
		ASSERT_DBL(per_second(h->delta.rx_bytes * 8, hosttab_interval(t)), 1200.0);
	}
	ASSERT_EQ(hosttab_live(t), 1);
	hosttab_free(t);
}

static void test_delta_between_samples(void)
{
	struct hosttab *t = hosttab_new();
	const char *a[] = { "2001:db8::1" };
	struct flow_counters c1[] = { ctr(10, 1000, 5, 500) }, c2[] = { ctr(15, 1600, 5, 500) };
	struct flow_key k = key("2001:db8::1");
	const struct host *h;

	sample(t, 1.0, 1, a, c1);
	sample(t, 0.5, 1, a, c2);
	h = hosttab_find(t, &k);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->delta.rx_packets, 5);
		ASSERT_EQ(h->delta.rx_bytes, 600);
		ASSERT_EQ(h->delta.tx_packets, 0);
		ASSERT_EQ(h->total.rx_packets, 15);
		ASSERT_DBL(per_second(h->delta.rx_packets, hosttab_interval(t)), 10.0);
	}
	hosttab_free(t);
}

/* The LRU evicted the entry and a new one started from zero between two samples: the
 * kernel counter went backwards, and everything it holds is new. */
static void test_counter_backwards_after_eviction(void)
{
	struct hosttab *t = hosttab_new();
	const char *a[] = { "10.0.0.9" };
	struct flow_counters c1[] = { ctr(100, 10000, 0, 0) }, c2[] = { ctr(7, 700, 1, 40) };
	struct flow_key k = key("10.0.0.9");
	const struct host *h;

	sample(t, 1.0, 1, a, c1);
	sample(t, 1.0, 1, a, c2);
	h = hosttab_find(t, &k);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->delta.rx_packets, 7);
		ASSERT_EQ(h->delta.rx_bytes, 700);
		ASSERT_EQ(h->total.rx_packets, 107);
		ASSERT_EQ(h->total.rx_bytes, 10700);
		ASSERT_EQ(h->total.tx_bytes, 40);
	}
	hosttab_free(t);
}

/* Evicted and gone for a sample, then back with a larger count than before: the new
 * entry started at zero, so all of it is new. */
static void test_absent_then_back(void)
{
	struct hosttab *t = hosttab_new();
	const char *a[] = { "10.0.0.1", "10.0.0.2" };
	struct flow_counters c1[] = { ctr(5, 500, 0, 0), ctr(1, 1, 1, 1) };
	struct flow_counters c3[] = { ctr(8, 800, 0, 0), ctr(1, 1, 1, 1) };
	struct flow_key k = key("10.0.0.1");
	const struct host *h;

	sample(t, 1.0, 2, a, c1);
	sample(t, 1.0, 1, a + 1, c1 + 1); /* 10.0.0.1 not in the map */
	h = hosttab_find(t, &k);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->delta.rx_packets, 0);
		ASSERT_EQ(h->total.rx_packets, 5);
	}
	ASSERT_EQ(hosttab_live(t), 1);
	ASSERT_EQ(hosttab_count(t), 2);
	sample(t, 1.0, 2, a, c3);
	h = hosttab_find(t, &k);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->delta.rx_packets, 8);
		ASSERT_EQ(h->total.rx_packets, 13);
	}
	hosttab_free(t);
}

static void test_duplicate_key_in_one_sample(void)
{
	struct hosttab *t = hosttab_new();
	const char *a[] = { "10.0.0.1", "10.0.0.1" };
	struct flow_counters c[] = { ctr(5, 500, 0, 0), ctr(5, 500, 0, 0) };
	struct flow_key k = key("10.0.0.1");

	sample(t, 1.0, 2, a, c);
	ASSERT_EQ(hosttab_find(t, &k)->total.rx_packets, 5);
	ASSERT_EQ(hosttab_live(t), 1);
	hosttab_free(t);
}

static void test_sorted_by_rate_then_total_then_address(void)
{
	struct hosttab *t = hosttab_new();
	const char *a[] = { "10.0.0.3", "10.0.0.1", "10.0.0.2", "::1" };
	struct flow_counters c[] = { ctr(1, 100, 0, 0), ctr(1, 900, 0, 0), ctr(1, 100, 0, 0),
				     ctr(0, 0, 1, 100) };
	const struct host *rows[4];
	char buf[FMT_ADDR_LEN];

	sample(t, 1.0, 4, a, c);
	hosttab_sorted(t, rows, host_cmp_rate);
	ASSERT_STREQ(fmt_addr(&rows[0]->addr, buf), "10.0.0.1");
	/* three at 100 bytes: by address, and ::1 sorts before ::ffff:10.0.0.x */
	ASSERT_STREQ(fmt_addr(&rows[1]->addr, buf), "::1");
	ASSERT_STREQ(fmt_addr(&rows[2]->addr, buf), "10.0.0.2");
	ASSERT_STREQ(fmt_addr(&rows[3]->addr, buf), "10.0.0.3");
	hosttab_free(t);
}

static void test_many_hosts_and_clear(void)
{
	struct hosttab *t = hosttab_new();
	struct flow_counters c = ctr(1, 64, 0, 0);
	struct flow_key k;
	int i, found = 0;

	hosttab_begin(t);
	for (i = 0; i < 100000; i++) {
		memset(&k, 0, sizeof(k));
		memcpy(k.addr, &i, sizeof(i));
		if (hosttab_observe(t, &k, &c))
			break;
	}
	hosttab_end(t, 1.0);
	ASSERT_EQ(hosttab_count(t), 100000);
	for (i = 0; i < 100000; i += 997) {
		memset(&k, 0, sizeof(k));
		memcpy(k.addr, &i, sizeof(i));
		found += hosttab_find(t, &k) != NULL;
	}
	ASSERT_EQ(found, (100000 + 996) / 997);
	hosttab_clear(t);
	ASSERT_EQ(hosttab_count(t), 0);
	ASSERT_TRUE(hosttab_find(t, &k) == NULL);
	hosttab_free(t);
}

int main(void)
{
	RUN_TEST(test_first_sample_counts_everything);
	RUN_TEST(test_delta_between_samples);
	RUN_TEST(test_counter_backwards_after_eviction);
	RUN_TEST(test_absent_then_back);
	RUN_TEST(test_duplicate_key_in_one_sample);
	RUN_TEST(test_sorted_by_rate_then_total_then_address);
	RUN_TEST(test_many_hosts_and_clear);
	return test_summary("test_hosttab");
}
