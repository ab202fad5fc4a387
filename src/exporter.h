/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* exporter.h: --listen: /metrics over HTTP with libmicrohttpd, from its own thread, so a
 * slow or stuck scraper never holds up the sampling or the screen. What a scrape gets is
 * the rendering of the last sample (metrics.h), published after each one. GET and HEAD
 * of /metrics only: other paths 404, other methods 405; requests larger than the
 * connection's memory limit are refused by libmicrohttpd itself. */
#ifndef FLOWTOP_EXPORTER_H
#define FLOWTOP_EXPORTER_H

#include <stddef.h>

#include "capture.h"
#include "metrics.h"

#define EXPORTER_DEFAULT_ADDR "127.0.0.1"

struct exporter;

/* A listening TCP socket for "[ADDR:]PORT" (ADDR an IPv4 address, or IPv6 in brackets;
 * 127.0.0.1 when left out). Made early, in flowtop's own namespace and while it may
 * still bind any port. Returns the fd, or -errno with the reason in err. */
int exporter_listen(const char *spec, char *err, size_t errlen);

/* Serves on fd (taken, also on failure) the top busiest hosts. NULL with err set. */
struct exporter *exporter_start(int fd, size_t top, char *err, size_t errlen);
void exporter_stop(struct exporter *e);
/* --metrics-group: series per AS or per country too (metrics_group()), the hosts placed
 * with geo (may be NULL) as they become active, public ones by a worker. 0 or -errno. */
int exporter_group(struct exporter *e, enum group_by by, struct geo *geo);

/* After a sample: renders it and publishes it to the scrapes. Returns 0 or -ENOMEM
 * (the previous sample then stays published, both texts of it). */
int exporter_sample(struct exporter *e, struct capture *c, const char *netns);
/* The same from the sample's parts (exporter_sample() takes them from the capture). */
int exporter_publish(struct exporter *e, struct hosttab *t, const struct flow_totals *tot,
		     const struct metrics_where *w, const struct metrics_filter *f);

#endif
