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

#include "filter.h"

#define AS_CACHE 1024 /* AS names remembered, by asn % AS_CACHE */

struct as_name {
	uint32_t asn;
	char *name; /* NULL: not cached; "" where the database names none */
};

struct geo {
	char *path;
	struct loc_ctx *ctx;
	struct loc_database *db;
	struct as_name names[AS_CACHE];
	char **retired; /* names a slot held before another AS took it: a caller may */
	size_t nretired, retired_cap; /* still hold them (geo_as_name()), freed on close */
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
	for (i = 0; i < AS_CACHE; i++)
		free(g->names[i].name);
	for (i = 0; i < g->nretired; i++)
		free(g->retired[i]);
	free(g->retired);
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

/* Keeps a name a cache slot gives up until geo_close(): false when out of memory (it
 * stays in its slot then). At most one a distinct AS looked up. */
static bool retire(struct geo *g, char *name)
{
	if (g->nretired == g->retired_cap) {
		size_t cap = g->retired_cap ? 2 * g->retired_cap : 64;
		char **more = realloc(g->retired, cap * sizeof(*more));

		if (!more)
			return false;
		g->retired = more;
		g->retired_cap = cap;
	}
	g->retired[g->nretired++] = name;
	return true;
}

const char *geo_as_name(struct geo *g, uint32_t asn)
{
	struct as_name *n;
	struct loc_as *as = NULL;
	const char *name = NULL;

	if (!g || !asn)
		return NULL;
	n = &g->names[asn % AS_CACHE];
	if (!n->name || n->asn != asn) {
		if (n->name && !retire(g, n->name))
			return NULL;
		if (!loc_database_get_as(g->db, &as, asn) && as)
			name = loc_as_get_name(as);
		n->name = strdup(name ? name : "");
		n->asn = asn;
		if (as)
			loc_as_unref(as);
		if (!n->name)
			return NULL;
	}
	return n->name[0] ? n->name : NULL;
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
