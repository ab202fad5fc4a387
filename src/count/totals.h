/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* totals.h: what a sample reports of the watched interfaces as a whole (struct
 * flow_totals: the filter's counters of all and of each interface's slot, and the host
 * table's), and the counters' names in every output (stats_fields). The sampler fills
 * it; the outputs and the screen read it. */
#ifndef FLOWTOP_TOTALS_H
#define FLOWTOP_TOTALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flowtop.h"

/* The filter's counters as the outputs name them, in FLOW_STATS_FIELDS' order; a NULL
 * name leaves the counter out of that output. */
struct stats_field {
	const char *json, *text, *family, *help;
	size_t offset; /* in struct flow_stats */
};
extern const struct stats_field stats_fields[];
extern const size_t stats_nfields;

static inline uint64_t stats_value(const struct flow_stats *s, const struct stats_field *f)
{
	uint64_t v;

	memcpy(&v, (const char *)s + f->offset, sizeof(v));
	return v;
}

/* The entries of flow_totals' slot_total[] and slot_delta[]: an interface's slot
 * (struct iface_watch) picks its own, and TOTALS_SLOT_OTHER holds the frames of the
 * interfaces without one of their own ("other"). So at most TOTALS_SLOTS - 1 interfaces
 * are counted apart. */
#define TOTALS_SLOTS	  FLOWTOP_MAX_SLOTS
#define TOTALS_SLOT_OTHER FLOWTOP_SLOT_NONE

/* What a sample reports of the watched interfaces: the filter's counters (struct
 * flow_stats, summed over the CPUs) of all and of each slot, and the host table's. */
struct flow_totals {
	struct flow_stats total; /* cumulative since attach (FLOW_STATS_FIELDS) */
	struct flow_stats delta; /* added during the last interval */
	/* the same of each slot in use, since its interface took it */
	struct flow_stats slot_total[TOTALS_SLOTS];
	struct flow_stats slot_delta[TOTALS_SLOTS];
	unsigned nslots;	    /* slots read: [0, nslots) */
	struct flow_counters other; /* what the hosts that left the table had counted,
				     * and the addresses waiting at its door */
	uint64_t live_hosts;	    /* hosts in the table at the last sample */
	uint64_t evicted;	    /* hosts that left the full table since attach, and
				     * addresses sent away from its door */
	uint64_t waiting;	    /* addresses at the full table's door (in other) */
	uint64_t capacity;	    /* hosts the table can hold */
	uint64_t ports_lost;	    /* port updates lost as `lost` counts addresses' (when
				     * ports are counted: sampler_set_ports()) */
	double interval;	    /* seconds the last sample covered */
};

/* Whether the totals hold the counters of slot `slot`: one given to an interface, and
 * read at the sample. */
static inline bool totals_have_slot(const struct flow_totals *t, unsigned slot)
{
	return slot != TOTALS_SLOT_OTHER && slot < t->nslots;
}

/* Whether frames came on interfaces without a slot (TOTALS_SLOT_OTHER's counters). */
static inline bool totals_have_no_slot(const struct flow_totals *t)
{
	return t->nslots && t->slot_total[TOTALS_SLOT_OTHER].frames;
}

#endif
