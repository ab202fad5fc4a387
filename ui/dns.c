// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* dns.c: a name cache (open addressing, fixed size) and a queue, shared under one mutex
 * with a detached worker that calls getnameinfo(3). */
#include "dns.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "fmt.h"

#define CACHE_SLOTS  16384 /* names remembered; past that, addresses show */
#define QUEUE_SLOTS  256   /* lookups waiting; past that, asked again later */
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

struct dns {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct entry *cache;		    /* CACHE_SLOTS */
	struct flow_key queue[QUEUE_SLOTS]; /* ring */
	unsigned head, len;
	bool stop;
	int refs; /* the owner and the worker: the last one frees */
	int efd;
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

static void put_ref(struct dns *d)
{
	bool last;

	pthread_mutex_lock(&d->lock);
	last = --d->refs == 0;
	pthread_mutex_unlock(&d->lock);
	if (!last)
		return;
	close(d->efd);
	free(d->cache);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->wake);
	free(d);
}

static void lookup(const struct flow_key *key, char *name, bool *ok)
{
	struct sockaddr_storage ss = {};
	socklen_t len;

	if (fmt_is_ipv4(key)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, &key->addr[12], 4);
		len = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, key->addr, 16);
		len = sizeof(*sin6);
	}
	*ok = !getnameinfo((struct sockaddr *)&ss, len, name, NAME_MAX_LEN, NULL, 0, NI_NAMEREQD);
}

static void *worker(void *arg)
{
	struct dns *d = arg;
	char name[NAME_MAX_LEN];
	struct flow_key key;
	uint64_t one = 1;
	bool ok;

	pthread_mutex_lock(&d->lock);
	for (;;) {
		while (!d->stop && !d->len)
			pthread_cond_wait(&d->wake, &d->lock);
		if (d->stop)
			break;
		key = d->queue[d->head];
		d->head = (d->head + 1) % QUEUE_SLOTS;
		d->len--;
		pthread_mutex_unlock(&d->lock);
		lookup(&key, name, &ok);
		pthread_mutex_lock(&d->lock);
		if (!d->stop) {
			struct entry *e = find(d, &key);

			if (e) {
				e->state = ok ? E_DONE : E_FAILED;
				strcpy(e->name, ok ? name : "");
				if (write(d->efd, &one, sizeof(one)) < 0) {
					/* the counter saturated: a wake-up is pending anyway */
				}
			}
		}
	}
	pthread_mutex_unlock(&d->lock);
	put_ref(d);
	return NULL;
}

struct dns *dns_new(int *notify_fd)
{
	struct dns *d = calloc(1, sizeof(*d));
	pthread_t tid;

	if (!d)
		return NULL;
	d->cache = calloc(CACHE_SLOTS, sizeof(*d->cache));
	d->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!d->cache || d->efd < 0)
		goto out_free;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->wake, NULL);
	d->refs = 2;
	if (pthread_create(&tid, NULL, worker, d)) {
		pthread_mutex_destroy(&d->lock);
		pthread_cond_destroy(&d->wake);
		goto out_free;
	}
	pthread_detach(tid);
	*notify_fd = d->efd;
	return d;

out_free:
	if (d->efd >= 0)
		close(d->efd);
	free(d->cache);
	free(d);
	return NULL;
}

void dns_free(struct dns *d)
{
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	d->stop = true;
	pthread_cond_signal(&d->wake);
	pthread_mutex_unlock(&d->lock);
	put_ref(d);
}

const char *dns_name(struct dns *d, const struct flow_key *key, bool lookup)
{
	const char *name = NULL;
	struct entry *e;

	pthread_mutex_lock(&d->lock);
	e = find(d, key);
	if (e && e->state == E_DONE) {
		name = e->name; /* entries never move or change once done */
	} else if (lookup && e && e->state == E_EMPTY && d->len < QUEUE_SLOTS) {
		e->key = *key;
		e->state = E_QUEUED;
		d->queue[(d->head + d->len) % QUEUE_SLOTS] = *key;
		d->len++;
		pthread_cond_signal(&d->wake);
	}
	pthread_mutex_unlock(&d->lock);
	return name;
}

void dns_drain(struct dns *d)
{
	uint64_t n;

	if (read(d->efd, &n, sizeof(n)) < 0) {
		/* EAGAIN: nothing pending */
	}
}
