/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* metrics.h: the samples as Prometheus metrics, in the text exposition format 0.0.4 and
 * in OpenMetrics 1.0. Per interface: frames, bytes, non-IP, truncated, spilled, lost,
 * evicted, waiting, hosts, capacity, the filter's runs and run time (frames to lost: a
 * series per watched interface), and flowtop_interface_address_info{ip=...} 1 for each address of
 * the watched interfaces, so that rules can tell this host's own addresses from its
 * peers'. Per host, for the `top`
 * busiest hosts of the last sample: bytes and packets received and sent, labelled
 * interface and ip; everything else summed into ip="other", so that a sum over ip is
 * every host's count. With metrics_group(), the same per AS (as, as_name), per
 * country (country) or per port (proto, port, service; port="other" the rest): the top
 * busiest, the rest in as="other", summing to the same.
 *
 * Counters never go back for a series that stays: a host's series starts at 0 when it
 * enters the top (what it had counted before is in "other" already) and leaves into
 * "other" when it drops out, so "other" only grows. A host that enters again starts
 * again from 0 (Prometheus' rate() reads that as a counter reset), as does everything
 * after an interface switch. No HTTP here: unit tests drive it. */
#ifndef FLOWTOP_METRICS_H
#define FLOWTOP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geo.h"
#include "groups.h"
#include "hosttab.h"
#include "iface.h"
#include "totals.h"

struct metrics;

/* Metrics for the `top` busiest hosts (0: none but "other"). NULL with errno set. */
struct metrics *metrics_new(size_t top);
void metrics_free(struct metrics *m);

#define METRICS_GROUPS_MAX 65536 /* ASes or countries counted at most (the rest: other) */
#define METRICS_LABELS_MAX 512	 /* bytes of a series' own labels at most */
/* Adds series per AS, per country or per port (by), as many as per host; the ports' are
 * metrics_where.ports' rows, each frame at its destination port received and at its
 * source port sent (a sum over port is every frame once each way). geo (may be NULL: every
 * public address in AS and country "-") names the ASes and places the hosts. A host
 * not placed yet is placed by metrics_update(): a public address by a worker with a
 * database of its own (src/model/geoq.h), off the sample's path, the rest in place. Until
 * its answer is in, at a later update, the host's deltas are held (from its group's
 * series and from "other", so the sum over as lags by them), then added to its group,
 * also when the host has left the host table meanwhile: counted late, never twice,
 * never elsewhere. 0, -EINVAL or -ENOMEM. */
int metrics_group(struct metrics *m, enum group_by by, struct geo *geo);

/* The filter's cumulative run count and run time, when the kernel keeps them. */
struct metrics_filter {
	bool known;
	uint64_t runs, run_ns;
};

/* Where a sample was taken: the interfaces as asked ("eth0", "eth0,wg0", "any"), each
 * of them (NULL: iface alone), the namespace (NULL: flowtop's own), the expression
 * frames had to match, and the count's
 * generation (capture_generation()): when it changes, every series starts over. */
struct metrics_where {
	const char *iface, *netns;
	const char *expr; /* the filter expression counted by, or NULL: an info series */
	unsigned generation;
	const struct iface_watch *links;
	size_t nlinks;
	const struct flow_key *own; /* the watched interfaces' own addresses: an info
				     * series each (their ip's series are this host's) */
	size_t nown;
	const struct hosttab *ports; /* the port rows, for metrics_group(GROUP_PORT) */
};

/* Renders the sample just taken: t's hosts and tot's totals. The filter's counters
 * have a series per watched interface, labelled with its name; everything else is
 * labelled with w->iface. With groups, it places t's hosts (their geo) as
 * metrics_group() says. 0 or -ENOMEM (the last rendering then stays). */
int metrics_update(struct metrics *m, struct hosttab *t, const struct flow_totals *tot,
		   const struct metrics_where *w, const struct metrics_filter *filter);

/* The last rendering: OpenMetrics (ending "# EOF") or the 0.0.4 text format; its length
 * in *len. Valid until the next metrics_update(). */
const char *metrics_text(const struct metrics *m, bool openmetrics, size_t *len);

#define METRICS_TEXT_TYPE	 "text/plain; version=0.0.4; charset=utf-8"
#define METRICS_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

#endif
