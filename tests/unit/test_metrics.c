// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_metrics.c: the Prometheus rendering: families and labels, the top hosts and
 * "other" summing to every host's count, counters that never go back while hosts move
 * in and out of the top, OpenMetrics' names and # EOF, escaping, a restart on another
 * interface, and none while the interfaces stay, however long their list; the watched
 * interfaces' own addresses, read from an rtnetlink dump, as info series. */
#include "hosts.h"

#include <errno.h>
#include <arpa/inet.h>
#include <libloc/as.h>
#include <libloc/libloc.h>
#include <libloc/writer.h>
#include <inttypes.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>

#include "fmt.h"
#include "metrics.h"

/* The value of one sample line "name{...ip="ip"} v" in text, or -1. */
static int64_t value(const char *text, const char *name, const char *ip)
{
	char pat[256];
	const char *p = text;

	snprintf(pat, sizeof(pat), "%s{interface=\"eth0\"%s%s%s} ", name, ip ? ",ip=\"" : "",
		 ip ? ip : "", ip ? "\"" : "");
	while ((p = strstr(p, pat))) {
		if (p == text || p[-1] == '\n')
			return strtoll(p + strlen(pat), NULL, 10);
		p++;
	}
	return -1;
}

/* The value of a host's transmit series, whatever its interface label, or -1. */
static int64_t sent_by(const char *text, const char *ip)
{
	char pat[128];
	const char *p = text;

	snprintf(pat, sizeof(pat), ",ip=\"%s\"} ", ip);
	while ((p = strstr(p, "\nflowtop_host_transmit_bytes_total{"))) {
		const char *end = strchr(p + 1, '\n'), *at = strstr(p, pat);

		if (at && (!end || at < end))
			return strtoll(at + strlen(pat), NULL, 10);
		p++;
	}
	return -1;
}

static struct flow_totals totals_of(uint64_t frames)
{
	struct flow_totals t = { .total = { .frames = frames, .bytes = frames * 100 } };

	t.live_hosts = 3;
	t.capacity = 8;
	t.evicted = 4;
	t.waiting = 2;
	return t;
}

static void test_families_and_top(void)
{
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(1);
	struct flow_totals tot = totals_of(3);
	struct metrics_filter f = { true, 3, 1500 };
	const char *txt;
	size_t len;

	frame(t, "10.0.0.1", "10.0.0.2", 1000);
	frame(t, "10.0.0.1", "10.0.0.3", 100);
	frame(t, "10.0.0.3", "10.0.0.1", 10);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(m, t, &tot,
				 &(struct metrics_where){ .iface = "eth0", .netns = NULL }, &f));
	txt = metrics_text(m, false, &len);
	ASSERT_EQ(len, strlen(txt));
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_frames_total counter\n") != NULL);
	ASSERT_EQ(value(txt, "flowtop_frames_total", NULL), 3);
	ASSERT_EQ(value(txt, "flowtop_bytes_total", NULL), 300);
	ASSERT_EQ(value(txt, "flowtop_hosts", NULL), 3);
	ASSERT_EQ(value(txt, "flowtop_evicted_hosts_total", NULL), 4);
	ASSERT_EQ(value(txt, "flowtop_waiting_hosts", NULL), 2);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_waiting_hosts gauge\n") != NULL);
	ASSERT_TRUE(
	    strstr(txt, "flowtop_filter_run_seconds_total{interface=\"eth0\"} 0.000001500\n"));
	/* the busiest is 10.0.0.1: new in the top, its series starts at 0 */
	ASSERT_EQ(value(txt, "flowtop_host_transmit_bytes_total", "10.0.0.1"), 0);
	ASSERT_EQ(value(txt, "flowtop_host_transmit_bytes_total", "10.0.0.2"), -1);
	ASSERT_EQ(value(txt, "flowtop_host_transmit_bytes_total", "other"), 1110);
	frame(t, "10.0.0.1", "10.0.0.2", 500);
	hosttab_end(t, 1.0);
	tot = totals_of(4);
	ASSERT_OK(metrics_update(m, t, &tot,
				 &(struct metrics_where){ .iface = "eth0", .netns = NULL }, &f));
	txt = metrics_text(m, false, &len);
	ASSERT_EQ(value(txt, "flowtop_host_transmit_bytes_total", "10.0.0.1"), 500);
	ASSERT_EQ(value(txt, "flowtop_host_transmit_bytes_total", "other"), 1110);
	ASSERT_EQ(value(txt, "flowtop_host_receive_bytes_total", "10.0.0.1"), 0);
	ASSERT_EQ(value(txt, "flowtop_host_receive_bytes_total", "other"), 1610);
	metrics_free(m);
	hosttab_free(t);
}

/* Random traffic among 50 hosts, top 5: every series and other only grow while they
 * last, and the sum over ip is every host's count, sample after sample. */
