/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* dns.h: reverse DNS names, looked up by a worker thread so the screen never waits. */
#ifndef FLOWTOP_DNS_H
#define FLOWTOP_DNS_H

#include <stdbool.h>

#include "hosttab.h" /* struct flow_key */

struct dns;

/* Starts the resolver's worker. *notify_fd becomes readable when new names have
 * arrived. */
struct dns *dns_new(int *notify_fd);

/* Lets go of the resolver; the worker stops once its current lookup returns, so this
 * never waits for a slow resolver. */
void dns_free(struct dns *d);

/* The name of key if known; otherwise NULL, and with lookup the lookup is queued (once). */
const char *dns_name(struct dns *d, const struct flow_key *key, bool lookup);

/* Takes the names that arrived into the cache, and quiets the fd. */
void dns_drain(struct dns *d);

#endif
