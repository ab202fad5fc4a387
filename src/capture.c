// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* capture.c: owns the skeleton, the packet socket, the sampler and the host table, and
 * the order in which an interface switch touches them. */
#include "capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "bpf_load.h"
#include "rawsock.h"

struct capture {
	struct flowtop_bpf *skel;
	struct sampler *sampler;
	struct hosttab *hosts;
	struct flow_totals totals;
	struct iface_info iface;
	int sock;      /* -1 while detached */
	int stats_fd;  /* BPF_ENABLE_STATS, -1 when off */
	__u64 run_cnt; /* the program's counters at the last capture_cost_ns() */
	__u64 run_time_ns;
};

struct capture *capture_new(unsigned max_hosts, size_t ring_bytes, bool verbose, char *err,
			    size_t errlen)
{
	struct capture *c = calloc(1, sizeof(*c));
	struct bpf_maps maps;
	int ret;

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->sock = -1;
	c->stats_fd = -1;
	c->skel = bpf_load(&(struct bpf_load_opts){ .ring_budget = ring_bytes, .verbose = verbose },
			   err, errlen);
	if (!c->skel)
		goto out_free;
	bpf_load_maps(c->skel, &maps);
	c->sampler = sampler_new(&maps);
	c->hosts = hosttab_new(max_hosts);
	if (!c->sampler || !c->hosts) {
		snprintf(err, errlen, "cannot allocate the sampler: %s", strerror(errno));
		goto out_free;
	}
	ret = sampler_reset(c->sampler, c->hosts, &c->totals); /* the totals' first values */
	if (ret) {
		snprintf(err, errlen, "cannot empty the counters: %s", strerror(-ret));
		goto out_free;
	}
	return c;

out_free:
	capture_free(c);
	return NULL;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	rawsock_close(c->sock);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	hosttab_free(c->hosts);
	sampler_free(c->sampler);
	if (c->skel)
		bpf_unload(c->skel);
	free(c);
}

int capture_attach(struct capture *c, const char *ifname, char *err, size_t errlen)
{
	struct iface_info next;
	int fd, ret;

	ret = iface_get(ifname, &next);
	if (ret) {
		iface_describe_error(ifname, ret, err, errlen);
		return ret;
	}
	if (!next.supported) {
		iface_describe_unsupported(&next, err, errlen);
		return -EPROTONOSUPPORT;
	}
	/* The new socket is prepared and bound while the current one still counts, so a
	 * failure up to here leaves everything as it was. */
	fd = rawsock_prepare(bpf_load_prog_fd(c->skel));
	if (fd < 0) {
		snprintf(err, errlen, "cannot open a packet socket: %s%s", strerror(-fd),
			 fd == -EPERM ? " (flowtop needs CAP_NET_RAW)" : "");
		return fd;
	}
	ret = rawsock_bind(fd, &next);
	if (ret) {
		snprintf(err, errlen, "cannot bind to '%s': %s", ifname, strerror(-ret));
		rawsock_close(fd);
		return ret;
	}
	/* Then the swap. Frames of either interface that the program counted meanwhile,
	 * some with the other's link header length, go with the counters emptied below:
	 * counting starts over once link_hlen is the new interface's. */
	rawsock_close(c->sock);
	c->sock = fd;
	c->iface = next;
	bpf_load_set_link_hlen(c->skel, next.link_hlen);
	sampler_set_convo(c->sampler, NULL); /* its peers were another interface's */
	ret = sampler_reset(c->sampler, c->hosts, &c->totals);
	if (ret)
		snprintf(err, errlen, "watching '%s', but cannot empty the counters: %s", ifname,
			 strerror(-ret));
	return ret;
}

int capture_sample(struct capture *c, double interval)
{
	return sampler_read(c->sampler, c->hosts, &c->totals, interval);
}

uint64_t capture_drain(struct capture *c)
{
	return sampler_drain(c->sampler, c->hosts);
}

void capture_set_convo(struct capture *c, struct convo *conv)
{
	sampler_set_convo(c->sampler, conv);
}

int capture_link_event(struct capture *c)
{
	struct iface_info now;
	int err;

	if (c->sock < 0)
		return -ENODEV;
	err = rawsock_error(c->sock);
	/* gone, renamed or moved: the index no longer names our interface here */
	if (iface_get(c->iface.name, &now) || now.ifindex != c->iface.ifindex)
		return -ENODEV;
	c->iface.up = now.up;
	c->iface.running = now.running;
	return err == ENETDOWN || !now.up ? -ENETDOWN : 0;
}

int capture_fd(const struct capture *c)
{
	return c->sock;
}

const struct iface_info *capture_iface(const struct capture *c)
{
	return &c->iface;
}

const struct hosttab *capture_hosts(const struct capture *c)
{
	return c->hosts;
}

const struct flow_totals *capture_totals(const struct capture *c)
{
	return &c->totals;
}

int capture_enable_stats(struct capture *c)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		return fd;
	c->stats_fd = fd;
	return 0;
}

int capture_filter_runs(struct capture *c, uint64_t *runs, uint64_t *run_ns)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (c->stats_fd < 0 || bpf_obj_get_info_by_fd(bpf_load_prog_fd(c->skel), &info, &len))
		return -ENODATA;
	*runs = info.run_cnt;
	*run_ns = info.run_time_ns;
	return 0;
}

double capture_cost_ns(struct capture *c)
{
	uint64_t runs, run_ns;
	double cost = -1;

	if (capture_filter_runs(c, &runs, &run_ns))
		return -1;
	if (runs > c->run_cnt)
		cost = (double)(run_ns - c->run_time_ns) / (double)(runs - c->run_cnt);
	c->run_cnt = runs;
	c->run_time_ns = run_ns;
	return cost;
}
