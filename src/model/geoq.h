/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* geoq.h: where new public addresses are, looked up off the sample's path: a worker
 * thread with a location database of its own (libloc's objects are not shared between
 * threads) takes addresses from a bounded queue and hands back their struct geo_info.
 * A group build by AS or country (src/model/groups.c) asks for the hosts it has not placed
 * yet and takes the answers in at the next build, so a flood of new sources costs a
 * sample a queue push each, not a database look-up each. The exporter's series by AS
 * or country (src/output/metrics.c) ask a queue of their own, and hold a host's deltas until
 * its answer is in. */
#ifndef FLOWTOP_GEOQ_H
#define FLOWTOP_GEOQ_H

#include <stdbool.h>
#include <stddef.h>

#include "geo.h"
#include "hostinfo.h"
#include "hosttab.h"

#define GEOQ_SLOTS 65536 /* addresses asked and not yet taken back, at most */

struct geoq;

/* A queue whose worker reads the database at path (NULL: geo_open()'s default). The
 * worker starts with the first question, in the thread that asks it (so it has that
 * thread's signal mask and capabilities). NULL with the reason in err. */
struct geoq *geoq_new(const char *path, char *err, size_t errlen);
/* Lets go of the queue: the worker stops after the look-ups it is in, and closes its
 * database. */
void geoq_free(struct geoq *q);

/* Asks where addr is: false when GEOQ_SLOTS questions are out already, or the worker
 * cannot start (ask again later). */
bool geoq_ask(struct geoq *q, const struct flow_key *addr);
/* Hands each answer in so far to fn, in the order asked. Returns how many. */
size_t geoq_take(struct geoq *q,
		 void (*fn)(void *arg, const struct flow_key *addr, const struct geo_info *gi),
		 void *arg);
/* Questions asked and not yet taken back. */
size_t geoq_out(struct geoq *q);
/* Waits up to timeout_ms for every question to be answered: true if they are. */
bool geoq_wait(struct geoq *q, int timeout_ms);

/* Places a host not placed yet: in place (geo_locate() with geo) when q is NULL or its
 * address is not public, else asked of q (GEO_PENDING, or left GEO_NOT_LOOKED_UP when
 * the queue is full: asked again next time). */
void geoq_place(struct geoq *q, struct geo *geo, struct host *h);
/* Takes q's answers so far into the hosts of t still waiting for theirs (an answer for
 * an address t no longer holds is dropped). Returns how many answers. */
size_t geoq_settle(struct geoq *q, struct hosttab *t);

#endif
