// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* geo.c: libloc does the lookups; here the special ranges (IANA's registries, checked
 * before the database, which has none of them) and a cache of AS names, which the
 * screen asks for row by row. */
#include "geo.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include <libloc/as.h>
#include <libloc/database.h>
#include <libloc/libloc.h>
#include <libloc/network.h>

#include "flowkey.h"

/* AS names, each asked of the database once and kept until geo_close(): at most one a
 * named AS in the database (loc_database_count_as()), so bounded however often asked */
struct as_name {
	uint32_t asn; /* 0: a free slot */
	char *name;
};

struct geo {
	char *path;
	struct loc_ctx *ctx;
	struct loc_database *db;
	struct as_name *names;	  /* open addressing, linear probing; NULL until one is asked */
	size_t nnames, names_cap; /* names_cap a power of two, at most half full */
};

struct range {
	struct flow_key addr;
	unsigned prefix;
	enum geo_class class;
};

#define V4(a, b, c, d)                                                                             \
	{                                                                                          \
		{                                                                                  \
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d                       \
		}                                                                                  \
	}
#define V4P(p) (96 + (p))

/* IANA's special-purpose registries, the most specific first where they nest */
static const struct range ranges[] = {
	{ V4(0, 0, 0, 0), V4P(8), GEO_RESERVED },
	{ V4(10, 0, 0, 0), V4P(8), GEO_PRIVATE },
	{ V4(100, 64, 0, 0), V4P(10), GEO_PRIVATE }, /* shared address space (CGN) */
	{ V4(127, 0, 0, 0), V4P(8), GEO_LOOPBACK },
	{ V4(169, 254, 0, 0), V4P(16), GEO_LINK_LOCAL },
	{ V4(172, 16, 0, 0), V4P(12), GEO_PRIVATE },
	{ V4(192, 0, 0, 0), V4P(24), GEO_RESERVED }, /* protocol assignments */
	{ V4(192, 0, 2, 0), V4P(24), GEO_DOCUMENTATION },
	{ V4(192, 168, 0, 0), V4P(16), GEO_PRIVATE },
	{ V4(198, 18, 0, 0), V4P(15), GEO_RESERVED }, /* benchmarking */
	{ V4(198, 51, 100, 0), V4P(24), GEO_DOCUMENTATION },
	{ V4(203, 0, 113, 0), V4P(24), GEO_DOCUMENTATION },
	{ V4(224, 0, 0, 0), V4P(4), GEO_MULTICAST },
	{ V4(240, 0, 0, 0), V4P(4), GEO_RESERVED }, /* and the broadcast address */
	{ { { 0 } }, 128, GEO_RESERVED },	    /* :: */
	{ { { [15] = 1 } }, 128, GEO_LOOPBACK },    /* ::1 */
	{ { { 0x20, 0x01, 0x0d, 0xb8 } }, 32, GEO_DOCUMENTATION },
	{ { { 0x3f, 0xff } }, 20, GEO_DOCUMENTATION },
	{ { { 0xfc } }, 7, GEO_PRIVATE }, /* unique local */
	{ { { 0xfe, 0x80 } }, 10, GEO_LINK_LOCAL },
	{ { { 0xff } }, 8, GEO_MULTICAST },
};

enum geo_class geo_classify(const struct flow_key *addr)
{
	size_t i;

	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (flow_key_in_net(addr, &ranges[i].addr, ranges[i].prefix))
			return ranges[i].class;
	return GEO_PUBLIC;
}

const char *geo_class_name(enum geo_class c)
{
	static const char *const names[GEO__COUNT] = {
		[GEO_NOT_LOOKED_UP] = "-",	 [GEO_NO_DATABASE] = "-",
		[GEO_PRIVATE] = "private",	 [GEO_LOOPBACK] = "loopback",
		[GEO_LINK_LOCAL] = "link-local", [GEO_DOCUMENTATION] = "documentation",
		[GEO_MULTICAST] = "multicast",	 [GEO_RESERVED] = "reserved",
		[GEO_PENDING] = "looking up",
	};

	return c < GEO__COUNT ? names[c] : "-";
}

struct geo *geo_open(const char *path, char *err, size_t errlen)
{
	struct geo *g = calloc(1, sizeof(*g));
	FILE *f;
	int ret;

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!path) {
		path = GEO_DEFAULT_DB;
		f = fopen(path, "r");
		if (!f && errno == ENOENT)
			f = fopen(path = GEO_PACKAGED_DB, "r");
	} else {
		f = fopen(path, "r");
	}
	if (!f) {
		snprintf(err, errlen, "cannot open the location database %s: %s", path,
			 strerror(errno));
		free(g);
		return NULL;
	}
	ret = loc_new(&g->ctx);
	if (!ret) {
		loc_set_log_priority(g->ctx, 0); /* its messages go to stderr: ours say it */
		ret = loc_database_new(g->ctx, &g->db, f);
	}
	fclose(f); /* the database has mapped it */
	if (ret) {
		snprintf(err, errlen, "%s is not a location database libloc reads", path);
		geo_close(g);
		return NULL;
	}
	g->path = strdup(path);
	if (!g->path) {
		snprintf(err, errlen, "out of memory");
		geo_close(g);
		return NULL;
	}
	return g;
}

