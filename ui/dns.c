// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* dns.c: a name cache (open addressing, fixed size), the screen's thread's alone, and
 * a work queue (workq.h) whose worker calls getnameinfo(3), one name at a time. */
#include "dns.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "workq.h"

#define CACHE_SLOTS  16384 /* names remembered; past that, addresses show */
#define QUEUE_SLOTS  256   /* lookups out; past that, asked again later */
#define NAME_MAX_LEN 80

enum entry_state {
	E_EMPTY,
	E_QUEUED,
	E_DONE,
	E_FAILED
};

struct entry {
	struct flow_key key;
	uint8_t state;
	char name[NAME_MAX_LEN];
};

/* A question to the worker and its answer. */
struct question {
	struct flow_key key;
	bool ok;
	char name[NAME_MAX_LEN];
};

struct dns {
	struct entry *cache; /* CACHE_SLOTS */
	struct workq *q;
};

static size_t slot_of(const struct flow_key *key)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < sizeof(key->addr); i++)
		h = (h ^ key->addr[i]) * 1099511628211ULL;
	return h % CACHE_SLOTS;
}

/* The entry of key, or the empty one where it would go; NULL when the probe finds
 * neither in a bounded run (cache full around there). */
static struct entry *find(struct dns *d, const struct flow_key *key)
{
	size_t i = slot_of(key), n;

	for (n = 0; n < 64; n++, i = (i + 1) % CACHE_SLOTS) {
		struct entry *e = &d->cache[i];

		if (e->state == E_EMPTY || !memcmp(&e->key, key, sizeof(*key)))
			return e;
	}
	return NULL;
}

/* The worker's: the name of q->key, if it has one. */
static void resolve(void *ctx, void *entry)
{
	struct question *q = entry;
	struct sockaddr_storage ss = {};
	socklen_t len;

	(void)ctx;
	if (fmt_is_ipv4(&q->key)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, &q->key.addr[12], 4);
		len = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, q->key.addr, 16);
		len = sizeof(*sin6);
	}
	q->ok =
	    !getnameinfo((struct sockaddr *)&ss, len, q->name, NAME_MAX_LEN, NULL, 0, NI_NAMEREQD);
}

static const struct workq_ops dns_ops = {
	.answer = resolve, .batch = 1, /* a look-up may take seconds: each name shown as it comes */
};

struct dns *dns_new(int *notify_fd)
{
	struct dns *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->cache = calloc(CACHE_SLOTS, sizeof(*d->cache));
	d->q =
	    d->cache ? workq_new(QUEUE_SLOTS, sizeof(struct question), &dns_ops, NULL, true) : NULL;
	if (!d->q || !workq_start(d->q)) { /* started here: the thread is there from now on */
		workq_free(d->q);
		free(d->cache);
		free(d);
		return NULL;
	}
	*notify_fd = workq_fd(d->q);
	return d;
}

void dns_free(struct dns *d)
{
	if (!d)
		return;
	workq_free(d->q); /* the worker lets go after the look-up it is in */
	free(d->cache);
	free(d);
}

const char *dns_name(struct dns *d, const struct flow_key *key, bool lookup)
{
	struct entry *e = find(d, key);
	struct question q = { .key = *key };

	if (e && e->state == E_DONE)
		return e->name; /* entries never move or change once done */
	if (lookup && e && e->state == E_EMPTY && workq_ask(d->q, &q)) {
		e->key = *key;
		e->state = E_QUEUED;
	}
	return NULL;
}

/* An answer into the cache. */
static void settle(void *arg, const void *entry)
{
	const struct question *q = entry;
	struct entry *e = find(arg, &q->key);

	if (!e)
		return;
	e->key = q->key;
	e->state = q->ok ? E_DONE : E_FAILED;
	strcpy(e->name, q->ok ? q->name : "");
}

void dns_drain(struct dns *d)
{
	workq_take(d->q, settle, d);
}
