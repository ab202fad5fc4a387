// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* dump.c: the view's rows in three formats, through snapshot_commit(). */
#include "dump.h"

#include <stdio.h>
#include <time.h>

#include "column_layout.h"
#include "fmt.h"
#include "report.h"
#include "snapshot.h"

struct dump {
	const struct view *v;
	const char *iface;
	const char *focus; /* the conversation view's host, or NULL */
	const char *expr;  /* the filter expression counted by, or NULL */
	enum report_format fmt;
};

static bool shown(const struct view *v, int c)
{
	return c != COL_ADDR && columns[c].kind != KIND_HISTORY &&
	       column_in_view(c, view_columns(v));
}

/* A cell's number in the screen's unit: rates in bits or bytes per second, the share
 * as a fraction (a percentage in text), counts as they are. */
static double number(const struct view *v, int c, const struct row *r)
{
	double x = columns[c].value(r);

	return columns[c].kind == KIND_RATE && v->bits ? x * 8 : x;
}

static void write_text(FILE *f, const struct dump *d)
{
	const struct view *v = d->v;
	char cell[GROUP_LABEL_LEN], title[GROUP_LABEL_LEN], seen[GROUP_LABEL_LEN];
	size_t i;
	int c;

	if (d->expr)
		fmt_put_framed(f, "frames matching '", d->expr, "'\n");
	if (d->focus)
		fmt_put_framed(f, "conversations of ", d->focus, "\n");
	fprintf(f, "%-39s",
		!v->groups			     ? column_layout[COL_ADDR].title
		: groups_by(v->groups) == GROUP_PORT ? "PORT"
						     : "GROUP");
	for (c = 0; c < COL__COUNT; c++)
		if (shown(v, c))
			fprintf(f, " %*s", column_layout[c].width, column_layout[c].title);
	fprintf(f, "\n");
	for (i = 0; i < v->nbuilt; i++) {
		const struct row *r = &v->rows[i];

		fprintf(f, "%-39s", fmt_visible(row_title(r, title), seen, sizeof(seen)));
		for (c = 0; c < COL__COUNT; c++) {
			if (!shown(v, c))
				continue;
			if (columns[c].kind == KIND_BAR) /* a bar on screen, a number here */
				snprintf(cell, sizeof(cell), "%.1f %%", number(v, c, r) * 100);
			else
				column_format((enum col_id)c, r, v->bits, cell, sizeof(cell));
			fprintf(f, column_is_text(c) ? " %-*s" : " %*s", column_layout[c].width,
				fmt_visible(cell, seen, sizeof(seen)));
		}
		fprintf(f, "\n");
	}
}

/* A text cell of r in column c. */
static const char *text_of(int c, const struct row *r)
{
	return columns[c].kind == KIND_AS      ? r->as
	       : columns[c].kind == KIND_CC    ? r->cc
	       : columns[c].kind == KIND_PORTS ? r->ports
					       : r->ifaces;
}

/* ,"text" (an interface or AS name may hold a comma or a quote) */
static void csv_text(FILE *f, const char *s)
{
	fputc(',', f);
	report_csv_quoted(f, s);
}

static void write_csv(FILE *f, const struct dump *d)
{
	const struct view *v = d->v;
	char addr[FMT_ADDR_LEN];
	size_t i;
	int c;

	fputs(!v->groups			   ? "ip,name"
	      : groups_by(v->groups) == GROUP_PORT ? "proto,port,service"
						   : "group",
	      f);
	for (c = 0; c < COL__COUNT; c++)
		if (shown(v, c))
			fprintf(f, ",%s", columns[c].name);
	fprintf(f, "\n");
	for (i = 0; i < v->nbuilt; i++) {
		const struct row *r = &v->rows[i];

		if (v->groups && groups_by(v->groups) == GROUP_PORT) {
			report_csv_port(f, &r->host.addr);
		} else if (v->groups) {
			report_csv_quoted(f, r->label);
		} else { /* a reverse-DNS name is /etc/hosts' or anyone's: quoted */
			fprintf(f, "%s,", fmt_addr(&r->host.addr, addr));
			report_csv_quoted(f, r->name ? r->name : "");
		}
		for (c = 0; c < COL__COUNT; c++)
			if (shown(v, c) && column_is_text(c))
				csv_text(f, text_of(c, r));
			else if (shown(v, c))
				fprintf(f, ",%.6g", number(v, c, r));
		fprintf(f, "\n");
	}
}

static void write_json(FILE *f, const struct dump *d)
{
	const struct view *v = d->v;
	char addr[FMT_ADDR_LEN];
	struct timespec now;
	size_t i;
	int c;

	clock_gettime(CLOCK_REALTIME, &now);
	report_json_head(f, &now, 0, d->iface, NULL, d->expr);
	if (d->focus) {
		fputs(",\"conversations_of\":", f);
		report_json_string(f, d->focus);
	}
	if (v->groups)
		fprintf(f, ",\"group_by\":\"%s\"", group_by_name(groups_by(v->groups)));
	fprintf(f,
		",\"view\":\"%s\",\"rate_unit\":\"%s\",\"sort\":\"%s\",\"reverse\":%s,\"rows\":[",
		v->totals ? "totals" : "rates", v->bits ? "bit/s" : "byte/s", columns[v->sort].name,
		v->reverse ? "true" : "false");
	for (i = 0; i < v->nbuilt; i++) {
		const struct row *r = &v->rows[i];

		if (v->groups && groups_by(v->groups) == GROUP_PORT) {
			fputs(i ? "," : "", f);
			report_json_port(f, &r->host.addr);
		} else if (v->groups) {
			fprintf(f, "%s{\"group\":", i ? "," : "");
			report_json_string(f, r->label);
		} else {
			fprintf(f, "%s{\"ip\":\"%s\"", i ? "," : "", fmt_addr(&r->host.addr, addr));
		}
		if (r->name) {
			fputs(",\"name\":", f);
			report_json_string(f, r->name);
		}
		for (c = 0; c < COL__COUNT; c++)
			if (shown(v, c) && column_is_text(c)) {
				fprintf(f, ",\"%s\":", columns[c].name);
				report_json_string(f, text_of(c, r));
			} else if (shown(v, c)) {
				fprintf(f, ",\"%s\":%.6g", columns[c].name, number(v, c, r));
			}
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static int write_dump(FILE *f, void *arg)
{
	const struct dump *d = arg;

	if (d->fmt == REPORT_JSON)
		write_json(f, d);
	else if (d->fmt == REPORT_CSV)
		write_csv(f, d);
	else
		write_text(f, d);
	return 0;
}

int dump_write(const char *path, const struct view *v, const char *iface, const char *expr,
	       const char *focus, char *err, size_t errlen)
{
	struct dump d = { v, iface, focus, expr, report_format_for(path) };

	return snapshot_commit(path, write_dump, &d, err, errlen);
}
