// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* report.c: the three renderings of a sample. JSON is written by hand: the schema is
 * numbers and two strings, not worth a library. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fmt.h"
#include "ports.h"
#include "topk.h"

#define BITS(bytes) ((bytes)*8)

void report_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t n = fmt_utf8_len(p);

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || n == 0) /* a byte that is not UTF-8: its Latin-1 code point */
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

/* A host's rates over the last interval, as JSON and CSV name them: per second of one
 * of its counters' deltas (FLOW_COUNTERS_FIELDS), bytes as bits. */
static const struct rate_field {
	const char *name;
	size_t offset; /* in struct flow_counters */
	double scale;
} rate_fields[] = {
	{ "rx_pps", offsetof(struct flow_counters, rx_packets), 1 },
	{ "tx_pps", offsetof(struct flow_counters, tx_packets), 1 },
	{ "rx_bps", offsetof(struct flow_counters, rx_bytes), 8 },
	{ "tx_bps", offsetof(struct flow_counters, tx_bytes), 8 },
};
#define NRATES (sizeof(rate_fields) / sizeof(rate_fields[0]))

static double rate_value(const struct rate_field *rf, const struct host *h, double interval)
{
	uint64_t v;

	memcpy(&v, (const char *)&h->delta + rf->offset, sizeof(v));
	return rf->scale * per_second(v, interval);
}

/* ,"rx_packets":N,... : a host's four counters (FLOW_COUNTERS_FIELDS), named as in C */
static void write_json_counters(FILE *f, const struct flow_counters *c)
{
#define JSON_COUNTER(field) fprintf(f, ",\"" #field "\":%" PRIu64, (uint64_t)c->field);
	FLOW_COUNTERS_FIELDS(JSON_COUNTER)
#undef JSON_COUNTER
}

static const char *report_time(const struct report *r, char buf[FMT_TIME_LEN])
{
	return fmt_time_rfc3339_digits(&r->time, r->time_digits ? r->time_digits : 3, buf);
}

/* "packets":N,... : the filter's counters of one set of frames (FLOW_STATS_FIELDS) */
static void write_json_stats(FILE *f, const struct flow_stats *s)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < stats_nfields; i++)
		if (stats_fields[i].json) {
			fprintf(f, "%s\"%s\":%" PRIu64, sep, stats_fields[i].json,
				stats_value(s, &stats_fields[i]));
			sep = ",";
		}
}

/* Calls fn with the name of each interface h was seen on ("other" for those without a
 * slot of their own), in the order watched. */
static void host_links(const struct report *r, const struct host *h,
		       void (*fn)(FILE *f, const char *name, bool first), FILE *f)
{
	bool first = true;
	size_t i;

	for (i = 0; i < r->nlinks; i++)
		if (!h->links ||
		    (link_bit_own(r->links[i].slot) && h->links & link_bit(r->links[i].slot))) {
			fn(f, r->links[i].info.name, first);
			first = false;
		}
	if (h->links & link_bit(FLOWTOP_SLOT_NONE))
		fn(f, "other", first);
}

static void json_link_name(FILE *f, const char *name, bool first)
{
	if (!first)
		fputc(',', f);
	report_json_string(f, name);
}

static const char *link_state(const struct iface_watch *l)
{
	return l->gone ? "gone" : l->info.up ? "up" : "down";
}

/* ,"interfaces":[{"name":..,"state":..,"totals":{..}},...]: each watched interface's
 * frames, and those of interfaces without a slot ("name":null) when there were any */
static void write_json_links(FILE *f, const struct report *r)
{
	const struct flow_totals *t = r->totals;
	const char *sep = "";
	size_t i;

	fputs(",\"interfaces\":[", f);
	for (i = 0; i < r->nlinks; i++) {
		const struct iface_watch *l = &r->links[i];

		if (!totals_have_slot(t, l->slot))
			continue;
		fprintf(f, "%s{\"name\":", sep);
		sep = ",";
		report_json_string(f, l->info.name);
		fprintf(f, ",\"ifindex\":%d,\"state\":\"%s\",\"totals\":{", l->info.ifindex,
			link_state(l));
		write_json_stats(f, &t->slot_total[l->slot]);
		fputs("}}", f);
	}
	if (totals_have_no_slot(t)) {
		fprintf(f, "%s{\"name\":null,\"state\":\"other\",\"totals\":{", sep);
		write_json_stats(f, &t->slot_total[FLOWTOP_SLOT_NONE]);
		fputs("}}", f);
	}
	fputc(']', f);
}

