/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* geo.h: where an address is: its autonomous system and country from IPFire's location
 * database (libloc), or the special range it is in (private, loopback, ...), which
 * needs no database. */
#ifndef FLOWTOP_GEO_H
#define FLOWTOP_GEO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flowtop.h"

#define GEO_DEFAULT_DB	"/var/lib/location/database.db"		 /* libloc's, updatable */
#define GEO_PACKAGED_DB "/usr/share/libloc-location/location.db" /* libloc-database's */

/* What kind of address it is; GEO_PUBLIC is the only one the database is asked about. */
enum geo_class {
	GEO_NOT_LOOKED_UP, /* not yet: a host's until it is needed */
	GEO_PUBLIC,	   /* asn and cc from the database (0 and "" where it has none) */
	GEO_NO_DATABASE,   /* public, and no database to say more */
	GEO_PRIVATE,	   /* RFC 1918, shared address space, unique local */
	GEO_LOOPBACK,
	GEO_LINK_LOCAL,
	GEO_DOCUMENTATION, /* 192.0.2.0/24 and the like, 2001:db8::/32 */
	GEO_MULTICAST,
	GEO_RESERVED, /* this network, broadcast, benchmarking, the rest of 240/4 */
	GEO_PENDING,  /* public, asked of a worker (src/model/geoq.h), the answer not in yet */
	GEO__COUNT,
};

struct geo_info {
	uint32_t asn;  /* 0: none known */
	char cc[2];    /* ISO 3166 country code, "\0\0": none known */
	uint8_t class; /* enum geo_class */
	uint8_t _pad;
};

/* Whether gi says where the address is: false until it is looked up, and while a worker
 * has the question (GEO_PENDING). */
static inline bool geo_placed(const struct geo_info *gi)
{
	return gi->class != GEO_NOT_LOOKED_UP && gi->class != GEO_PENDING;
}

struct geo;

/* Opens the database at path (NULL: GEO_DEFAULT_DB, else GEO_PACKAGED_DB). NULL with
 * the reason in err. */
struct geo *geo_open(const char *path, char *err, size_t errlen);
void geo_close(struct geo *g);
/* The path of the database g read. */
const char *geo_path(const struct geo *g);

/* Where addr is; g may be NULL (no database: public addresses GEO_NO_DATABASE). */
void geo_lookup(struct geo *g, const struct flow_key *addr, struct geo_info *out);
/* The special range addr is in, or GEO_PUBLIC; needs no database. */
enum geo_class geo_classify(const struct flow_key *addr);
/* A class's name as shown in place of a country or an AS ("private"), or NULL for
 * GEO_PUBLIC. */
const char *geo_class_name(enum geo_class c);
/* Looks addr up into *gi, unless it was already (a host's, kept in it): here and now
 * also when a worker was asked (GEO_PENDING). */
void geo_locate(struct geo *g, const struct flow_key *addr, struct geo_info *gi);
/* The country gi says: its code (in cc), or a special range's kind ("private"); NULL
 * where none is known (not looked up, no database, an address the database places in
 * no country). */
const char *geo_country(const struct geo_info *gi, char cc[3]);
/* The AS gi says, in buf: "AS15169 GOOGLE" (the name with with_name, where known), a
 * special range's kind, "-" where unknown, "" when not looked up (or not yet
 * answered). */
const char *geo_as_text(struct geo *g, const struct geo_info *gi, bool with_name, char *buf,
			size_t len);
/* What gi says, as the screen's AS and CC cells show it: "AS15169 GOOGLE" and "US", a
 * special range's kind in both, "-" where unknown, "" when not looked up yet. */
void geo_format(struct geo *g, const struct geo_info *gi, char *as, size_t aslen, char *cc,
		size_t cclen);
/* The name of AS asn, or NULL (no database, or an AS it does not name). Read once an AS
 * and kept (at most the names the database has): valid until geo_close(). */
const char *geo_as_name(struct geo *g, uint32_t asn);

#endif
