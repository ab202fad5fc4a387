// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* history.c: a ring of per-sample deltas per host (floats: 4 bytes a slot is precise
 * enough for a rate) and one ring of sample intervals. */
#include "history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct host_history {
	float rx[HISTORY_SLOTS]; /* bytes received in each kept sample */
	float tx[HISTORY_SLOTS];
	float peak; /* bytes/s */
};

struct history {
	struct host_history *hosts;
	size_t nhosts, cap;
	float interval[HISTORY_SLOTS]; /* seconds of each kept sample */
	unsigned pos;		       /* slot of the next sample */
	unsigned count;		       /* samples kept, up to HISTORY_SLOTS */
};

struct history *history_new(void)
{
	return calloc(1, sizeof(struct history));
}

void history_free(struct history *h)
{
	if (h)
		free(h->hosts);
	free(h);
}

void history_clear(struct history *h)
{
	h->nhosts = 0;
	h->pos = 0;
	h->count = 0;
}

/* Samples to sum for a window: the fewest recent ones covering `seconds`. */
static unsigned window_len(const struct history *h, double seconds)
{
	double covered = 0;
	unsigned k;

	for (k = 0; k < h->count && covered < seconds - 1e-6; k++)
		covered += h->interval[(h->pos + HISTORY_SLOTS - 1 - k) % HISTORY_SLOTS];
	return k;
}

static double sum_rate(const struct history *h, const float *slots, unsigned k)
{
	double bytes = 0, secs = 0;
	unsigned j, s;

	for (j = 0; j < k; j++) {
		s = (h->pos + HISTORY_SLOTS - 1 - j) % HISTORY_SLOTS;
		bytes += slots[s];
		secs += h->interval[s];
	}
	return secs > 0 ? bytes / secs : 0;
}

int history_push(struct history *h, const struct hosttab *t)
{
	size_t n = hosttab_count(t), i;
	unsigned k2;

	if (n > h->cap) {
		size_t cap = n + n / 2 + 64;
		struct host_history *hh = realloc(h->hosts, cap * sizeof(*hh));

		if (!hh)
			return -ENOMEM;
		h->hosts = hh;
		h->cap = cap;
	}
	if (n > h->nhosts) /* new hosts have no past */
		memset(h->hosts + h->nhosts, 0, (n - h->nhosts) * sizeof(*h->hosts));
	h->nhosts = n;
	h->interval[h->pos] = (float)hosttab_interval(t);
	for (i = 0; i < n; i++) {
		const struct host *host = hosttab_get(t, i);

		h->hosts[i].rx[h->pos] = (float)host->delta.rx_bytes;
		h->hosts[i].tx[h->pos] = (float)host->delta.tx_bytes;
	}
	h->pos = (h->pos + 1) % HISTORY_SLOTS;
	if (h->count < HISTORY_SLOTS)
		h->count++;
	k2 = window_len(h, 2.0);
	for (i = 0; i < n; i++) {
		double r = sum_rate(h, h->hosts[i].rx, k2) + sum_rate(h, h->hosts[i].tx, k2);

		if (r > h->hosts[i].peak)
			h->hosts[i].peak = (float)r;
	}
	return 0;
}

double history_rate(const struct history *h, size_t i, double seconds, int tx)
{
	if (i >= h->nhosts)
		return 0;
	return sum_rate(h, tx ? h->hosts[i].tx : h->hosts[i].rx, window_len(h, seconds));
}

double history_peak(const struct history *h, size_t i)
{
	return i < h->nhosts ? h->hosts[i].peak : 0;
}
