/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* exporter.h: --listen: /metrics over HTTP with libmicrohttpd, from its own thread, so a
 * slow or stuck scraper never holds up the sampling or the screen. What a scrape gets is
 * the rendering of the last sample (metrics.h), published after each one. GET and HEAD
 * of /metrics only: other paths 404, other methods 405; requests larger than the
 * connection's memory limit are refused by libmicrohttpd itself; connections are
 * counted by client (struct exporter_clients) through libmicrohttpd's accept policy. */
#ifndef FLOWTOP_EXPORTER_H
#define FLOWTOP_EXPORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "flowtop.h"
#include "capture.h"
#include "metrics.h"

#define EXPORTER_DEFAULT_ADDR "127.0.0.1"

#define EXPORTER_CONNECTIONS                                                                       \
	64		      /* served at once; more are closed at once, unless one               \
			       * evicted makes room (src/output/exporter.c: accept_policy()) */
#define EXPORTER_PER_CLIENT 8 /* of them from one client; more are closed at once */
#define EXPORTER_SPARE	    2 /* of them for clients that hold none */

/* The connections open, by client: an IPv6 /64 (one host may hold a whole one) or an
 * IPv4 address (IPv4-mapped IPv6 too), so that neither a /64's many addresses nor a
 * few IPv4 aliases take every connection from a scraper elsewhere (ten clients, ten
 * IPv4 addresses or ten /64s, still can, until the idle timeout). */
struct exporter_clients {
	struct exporter_client {
		struct flow_key net; /* the /64 (the rest 0), or ::ffff:a.b.c.d */
		unsigned held;	     /* its connections open; 0: a free slot */
	} slot[EXPORTER_CONNECTIONS];
	unsigned open; /* connections open, every client's */
};

/* The client a peer's address counts under. False for a family neither IPv4 nor IPv6. */
bool exporter_client_of(const struct sockaddr *sa, socklen_t len, struct flow_key *client);
/* Whether a connection of client is taken: it holds fewer than EXPORTER_PER_CLIENT, and
 * the last EXPORTER_SPARE of all go to clients that hold none. */
bool exporter_clients_admit(const struct exporter_clients *c, const struct flow_key *client);
/* A connection of client opened (-ENOSPC when none more fits), and one closed. */
int exporter_clients_open(struct exporter_clients *c, const struct flow_key *client);
void exporter_clients_close(struct exporter_clients *c, const struct flow_key *client);
/* The connections client holds. */
unsigned exporter_clients_held(const struct exporter_clients *c, const struct flow_key *client);

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
