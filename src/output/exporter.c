// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* exporter.c: the listening socket, the libmicrohttpd daemon, and the published sample:
 * one response a format, made once a sample and queued to every request (libmicrohttpd
 * counts its users), not a copy of the text a request. */
#include "exporter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"

#define TIMEOUT_S	   10	 /* an idle or slow connection is closed after this */
#define REQUEST_DEADLINE_S 5	 /* a request's headers arrive whole within this */
#define ANSWER_DEADLINE_S  10	 /* its answer is read within this (Prometheus' scrape_timeout) */
#define REQUEST_MEMORY	   16384 /* per connection: a request larger than this is refused */
#define EVICTED_ROOM	   16	 /* connections evicted and not yet closed by the daemon */
#define EVICT_MAX	   3	 /* incomplete requests evicted to let one new connection in */

/* A connection, from when libmicrohttpd makes it until it closes it: its request must
 * arrive whole within REQUEST_DEADLINE_S, and the answer be read within
 * ANSWER_DEADLINE_S (libmicrohttpd's timeout is an idle one, which a header line, or a
 * byte of the answer read, every few seconds resets for ever). */
struct conn {
	struct conn *prev, *next; /* exporter's conns */
	struct flow_key client;	  /* exporter_client_of() its address */
	int fd;			  /* its socket: shut down to evict it (the daemon closes it) */
	struct timespec since;	  /* CLOCK_MONOTONIC: made, its last request answered, or
				   * (whole) its request in */
	bool whole;		  /* its request's headers are in: it is being answered */
	bool counted;		  /* in clients */
};

struct exporter {
	struct MHD_Daemon *daemon;
	struct metrics *metrics;	 /* the main thread's */
	struct flow_key *own, *own_next; /* the main thread's: the watched interfaces'
					  * addresses, IFACE_ADDRESSES_MAX at most each */
	size_t nown;			 /* in own */
	pthread_mutex_t clients_lock;	 /* guards clients (the daemon's callbacks') */
	struct exporter_clients clients; /* the connections open, by client */
	struct conn *conns;		 /* every connection, newest first */
	pthread_t sweeper;		 /* evicts requests past their deadline */
	pthread_cond_t stop_cond;	 /* signals the sweeper to stop (clients_lock) */
	bool stopping, sweeping;	 /* stop asked; the sweeper runs */
	pthread_mutex_t lock;		 /* guards what follows: the handler's thread reads it */
	struct MHD_Response *sample[2];	 /* the last sample's: 0.0.4, OpenMetrics; NULL
					  * before the first */
};

int exporter_listen(const char *spec, char *err, size_t errlen)
{
	char host[64] = EXPORTER_DEFAULT_ADDR, *end;
	const char *port_s = spec, *colon = strrchr(spec, ':');
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
	socklen_t sl;
	unsigned long port;
	int fd, one = 1;

	if (colon) {
		size_t n = (size_t)(colon - spec);

		if (n && spec[0] == '[' && spec[n - 1] == ']') {
			spec++;
			n -= 2;
		}
		if (!n || n >= sizeof(host)) {
			snprintf(err, errlen, "--listen %s: want [ADDR:]PORT", spec);
			return -EINVAL;
		}
		memcpy(host, spec, n);
		host[n] = '\0';
		port_s = colon + 1;
	}
	errno = 0;
	port = strtoul(port_s, &end, 10);
	if (!*port_s || *end || errno || port == 0 || port > 65535) {
		snprintf(err, errlen, "--listen: '%s' is not a port (1 to 65535)", port_s);
		return -EINVAL;
	}
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)port);
		sl = sizeof(*v4);
	} else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*v6);
	} else {
		snprintf(err, errlen, "--listen: '%s' is not an IPv4 or IPv6 address", host);
		return -EINVAL;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		snprintf(err, errlen, "--listen: cannot make a socket: %s", strerror(errno));
		return -errno;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) || listen(fd, 64)) {
		int e = errno;

		snprintf(err, errlen, "--listen %s:%lu: %s%s", host, port, strerror(e),
			 e == EACCES ? " (ports below 1024 take CAP_NET_BIND_SERVICE)" : "");
		close(fd);
		return -e;
	}
	return fd;
}