static void test_monotonic_and_exact(void)
{
	struct hosttab *t = hosttab_new(64);
	struct metrics *m = metrics_new(5);
	int64_t last[64], last_other = 0, sum, v;
	uint64_t sent = 0, frames = 0;
	unsigned seed = 7, round, i;
	char a[32], b[32];
	size_t len;

	for (i = 0; i < 64; i++)
		last[i] = -1;
	for (round = 0; round < 200; round++) {
		struct flow_totals tot;
		const char *txt;

		for (i = 0; i < 20; i++) {
			uint64_t bytes = 60 + rand_r(&seed) % 1400;

			snprintf(a, sizeof(a), "10.0.0.%u", rand_r(&seed) % 50);
			snprintf(b, sizeof(b), "10.0.1.%u", rand_r(&seed) % 3);
			frame(t, a, b, bytes);
			sent += bytes;
			frames++;
		}
		hosttab_end(t, 1.0);
		tot = totals_of(frames);
		ASSERT_OK(metrics_update(
		    m, t, &tot, &(struct metrics_where){ .iface = "eth0", .netns = NULL }, NULL));
		txt = metrics_text(m, false, &len);
		v = value(txt, "flowtop_host_transmit_bytes_total", "other");
		if (v < last_other)
			FAILF("round %u: other went back from %" PRId64 " to %" PRId64, round,
			      last_other, v);
		last_other = v;
		sum = v;
		for (i = 0; i < 50; i++) {
			snprintf(a, sizeof(a), "10.0.0.%u", i);
			v = value(txt, "flowtop_host_transmit_bytes_total", a);
			if (v >= 0 && last[i] >= 0 && v < last[i])
				FAILF("round %u: %s went back", round, a);
			last[i] = v; /* -1 when not listed: a series that comes back may restart */
			if (v > 0)
				sum += v;
		}
		ASSERT_EQ((uint64_t)sum, sent);
		ASSERT_TRUE(strstr(txt, "\n# EOF") == NULL);
	}
	metrics_free(m);
	hosttab_free(t);
}

static void test_openmetrics_escaping_and_restart(void)
{
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(2);
	struct flow_totals tot = totals_of(1);
	const char *txt;
	size_t len;

	frame(t, "2001:db8::1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(
	    m, t, &tot, &(struct metrics_where){ .iface = "we\"ird\\if", .netns = "blue" }, NULL));
	txt = metrics_text(m, true, &len);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_frames counter\n") != NULL);
	ASSERT_TRUE(
	    strstr(txt, "flowtop_frames_total{interface=\"we\\\"ird\\\\if\",netns=\"blue\"} 1\n"));
	ASSERT_TRUE(strstr(txt, "ip=\"2001:db8::1\"") != NULL);
	ASSERT_TRUE(strstr(txt, "flowtop_filter_run") == NULL); /* statistics unknown: left out */
	ASSERT_EQ(strcmp(txt + len - 6, "# EOF\n"), 0);
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_frames_total counter\n") != NULL);
	/* another interface: the series start over */
	frame(t, "2001:db8::1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(
	    m, t, &tot, &(struct metrics_where){ .iface = "eth1", .netns = NULL, .generation = 1 },
	    NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(
	    txt, "flowtop_host_transmit_bytes_total{interface=\"eth1\",ip=\"2001:db8::1\"} 0\n"));
	metrics_free(m);
	hosttab_free(t);
}

/* The filter expression as an info series: OpenMetrics' info type, a gauge of 1 in the
 * text format, its quotes escaped; none without one. */
static void test_expression_info(void)
{
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(2);
	struct flow_totals tot = totals_of(1);
	const char *txt;
	size_t len;

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(
	    m, t, &tot, &(struct metrics_where){ .iface = "eth0", .expr = "tcp[13] = 0x\"2\"" },
	    NULL));
	txt = metrics_text(m, true, &len);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_filter_expression info\n") != NULL);
	ASSERT_TRUE(strstr(txt, "flowtop_filter_expression_info{interface=\"eth0\",expression="
				"\"tcp[13] = 0x\\\"2\\\"\"} 1\n") != NULL);
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_filter_expression_info gauge\n") != NULL);
	ASSERT_TRUE(strstr(txt, "flowtop_filtered_frames_total{interface=\"eth0\"} 0\n") != NULL);
	ASSERT_OK(metrics_update(m, t, &tot, &(struct metrics_where){ .iface = "eth0" }, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(txt, "flowtop_filter_expression") == NULL);
	metrics_free(m);
	hosttab_free(t);
}

/* A buffer of rtnetlink messages, as a dump of the addresses answers. */
struct nl_buf {
	union {
		struct nlmsghdr h;
		char bytes[4096];
	} u;
	size_t len;
};

/* Appends an RTM_NEWADDR of family on ifindex with IFA_LOCAL local (NULL: none) and
 * IFA_ADDRESS address (NULL: none), as text. */
