// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_groups.c: hosts grouped by prefix (IPv4 and IPv6, on and off byte boundaries),
 * by AS and by country through the packaged location database, the special ranges
 * without one, public hosts looked up by the worker (src/model/geoq.h); a group's counters,
 * history, rates, peak and host count are its hosts' sums; "other" stays "other". */
#include "hosts.h"

#include <arpa/inet.h>
#include <malloc.h>

#include "fmt.h"
#include "geo.h"
#include "geoq.h"
#include "groups.h"
#include "hosttab.h"

static const struct host *find(const struct hosttab *t, const char *addr)
{
	struct flow_key k = key(addr);

	return hosttab_find(t, &k);
}

/* The group whose label is `label`, or NULL. */
static const struct host *group(const struct groups *g, const char *label)
{
	const struct hosttab *t = groups_table(g);
	char buf[GROUP_LABEL_LEN];
	size_t i;

	for (i = 0; i < hosttab_count(t); i++)
		if (!strcmp(groups_label(g, &hosttab_get(t, i)->addr, false, buf), label))
			return hosttab_get(t, i);
	return NULL;
}

static void expect_group(const struct groups *g, const char *label, unsigned hosts,
			 uint64_t rx_bytes, uint64_t tx_bytes)
{
	const struct host *h = group(g, label);

	if (!h) {
		FAILF("no group %s", label);
		return;
	}
	ASSERT_EQ(host_members(h), hosts);
	ASSERT_EQ(h->total.rx_bytes, rx_bytes);
	ASSERT_EQ(h->total.tx_bytes, tx_bytes);
}

static void test_prefixes_ipv4_and_ipv6(void)
{
	struct hosttab *t = hosttab_new(64);
	struct groups *g = groups_new(64, NULL);
	struct group_opts o = { GROUP_PREFIX, 24, 48 };

	frame(t, "10.1.2.3", "10.1.3.1", 100);
	frame(t, "10.1.2.200", "10.1.3.1", 50);
	frame(t, "2001:db8:1:2::1", "2001:db8:1:ffff::9", 1000);
	frame(t, "2001:db8:2::1", "10.1.2.3", 7);
	hosttab_end(t, 1.0);
	ASSERT_OK(groups_build(g, t, &o));
	ASSERT_EQ(hosttab_count(groups_table(g)), 4);
	expect_group(g, "10.1.2.0/24", 2, 7, 150);
	expect_group(g, "10.1.3.0/24", 1, 150, 0);
	expect_group(g, "2001:db8:1::/48", 2, 1000, 1000);
	expect_group(g, "2001:db8:2::/48", 1, 0, 7);

	/* off byte boundaries: /20 and /45 */
	o.prefix4 = 20, o.prefix6 = 45;
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "10.1.0.0/20", 3, 157, 150);
	expect_group(g, "2001:db8::/45", 3, 1000, 1007);
	ASSERT_EQ(hosttab_count(groups_table(g)), 2);
	o.prefix4 = 32, o.prefix6 = 128; /* a group a host */
	ASSERT_OK(groups_build(g, t, &o));
	ASSERT_EQ(hosttab_count(groups_table(g)), hosttab_count(t));
	expect_group(g, "10.1.2.200/32", 1, 0, 50);
	groups_free(g);
	hosttab_free(t);
}

/* A group's history, rates and deltas are its hosts' sums, sample by sample; its peak
 * the highest 2 s rate it had, also across builds. */