void geo_close(struct geo *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->names_cap; i++)
		free(g->names[i].name);
	free(g->names);
	if (g->db)
		loc_database_unref(g->db);
	if (g->ctx)
		loc_unref(g->ctx);
	free(g->path);
	free(g);
}

const char *geo_path(const struct geo *g)
{
	return g->path;
}

void geo_lookup(struct geo *g, const struct flow_key *addr, struct geo_info *out)
{
	struct loc_network *net = NULL;
	struct in6_addr a;
	const char *cc;

	memset(out, 0, sizeof(*out));
	out->class = (uint8_t)geo_classify(addr);
	if (out->class != GEO_PUBLIC)
		return;
	if (!g) {
		out->class = GEO_NO_DATABASE;
		return;
	}
	memcpy(&a, addr->addr, sizeof(a));
	if (loc_database_lookup(g->db, &a, &net) || !net)
		return; /* public, in no network the database lists */
	out->asn = loc_network_get_asn(net);
	cc = loc_network_get_country_code(net);
	if (cc && cc[0] && cc[1])
		memcpy(out->cc, cc, 2);
	loc_network_unref(net);
}

/* The slot of asn in names (cap a power of two): its own, or the free one it would take. */
static struct as_name *as_slot(struct as_name *names, size_t cap, uint32_t asn)
{
	size_t i = (asn * 2654435761u) & (cap - 1); /* Knuth's multiplicative hash */

	while (names[i].asn && names[i].asn != asn)
		i = (i + 1) & (cap - 1);
	return &names[i];
}

/* Room for one more name, the table kept at most half full: false when out of memory. */
static bool as_names_room(struct geo *g)
{
	size_t cap = g->names_cap ? 2 * g->names_cap : 256, i;
	struct as_name *names;

	if (2 * (g->nnames + 1) <= g->names_cap)
		return true;
	names = calloc(cap, sizeof(*names));
	if (!names)
		return false;
	for (i = 0; i < g->names_cap; i++)
		if (g->names[i].asn)
			*as_slot(names, cap, g->names[i].asn) = g->names[i];
	free(g->names);
	g->names = names;
	g->names_cap = cap;
	return true;
}

/* Asked for every row of every sample (the screen, groups, the exporter's labels, JSON):
 * the first time the database is read and the name kept, then it is found here. An AS
 * the database does not name is asked of it again each time, and costs no memory. */
const char *geo_as_name(struct geo *g, uint32_t asn)
{
	struct as_name *n;
	struct loc_as *as = NULL;
	const char *name;
	char *copy = NULL;

	if (!g || !asn)
		return NULL;
	if (g->names_cap) {
		n = as_slot(g->names, g->names_cap, asn);
		if (n->asn)
			return n->name;
	}
	if (loc_database_get_as(g->db, &as, asn) || !as)
		return NULL;
	name = loc_as_get_name(as);
	if (name && name[0] && as_names_room(g))
		copy = strdup(name);
	loc_as_unref(as);
	if (!copy)
		return NULL;
	n = as_slot(g->names, g->names_cap, asn);
	n->asn = asn;
	n->name = copy;
	g->nnames++;
	return copy;
}

void geo_locate(struct geo *g, const struct flow_key *addr, struct geo_info *gi)
{
	if (!geo_placed(gi))
		geo_lookup(g, addr, gi);
}

const char *geo_country(const struct geo_info *gi, char cc[3])
{
	if (!geo_placed(gi) || gi->class == GEO_NO_DATABASE)
		return NULL;
	if (gi->class != GEO_PUBLIC)
		return geo_class_name(gi->class);
	if (!gi->cc[0])
		return NULL;
	cc[0] = gi->cc[0], cc[1] = gi->cc[1], cc[2] = '\0';
	return cc;
}

const char *geo_as_text(struct geo *g, const struct geo_info *gi, bool with_name, char *buf,
			size_t len)
{
	const char *name = with_name ? geo_as_name(g, gi->asn) : NULL;

	if (!geo_placed(gi))
		snprintf(buf, len, "%s", "");
	else if (gi->class != GEO_PUBLIC)
		snprintf(buf, len, "%s", geo_class_name(gi->class));
	else if (!gi->asn)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "AS%u%s%s", (unsigned)gi->asn, name ? " " : "",
			 name ? name : "");
	return buf;
}

void geo_format(struct geo *g, const struct geo_info *gi, char *as, size_t aslen, char *cc,
		size_t cclen)
{
	char code[3];
	const char *country = geo_country(gi, code);

	geo_as_text(g, gi, true, as, aslen);
	snprintf(cc, cclen, "%s", !geo_placed(gi) ? "" : country ? country : "-");
}
