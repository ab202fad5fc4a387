// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_exporter.c: what a scrape of the running exporter gets, on a port of loopback
 * the kernel picks, read with curl; that a sample which cannot be published leaves
 * the last one served (making its response fails on purpose: this program's
 * MHD_create_response_from_buffer can); and which connections it takes, by client. */
#include "hosts.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "exporter.h"
#include "fmt.h"

/* libmicrohttpd's as the tests want it: failing for a body of this size while it is not
 * 0 (out of memory), else the library's; and how many bodies were made */
static size_t fail_response_size;
static unsigned responses_made;

struct MHD_Response *MHD_create_response_from_buffer(size_t n, void *buf,
						     enum MHD_ResponseMemoryMode mode)
{
	static struct MHD_Response *(*next)(size_t, void *, enum MHD_ResponseMemoryMode);

	if (fail_response_size && n == fail_response_size)
		return NULL;
	if (!next)
		next = (struct MHD_Response * (*)(size_t, void *, enum MHD_ResponseMemoryMode))
		    dlsym(RTLD_NEXT, "MHD_create_response_from_buffer");
	responses_made++;
	return next(n, buf, mode);
}

/* What GET /metrics answers on port, with "Accept" for OpenMetrics when om: the status
 * code, a space, the body (the first 64 KiB); two requests, one for each. */
static const char *scrape(int port, bool om)
{
	static char out[65536];
	const char *accept = om ? "-H 'Accept: application/openmetrics-text'" : "";
	char cmd[512];
	FILE *p;
	size_t n;

	snprintf(
	    cmd, sizeof(cmd),
	    "url=http://127.0.0.1:%d/metrics; curl -s -m 5 %s -o /dev/null -w '%%{http_code} ' "
	    "$url; curl -s -m 5 %s $url",
	    port, accept, accept);
	p = popen(cmd, "r");
	if (!p)
		return "";
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	pclose(p);
	return out;
}