static void test_rates_history_and_peak_are_sums(void)
{
	struct hosttab *t = hosttab_new(64);
	struct groups *g = groups_new(64, NULL);
	struct group_opts o = { GROUP_PREFIX, 16, 48 };
	const struct host *grp;
	double rates[HISTORY_SLOTS];
	struct hist_clock clk;
	struct host_hist hh;
	int s;

	for (s = 0; s < 12; s++) {
		frame(t, "10.9.0.1", "192.0.2.1", 1000 * (uint64_t)(s + 1));
		if (s % 3 == 0)
			frame(t, "10.9.7.7", "192.0.2.1", 123457); /* past 2048: rounded history */
		if (s == 4)
			frame(t, "10.9.0.1", "192.0.2.1", 10000000); /* the peak */
		hosttab_end(t, 1.0);
		ASSERT_OK(groups_build(g, t, &o));
	}
	grp = group(g, "10.9.0.0/16");
	if (!ASSERT_TRUE(grp))
		goto out;
	ASSERT_EQ(grp->delta.tx_bytes, 12000);
	ASSERT_EQ(grp->total.tx_bytes, 78000 + 4 * 123457 + 10000000);
	{
		const struct host *a = find(t, "10.9.0.1"), *b = find(t, "10.9.7.7");
		double want, got;
		int secs;

		for (secs = 2; secs <= 40; secs *= 2) {
			want = hosttab_rate(t, a, secs, 1) + hosttab_rate(t, b, secs, 1);
			got = hosttab_rate(groups_table(g), grp, secs, 1);
			if (got < want * (1 - 1.0 / 2048) || got > want * (1 + 1.0 / 2048))
				FAILF("%d s: group %.1f, its hosts %.1f", secs, got, want);
		}
	}
	hosttab_clock(groups_table(g), &clk);
	hosttab_history(groups_table(g), grp, &hh);
	ASSERT_EQ(host_history(&clk, &hh, rates, HISTORY_SLOTS), 12);
	ASSERT_DBL(rates[HISTORY_SLOTS - 1], 12000.0);
	ASSERT_DBL(rates[HISTORY_SLOTS - 2], 11000.0);
	/* the peak: the 2 s of s = 3 and 4 hold 4,000 + 123,457 + 10,005,000 bytes, which the
	 * 40 s of history still have */
	ASSERT_TRUE(grp->peak > 5066228.5 * (1 - 1e-3) && grp->peak < 5066228.5 * (1 + 1e-3));
	ASSERT_EQ(host_members(grp), 2);
out:
	groups_free(g);
	hosttab_free(t);
}

/* Hosts a full table folded into "other" stay there: groups sum the hosts held, and
 * the table of groups has the hosts' "other". */
static void test_other_stays_other(void)
{
	struct hosttab *t = hosttab_new(2);
	struct groups *g = groups_new(2, NULL);
	struct group_opts o = { GROUP_PREFIX, 8, 48 };

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	frame(t, "10.0.0.3", "10.0.0.4", 20); /* both leave (a second frame lets a */
	frame(t, "10.0.0.3", "10.0.0.4", 20); /* newcomer into a full table) */
	hosttab_end(t, 1.0);
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "10.0.0.0/8", 2, 40, 40);
	ASSERT_EQ(hosttab_other(groups_table(g))->tx_bytes, 100);
	ASSERT_EQ(hosttab_departed(groups_table(g)), 2);
	groups_free(g);
	hosttab_free(t);
}

static void test_special_ranges_need_no_database(void)
{
	static const struct {
		const char *addr;
		enum geo_class class;
	} cases[] = {
		{ "10.1.2.3", GEO_PRIVATE },
		{ "172.31.255.255", GEO_PRIVATE },
		{ "172.32.0.1", GEO_NO_DATABASE },
		{ "192.168.0.1", GEO_PRIVATE },
		{ "100.64.0.1", GEO_PRIVATE },
		{ "100.128.0.1", GEO_NO_DATABASE },
		{ "127.0.0.1", GEO_LOOPBACK },
		{ "169.254.9.9", GEO_LINK_LOCAL },
		{ "192.0.2.1", GEO_DOCUMENTATION },
		{ "198.51.100.1", GEO_DOCUMENTATION },
		{ "203.0.113.9", GEO_DOCUMENTATION },
		{ "224.0.0.251", GEO_MULTICAST },
		{ "255.255.255.255", GEO_RESERVED },
		{ "0.1.2.3", GEO_RESERVED },
		{ "::1", GEO_LOOPBACK },
		{ "::", GEO_RESERVED },
		{ "fd00::1", GEO_PRIVATE },
		{ "fc12::1", GEO_PRIVATE },
		{ "fe80::1", GEO_LINK_LOCAL },
		{ "febf::1", GEO_LINK_LOCAL },
		{ "fec0::1", GEO_NO_DATABASE },
		{ "2001:db8::1", GEO_DOCUMENTATION },
		{ "3fff:fff::1", GEO_DOCUMENTATION },
		{ "3fff:1000::1", GEO_NO_DATABASE },
		{ "ff02::1", GEO_MULTICAST },
		{ "8.8.8.8", GEO_NO_DATABASE },
	};
	struct geo_info gi;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct flow_key k = key(cases[i].addr);

		geo_lookup(NULL, &k, &gi);
		if (gi.class != cases[i].class || gi.asn || gi.cc[0])
			FAILF("%s: class %d asn %u, expected class %d", cases[i].addr, gi.class,
			      (unsigned)gi.asn, cases[i].class);
	}
	ASSERT_STREQ(geo_class_name(GEO_PRIVATE), "private");
	ASSERT_STREQ(geo_class_name(GEO_NO_DATABASE), "-");
}

