// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tick.c: the user-space cost of one sampling interval at N hosts, each of which sent
 * one frame in it: fold the ring records into the host table (sampler_fold(), what a
 * drain does), close the sample, build the view (filter, sort key per host, the rows
 * shown picked and named), draw one screen (curses to /dev/null, 120x40); and the same
 * interval with no traffic at all. CPU time per phase, median of 5 ticks; the table's
 * memory per host. Then 1,000,000 hosts sending in every one of 41 samples, longer than
 * the history kept: their memory a host and the close. Then a flood of new addresses
 * into a full table of the default -m: 1,000,000 records of distinct sources, drained
 * 20,000 at a time, each new source waiting at the table's door and leaving from it; CPU
 * time per record, median of 5 rounds. Then a table of -m 1,000,000 filling up from
 * empty with as many new sources, drained 20,000 at a time, a sample closed every
 * 200,000 (a second of 200,000 new sources a second): the longest drain's wall time
 * (page faults included), the median's, the longest close's. Then a sample's group
 * build by AS while 65,536 new public sources arrive, their look-ups in the location
 * database made in place and made aside by the worker (src/model/geoq.h): the build's
 * time as the sample waits for it, and when the last answer is in.
 *
 *   tick N...      e.g. tick 1000 10000 100000 1000000 (no root needed) */
#include <arpa/inet.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geo.h"
#include "groups.h"
#include "hosttab.h"
#include "sampler.h"
#include "screen.h"
#include "view.h"

#define TICKS	   5
#define NEW_PUBLIC 65536 /* new public sources in one sample, grouped by AS */
#define AS_ROUNDS  3

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median3(double *v)
{
	qsort(v, AS_ROUNDS, sizeof(*v), cmp_double);
	return v[AS_ROUNDS / 2];
}

static double median(double *v)
{
	qsort(v, TICKS, sizeof(*v), cmp_double);
	return v[TICKS / 2];
}

static long rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

/* Records ring[0..n) of one frame each from first, first + 1, ... (host byte order) to
 * 10.255.255.254: of 60 bytes, or of 60 to 1459 by turns. */
static void fill_ring(union flow_ring_slot *ring, uint32_t n, uint32_t first, bool sizes)
{
	uint32_t j;

	for (j = 0; j < n; j++) {
		ring[j].rec.src4 = htonl(first + j);
		ring[j].rec.dst4 = htonl(0x0afffffe);
		ring[j].rec.count = FLOWTOP_RECORD_ONE_FRAME | (sizes ? 60 + j % 1400 : 60);
	}
}

#define CHURN_RECORDS 1000000
#define CHURN_DRAIN   20000 /* records a drain: 20 ms of a flood of 1 Mp/s */

/* The flood of new addresses into a full table of `capacity`: CPU ns a record (each
 * sends once: it waits at the table's door and leaves from it). */
static int churn(size_t capacity)
{
	struct hosttab *t = hosttab_new(capacity);
	union flow_ring_slot *ring = calloc(CHURN_RECORDS, sizeof(*ring));
	double ns[TICKS];
	uint32_t k;
	int i;

	if (!t || !ring)
		return 1;
	for (i = 0; i < TICKS; i++) {
		double t0;

		/* sources never seen before, 100.0.0.0 on */
		fill_ring(ring, CHURN_RECORDS, (100u << 24) + (uint32_t)i * CHURN_RECORDS, false);
		t0 = cpu_now();
		for (k = 0; k < CHURN_RECORDS; k += CHURN_DRAIN)
			sampler_fold(t, ring, UINT64_MAX, k, k + CHURN_DRAIN, NULL, 0, false, false,
				     NULL, NULL, NULL);
		hosttab_end(t, 1.0);
		ns[i] = (cpu_now() - t0) * 1e6 / CHURN_RECORDS;
	}
	printf("\n| table (-m) | new sources a round | fold and close, ns a record | departed "
	       "(hosts and waiters) |\n");
	printf("|---:|---:|---:|---:|\n");
	printf("| %zu | %d | %.1f | %llu |\n", capacity, CHURN_RECORDS, median(ns),
	       (unsigned long long)hosttab_departed(t));
	hosttab_free(t);
	free(ring);
	return 0;
}

#define LONG_HOSTS 1000000

/* Hosts that send in every sample for longer than the history kept: each holds a block
 * of older samples beside the three lines of a host. Resident bytes a host, and the
 * close's CPU time at the last sample. */
