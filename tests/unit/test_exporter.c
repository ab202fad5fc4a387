// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_exporter.c: what a scrape of the running exporter gets, on a port of loopback
 * the kernel picks, read with curl; and that a sample which cannot be published leaves
 * the last one served (making its response fails on purpose: this program's
 * MHD_create_response_from_buffer can). */
#include "hosts.h"

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

int main(void)
{
	RUN_TEST(test_failed_publish_keeps_the_last_sample);
	return test_summary("test_exporter");
}