static struct geo *open_packaged(void)
{
	char err[256];
	struct geo *g = geo_open(NULL, err, sizeof(err));

	if (!g)
		FAILF("%s (the deps step installs libloc-database)", err);
	return g;
}

/* What the packaged database (Debian's libloc-database) states of a few addresses. */
static void test_packaged_database(void)
{
	static const struct {
		const char *addr;
		uint32_t asn;
		const char *cc; /* NULL: not asserted (anycast moves between countries) */
		const char *name;
	} cases[] = {
		{ "8.8.8.8", 15169, "US", "GOOGLE" },
		{ "8.8.4.4", 15169, "US", "GOOGLE" },
		{ "2001:4860:4860::8888", 15169, "US", "GOOGLE" },
		{ "1.1.1.1", 13335, NULL, "CLOUDFLARENET" },
		{ "193.0.6.139", 3333, "NL", NULL },
	};
	struct geo *geo = open_packaged();
	struct geo_info gi;
	size_t i;

	if (!geo)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct flow_key k = key(cases[i].addr);
		char cc[3];

		geo_lookup(geo, &k, &gi);
		memcpy(cc, gi.cc, 2);
		cc[2] = '\0';
		ASSERT_EQ(gi.class, GEO_PUBLIC);
		ASSERT_EQ(gi.asn, cases[i].asn);
		if (cases[i].cc)
			ASSERT_STREQ(cc, cases[i].cc);
		if (cases[i].name)
			ASSERT_STREQ(geo_as_name(geo, gi.asn), cases[i].name);
	}
	ASSERT_TRUE(strstr(geo_as_name(geo, 3333), "RIPE"));
	ASSERT_TRUE(geo_as_name(geo, 4294967294u) == NULL); /* private use: none */
	{
		/* a name stays valid until geo_close(), also once other ASes are asked
		 * (3333 + 1024 * k: once the same slot); ASan sees a use after free */
		const char *ripe = geo_as_name(geo, 3333);
		uint32_t k;

		for (k = 1; k <= 4; k++)
			geo_as_name(geo, 3333 + 1024 * k);
		ASSERT_TRUE(ripe && strstr(ripe, "RIPE"));
	}
	geo_close(geo);
}

/* Two ASes that once shared a slot of the name cache (asn % 1024), asked in turn a
 * million times as every sample asks for its rows' names: each name stays right, one
 * handed out earlier stays valid, and the heap does not grow (the slot's names were
 * kept until geo_close(), 64 MB over this loop). */