static void nl_addr(struct nl_buf *b, int ifindex, int family, const char *local,
		    const char *address)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(b->u.bytes + b->len);
	struct ifaddrmsg *ifa = NLMSG_DATA(h);
	size_t alen = family == AF_INET ? 4 : 16;
	const char *text[2] = { local, address };
	unsigned short type[2] = { IFA_LOCAL, IFA_ADDRESS };
	int i;

	memset(h, 0, NLMSG_SPACE(sizeof(*ifa)));
	h->nlmsg_type = RTM_NEWADDR;
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*ifa));
	ifa->ifa_family = (unsigned char)family;
	ifa->ifa_index = (unsigned)ifindex;
	for (i = 0; i < 2; i++) {
		struct rtattr *rta = (struct rtattr *)((char *)h + NLMSG_ALIGN(h->nlmsg_len));

		if (!text[i])
			continue;
		rta->rta_type = type[i];
		rta->rta_len = (unsigned short)RTA_LENGTH(alen);
		ASSERT_EQ(inet_pton(family, text[i], RTA_DATA(rta)), 1);
		h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	}
	b->len += NLMSG_ALIGN(h->nlmsg_len);
}

/* Appends a message of type (NLMSG_DONE, NLMSG_ERROR with error) with no more. */
static void nl_end(struct nl_buf *b, unsigned short type, int error)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(b->u.bytes + b->len);
	struct nlmsgerr *e = NLMSG_DATA(h);

	memset(h, 0, NLMSG_SPACE(sizeof(*e)));
	h->nlmsg_type = type;
	h->nlmsg_len = NLMSG_LENGTH(type == NLMSG_ERROR ? sizeof(*e) : sizeof(int));
	e->error = error;
	b->len += NLMSG_ALIGN(h->nlmsg_len);
}

/* The watched interfaces' addresses from a dump: theirs alone (by index, gone ones
 * aside), a point-to-point link's own and not its peer's, IPv4 as the filter keys it,
 * each once, sorted, no more than asked; every interface's for any; a dump in two
 * reads; the kernel's error; a message cut short; and loopback's 127.0.0.1 from the
 * kernel itself. */
static void test_interface_addresses(void)
{
	struct iface_watch links[2] = { { .info.ifindex = 2 },
					{ .info.ifindex = 3, .gone = true } };
	struct nl_buf b = { .len = 0 }, more = { .len = 0 }, err = { .len = 0 };
	struct flow_key out[8];
	struct iface_info lo;
	char a[FMT_ADDR_LEN];
	size_t n = 0, i;
	int got;

	nl_addr(&b, 2, AF_INET6, NULL, "2001:db8::1");
	nl_addr(&b, 2, AF_INET, "10.0.0.1", "10.0.0.1");
	nl_addr(&b, 2, AF_INET, "10.0.0.5", "10.0.0.6"); /* point-to-point: .6 is the peer */
	nl_addr(&b, 3, AF_INET, "10.9.0.1", "10.9.0.1");
	nl_addr(&b, 2, AF_INET, "10.0.0.1", "10.0.0.1"); /* the same address twice */
	nl_addr(&b, 1, AF_INET, "127.0.0.1", "127.0.0.1");
	nl_addr(&b, 4, AF_INET6, NULL, "fe80::1");
	nl_end(&b, NLMSG_DONE, 0);
	ASSERT_EQ(iface_addresses_parse(b.u.bytes, b.len, links, 2, out, &n, 8), 1);
	ASSERT_EQ(n, 3);
	ASSERT_STREQ(fmt_addr(&out[0], a), "10.0.0.1");
	ASSERT_TRUE(fmt_is_ipv4(&out[0]));
	ASSERT_STREQ(fmt_addr(&out[1], a), "10.0.0.5");
	ASSERT_STREQ(fmt_addr(&out[2], a), "2001:db8::1");
	links[1].gone = false;
	n = 0;
	ASSERT_EQ(iface_addresses_parse(b.u.bytes, b.len, links, 2, out, &n, 8), 1);
	ASSERT_EQ(n, 4);
	ASSERT_STREQ(fmt_addr(&out[2], a), "10.9.0.1");
	n = 0;
	ASSERT_EQ(iface_addresses_parse(b.u.bytes, b.len, NULL, 0, out, &n, 8), 1);
	ASSERT_EQ(n, 6);
	for (i = 1; i < n; i++)
		ASSERT_TRUE(memcmp(&out[i - 1], &out[i], sizeof(out[i])) < 0);
	n = 0;
	ASSERT_EQ(iface_addresses_parse(b.u.bytes, b.len, NULL, 0, out, &n, 1), 1);
	ASSERT_EQ(n, 1);
	ASSERT_STREQ(fmt_addr(&out[0], a), "2001:db8::1"); /* the first met */
	/* a dump in two reads: the first part says more is to come */
	nl_addr(&more, 2, AF_INET, "10.0.0.7", "10.0.0.7");
	n = 0;
	ASSERT_EQ(iface_addresses_parse(more.u.bytes, more.len, links, 2, out, &n, 8), 0);
	ASSERT_EQ(iface_addresses_parse(b.u.bytes, b.len, links, 2, out, &n, 8), 1);
	ASSERT_EQ(n, 5);
	nl_end(&err, NLMSG_ERROR, -EPERM);
	ASSERT_EQ(iface_addresses_parse(err.u.bytes, err.len, NULL, 0, out, &n, 8), -EPERM);
	ASSERT_EQ(iface_addresses_parse(b.u.bytes, 20, NULL, 0, out, &n, 8), -EBADMSG);

	ASSERT_OK(iface_get("lo", &lo));
	links[0].info = lo;
	got = iface_addresses(links, 1, out, 8);
	ASSERT_TRUE(got >= 1);
	for (i = 0; got > 0 && i < (size_t)got; i++)
		if (!strcmp(fmt_addr(&out[i], a), "127.0.0.1"))
			break;
	ASSERT_TRUE(got > 0 && i < (size_t)got);
}

