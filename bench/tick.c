// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tick.c: the user-space cost of one sampling interval at N hosts: read the map (batch
 * lookups, and key by key for comparison), update the host table, push the rate
 * history, build the view (filter, windows, sort), draw one screen (curses to
 * /dev/null, 120x40). CPU time per phase, median of 5 ticks; resident memory.
 *
 *   tick N...      e.g. tick 1000 10000 100000 1000000 (root) */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_load.h"
#include "fill_hosts.h"
#include "history.h"
#include "hosttab.h"
#include "sampler.h"
#include "screen.h"
#include "view.h"

#define TICKS 5

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
	printf("| hosts | read (batch) ms | read (key by key) ms | host table ms | history ms | "
	       "view (filter, sort) ms | draw ms | total ms | RSS MiB |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (a = 1; a < argc; a++) {
		unsigned long n = strtoul(argv[a], NULL, 10);
		double rd[TICKS], rk[TICKS], ht[TICKS], hi[TICKS], vw[TICKS], dr[TICKS], tot[TICKS];
		struct flowtop_bpf *skel;
		struct flow_totals totals = {};
		struct sampler *s;
		struct hosttab *t = hosttab_new(), *t2 = hosttab_new();
		struct history *h = history_new();
		struct view v;
		char err[256];
		long rss0 = rss_kib();
		int i;

		skel = bpf_load((unsigned)n, false, err, sizeof(err));
		if (!skel || fill_hosts(bpf_load_hosts_fd(skel), n, &(unsigned){ 0 })) {
			fprintf(stderr, "tick: cannot load or fill a map of %lu: %s\n", n, err);
			return 1;
		}
		s = sampler_new(bpf_load_hosts_fd(skel), bpf_load_stats_fd(skel));
		view_init(&v);
		for (i = 0; i < TICKS; i++) {
			double t0, t1, t2x, t3, t4, t5;
			struct screen_state st = { .view = &v,
						   .totals = &totals,
						   .iface = "bench" };

			t0 = cpu_now();
			sampler_read(s, t, &totals, 1.0); /* map read + host table */
			t1 = cpu_now();
			history_push(h, t);
			t2x = cpu_now();
			view_build(&v, t, h, NULL, NULL);
			t3 = cpu_now();
			screen_draw(&st);
			t4 = cpu_now();
			rd[i] = t1 - t0;
			hi[i] = t2x - t1;
			vw[i] = t3 - t2x;
			dr[i] = t4 - t3;
			tot[i] = t4 - t0;
			/* the same read, key by key, into a second table (not in the total) */
			t4 = cpu_now();
			{
				struct sampler *sk =
				    sampler_new(bpf_load_hosts_fd(skel), bpf_load_stats_fd(skel));
				struct flow_totals tk = {};

				sampler_force_by_key(sk);
				t4 = cpu_now();
				sampler_read(sk, t2, &tk, 1.0);
				t5 = cpu_now();
				sampler_free(sk);
			}
			rk[i] = t5 - t4;
		}
		/* host table share of the read: the same table again with no kernel read */
		for (i = 0; i < TICKS; i++) {
			double t0 = cpu_now();
			size_t j;

			hosttab_begin(t2);
			for (j = 0; j < hosttab_count(t); j++)
				hosttab_observe(t2, &hosttab_get(t, j)->addr,
						&hosttab_get(t, j)->seen);
			hosttab_end(t2, 1.0);
			ht[i] = cpu_now() - t0;
		}
		printf("| %lu | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", n,
		       median(rd), median(rk), median(ht), median(hi), median(vw), median(dr),
		       median(tot), (double)(rss_kib() - rss0) / 1024);
		fflush(stdout);
		view_free(&v);
		history_free(h);
		hosttab_free(t);
		hosttab_free(t2);
		sampler_free(s);
		bpf_unload(skel);
	}
	delscreen(scr);
	fclose(devnull);
	return 0;
}
