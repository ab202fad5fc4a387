// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* totals.c: the counters' names in every output, from FLOW_STATS_FIELDS. */
#include "totals.h"

const struct stats_field stats_fields[] = {
#define FIELD(field, json, text, family, help)                                                     \
	{ json, text, family, help, offsetof(struct flow_stats, field) },
	FLOW_STATS_FIELDS(FIELD)
#undef FIELD
};
const size_t stats_nfields = sizeof(stats_fields) / sizeof(stats_fields[0]);