/* The own addresses as info series labelled like the hosts' (interface, ip): a gauge of
 * 1 in the text format, OpenMetrics' info type; none when there are none. */
static void test_own_address_info(void)
{
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(2);
	struct flow_totals tot = totals_of(1);
	struct flow_key own[2] = { key("10.0.0.1"), key("2001:db8::1") };
	struct metrics_where w = { .iface = "eth0", .netns = "blue", .own = own, .nown = 2 };
	const char *txt;
	size_t len;

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_interface_address_info gauge\n") != NULL);
	ASSERT_TRUE(strstr(txt, "\nflowtop_interface_address_info{interface=\"eth0\",netns="
				"\"blue\",ip=\"10.0.0.1\"} 1\n") != NULL);
	ASSERT_TRUE(strstr(txt, "\nflowtop_interface_address_info{interface=\"eth0\",netns="
				"\"blue\",ip=\"2001:db8::1\"} 1\n") != NULL);
	txt = metrics_text(m, true, &len);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_interface_address info\n") != NULL);
	ASSERT_TRUE(strstr(txt, "\nflowtop_interface_address_info{interface=\"eth0\",netns="
				"\"blue\",ip=\"10.0.0.1\"} 1\n") != NULL);
	w.nown = 0;
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(txt, "flowtop_interface_address") == NULL);
	metrics_free(m);
	hosttab_free(t);
}

/* A list of interfaces as long as a server's (over 64 bytes) is one count like any
 * other: a host's series go on from sample to sample, and start over only with a new
 * generation. (They read 0 for good when the list, cut to 63 bytes, was compared with
 * itself each sample.) */
static void test_long_interface_list_keeps_series(void)
{
	const char *list = "enp129s0f0np0x,enp129s0f1np1x,enp130s0f0np0x,enp130s0f1np1x,wg0,wg1";
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(4);
	struct metrics_where w = { .iface = list, .generation = 1 };
	struct flow_totals tot;
	const char *txt;
	size_t len;
	int round;

	ASSERT_TRUE(strlen(list) >= 64);
	for (round = 1; round <= 3; round++) {
		frame(t, "10.0.0.1", "10.0.0.2", 100);
		hosttab_end(t, 1.0);
		tot = totals_of((uint64_t)round);
		ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
		txt = metrics_text(m, false, &len);
		/* a series starts at 0 when listed, then adds each sample's bytes */
		ASSERT_EQ(sent_by(txt, "10.0.0.1"), 100 * (round - 1));
	}
	w.generation = 2; /* counting started over: so do the series */
	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	ASSERT_EQ(sent_by(metrics_text(m, false, &len), "10.0.0.1"), 0);
	metrics_free(m);
	hosttab_free(t);
}

/* Several interfaces: the filter's counters get a series each, labelled with the
 * interface's own name (a gone one's stay); the hosts' and the table's carry the list
 * as asked. */