static void test_as_names_bounded(void)
{
	struct geo *geo = open_packaged();
	const char *google, *regions;
	size_t before, after;
	uint32_t i;

	if (!geo)
		return;
	ASSERT_EQ(15169 % 1024, 14145 % 1024);
	google = geo_as_name(geo, 15169);
	regions = geo_as_name(geo, 14145);
	ASSERT_STREQ(google, "GOOGLE");
	ASSERT_STREQ(regions, "REGIONS-ASN-3");
	before = mallinfo2().uordblks;
	for (i = 0; i < 1000000; i++) {
		const char *name = geo_as_name(geo, i % 2 ? 14145 : 15169);

		if (!name || strcmp(name, i % 2 ? "REGIONS-ASN-3" : "GOOGLE")) {
			ASSERT_STREQ(name, i % 2 ? "REGIONS-ASN-3" : "GOOGLE");
			break;
		}
	}
	after = mallinfo2().uordblks;
	if (!ASSERT_TRUE(after < before + 4096))
		printf("  the heap grew %zu bytes\n", after - before);
	ASSERT_STREQ(google, "GOOGLE");
	ASSERT_STREQ(regions, "REGIONS-ASN-3");
	geo_close(geo);
}

static void test_groups_by_as_and_country(void)
{
	struct hosttab *t = hosttab_new(64);
	struct geo *geo = open_packaged();
	struct groups *g = groups_new(64, geo);
	struct group_opts o = { GROUP_AS, 24, 48 };
	char buf[GROUP_LABEL_LEN];
	const struct host *h;

	frame(t, "8.8.8.8", "192.168.1.10", 1000);
	frame(t, "8.8.4.4", "192.168.1.10", 100);
	frame(t, "2001:4860:4860::8888", "fd00::1", 10);
	frame(t, "193.0.6.139", "10.0.0.1", 1);
	hosttab_end(t, 1.0);
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "AS15169", 3, 0, 1110);
	expect_group(g, "AS3333", 1, 0, 1);
	expect_group(g, "private", 3, 1111, 0);
	ASSERT_EQ(hosttab_count(groups_table(g)), 3);
	h = group(g, "AS15169");
	if (h)
		ASSERT_STREQ(groups_label(g, &h->addr, true, buf), "AS15169 GOOGLE");
	o.by = GROUP_COUNTRY;
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "US", 3, 0, 1110);
	expect_group(g, "NL", 1, 0, 1);
	expect_group(g, "private", 3, 1111, 0);
	/* each host was looked up once, and keeps what it was told */
	ASSERT_EQ(host_geo(find(t, "8.8.4.4")).asn, 15169);
	groups_free(g);
	geo_close(geo);

	/* without a database: public addresses in one group "-", the ranges still said */
	hosttab_free(t);
	t = hosttab_new(64);
	frame(t, "8.8.8.8", "192.168.1.10", 1000);
	frame(t, "193.0.6.139", "127.0.0.1", 1);
	hosttab_end(t, 1.0);
	g = groups_new(64, NULL);
	o.by = GROUP_AS;
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "-", 2, 0, 1001);
	expect_group(g, "private", 1, 1000, 0);
	expect_group(g, "loopback", 1, 1, 0);
	groups_free(g);
	hosttab_free(t);
}

/* Each answer is the next address asked (8.0.0.0 + n), and a public one. */
static void check_order(void *arg, const struct flow_key *addr, const struct geo_info *gi)
{
	uint32_t *next = arg;
	struct flow_key k;

	flow_key_ipv4(&k, htonl(0x08000000u + *next));
	if (!flow_key_eq(&k, addr) || gi->class != GEO_PUBLIC)
		FAILF("answer %u: another address, or not public", (unsigned)*next);
	(*next)++;
}

/* Live, public hosts are looked up by a worker: the first build has them in one group
 * "looking up" (the special ranges placed at once), the answers come in at a later
 * build; an answer for a host that left meanwhile is dropped. */
