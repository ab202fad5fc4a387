/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* groups.h: hosts grouped by network prefix, autonomous system or country. Each group
 * is a row like a host's (struct host: its counters, history, peak and links summed
 * over its hosts) in a table of its own that follows the host table's clock, so every
 * output that shows hosts shows groups; its key says which group it is (group_key()),
 * and its `members` how many hosts it has. Hosts folded into "other" stay there. */
#ifndef FLOWTOP_GROUPS_H
#define FLOWTOP_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "geo.h"
#include "hostinfo.h"
#include "hosttab.h"

enum group_by {
	GROUP_HOST, /* no groups: the hosts themselves */
	GROUP_PREFIX,
	GROUP_AS,
	GROUP_COUNTRY,
	GROUP_PORT, /* not hosts grouped: the port rows (sampler_set_ports()), each its own */
};

#define GROUP_DEFAULT_PREFIX4 24
#define GROUP_DEFAULT_PREFIX6 48

struct group_opts {
	enum group_by by;
	unsigned prefix4, prefix6; /* GROUP_PREFIX: bits of an IPv4 and an IPv6 address */
};

/* "host", "prefix", "as", "country", "port" */
const char *group_by_name(enum group_by by);
/* How a screen says it: "host", "prefix", "AS", "country". */
const char *group_by_label(enum group_by by);
/* The enum group_by called name, or -1. */
int group_by_parse(const char *name);

/* The key of the group host h is in (its geo looked up already for AS and country). */
void group_key(const struct group_opts *o, const struct host *h, struct flow_key *key);

struct groups;

/* Groups of at most `capacity` (the host table's: never more groups than hosts), with
 * geo (may be NULL: AS and country are then "-") for the lookups. */
struct groups *groups_new(size_t capacity, struct geo *geo);
void groups_free(struct groups *g);

/* Looks up where each host of t is that was not looked up yet (AS and country; kept in
 * the host): here, or, after groups_look_up_aside(), public addresses by a worker
 * (src/model/geoq.h), whose answers come in at the next call. Until then such a host is in
 * the group "looking up". */
void groups_locate(struct groups *g, struct hosttab *t);
/* Has the database look-ups of public addresses made off the caller's path from now on:
 * for live samples, where a flood of new sources must not hold one up. (A capture
 * file's samples look up in place: their output does not depend on a worker's pace.) */
void groups_look_up_aside(struct groups *g);
/* Waits up to timeout_ms for the worker's answers and takes them into t's hosts: true
 * when every question was answered (or none asked). */
bool groups_settle(struct groups *g, struct hosttab *t, int timeout_ms);

/* Makes the groups of t's hosts afresh (GROUP_PORT: t is the port rows' table, each row
 * a group of its own). A group's peak is the highest 2 s rate of its
 * kept history, or the peak it had at the last build by the same grouping. 0 or
 * -ENOMEM (the groups are then empty). */
int groups_build(struct groups *g, struct hosttab *t, const struct group_opts *o);

/* The grouping of the last build. */
enum group_by groups_by(const struct groups *g);
/* The table of groups of the last build. */
const struct hosttab *groups_table(const struct groups *g);

/* What a group is called, with the AS's name after its number when with_name:
 * "10.1.2.0/24", "AS15169 GOOGLE", "US", or the kind of address ("private"), "-" when
 * unknown. Written into buf, which it returns. */
#define GROUP_LABEL_LEN 128
const char *groups_label(const struct groups *g, const struct flow_key *key, bool with_name,
			 char buf[GROUP_LABEL_LEN]);
/* The group's AS number and name, and country (0, NULL, "" where none; for a group by
 * AS or country). */
void groups_geo(const struct groups *g, const struct flow_key *key, uint32_t *asn,
		const char **as_name, char cc[3]);

#endif