static void test_a_series_per_interface(void)
{
	struct iface_watch links[2] = {
		{ .info = { .name = "eth0", .ifindex = 2 }, .slot = 1 },
		{ .info = { .name = "wg0", .ifindex = 7 }, .slot = 2, .gone = true },
	};
	struct metrics_where w = { .iface = "eth0,wg0", .links = links, .nlinks = 2 };
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(2);
	struct flow_totals tot = totals_of(15);
	const char *txt;
	size_t len;

	tot.nslots = 3;
	tot.slot_total[1] = (struct flow_stats){ .frames = 10, .bytes = 1000, .lost = 2 };
	tot.slot_total[2] = (struct flow_stats){ .frames = 5, .bytes = 500 };
	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(txt, "flowtop_frames_total{interface=\"eth0\"} 10\n") != NULL);
	ASSERT_TRUE(strstr(txt, "flowtop_frames_total{interface=\"wg0\"} 5\n") != NULL);
	ASSERT_TRUE(strstr(txt, "flowtop_lost_updates_total{interface=\"eth0\"} 2\n") != NULL);
	ASSERT_TRUE(strstr(txt, "interface=\"other\"") == NULL); /* no frame without a slot */
	ASSERT_TRUE(strstr(txt, "flowtop_hosts{interface=\"eth0,wg0\"} ") != NULL);
	ASSERT_TRUE(strstr(txt, "flowtop_host_receive_packets_total{interface=\"eth0,wg0\","
				"ip=\"10.0.0.2\"} 0\n") != NULL);
	/* one # TYPE per family, however many series */
	ASSERT_TRUE(strstr(strstr(txt, "# TYPE flowtop_frames_total") + 1,
			   "# TYPE flowtop_frames_total") == NULL);
	tot.slot_total[0] = (struct flow_stats){ .frames = 3 };
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, true, &len);
	ASSERT_TRUE(strstr(txt, "flowtop_frames_total{interface=\"other\"} 3\n") != NULL);
	/* wg0 gone, another wg0 made (under any): one series, their sum */
	{
		struct iface_watch again[3] = {
			links[0], links[1], { .info = { .name = "wg0", .ifindex = 9 }, .slot = 3 }
		};

		tot.nslots = 4;
		tot.slot_total[3] = (struct flow_stats){ .frames = 7 };
		w.links = again;
		w.nlinks = 3;
		ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
		txt = metrics_text(m, false, &len);
		ASSERT_TRUE(strstr(txt, "flowtop_frames_total{interface=\"wg0\"} 12\n") != NULL);
		ASSERT_TRUE(strstr(strstr(txt, "flowtop_frames_total{interface=\"wg0\"}") + 1,
				   "flowtop_frames_total{interface=\"wg0\"}") == NULL);
	}
	metrics_free(m);
	hosttab_free(t);
}

/* The value of "name{interface="eth0",LABELS} v", or -1. */
static int64_t value_of(const char *text, const char *name, const char *labels)
{
	char pat[256];
	const char *p = text;

	snprintf(pat, sizeof(pat), "%s{interface=\"eth0\",%s} ", name, labels);
	while ((p = strstr(p, pat))) {
		if (p == text || p[-1] == '\n')
			return strtoll(p + strlen(pat), NULL, 10);
		p++;
	}
	return -1;
}

static void located(struct hosttab *t, const char *addr, uint32_t asn, const char *cc)
{
	struct flow_key k = key(addr);
	const struct host *h = hosttab_find(t, &k);
	struct geo_info gi;

	if (!ASSERT_TRUE(h))
		return;
	geo_lookup(NULL, &k, &gi); /* its class */
	if (asn) {
		gi.class = GEO_PUBLIC;
		gi.asn = asn;
		memcpy(gi.cc, cc, 2);
	}
	host_set_geo(hosttab_own(t, h), &gi);
}

/* --metrics-group as: series per AS for the top busiest, the rest in as="other", summing
 * to every host's count; a group's series does not go back when its host leaves the
 * host table. */
static void test_series_per_as(void)
{
	struct hosttab *t = hosttab_new(4);
	struct metrics *m = metrics_new(2);
	struct metrics_where w = { .iface = "eth0" };
	struct flow_totals tot = totals_of(3);
	const char *txt, *tx = "flowtop_as_transmit_bytes_total";
	size_t len;

	ASSERT_OK(metrics_group(m, GROUP_AS, NULL));
	ASSERT_TRUE(metrics_group(m, GROUP_PREFIX, NULL) == -EINVAL);
	frame(t, "8.8.8.8", "10.0.0.1", 1000);
	frame(t, "8.8.4.4", "10.0.0.1", 500);
	frame(t, "10.0.0.1", "9.9.9.9", 7);
	hosttab_end(t, 1.0);
	located(t, "8.8.8.8", 15169, "US");
	located(t, "8.8.4.4", 15169, "US");
	located(t, "9.9.9.9", 19281, "CH");
	located(t, "10.0.0.1", 0, NULL);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(strstr(txt, "# TYPE flowtop_as_transmit_bytes_total counter\n") != NULL);
	/* the two busiest, private and AS15169, new in the top: 0; everything in other */
	ASSERT_EQ(value_of(txt, tx, "as=\"15169\""), 0);
	ASSERT_EQ(value_of(txt, tx, "as=\"private\""), 0);
	ASSERT_EQ(value_of(txt, tx, "as=\"19281\""), -1);
	ASSERT_EQ(value_of(txt, tx, "as=\"other\""), 1507);
	frame(t, "8.8.8.8", "10.0.0.1", 100);
	hosttab_end(t, 1.0);
	tot = totals_of(4);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_EQ(value_of(txt, tx, "as=\"15169\""), 100);
	ASSERT_EQ(value_of(txt, tx, "as=\"other\""), 1507);
	ASSERT_EQ(value_of(txt, "flowtop_as_receive_bytes_total", "as=\"private\""), 100);
	ASSERT_EQ(value_of(txt, "flowtop_as_receive_bytes_total", "as=\"other\""), 1507);
	/* a new host in the full table of 4 (its second frame lets it in): 8.8.4.4 (idle the
	 * longest) leaves it; its AS's series keeps what it had, and grows with 8.8.8.8 */
	frame(t, "8.8.8.8", "192.0.2.1", 5);
	frame(t, "8.8.8.8", "192.0.2.1", 5);
	hosttab_end(t, 1.0);
	located(t, "192.0.2.1", 0, NULL);
	tot = totals_of(5);
	ASSERT_TRUE(hosttab_departed(t) >= 1);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_EQ(value_of(txt, tx, "as=\"15169\""), 110);
	ASSERT_EQ(value_of(txt, tx, "as=\"other\""), 1507);
	/* 192.0.2.1 is new, and busier than private this sample: it takes private's place,
	 * from 0; private's series leaves into other, which keeps growing */
	ASSERT_EQ(value_of(txt, "flowtop_as_receive_bytes_total", "as=\"documentation\""), 0);
	ASSERT_EQ(value_of(txt, "flowtop_as_receive_bytes_total", "as=\"private\""), -1);
	ASSERT_EQ(value_of(txt, "flowtop_as_receive_bytes_total", "as=\"other\""), 1617);
	metrics_free(m);

	/* by country, top 2: the country and the kind of range named */
	m = metrics_new(2);
	ASSERT_OK(metrics_group(m, GROUP_COUNTRY, NULL));
	frame(t, "8.8.8.8", "10.0.0.1", 50);
	hosttab_end(t, 1.0);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	txt = metrics_text(m, false, &len);
	ASSERT_TRUE(value_of(txt, "flowtop_country_transmit_bytes_total", "country=\"US\"") == 0);
	ASSERT_TRUE(value_of(txt, "flowtop_country_receive_bytes_total", "country=\"private\"") ==
		    0);
	metrics_free(m);
	hosttab_free(t);
}