static void test_groups_looked_up_aside(void)
{
	struct hosttab *t = hosttab_new(64);
	struct geo *geo = open_packaged();
	struct groups *g = groups_new(64, geo);
	struct group_opts o = { GROUP_AS, 24, 48 };

	if (!geo)
		goto out;
	groups_look_up_aside(g);
	frame(t, "8.8.8.8", "192.168.1.10", 1000);
	frame(t, "8.8.4.4", "192.168.1.10", 100);
	frame(t, "193.0.6.139", "10.0.0.1", 1);
	hosttab_end(t, 1.0);
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "looking up", 3, 0, 1101);
	expect_group(g, "private", 2, 1101, 0);
	ASSERT_EQ(host_geo(find(t, "8.8.8.8")).class, GEO_PENDING);
	ASSERT_TRUE(groups_settle(g, t, 10000));
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "AS15169", 2, 0, 1100);
	expect_group(g, "AS3333", 1, 0, 1);
	ASSERT_TRUE(group(g, "looking up") == NULL);
	o.by = GROUP_COUNTRY; /* the hosts keep what they were told */
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "NL", 1, 0, 1);
	/* asked, then gone before the answer: dropped; the newcomer is asked in turn */
	hosttab_clear(t);
	frame(t, "1.1.1.1", "192.168.1.10", 5);
	hosttab_end(t, 1.0);
	ASSERT_OK(groups_build(g, t, &o));
	hosttab_clear(t);
	frame(t, "8.8.8.8", "192.168.1.10", 7);
	hosttab_end(t, 1.0);
	ASSERT_TRUE(groups_settle(g, t, 10000)); /* 1.1.1.1's answer: nobody's */
	ASSERT_EQ(hosttab_count(t), 2);
	ASSERT_EQ(host_geo(find(t, "8.8.8.8")).class, GEO_NOT_LOOKED_UP);
	o.by = GROUP_AS;
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "looking up", 1, 0, 7);
	ASSERT_TRUE(groups_settle(g, t, 10000));
	ASSERT_OK(groups_build(g, t, &o));
	expect_group(g, "AS15169", 1, 0, 7);
out:
	groups_free(g);
	geo_close(geo);
	hosttab_free(t);
}

/* The queue holds GEOQ_SLOTS questions not taken back: one more is refused, and every
 * one asked is answered, in the order asked. */
static void test_geo_queue_bounded(void)
{
	struct geoq *q;
	char err[256];
	uint32_t next = 0;
	uint32_t i;

	q = geoq_new(NULL, err, sizeof(err));
	if (!q) {
		FAILF("%s", err);
		return;
	}
	for (i = 0; i < GEOQ_SLOTS; i++) {
		struct flow_key k;

		flow_key_ipv4(&k, htonl(0x08000000u + i)); /* 8.0.0.0 on: public */
		if (!geoq_ask(q, &k))
			break;
	}
	ASSERT_EQ(i, GEOQ_SLOTS);
	{
		struct flow_key k = key("9.9.9.9");

		ASSERT_TRUE(!geoq_ask(q, &k));
	}
	ASSERT_EQ(geoq_out(q), GEOQ_SLOTS);
	ASSERT_TRUE(geoq_wait(q, 30000));
	ASSERT_EQ(geoq_take(q, check_order, &next), GEOQ_SLOTS);
	ASSERT_EQ(next, GEOQ_SLOTS);
	ASSERT_EQ(geoq_out(q), 0);
	geoq_free(q);
}

static void test_missing_database_said(void)
{
	char err[256];

	ASSERT_TRUE(geo_open("/nonexistent/location.db", err, sizeof(err)) == NULL);
	ASSERT_TRUE(strstr(err, "/nonexistent/location.db") && strstr(err, "No such file"));
	ASSERT_TRUE(geo_open("/etc/hostname", err, sizeof(err)) == NULL);
	ASSERT_TRUE(strstr(err, "not a location database"));
}

int main(void)
{
	RUN_TEST(test_prefixes_ipv4_and_ipv6);
	RUN_TEST(test_rates_history_and_peak_are_sums);
	RUN_TEST(test_other_stays_other);
	RUN_TEST(test_special_ranges_need_no_database);
	RUN_TEST(test_packaged_database);
	RUN_TEST(test_as_names_bounded);
	RUN_TEST(test_groups_by_as_and_country);
	RUN_TEST(test_groups_looked_up_aside);
	RUN_TEST(test_geo_queue_bounded);
	RUN_TEST(test_missing_database_said);
	return test_summary("test_groups");
}