/* A response of a copy of body, of that type; NULL when out of memory. */
static struct MHD_Response *response(const char *body, size_t len, const char *type)
{
	struct MHD_Response *r;
	void *copy_from;

	/* MUST_COPY copies before returning: the buffer is only read (the API is older
	 * than const) */
	memcpy(&copy_from, &body, sizeof(copy_from));
	r = MHD_create_response_from_buffer(len, copy_from, MHD_RESPMEM_MUST_COPY);
	if (r && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type) != MHD_YES) {
		MHD_destroy_response(r);
		r = NULL;
	}
	return r;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *body,
			     size_t len, const char *type)
{
	struct MHD_Response *r = response(body, len, type);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* The scraper asks for OpenMetrics in its Accept header (Prometheus does by default). */
static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");

	return accept && strstr(accept, "application/openmetrics-text");
}

/* The request's headers are in: its deadline is now the answer's. */
static void request_whole(struct exporter *e, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	pthread_mutex_lock(&e->clients_lock);
	if (info && info->socket_context) {
		struct conn *k = info->socket_context;

		k->whole = true;
		clock_gettime(CLOCK_MONOTONIC, &k->since); /* the answer's deadline runs */
	}
	pthread_mutex_unlock(&e->clients_lock);
}

/* Answered at the first call, once the headers are in, before a byte of a body is read:
 * libmicrohttpd then reads no more of the request and closes the connection after the
 * answer (a body is never read: a 3 MB upload is refused, not consumed). */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	struct exporter *e = cls;
	enum MHD_Result ret;
	bool om;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)state;
	request_whole(e, c);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		static const char msg[] = "only GET and HEAD\n";
		struct MHD_Response *r =
		    response(msg, sizeof(msg) - 1, "text/plain; charset=utf-8");

		if (!r)
			return MHD_NO;
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
		ret = MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
		MHD_destroy_response(r);
		return ret;
	}
	if (!strcmp(url, "/")) { /* a person's browser: where the metrics are, as
				  * node_exporter's landing page says */
		static const char page[] =
		    "<!DOCTYPE html>\n<html><head><title>flowtop exporter</title></head>\n"
		    "<body><h1>flowtop exporter</h1>\n"
		    "<p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

		return reply(c, MHD_HTTP_OK, page, sizeof(page) - 1, "text/html; charset=utf-8");
	}
	if (strcmp(url, "/metrics")) {
		static const char msg[] = "not found: flowtop serves /metrics\n";

		return reply(c, MHD_HTTP_NOT_FOUND, msg, sizeof(msg) - 1,
			     "text/plain; charset=utf-8");
	}
	om = wants_openmetrics(c);
	pthread_mutex_lock(&e->lock);
	if (!e->sample[om]) {
		static const char msg[] = "no sample yet\n";

		ret = reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, msg, sizeof(msg) - 1,
			    "text/plain; charset=utf-8");
	} else {
		ret = MHD_queue_response(c, MHD_HTTP_OK, e->sample[om]); /* one more user */
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}

bool exporter_client_of(const struct sockaddr *sa, socklen_t len, struct flow_key *client)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff }; /* ::ffff:0:0/96 */

	memset(client, 0, sizeof(*client));
	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;

		memcpy(client->addr, mapped, sizeof(mapped));
		memcpy(&client->addr[12], &sin->sin_addr, 4);
		return true;
	}
	if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
		const uint8_t *a = sin6->sin6_addr.s6_addr;

		/* an IPv4 client of a socket bound to :: is one IPv4 address (the /64 of
		 * ::ffff:0:0/96 would be every IPv4 client) */
		memcpy(client->addr, a, memcmp(a, mapped, sizeof(mapped)) ? 8 : 16);
		return true;
	}
	return false;
}

/* The index of client's slot, or -1 when it holds no connection. */
static int slot_of(const struct exporter_clients *c, const struct flow_key *client)
{
	int i;

	for (i = 0; i < EXPORTER_CONNECTIONS; i++)
		if (c->slot[i].held && !memcmp(&c->slot[i].net, client, sizeof(*client)))
			return i;
	return -1;
}