/* The sum of every series of family name (the listed ones and "other"). */
static int64_t family_sum(const char *text, const char *name)
{
	char pat[128];
	const char *p = text;
	int64_t sum = 0;

	snprintf(pat, sizeof(pat), "\n%s{", name);
	while ((p = strstr(p, pat))) {
		p = strstr(p, "} ");
		if (!p)
			break;
		sum += strtoll(p + 2, NULL, 10);
	}
	return sum;
}

static const struct host *find_host(const struct hosttab *t, const char *addr)
{
	struct flow_key k = key(addr);
	const struct host *h = hosttab_find(t, &k);

	if (!h)
		abort(); /* the test's own mistake */
	return h;
}

struct aside {
	struct metrics *m;
	struct hosttab *t;
	struct metrics_where w;
	uint64_t frames; /* the totals' frames, never going back */
	const char *txt;
};

/* Closes the sample (its frames added by the caller) and renders it. */
static void update(struct aside *a)
{
	struct flow_totals tot = totals_of(++a->frames);
	size_t len;

	hosttab_end(a->t, 1.0);
	ASSERT_OK(metrics_update(a->m, a->t, &tot, &a->w, NULL));
	a->txt = metrics_text(a->m, false, &len);
}

/* Samples without traffic until the AS series' bytes sent add up to want (the worker's
 * answers come in at a sample), for 10 s at most. */
static bool sent_adds_up(struct aside *a, int64_t want)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (family_sum(a->txt, "flowtop_as_transmit_bytes_total") == want)
			return true;
		usleep(10000);
		update(a);
	}
	FAILF("the AS series sent %" PRId64 " bytes, expected %" PRId64,
	      family_sum(a->txt, "flowtop_as_transmit_bytes_total"), want);
	return false;
}

/* --metrics-group as with the database: a new public host is placed by the worker, off
 * the sample's path; its deltas are held until it is (in no AS series, not in "other"),
 * then added to its AS, so the series add up to every byte sent, once, and never go
 * back; a host that leaves the host table while it waits keeps its counts too. */
