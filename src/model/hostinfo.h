/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* hostinfo.h: what the model knows of a host beyond its counts, kept in the host's cb
 * (src/count/hosttab.h): where it is, looked up when first asked (a group by AS or country,
 * the JSON's) and then kept, and a group row's member count. Read and written through
 * these functions only, which copy (cb is bytes to the table). */
#ifndef FLOWTOP_HOSTINFO_H
#define FLOWTOP_HOSTINFO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "geo.h"
#include "hosttab.h"

struct host_info {
	struct geo_info geo; /* where it is (GEO_NOT_LOOKED_UP until asked) */
	uint32_t members;    /* a group's hosts (src/model/groups.h); 0 for a host */
};

_Static_assert(sizeof(struct host_info) <= HOST_CB_LEN, "struct host_info fits a host's cb");

static inline struct geo_info host_geo(const struct host *h)
{
	struct geo_info gi;

	memcpy(&gi, h->cb + offsetof(struct host_info, geo), sizeof(gi));
	return gi;
}

static inline void host_set_geo(struct host *h, const struct geo_info *gi)
{
	memcpy(h->cb + offsetof(struct host_info, geo), gi, sizeof(*gi));
}

static inline uint32_t host_members(const struct host *h)
{
	uint32_t n;

	memcpy(&n, h->cb + offsetof(struct host_info, members), sizeof(n));
	return n;
}

static inline void host_set_members(struct host *h, uint32_t n)
{
	memcpy(h->cb + offsetof(struct host_info, members), &n, sizeof(n));
}

/* Looks h's address up into its geo, unless it was already (geo_locate()). */
static inline void host_locate(struct geo *g, struct host *h)
{
	struct geo_info gi = host_geo(h);

	geo_locate(g, &h->addr, &gi);
	host_set_geo(h, &gi);
}

#endif