/* What a row is called: a host's address, or its group's label (AS names with with_name). */
static const char *row_label(const struct report *r, const struct host *h, bool with_name,
			     char buf[GROUP_LABEL_LEN])
{
	return r->groups ? groups_label(r->groups, &h->addr, with_name, buf)
			 : fmt_addr(&h->addr, buf);
}

/* ,"key":"s", or ,"key":null without s */
static void json_string_or_null(FILE *f, const char *key, const char *s)
{
	fprintf(f, ",\"%s\":", key);
	if (s)
		report_json_string(f, s);
	else
		fputs("null", f);
}

/* ,"asn":N,"as_name":"..","country":"..": where a host is (null where unknown; a
 * special range's kind in place of a country) */
static void write_json_geo(FILE *f, struct geo *geo, const struct geo_info *gi)
{
	char cc[3];

	if (gi->asn)
		fprintf(f, ",\"asn\":%u", (unsigned)gi->asn);
	else
		fputs(",\"asn\":null", f);
	json_string_or_null(f, "as_name",
			    gi->class == GEO_PUBLIC ? geo_as_name(geo, gi->asn) : NULL);
	json_string_or_null(f, "country", geo_country(gi, cc));
}

/* Whether the rows are ports (--group port), not hosts or groups of them. */
static bool port_rows(const struct report *r)
{
	return r->groups && groups_by(r->groups) == GROUP_PORT;
}

void report_json_port(FILE *f, const struct flow_key *key)
{
	struct port_name n;

	port_name(key, &n);
	fputs("{\"proto\":", f);
	if (n.proto)
		report_json_string(f, n.proto);
	else
		fputs("null", f);
	if (n.port >= 0)
		fprintf(f, ",\"port\":%d", n.port);
	else
		fputs(",\"port\":null", f);
	json_string_or_null(f, "service", n.service);
}

/* {"group":"AS15169","as_name":"GOOGLE","hosts":3: a group row's opening */
static void write_json_group(FILE *f, const struct report *r, const struct host *h)
{
	char label[GROUP_LABEL_LEN], cc[3];
	const char *name;
	uint32_t asn;

	if (port_rows(r)) {
		report_json_port(f, &h->addr);
		return;
	}
	fputs("{\"group\":", f);
	report_json_string(f, row_label(r, h, false, label));
	groups_geo(r->groups, &h->addr, &asn, &name, cc);
	if (asn)
		json_string_or_null(f, "as_name", name);
	if (cc[0])
		fprintf(f, ",\"country\":\"%s\"", cc);
	fprintf(f, ",\"hosts\":%u", (unsigned)host_members(h));
}

void report_json_head(FILE *f, const struct timespec *ts, int digits, const char *iface,
		      const char *file, const char *expr)
{
	char when[FMT_TIME_LEN];

	fmt_time_rfc3339_digits(ts, digits ? digits : 3, when);
	fprintf(f, "{\"time\":\"%s\",\"%s\":", when, file ? "file" : "interface");
	report_json_string(f, file ? file : iface);
	if (expr) {
		fputs(",\"expression\":", f);
		report_json_string(f, expr);
	}
}