static int long_lived(void)
{
	struct hosttab *t = hosttab_new(LONG_HOSTS + LONG_HOSTS / 10 + 1);
	union flow_ring_slot *ring = calloc(LONG_HOSTS, sizeof(*ring));
	double close_ms = 0;
	long rss0;
	int s;

	if (!t || !ring) {
		hosttab_free(t);
		free(ring);
		return 1;
	}
	fill_ring(ring, LONG_HOSTS, 0x0a000000, true);
	rss0 = rss_kib(); /* the table's memory, not the records' */
	for (s = 0; s <= HISTORY_SLOTS; s++) {
		double t0;

		sampler_fold(t, ring, UINT64_MAX, 0, LONG_HOSTS, NULL, 0, false, false, NULL, NULL,
			     NULL);
		t0 = cpu_now();
		hosttab_end(t, 1.0);
		close_ms = cpu_now() - t0;
	}
	printf("\n| hosts | samples each sent in | bytes/host | hosts holding older history | "
	       "close sample ms |\n");
	printf("|---:|---:|---:|---:|---:|\n");
	printf("| %d | %d | %.0f | %zu | %.1f |\n", LONG_HOSTS, HISTORY_SLOTS + 1,
	       (double)(rss_kib() - rss0) * 1024 / LONG_HOSTS, hosttab_history_blocks(t), close_ms);
	hosttab_free(t);
	free(ring);
	return 0;
}

static double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#define GROW_HOSTS 1000000

static int cmp_double_desc(const void *a, const void *b)
{
	return cmp_double(b, a);
}

#define GROW_SAMPLE 200000 /* new sources a sample */

/* A table of -m GROW_HOSTS filling up from empty, a drain of CHURN_DRAIN new sources at a
 * time and a sample closed every GROW_SAMPLE: how long the longest drain, the median one
 * and the longest close take, by the wall clock (page faults included). */
static int grow(void)
{
	static double ms[GROW_HOSTS / CHURN_DRAIN];
	double close_ms = 0;
	struct hosttab *t = hosttab_new(GROW_HOSTS);
	union flow_ring_slot *ring = calloc(GROW_HOSTS, sizeof(*ring));
	size_t n = GROW_HOSTS / CHURN_DRAIN, k;

	if (!t || !ring) {
		hosttab_free(t);
		free(ring);
		return 1;
	}
	fill_ring(ring, GROW_HOSTS, 100u << 24, false);
	for (k = 0; k < n; k++) {
		double t0 = wall_ms();

		sampler_fold(t, ring, UINT64_MAX, k * CHURN_DRAIN, (k + 1) * CHURN_DRAIN, NULL, 0,
			     false, false, NULL, NULL, NULL);
		ms[k] = wall_ms() - t0;
		if ((k + 1) * CHURN_DRAIN % GROW_SAMPLE == 0) {
			t0 = wall_ms();
			hosttab_end(t, 1.0);
			if (wall_ms() - t0 > close_ms)
				close_ms = wall_ms() - t0;
		}
	}
	qsort(ms, n, sizeof(*ms), cmp_double_desc);
	printf("\n| table (-m) | new sources, %d a drain, %d a sample | longest drain ms | "
	       "median drain ms | longest close ms | hosts |\n",
	       CHURN_DRAIN, GROW_SAMPLE);
	printf("|---:|---:|---:|---:|---:|---:|\n");
	printf("| %d | %d | %.1f | %.1f | %.1f | %zu |\n", GROW_HOSTS, GROW_HOSTS, ms[0], ms[n / 2],
	       close_ms, hosttab_count(t));
	hosttab_free(t);
	free(ring);
	return 0;
}

/* A table of NEW_PUBLIC public sources never looked up (round r's own), sending to one
 * private host. */
static struct hosttab *new_public(unsigned r)
{
	struct hosttab *t = hosttab_new(NEW_PUBLIC + 1);
	uint32_t k = r * 7919u, n = 0;
	struct flow_key src, dst;

	flow_key_ipv4(&dst, htonl(0xc0a8010a)); /* 192.168.1.10 */
	while (t && n < NEW_PUBLIC) {
		flow_key_ipv4(&src, htonl(0x01000000u + k++ * 40503u)); /* spread over 1/8 on */
		if (geo_classify(&src) != GEO_PUBLIC)
			continue;
		hosttab_add_frame(t, &src, 1, 60, 0);
		hosttab_add_frame(t, &dst, 0, 60, 0);
		n++;
	}
	if (t)
		hosttab_end(t, 1.0);
	return t;
}