bool exporter_clients_admit(const struct exporter_clients *c, const struct flow_key *client)
{
	int i = slot_of(c, client);

	if (i < 0)
		return c->open < EXPORTER_CONNECTIONS;
	return c->slot[i].held < EXPORTER_PER_CLIENT &&
	       c->open < EXPORTER_CONNECTIONS - EXPORTER_SPARE;
}

int exporter_clients_open(struct exporter_clients *c, const struct flow_key *client)
{
	int i = slot_of(c, client);

	if (i < 0) { /* a free slot for it */
		for (i = 0; i < EXPORTER_CONNECTIONS && c->slot[i].held; i++)
			;
		if (i == EXPORTER_CONNECTIONS)
			return -ENOSPC;
		c->slot[i].net = *client;
	}
	c->slot[i].held++;
	c->open++;
	return 0;
}

unsigned exporter_clients_held(const struct exporter_clients *c, const struct flow_key *client)
{
	int i = slot_of(c, client);

	return i < 0 ? 0 : c->slot[i].held;
}

void exporter_clients_close(struct exporter_clients *c, const struct flow_key *client)
{
	int i = slot_of(c, client);

	if (i >= 0) {
		c->slot[i].held--;
		c->open--;
	}
}

/* Ends connection k: its socket shut down, the daemon sees it end and closes it; it no
 * longer counts against its client. Under clients_lock (k's socket is still open then:
 * the daemon tells connection_event() before it closes one). */
static void evict(struct exporter *e, struct conn *k)
{
	shutdown(k->fd, SHUT_RDWR);
	if (k->counted)
		exporter_clients_close(&e->clients, &k->client);
	k->counted = false;
}

static double since(const struct conn *k, const struct timespec *now)
{
	return (double)(now->tv_sec - k->since.tv_sec) + (now->tv_nsec - k->since.tv_nsec) / 1e9;
}

/* Evicts the requests past their deadline, and the answers read too slowly (a reader
 * that takes a byte every few seconds holds its connection as long as a slow request
 * would). Under clients_lock. */
static void sweep(struct exporter *e)
{
	struct timespec now;
	struct conn *k;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (k = e->conns; k; k = k->next)
		if (k->counted &&
		    since(k, &now) >= (k->whole ? ANSWER_DEADLINE_S : REQUEST_DEADLINE_S))
			evict(e, k);
}

/* The incomplete request that waited longest: client's (or anyone's, for NULL); NULL
 * when none is. Under clients_lock. */
static struct conn *oldest_incomplete(struct exporter *e, const struct flow_key *client,
				      struct conn *const *taken, int ntaken)
{
	struct timespec now;
	struct conn *k, *old = NULL;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (k = e->conns; k; k = k->next) {
		for (i = 0; i < ntaken && taken[i] != k; i++)
			;
		if (i == ntaken && k->counted && !k->whole &&
		    (!client || !memcmp(&k->client, client, sizeof(*client))) &&
		    (!old || since(k, &now) > since(old, &now)))
			old = k;
	}
	return old;
}

/* libmicrohttpd's accept policy: a connection the client may not have is closed at once
 * (before a byte of it is read), unless a request that is not whole yet makes room:
 * the client's own oldest when it holds its share, else the oldest of all. Slow clients
 * holding every connection open lose them to new ones. */
static enum MHD_Result accept_policy(void *cls, const struct sockaddr *sa, socklen_t len)
{
	struct exporter *e = cls;
	struct flow_key client;
	struct conn *taken[EVICT_MAX], *k;
	struct exporter_clients after;
	int n = 0, i;
	bool ok;

	if (!exporter_client_of(sa, len, &client))
		return MHD_NO;
	pthread_mutex_lock(&e->clients_lock);
	sweep(e);
	ok = exporter_clients_admit(&e->clients, &client);
	/* the incomplete requests that let this one in, counted on a copy first: if they
	 * would not, no one loses a connection for nothing */
	after = e->clients;
	while (!ok && n < EVICT_MAX) {
		bool own = exporter_clients_held(&after, &client) >= EXPORTER_PER_CLIENT;

		k = oldest_incomplete(e, own ? &client : NULL, taken, n);
		if (!k)
			break;
		taken[n++] = k;
		exporter_clients_close(&after, &k->client);
		ok = exporter_clients_admit(&after, &client);
	}
	for (i = 0; ok && i < n; i++)
		evict(e, taken[i]);
	pthread_mutex_unlock(&e->clients_lock);
	return ok ? MHD_YES : MHD_NO;
}