static void test_series_per_as_wait_for_the_worker(void)
{
	char err[256];
	struct geo *geo = geo_open(NULL, err, sizeof(err));
	struct aside a = { .w = { .iface = "eth0" } };
	const char *tx = "flowtop_as_transmit_bytes_total";
	struct flow_key k;

	if (!geo) {
		FAILF("%s (the deps step installs libloc-database)", err);
		return;
	}
	a.t = hosttab_new(4);
	a.m = metrics_new(2);
	ASSERT_OK(metrics_group(a.m, GROUP_AS, geo));
	frame(a.t, "8.8.8.8", "10.0.0.1", 1000);
	update(&a);
	ASSERT_EQ(family_sum(a.txt, tx), 0); /* held */
	ASSERT_EQ(value_of(a.txt, tx, "as=\"15169\",as_name=\"GOOGLE\""), -1);
	if (!sent_adds_up(&a, 1000))
		goto out;
	/* placed, new in the top: its series from 0, what it had in other */
	ASSERT_EQ(value_of(a.txt, tx, "as=\"15169\",as_name=\"GOOGLE\""), 0);
	ASSERT_EQ(value_of(a.txt, tx, "as=\"other\""), 1000);
	ASSERT_EQ(host_geo(find_host(a.t, "8.8.8.8")).asn, 15169);
	/* a placed host counts at once; a new one of the same AS waits, then joins it */
	frame(a.t, "8.8.8.8", "10.0.0.1", 100);
	frame(a.t, "8.8.4.4", "10.0.0.1", 50);
	update(&a);
	ASSERT_EQ(value_of(a.txt, tx, "as=\"15169\",as_name=\"GOOGLE\""), 100);
	ASSERT_EQ(family_sum(a.txt, tx), 1100);
	if (!sent_adds_up(&a, 1150))
		goto out;
	ASSERT_EQ(value_of(a.txt, tx, "as=\"15169\",as_name=\"GOOGLE\""), 150);
	ASSERT_EQ(value_of(a.txt, tx, "as=\"other\""), 1000);
	/* 1.1.1.1 asked, then out of the full table of 4 before its answer is in: its 7
	 * bytes still reach the series */
	frame(a.t, "1.1.1.1", "10.0.0.1", 7);
	update(&a);
	ASSERT_EQ(family_sum(a.txt, tx), 1150);
	frame(a.t, "8.8.8.8", "10.0.0.1", 1);
	frame(a.t, "8.8.4.4", "10.0.0.1", 1);
	frame(a.t, "192.0.2.1", "10.0.0.1", 1); /* its second frame lets it in */
	frame(a.t, "192.0.2.1", "10.0.0.1", 1);
	k = key("1.1.1.1");
	ASSERT_TRUE(hosttab_find(a.t, &k) == NULL);
	update(&a);
	sent_adds_up(&a, 1161);
out:
	metrics_free(a.m);
	hosttab_free(a.t);
	geo_close(geo);
}

/* Whether text is a scrape Prometheus takes: every byte in a whole UTF-8 character, and
 * each sample's labels name="value" pairs whose values use only \\ \" \n escapes and
 * end with their quote; promtool check metrics accepts it too. */
static bool scrape_ok(const char *text, bool om)
{
	const unsigned char *u = (const unsigned char *)text;
	const char *line, *p;
	char path[] = "/tmp/test_metrics.XXXXXX", cmd[128];
	FILE *f;
	int fd;

	for (; *u; u += fmt_utf8_len(u))
		if (!ASSERT_TRUE(fmt_utf8_len(u)))
			return false;
	for (line = text; *line; line = strchr(line, '\n') + 1) {
		if (*line == '#')
			continue;
		p = strchr(line, '{');
		if (!ASSERT_TRUE(p && p < strchr(line, '\n')))
			return false;
		for (p++; *p != '}'; p++) {
			while ((*p >= 'a' && *p <= 'z') || *p == '_')
				p++;
			if (!ASSERT_TRUE(p[0] == '=' && p[1] == '"'))
				return false;
			for (p += 2; *p != '"'; p++) {
				if (*p == '\\' && !ASSERT_TRUE(strchr("\\\"n", *++p) && *p))
					return false;
				if (!ASSERT_TRUE(*p && *p != '\n'))
					return false;
			}
			if (p[1] == ',')
				p++;
			else if (!ASSERT_TRUE(p[1] == '}'))
				return false;
		}
	}
	if (om) /* promtool checks the text format */
		return true;
	if (system("command -v promtool >/dev/null")) {
		if (getenv("CI"))
			FAILF("promtool is not installed");
		else
			fprintf(stderr, "promtool is not installed: its check left out\n");
		return !getenv("CI");
	}
	fd = mkstemp(path);
	if (!ASSERT_TRUE(fd >= 0))
		return false;
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s", path);
	fd = system(cmd);
	unlink(path);
	return ASSERT_EQ(fd, 0);
}

/* Names anyone may give, in labels: an interface named u 0xff 0xfe (and ones with a
 * control character, a C1 control, a quote, a backslash), a namespace and an expression
 * with control characters: each byte that is not UTF-8 shown as the text \xNN, a control
 * as ^X, and the scrape whole UTF-8 with every string closed, as promtool takes it. */
static void test_hostile_names(void)
{
	static const struct {
		const char *iface, *want;
	} cases[] = {
		{ "u\xff\xfe", "interface=\"u\\\\xff\\\\xfe\"" },
		{ "e\x1b]0;X\x07", "interface=\"e^[]0;X^G\"" },
		{ "c\xc2\x85q\"\\", "interface=\"c\\\\u0085q\\\"\\\\\"" },
		{ "\xe2\x82", "interface=\"\\\\xe2\\\\x82\"" }, /* a character cut short */
	};
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(2);
	struct flow_totals tot = totals_of(1);
	const char *txt;
	size_t len, i;
	int om;

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct metrics_where w = { .iface = cases[i].iface,
					   .netns = "n\n\xff",
					   .expr = "host \x7f\xc0\xaf" };

		ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
		for (om = 0; om < 2; om++) {
			txt = metrics_text(m, om, &len);
			if (!ASSERT_TRUE(strstr(txt, cases[i].want)))
				fprintf(stderr, "  wanted %s in:\n%.300s\n", cases[i].want, txt);
			ASSERT_TRUE(strstr(txt, "netns=\"n^J\\\\xff\""));
			ASSERT_TRUE(strstr(txt, "expression=\"host ^?\\\\xc0\\\\xaf\""));
			ASSERT_TRUE(scrape_ok(txt, om));
		}
	}
	metrics_free(m);
	hosttab_free(t);
}

