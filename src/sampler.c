// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* sampler.c: batch reads of the per-CPU hosts map (key-by-key where the kernel has no
 * batch ops), per-CPU sums, and the stats array. */
#include "sampler.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

struct sampler {
	int hosts_fd, stats_fd;
	unsigned ncpus;
	size_t max_entries;	    /* the hosts map's capacity */
	size_t cap;		    /* keys the buffers hold */
	struct flow_key *keys;	    /* cap keys */
	struct flow_counters *vals; /* cap * ncpus values */
	struct flow_stats *stats;   /* ncpus values */
	bool no_batch;		    /* the kernel refused batch lookups once */
};

struct sampler *sampler_new(int hosts_fd, int stats_fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct sampler *s;
	int ncpus, err;

	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0) {
		errno = ncpus ? -ncpus : EINVAL;
		return NULL;
	}
	err = bpf_obj_get_info_by_fd(hosts_fd, &info, &len);
	if (err) {
		errno = -err;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->hosts_fd = hosts_fd;
	s->stats_fd = stats_fd;
	s->ncpus = (unsigned)ncpus;
	s->max_entries = info.max_entries;
	/* a walk racing inserts and evictions may meet more keys than the map holds */
	s->cap = info.max_entries + info.max_entries / 8 + 64;
	s->keys = calloc(s->cap, sizeof(*s->keys));
	s->vals = calloc(s->cap * s->ncpus, sizeof(*s->vals));
	s->stats = calloc(s->ncpus, sizeof(*s->stats));
	if (!s->keys || !s->vals || !s->stats) {
		sampler_free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	free(s->keys);
	free(s->vals);
	free(s->stats);
	free(s);
}

void sampler_force_by_key(struct sampler *s)
{
	s->no_batch = true;
}

/* Reads up to cap entries with BPF_MAP_LOOKUP_BATCH; -EINVAL/-ENOTSUP mean "no batch". */
static int read_batch(struct sampler *s, size_t *n)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 token, count;
	void *in = NULL;
	int err;

	*n = 0;
	while (*n < s->cap) {
		count = (__u32)(s->cap - *n);
		err = bpf_map_lookup_batch(s->hosts_fd, in, &token, s->keys + *n,
					   s->vals + *n * s->ncpus, &count, &opts);
		*n += count;
		if (err == -ENOENT)
			return 0; /* the walk is complete */
		if (err)
			return err;
		in = &token;
	}
	return 0;
}

static int read_by_key(struct sampler *s, size_t *n)
{
	struct flow_key *prev = NULL;
	int err;

	*n = 0;
	while (*n < s->cap) {
		err = bpf_map_get_next_key(s->hosts_fd, prev, &s->keys[*n]);
		if (err == -ENOENT)
			return 0;
		if (err)
			return err;
		err = bpf_map_lookup_elem(s->hosts_fd, &s->keys[*n], s->vals + *n * s->ncpus);
		prev = &s->keys[*n];
		if (err == -ENOENT)
			continue; /* evicted between the two calls */
		if (err)
			return err;
		(*n)++;
	}
	return 0;
}

static int read_stats(struct sampler *s, struct flow_stats *sum)
{
	__u32 zero = 0;
	unsigned c;
	int err;

	err = bpf_map_lookup_elem(s->stats_fd, &zero, s->stats);
	if (err)
		return err;
	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < s->ncpus; c++) {
		sum->frames += s->stats[c].frames;
		sum->bytes += s->stats[c].bytes;
		sum->non_ip += s->stats[c].non_ip;
		sum->truncated += s->stats[c].truncated;
		sum->new_entries += s->stats[c].new_entries;
		sum->lost += s->stats[c].lost;
		sum->out_frames += s->stats[c].out_frames;
		sum->out_bytes += s->stats[c].out_bytes;
	}
	return 0;
}

static uint64_t stat_delta(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

int sampler_read(struct sampler *s, struct hosttab *t, struct flow_totals *totals, double interval)
{
	struct flow_stats now;
	size_t n, i;
	unsigned c;
	int err;

	/* stats first: a frame counted in a host entry is then never missing from them */
	err = read_stats(s, &now);
	if (err)
		return err;
	err = s->no_batch ? -EINVAL : read_batch(s, &n);
	if (err == -EINVAL || err == -ENOTSUP || err == -EOPNOTSUPP) {
		s->no_batch = true;
		err = read_by_key(s, &n);
	}
	if (err)
		return err;

	hosttab_begin(t);
	for (i = 0; i < n; i++) {
		const struct flow_counters *v = s->vals + i * s->ncpus;
		struct flow_counters sum = {};

		for (c = 0; c < s->ncpus; c++) {
			sum.rx_packets += v[c].rx_packets;
			sum.rx_bytes += v[c].rx_bytes;
			sum.tx_packets += v[c].tx_packets;
			sum.tx_bytes += v[c].tx_bytes;
		}
		err = hosttab_observe(t, &s->keys[i], &sum);
		if (err)
			return err;
	}
	hosttab_end(t, interval);

	totals->delta.frames = stat_delta(now.frames, totals->total.frames);
	totals->delta.bytes = stat_delta(now.bytes, totals->total.bytes);
	totals->delta.non_ip = stat_delta(now.non_ip, totals->total.non_ip);
	totals->delta.truncated = stat_delta(now.truncated, totals->total.truncated);
	totals->delta.new_entries = stat_delta(now.new_entries, totals->total.new_entries);
	totals->delta.lost = stat_delta(now.lost, totals->total.lost);
	totals->delta.out_frames = stat_delta(now.out_frames, totals->total.out_frames);
	totals->delta.out_bytes = stat_delta(now.out_bytes, totals->total.out_bytes);
	totals->total = now;
	totals->live_hosts = hosttab_live(t);
	totals->evicted =
	    now.new_entries > totals->live_hosts ? now.new_entries - totals->live_hosts : 0;
	totals->capacity = s->max_entries;
	totals->interval = interval;
	return 0;
}

int sampler_reset(struct sampler *s, struct hosttab *t, struct flow_totals *totals)
{
	__u32 zero = 0;
	size_t n, i;
	int err;

	err = read_by_key(s, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		err = bpf_map_delete_elem(s->hosts_fd, &s->keys[i]);
		if (err && err != -ENOENT)
			return err;
	}
	memset(s->stats, 0, s->ncpus * sizeof(*s->stats));
	err = bpf_map_update_elem(s->stats_fd, &zero, s->stats, BPF_ANY);
	if (err)
		return err;
	hosttab_clear(t);
	memset(totals, 0, sizeof(*totals));
	totals->capacity = s->max_entries;
	return 0;
}
