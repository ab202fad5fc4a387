// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* vlan_push.bpf.c: a tc egress classifier for the end-to-end tests. It tags every IPv4
 * frame with VLAN 100 (802.1Q), as an 8021q device would; on a device whose tx VLAN
 * offload is off, the kernel then inserts the tag inline before the packet taps see it. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>

#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int vlan_push(struct __sk_buff *skb)
{
	if (skb->protocol == bpf_htons(ETH_P_IP))
		bpf_skb_vlan_push(skb, bpf_htons(ETH_P_8021Q), 100);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