/* Tracks a connection once libmicrohttpd has made it (an admitted one may yet fail to
 * be), counted against its client, its deadline running, and lets it go when it is
 * closed; *ctx is its struct conn. */
static void connection_event(void *cls, struct MHD_Connection *conn, void **ctx,
			     enum MHD_ConnectionNotificationCode code)
{
	struct exporter *e = cls;
	const union MHD_ConnectionInfo *info =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const union MHD_ConnectionInfo *fd =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	const struct sockaddr *sa = info ? info->client_addr : NULL;
	struct conn *k = *ctx;

	pthread_mutex_lock(&e->clients_lock);
	if (code == MHD_CONNECTION_NOTIFY_STARTED && sa && fd && (k = calloc(1, sizeof(*k))) &&
	    exporter_client_of(sa,
			       sa->sa_family == AF_INET ? sizeof(struct sockaddr_in)
							: sizeof(struct sockaddr_in6),
			       &k->client)) {
		k->fd = fd->connect_fd;
		clock_gettime(CLOCK_MONOTONIC, &k->since);
		k->counted = !exporter_clients_open(&e->clients, &k->client);
		k->next = e->conns;
		if (e->conns)
			e->conns->prev = k;
		e->conns = k;
		*ctx = k;
		k = NULL;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && k) {
		if (k->counted)
			exporter_clients_close(&e->clients, &k->client);
		if (k->prev)
			k->prev->next = k->next;
		else
			e->conns = k->next;
		if (k->next)
			k->next->prev = k->prev;
		*ctx = NULL;
	} else {
		k = NULL;
	}
	pthread_mutex_unlock(&e->clients_lock);
	free(k); /* closed, or made and not tracked */
}

/* A request answered (or ended): the next on its connection has a deadline of its own,
 * from now. */
static void request_done(void *cls, struct MHD_Connection *c, void **state,
			 enum MHD_RequestTerminationCode why)
{
	struct exporter *e = cls;
	const union MHD_ConnectionInfo *info =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	(void)state;
	(void)why;
	pthread_mutex_lock(&e->clients_lock);
	if (info && info->socket_context) {
		struct conn *k = info->socket_context;

		k->whole = false;
		clock_gettime(CLOCK_MONOTONIC, &k->since);
	}
	pthread_mutex_unlock(&e->clients_lock);
}

/* Evicts the requests past their deadline twice a second, whether or not anyone else
 * connects, until exporter_stop(). */
static void *sweeper(void *arg)
{
	struct exporter *e = arg;
	struct timespec at;

	pthread_mutex_lock(&e->clients_lock);
	while (!e->stopping) {
		sweep(e);
		clock_gettime(CLOCK_MONOTONIC, &at);
		at.tv_nsec += 500000000;
		if (at.tv_nsec >= 1000000000) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&e->stop_cond, &e->clients_lock, &at);
	}
	pthread_mutex_unlock(&e->clients_lock);
	return NULL;
}

struct exporter *exporter_start(int fd, size_t top, char *err, size_t errlen)
{
	struct exporter *e = calloc(1, sizeof(*e));

	if (!e || !(e->metrics = metrics_new(top)) ||
	    !(e->own = calloc(IFACE_ADDRESSES_MAX, sizeof(*e->own))) ||
	    !(e->own_next = calloc(IFACE_ADDRESSES_MAX, sizeof(*e->own)))) {
		if (e) {
			metrics_free(e->metrics);
			free(e->own);
			free(e->own_next);
		}
		snprintf(err, errlen, "--listen: out of memory");
		free(e);
		close(fd);
		return NULL;
	}
	pthread_mutex_init(&e->lock, NULL);
	pthread_mutex_init(&e->clients_lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&e->stop_cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	/* the daemon's own limit leaves room for connections evicted and not closed yet:
	 * the accept policy keeps to EXPORTER_CONNECTIONS */
	e->daemon = MHD_start_daemon(
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, accept_policy, e, handle, e,
	    MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned)(EXPORTER_CONNECTIONS + EVICTED_ROOM), MHD_OPTION_NOTIFY_CONNECTION,
	    connection_event, e, MHD_OPTION_NOTIFY_COMPLETED, request_done, e,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	    (size_t)REQUEST_MEMORY, MHD_OPTION_END);
	if (e->daemon)
		e->sweeping = !pthread_create(&e->sweeper, NULL, sweeper, e);
	if (!e->daemon || !e->sweeping) {
		snprintf(err, errlen, "--listen: cannot start the HTTP server");
		if (!e->daemon) /* a daemon took it, and closes it when stopped */
			close(fd);
		exporter_stop(e);
		return NULL;
	}
	return e;
}

