/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* flowtop.h: the map layouts shared by the BPF program and user space; no logic. */
#ifndef FLOWTOP_H
#define FLOWTOP_H

#include <linux/types.h>

#define FLOWTOP_DEFAULT_MAX_HOSTS 65536

/* Key of the hosts map: one IP address. IPv6 as is, IPv4 as IPv4-mapped ::ffff:a.b.c.d,
 * so both families share one map and the key has no padding to compare. */
struct flow_key {
	__u8 addr[16]; /* network byte order */
};

/* Value of the hosts map, one copy per CPU: cumulative since the entry was created.
 * rx/tx are seen from the address's side: rx counts frames sent *to* it. */
struct flow_counters {
	__u64 rx_packets; /* frames whose innermost destination is this address */
	__u64 rx_bytes;	  /* their length on the wire, link header and VLAN tags included */
	__u64 tx_packets; /* frames whose innermost source is this address */
	__u64 tx_bytes;	  /* likewise */
};

/* The one entry of the per-CPU stats array: every frame the filter saw. */
struct flow_stats {
	__u64 frames;	   /* every frame, counted or not */
	__u64 bytes;	   /* their length on the wire */
	__u64 non_ip;	   /* frames with no IP header on the dissector's path */
	__u64 truncated;   /* frames cut short or invalid inside a header on the path */
	__u64 new_entries; /* host entries this filter created (minus live entries = evicted) */
	__u64 lost;	   /* address updates that failed: the map could give no entry */
	__u64 out_frames;  /* frames this host sent (the rest it received) */
	__u64 out_bytes;   /* their length on the wire */
};

/* Link types the filter is told about at attach time (link_hlen, no_link_header). */
#define FLOWTOP_ETH_HLEN 14

_Static_assert(sizeof(struct flow_key) == 16, "flow_key must have no padding");
_Static_assert(sizeof(struct flow_counters) == 32, "flow_counters layout");
_Static_assert(sizeof(struct flow_stats) == 64, "flow_stats layout");

#endif /* FLOWTOP_H */
