// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* empty.bpf.c: the limit: a socket filter that does nothing and queues nothing. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("socket")
int empty(struct __sk_buff *skb)
{
	(void)skb;
	return 0;
}