/* The group build by AS of a sample in which NEW_PUBLIC new public sources came: ms
 * the sample waits for it, looked up in place and aside, and ms until the worker's
 * last answer is in. */
static void by_as(void)
{
	double in_place[AS_ROUNDS], aside[AS_ROUNDS], answered[AS_ROUNDS];
	struct group_opts o = { .by = GROUP_AS };
	char err[512];
	struct geo *geo = geo_open(NULL, err, sizeof(err));
	unsigned r;

	if (!geo) {
		printf("\n(no group build by AS: %s)\n", err);
		return;
	}
	for (r = 0; r < AS_ROUNDS; r++) {
		int mode;

		for (mode = 0; mode < 2; mode++) {
			struct hosttab *t = new_public(2 * r + (unsigned)mode);
			struct groups *g = groups_new(NEW_PUBLIC + 1, geo);
			double t0;

			if (!t || !g)
				exit(1);
			if (mode)
				groups_look_up_aside(g);
			t0 = wall_ms();
			groups_build(g, t, &o);
			(mode ? aside : in_place)[r] = wall_ms() - t0;
			if (mode) {
				groups_settle(g, t, 60000);
				answered[r] = wall_ms() - t0;
			}
			groups_free(g);
			hosttab_free(t);
		}
	}
	printf("\n| new public sources in the sample | group build by AS, looked up in place ms "
	       "| looked up aside ms | the worker's last answer in after ms |\n");
	printf("|---:|---:|---:|---:|\n");
	printf("| %d | %.1f | %.1f | %.1f |\n", NEW_PUBLIC, median3(in_place), median3(aside),
	       median3(answered));
	geo_close(geo);
}

int main(int argc, char **argv)
{
	FILE *devnull = fopen("/dev/null", "w");
	SCREEN *scr;
	int a;

	if (argc < 2) {
		fprintf(stderr, "usage: tick N...\n");
		return 2;
	}
	setenv("TERM", "xterm", 0);
	setenv("LINES", "40", 1);
	setenv("COLUMNS", "120", 1);
	scr = newterm(NULL, devnull, stdin);
	set_term(scr);
	endwin();
	printf("| hosts | fold records ms | close sample ms | view ms | draw ms | busy tick ms | "
	       "idle tick ms | bytes/host |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (a = 1; a < argc; a++) {
		unsigned long n = strtoul(argv[a], NULL, 10);
		double fo[TICKS], cl[TICKS], vw[TICKS], dr[TICKS], tot[TICKS], idle[TICKS];
		struct flow_totals totals = {};
		long rss0, rss1;
		struct hosttab *t = hosttab_new(n + n / 10 + 1); /* room for all, as -m gives it */
		union flow_ring_slot *ring = calloc(n, sizeof(*ring));
		struct view v;
		int i;

		if (!ring)
			return 1;
		fill_ring(ring, (uint32_t)n, 0x0a000000, true); /* 10.0.0.0 on, to one host */
		rss0 = rss_kib(); /* the table's and the view's memory, not the records' */
		view_init(&v);
		for (i = 0; i < 2 * TICKS; i++) {
			struct screen_state st = { .view = &v,
						   .totals = &totals,
						   .iface = "bench" };
			double t0, t1, t2, t3, t4;
			bool busy = i < TICKS;

			t0 = cpu_now();
			if (busy) /* the records as one ring holds them, in order */
				sampler_fold(t, ring, UINT64_MAX, 0, n, NULL, 0, false, false, NULL,
					     NULL, NULL);
			t1 = cpu_now();
			hosttab_end(t, 1.0);
			t2 = cpu_now();
			view_build(&v, t, view_want(&v, 34), NULL, NULL);
			t3 = cpu_now();
			screen_draw(&st);
			t4 = cpu_now();
			if (busy) {
				fo[i] = t1 - t0;
				cl[i] = t2 - t1;
				vw[i] = t3 - t2;
				dr[i] = t4 - t3;
				tot[i] = t4 - t0;
			} else {
				idle[i - TICKS] = t4 - t0;
			}
		}
		rss1 = rss_kib();
		printf("| %lu | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f |\n", n, median(fo),
		       median(cl), median(vw), median(dr), median(tot), median(idle),
		       (double)(rss1 - rss0) * 1024 / (double)n);
		fflush(stdout);
		view_free(&v);
		hosttab_free(t);
		free(ring);
	}
	delscreen(scr);
	fclose(devnull);
	if (long_lived() || churn(FLOWTOP_DEFAULT_MAX_HOSTS) || grow())
		return 1;
	by_as();
	return 0;
}