static void write_json(FILE *f, const struct report *r)
{
	const struct flow_totals *t = r->totals;
	char addr[FMT_ADDR_LEN];
	size_t i, k;

	report_json_head(f, &r->time, r->time_digits, r->iface, r->file, r->expr);
	if (r->netns) {
		fputs(",\"netns\":", f);
		report_json_string(f, r->netns);
	}
	if (r->links)
		write_json_links(f, r);
	fprintf(f, ",\"interval\":%.*f,\"totals\":{", r->time_digits ? r->time_digits : 3,
		t->interval);
	write_json_stats(f, &t->total);
	fprintf(f,
		",\"evicted\":%" PRIu64 ",\"waiting\":%" PRIu64 ",\"hosts\":%" PRIu64
		",\"capacity\":%" PRIu64 ",\"listed\":%zu,\"matching\":%zu},",
		t->evicted, t->waiting, t->live_hosts, t->capacity, r->nrows,
		r->nhosts > r->nrows ? r->nhosts : r->nrows);
	if (port_rows(r)) { /* the port rows' own: those that left their table, and lost */
		const struct hosttab *ports = groups_table(r->groups);

		fprintf(f, "\"ports_lost\":%" PRIu64 ",\"other\":{\"ports\":%" PRIu64,
			t->ports_lost, hosttab_departed(ports) + hosttab_waiting(ports));
		write_json_counters(f, hosttab_other(ports));
	} else {
		fprintf(f, "\"other\":{\"hosts\":%" PRIu64, t->evicted + t->waiting);
		write_json_counters(f, &t->other);
	}
	if (r->groups)
		fprintf(f, "},\"group_by\":\"%s\",\"groups\":[",
			group_by_name(groups_by(r->groups)));
	else
		fputs("},\"hosts\":[", f);
	for (i = 0; i < r->nrows; i++) {
		const struct host *h = r->rows[i];

		fputs(i ? "," : "", f);
		if (r->groups) {
			write_json_group(f, r, h);
		} else {
			fprintf(f, "{\"ip\":\"%s\"", fmt_addr(&h->addr, addr));
			if (r->geo) {
				struct geo_info gi = host_geo(h);

				write_json_geo(f, r->geo, &gi);
			}
		}
		write_json_counters(f, &h->total);
		for (k = 0; k < NRATES; k++)
			fprintf(f, ",\"%s\":%.3f", rate_fields[k].name,
				rate_value(&rate_fields[k], h, t->interval));
		if (r->links) {
			fputs(",\"interfaces\":[", f);
			host_links(r, h, json_link_name, f);
			fputc(']', f);
		}
		fputc('}', f);
	}
	fputs("]}\n", f);
}

/* Whether a spreadsheet would take cell s for a formula: it starts with = + - @ or a tab
 * or carriage return, and is neither the placeholder "-" nor a number. */
static bool formula_like(const char *s)
{
	char *end;

	if (!*s || !strchr("=+-@\t\r", *s) || !strcmp(s, "-"))
		return false;
	errno = 0;
	(void)strtod(s, &end);
	return *end || end == s || errno;
}

/* A CSV field of text, quoted when it must be: it holds a comma or a quote (an AS name
 * may), starts as a formula, or holds what fmt_visible_char() shows otherwise */
static void csv_field(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char c[FMT_VISIBLE_CHAR];
	bool plain = !strpbrk(s, ",\"") && !formula_like(s);

	while (plain && *p) {
		size_t n = fmt_visible_char(p, c);

		plain = strlen(c) == n && !memcmp(c, p, n);
		p += n;
	}
	if (plain)
		fputs(s, f);
	else
		report_csv_quoted(f, s);
}

void report_csv_port(FILE *f, const struct flow_key *key)
{
	struct port_name n;

	port_name(key, &n);
	csv_field(f, n.proto ? n.proto : "");
	fputc(',', f); /* the port's field, empty without one: the columns stay in place */
	if (n.port >= 0)
		fprintf(f, "%d", n.port);
	fputc(',', f);
	csv_field(f, n.service ? n.service : "");
}

void report_csv_quoted(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char c[FMT_VISIBLE_CHAR];

	fputc('"', f);
	if (formula_like(s)) /* text, after a quote */
		fputc('\'', f);
	while (*p) {
		if (*p == '"')
			fputc('"', f);
		p += fmt_visible_char(p, c);
		fputs(c, f);
	}
	fputc('"', f);
}