/* A location database of its own at path: AS 64496 named 299 quotes, AS 64497 named
 * with bytes that are not UTF-8 and 3-byte characters past the label's room. */
static bool write_as_names(const char *path)
{
	struct loc_ctx *ctx = NULL;
	struct loc_writer *w = NULL;
	struct loc_as *as = NULL;
	char quotes[300], euros[1024];
	bool ok = false;
	FILE *f;
	int i;

	memset(quotes, '"', 299);
	quotes[299] = '\0';
	strcpy(euros, "x\xff\xfe");
	for (i = 0; i < 300; i++)
		strcat(euros, "\xe2\x82\xac");
	if (loc_new(&ctx) || loc_writer_new(ctx, &w, NULL, NULL))
		goto out;
	if (loc_writer_add_as(w, &as, 64496) || loc_as_set_name(as, quotes))
		goto out;
	loc_as_unref(as);
	if (loc_writer_add_as(w, &as, 64497) || loc_as_set_name(as, euros))
		goto out;
	loc_as_unref(as);
	f = fopen(path, "w");
	if (!f)
		goto out;
	ok = !loc_writer_write(w, f, LOC_DATABASE_VERSION_LATEST);
	ok = !fclose(f) && ok;
out:
	if (w)
		loc_writer_unref(w);
	if (ctx)
		loc_unref(ctx);
	return ok;
}

/* AS names past the labels' room (METRICS_LABELS_MAX): 299 quotes are cut after a whole
 * \" and the string closed; a name of 3-byte characters is cut between them, its bytes
 * that are not UTF-8 shown as \xNN; the scrape is one promtool takes. */
static void test_as_names_cut_whole(void)
{
	char path[] = "/tmp/test_metrics_db.XXXXXX", err[256];
	struct hosttab *t = hosttab_new(8);
	struct metrics *m = metrics_new(3);
	struct metrics_where w = { .iface = "eth0" };
	struct flow_totals tot = totals_of(3);
	struct geo *geo = NULL;
	const char *txt, *p, *end;
	size_t len;
	int fd = mkstemp(path), om;

	if (!ASSERT_TRUE(fd >= 0))
		goto out;
	close(fd);
	if (!ASSERT_TRUE(write_as_names(path)))
		goto out;
	geo = geo_open(path, err, sizeof(err));
	if (!geo) {
		FAILF("%s", err);
		goto out;
	}
	ASSERT_OK(metrics_group(m, GROUP_AS, geo));
	frame(t, "8.8.8.8", "10.0.0.1", 1000);
	frame(t, "9.9.9.9", "10.0.0.1", 500);
	hosttab_end(t, 1.0);
	located(t, "8.8.8.8", 64496, "US");
	located(t, "9.9.9.9", 64497, "CH");
	located(t, "10.0.0.1", 0, NULL);
	ASSERT_OK(metrics_update(m, t, &tot, &w, NULL));
	for (om = 0; om < 2; om++) {
		txt = metrics_text(m, om, &len);
		ASSERT_TRUE(scrape_ok(txt, om));
		p = strstr(txt, "as=\"64496\",as_name=\"\\\"\\\"");
		if (!ASSERT_TRUE(p))
			continue;
		end = strchr(p, '}');
		ASSERT_TRUE(end && end - p < METRICS_LABELS_MAX && end[-1] == '"' &&
			    end[-2] == '"' && end[-3] == '\\');
		p = strstr(txt, "as=\"64497\",as_name=\"x\\\\xff\\\\xfe\xe2\x82\xac");
		if (!ASSERT_TRUE(p))
			continue;
		end = strchr(p, '}');
		ASSERT_TRUE(end && end - p < METRICS_LABELS_MAX && end[-1] == '"' &&
			    !memcmp(end - 4, "\xe2\x82\xac", 3));
	}
out:
	metrics_free(m);
	geo_close(geo);
	hosttab_free(t);
	unlink(path);
}

int main(void)
{
	RUN_TEST(test_a_series_per_interface);
	RUN_TEST(test_families_and_top);
	RUN_TEST(test_monotonic_and_exact);
	RUN_TEST(test_expression_info);
	RUN_TEST(test_interface_addresses);
	RUN_TEST(test_own_address_info);
	RUN_TEST(test_openmetrics_escaping_and_restart);
	RUN_TEST(test_series_per_as);
	RUN_TEST(test_series_per_as_wait_for_the_worker);
	RUN_TEST(test_long_interface_list_keeps_series);
	RUN_TEST(test_hostile_names);
	RUN_TEST(test_as_names_cut_whole);
	return test_summary("test_metrics");
}