void exporter_stop(struct exporter *e)
{
	int i;

	if (!e)
		return;
	if (e->sweeping) {
		pthread_mutex_lock(&e->clients_lock);
		e->stopping = true;
		pthread_cond_signal(&e->stop_cond);
		pthread_mutex_unlock(&e->clients_lock);
		pthread_join(e->sweeper, NULL);
	}
	if (e->daemon) {
		int fd = MHD_quiesce_daemon(e->daemon); /* the listening socket is ours to close */

		MHD_stop_daemon(e->daemon);
		if (fd >= 0)
			close(fd);
	}
	metrics_free(e->metrics);
	free(e->own);
	free(e->own_next);
	for (i = 0; i < 2; i++)
		if (e->sample[i])
			MHD_destroy_response(e->sample[i]);
	pthread_mutex_destroy(&e->lock);
	pthread_mutex_destroy(&e->clients_lock);
	pthread_cond_destroy(&e->stop_cond);
	free(e);
}

int exporter_group(struct exporter *e, enum group_by by, struct geo *geo)
{
	return metrics_group(e->metrics, by, geo);
}

int exporter_sample(struct exporter *e, struct capture *c, const char *netns)
{
	struct metrics_filter f = { 0 };
	struct metrics_where w = { .iface = capture_name(c),
				   .netns = netns,
				   .expr = capture_expression(c),
				   .generation = capture_generation(c) };
	int n;

	w.links = capture_links(c, &w.nlinks);
	/* read each sample (an address comes and goes with DHCP or SLAAC); when they cannot
	 * be read, the last ones stay */
	n = iface_addresses(capture_any(c) ? NULL : w.links, w.nlinks, e->own_next,
			    IFACE_ADDRESSES_MAX);
	if (n >= 0) {
		struct flow_key *swap = e->own;

		e->own = e->own_next;
		e->own_next = swap;
		e->nown = (size_t)n;
	}
	w.own = e->own;
	w.nown = e->nown;
	w.ports = capture_ports(c);
	f.known = !capture_filter_runs(c, &f.runs, &f.run_ns);
	return exporter_publish(e, capture_hosts(c), capture_totals(c), &w, &f);
}

int exporter_publish(struct exporter *e, struct hosttab *t, const struct flow_totals *tot,
		     const struct metrics_where *w, const struct metrics_filter *f)
{
	struct MHD_Response *next[2] = { NULL, NULL }, *last[2];
	const char *text;
	size_t len;
	int i, err;

	err = metrics_update(e->metrics, t, tot, w, f);
	if (err)
		return err;
	/* both responses first: a failure then leaves the last sample's served */
	for (i = 0; i < 2 && !err; i++) {
		text = metrics_text(e->metrics, i == 1, &len);
		next[i] =
		    response(text, len, i == 1 ? METRICS_OPENMETRICS_TYPE : METRICS_TEXT_TYPE);
		if (!next[i])
			err = -ENOMEM;
	}
	if (err) {
		for (i = 0; i < 2; i++)
			if (next[i])
				MHD_destroy_response(next[i]);
		return err;
	}
	pthread_mutex_lock(&e->lock);
	for (i = 0; i < 2; i++) {
		last[i] = e->sample[i];
		e->sample[i] = next[i];
	}
	pthread_mutex_unlock(&e->lock);
	for (i = 0; i < 2; i++) /* freed once the requests still sending it are done */
		if (last[i])
			MHD_destroy_response(last[i]);
	return 0;
}