static void write_csv(FILE *f, const struct report *r)
{
	double dt = r->totals->interval;
	char label[GROUP_LABEL_LEN];
	size_t i, k;

	fputs(port_rows(r) ? "proto,port,service" : r->groups ? "group,hosts" : "ip", f);
#define CSV_TITLE(field) fputs("," #field, f);
	FLOW_COUNTERS_FIELDS(CSV_TITLE)
#undef CSV_TITLE
	for (k = 0; k < NRATES; k++)
		fprintf(f, ",%s", rate_fields[k].name);
	fputc('\n', f);
	for (i = 0; i < r->nrows; i++) {
		const struct host *h = r->rows[i];

		if (port_rows(r)) {
			report_csv_port(f, &h->addr);
		} else if (r->groups) {
			csv_field(f, row_label(r, h, true, label));
			fprintf(f, ",%u", (unsigned)host_members(h));
		} else {
			fputs(fmt_addr(&h->addr, label), f);
		}
#define CSV_VALUE(field) fprintf(f, ",%" PRIu64, (uint64_t)h->total.field);
		FLOW_COUNTERS_FIELDS(CSV_VALUE)
#undef CSV_VALUE
		for (k = 0; k < NRATES; k++)
			fprintf(f, ",%.3f", rate_value(&rate_fields[k], h, dt));
		fputc('\n', f);
	}
}

static void text_link_name(FILE *f, const char *name, bool first)
{
	if (!first)
		fputc('+', f);
	fmt_put_visible(f, name);
}

/* One line per watched interface: "  eth0 (up): N packets N bytes (rates)". */
static void write_text_links(FILE *f, const struct report *r)
{
	const struct flow_totals *t = r->totals;
	char pps[16], bps[16];
	size_t i;

	for (i = 0; i <= r->nlinks; i++) {
		const struct iface_watch *l = i < r->nlinks ? &r->links[i] : NULL;
		unsigned slot = l ? l->slot : FLOWTOP_SLOT_NONE;

		if (l ? !totals_have_slot(t, slot) : !totals_have_no_slot(t))
			continue;
		fputs("  ", f);
		fmt_put_visible(f, l ? l->info.name : "other interfaces");
		fprintf(f, " (%s): %" PRIu64 " %s %" PRIu64 " %s (%s %s)\n",
			l ? link_state(l) : "no slot", (uint64_t)t->slot_total[slot].frames,
			fmt_noun(t->slot_total[slot].frames, "packet", "packets"),
			(uint64_t)t->slot_total[slot].bytes,
			fmt_noun(t->slot_total[slot].bytes, "byte", "bytes"),
			fmt_scaled(per_second(t->slot_delta[slot].frames, t->interval), "p/s", pps,
				   sizeof(pps)),
			fmt_scaled(per_second(BITS(t->slot_delta[slot].bytes), t->interval), "b/s",
				   bps, sizeof(bps)));
	}
}