static void test_failed_publish_keeps_the_last_sample(void)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);
	struct hosttab *t = hosttab_new(64);
	struct flow_totals tot = { .total = { .frames = 1, .bytes = 100 }, .capacity = 64 };
	struct metrics_filter f = { 0 };
	struct metrics *m = metrics_new(100);
	struct exporter *e;
	char err[256], host[32];
	size_t om_len;
	int fd, port, i;

	/* a port the kernel picks (--listen refuses 0): taken, read, given back */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	sin = (struct sockaddr_in){ .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	ASSERT_OK(bind(fd, (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_OK(getsockname(fd, (struct sockaddr *)&sin, &sl));
	port = ntohs(sin.sin_port);
	close(fd);
	snprintf(host, sizeof(host), "127.0.0.1:%d", port);
	fd = exporter_listen(host, err, sizeof(err));
	if (!ASSERT_TRUE(fd >= 0))
		return;
	e = exporter_start(fd, 100, err, sizeof(err));
	if (!ASSERT_TRUE(e != NULL))
		return;
	ASSERT_TRUE(!strncmp(scrape(port, false), "503 ", 4)); /* no sample yet */

	frame(t, "10.0.0.1", "10.0.0.2", 100);
	hosttab_end(t, 1.0);
	ASSERT_OK(exporter_publish(e, t, &tot,
				   &(struct metrics_where){ .iface = "eth0", .netns = NULL }, &f));
	ASSERT_OK(metrics_update(m, t, &tot,
				 &(struct metrics_where){ .iface = "eth0", .netns = NULL }, &f));
	ASSERT_TRUE(strstr(scrape(port, false), "flowtop_frames_total{interface=\"eth0\"} 1\n"));

	/* a sample is made into a response once, whoever scrapes it how often */
	{
		unsigned made = responses_made;

		for (i = 0; i < 5; i++)
			ASSERT_TRUE(!strncmp(scrape(port, i % 2), "200 ", 4));
		ASSERT_EQ(responses_made, made);
	}

	/* a sample with 50 more hosts, whose OpenMetrics response cannot be made */
	for (i = 0; i < 50; i++) {
		snprintf(host, sizeof(host), "10.0.1.%d", i);
		frame(t, host, "10.0.0.2", 100);
	}
	hosttab_end(t, 1.0);
	tot.total.frames = 51;
	/* the same two samples rendered apart tell the OpenMetrics text's new length: the
	 * 0.0.4 response is made, the OpenMetrics one is not */
	ASSERT_OK(metrics_update(m, t, &tot,
				 &(struct metrics_where){ .iface = "eth0", .netns = NULL }, &f));
	metrics_text(m, true, &om_len);
	ASSERT_TRUE(om_len > 4096);
	fail_response_size = om_len;
	ASSERT_EQ(exporter_publish(e, t, &tot,
				   &(struct metrics_where){ .iface = "eth0", .netns = NULL }, &f),
		  -ENOMEM);
	fail_response_size = 0;
	ASSERT_TRUE(!strncmp(scrape(port, false), "200 ", 4));
	ASSERT_TRUE(strstr(scrape(port, false), "flowtop_frames_total{interface=\"eth0\"} 1\n"));
	ASSERT_TRUE(strstr(scrape(port, true), "flowtop_frames_total{interface=\"eth0\"} 1\n"));

	/* memory again: the next sample is published */
	ASSERT_OK(exporter_publish(e, t, &tot,
				   &(struct metrics_where){ .iface = "eth0", .netns = NULL }, &f));
	ASSERT_TRUE(strstr(scrape(port, true), "flowtop_frames_total{interface=\"eth0\"} 51\n"));
	exporter_stop(e);
	metrics_free(m);
	hosttab_free(t);
}

/* The client a peer's address text counts under, as text ("2001:db8:1:2::", "10.0.0.1"),
 * through the sockaddr an accept gives for it: IPv6 for text with ':', else IPv4. */
static const char *client_text(const char *peer, char buf[FMT_ADDR_LEN])
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct flow_key k;
	bool v6 = strchr(peer, ':');

	if (v6)
		ASSERT_EQ(inet_pton(AF_INET6, peer, &sin6.sin6_addr), 1);
	else
		ASSERT_EQ(inet_pton(AF_INET, peer, &sin.sin_addr), 1);
	if (!exporter_client_of(v6 ? (struct sockaddr *)&sin6 : (struct sockaddr *)&sin,
				v6 ? sizeof(sin6) : sizeof(sin), &k))
		return "none";
	return fmt_addr(&k, buf);
}

/* A client is an IPv6 /64 or an IPv4 address, an IPv4-mapped IPv6 address (a socket
 * bound to :: takes IPv4 so) the IPv4 address alone; other families none. */
static void test_client_of(void)
{
	struct sockaddr sa = { .sa_family = AF_UNIX };
	struct flow_key k;
	char b[FMT_ADDR_LEN];

	ASSERT_STREQ(client_text("2001:db8:1:2:aaaa::1", b), "2001:db8:1:2::");
	ASSERT_STREQ(client_text("2001:db8:1:2:ffff:ffff:ffff:ffff", b), "2001:db8:1:2::");
	ASSERT_STREQ(client_text("2001:db8:1:3::1", b), "2001:db8:1:3::");
	ASSERT_STREQ(client_text("10.0.0.1", b), "10.0.0.1");
	ASSERT_STREQ(client_text("::ffff:10.0.0.1", b), "10.0.0.1");
	ASSERT_STREQ(client_text("::ffff:10.0.0.2", b), "10.0.0.2");
	ASSERT_STREQ(client_text("::1", b), "::");
	ASSERT_TRUE(!exporter_client_of(&sa, sizeof(sa), &k));
}

/* Admits a connection of peer into c and opens it, as the daemon's callbacks do;
 * whether it was admitted. */
static bool connect_from(struct exporter_clients *c, const char *peer)
{
	struct flow_key k = key(peer);

	if (strchr(peer, ':')) /* an IPv6 peer: its /64 */
		memset(&k.addr[8], 0, 8);
	if (!exporter_clients_admit(c, &k))
		return false;
	ASSERT_OK(exporter_clients_open(c, &k));
	return true;
}

/* Eight connections a client, whatever addresses of its /64 they come from; the last
 * two of the 64 for clients that hold none, so that IPv4 aliases filling the rest leave
 * room for a scraper elsewhere; a closed connection is free again. */
static void test_connections_per_client(void)
{
	struct exporter_clients c = { .open = 0 };
	struct flow_key k;
	char peer[64];
	int i, n = 0;

	for (i = 0; i < 16; i++) { /* 16 addresses of one /64 */
		snprintf(peer, sizeof(peer), "2001:db8:1:2::%x", i + 1);
		n += connect_from(&c, peer);
	}
	ASSERT_EQ(n, EXPORTER_PER_CLIENT);
	ASSERT_TRUE(connect_from(&c, "2001:db8:1:3::1")); /* the next /64 */
	ASSERT_EQ(c.open, EXPORTER_PER_CLIENT + 1);
	/* IPv4 aliases, 8 connections each tried, until the rest are tried twice over */
	for (i = 0; i < 7; i++) {
		int j;

		snprintf(peer, sizeof(peer), "10.0.0.%d", i + 1);
		for (j = 0; j < EXPORTER_PER_CLIENT; j++)
			connect_from(&c, peer);
	}
	ASSERT_EQ(c.open, EXPORTER_CONNECTIONS - EXPORTER_SPARE); /* 9 + 53: the 7th alias 5 */
	ASSERT_TRUE(!connect_from(&c, "10.0.0.7"));		  /* it holds some: no spare */
	ASSERT_TRUE(!connect_from(&c, "2001:db8:1:3::2"));	  /* nor for this /64 */
	ASSERT_TRUE(connect_from(&c, "10.0.0.8"));		  /* a spare for one holding none */
	ASSERT_TRUE(!connect_from(&c, "10.0.0.8"));
	ASSERT_TRUE(connect_from(&c, "2001:db8:9::1"));
	ASSERT_EQ(c.open, EXPORTER_CONNECTIONS);
	ASSERT_TRUE(!connect_from(&c, "10.0.0.9")); /* every connection taken */
	/* one of the /64's closed: its slot is taken back by a new client at once */
	k = key("2001:db8:1:2::");
	exporter_clients_close(&c, &k);
	ASSERT_EQ(c.open, EXPORTER_CONNECTIONS - 1);
	ASSERT_TRUE(connect_from(&c, "10.0.0.9"));
	/* every connection closed: every slot free */
	for (i = 0; i < EXPORTER_CONNECTIONS; i++)
		while (c.slot[i].held) {
			k = c.slot[i].net;
			exporter_clients_close(&c, &k);
		}
	ASSERT_EQ(c.open, 0);
	k = key("10.0.0.9");
	exporter_clients_close(&c, &k); /* one not held: nothing */
	ASSERT_EQ(c.open, 0);
	ASSERT_EQ(exporter_clients_open(&c, &k), 0);
	ASSERT_EQ(c.open, 1);
}

int main(void)
{
	RUN_TEST(test_failed_publish_keeps_the_last_sample);
	RUN_TEST(test_client_of);
	RUN_TEST(test_connections_per_client);
	return test_summary("test_exporter");
}