static void write_text(FILE *f, const struct report *r)
{
	const struct flow_totals *t = r->totals;
	char when[FMT_TIME_LEN], label[GROUP_LABEL_LEN], seen[GROUP_LABEL_LEN], rx[16], tx[16];
	char pps[16], bps[16];
	size_t i;

	fprintf(f, "%s  ", report_time(r, when));
	fmt_put_visible(f, r->iface);
	if (r->netns)
		fmt_put_framed(f, " (netns ", r->netns, ")");
	if (r->expr)
		fmt_put_framed(f, "  expression '", r->expr, "'");
	fprintf(f, "  interval %.*f s\n", r->time_digits ? r->time_digits : 3, t->interval);
	fprintf(f, "total %" PRIu64 " %s %" PRIu64 " %s (%s %s)", (uint64_t)t->total.frames,
		fmt_noun(t->total.frames, "packet", "packets"), (uint64_t)t->total.bytes,
		fmt_noun(t->total.bytes, "byte", "bytes"),
		fmt_scaled(per_second(t->delta.frames, t->interval), "p/s", pps, sizeof(pps)),
		fmt_scaled(per_second(BITS(t->delta.bytes), t->interval), "b/s", bps, sizeof(bps)));
	for (i = 0; i < stats_nfields; i++)
		if (stats_fields[i].text)
			fprintf(f, "  %s %" PRIu64, stats_fields[i].text,
				stats_value(&t->total, &stats_fields[i]));
	fprintf(f, "  evicted %" PRIu64, t->evicted);
	if (t->waiting)
		fprintf(f, "  waiting %" PRIu64, t->waiting);
	fprintf(f, "  hosts %" PRIu64 "/%" PRIu64 "\n", t->live_hosts, t->capacity);
	if ((r->links && r->several))
		write_text_links(f, r);
	if (r->nhosts > r->nrows)
		fprintf(f, "the %zu busiest of %zu %s\n", r->nrows, r->nhosts,
			port_rows(r) ? fmt_noun(r->nhosts, "port", "ports")
			: r->groups  ? fmt_noun(r->nhosts, "group", "groups")
				     : fmt_noun(r->nhosts, "host", "hosts"));
	fprintf(f, "%-39s%s %10s %12s %10s %12s %10s %10s%s\n",
		port_rows(r) ? "PORT"
		: r->groups  ? "GROUP"
			     : "ADDRESS",
		r->groups && !port_rows(r) ? "  HOSTS" : "", "RX PKTS", "RX BYTES", "TX PKTS",
		"TX BYTES", "RX RATE", "TX RATE", (r->links && r->several) ? " IFACE" : "");
	for (i = 0; i < r->nrows; i++) {
		const struct host *h = r->rows[i];

		fprintf(f, "%-39.39s",
			fmt_visible(row_label(r, h, true, label), seen, sizeof(seen)));
		if (r->groups && !port_rows(r))
			fprintf(f, " %6u", (unsigned)host_members(h));
		fprintf(f, " %10" PRIu64 " %12" PRIu64 " %10" PRIu64 " %12" PRIu64 " %10s %10s",
			(uint64_t)h->total.rx_packets, (uint64_t)h->total.rx_bytes,
			(uint64_t)h->total.tx_packets, (uint64_t)h->total.tx_bytes,
			fmt_scaled(per_second(BITS(h->delta.rx_bytes), t->interval), "b/s", rx,
				   sizeof(rx)),
			fmt_scaled(per_second(BITS(h->delta.tx_bytes), t->interval), "b/s", tx,
				   sizeof(tx)));
		if ((r->links && r->several)) {
			fputc(' ', f);
			host_links(r, h, text_link_name, f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static int rate_order(const void *a, const void *b, void *arg)
{
	(void)arg;
	return host_cmp_rate(*(const struct host *const *)a, *(const struct host *const *)b);
}

int report_select(struct report *r, const struct hosttab *t, const struct filter *f, size_t limit,
		  const struct host ***rows, size_t *cap)
{
	size_t n = hosttab_count(t), i, kept = 0;

	if (n > *cap) {
		const struct host **p = realloc(*rows, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*rows = p;
		*cap = n;
	}
	for (i = 0; i < n; i++) {
		const struct host *h = hosttab_get(t, i);
		char label[GROUP_LABEL_LEN];

		if (f->kind == FILTER_NONE ||
		    filter_match(f, &h->addr, row_label(r, h, true, label)))
			(*rows)[kept++] = h;
	}
	if (!limit || limit > kept)
		limit = kept;
	topk_select(*rows, kept, sizeof(**rows), limit, rate_order, NULL);
	r->rows = *rows;
	r->nrows = limit;
	r->nhosts = kept;
	return 0;
}

int report_write(FILE *f, const struct report *r, enum report_format fmt)
{
	switch (fmt) {
	case REPORT_JSON:
		write_json(f, r);
		break;
	case REPORT_CSV:
		write_csv(f, r);
		break;
	case REPORT_TEXT:
		write_text(f, r);
		break;
	}
	return ferror(f) ? -EIO : 0;
}

/* All of buf to fd: a short write goes on from where it stopped, a signal's EINTR
 * writes again. 0 or -errno. */
static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO; /* nothing taken, no error: it never will be */
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int report_send(int fd, const struct report *r, enum report_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return -ENOMEM;
	err = report_write(f, r, fmt); /* a memory stream fails only for memory */
	if (fclose(f) || err) {
		free(buf);
		return -ENOMEM;
	}
	err = write_all(fd, buf, len);
	free(buf);
	return err;
}

enum report_format report_format_for(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

	if (!dot || (slash && dot < slash))
		return REPORT_TEXT;
	if (!strcasecmp(dot, ".json"))
		return REPORT_JSON;
	if (!strcasecmp(dot, ".csv"))
		return REPORT_CSV;
	return REPORT_TEXT;
}
