// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* caps.c: reads the effective capability set with capget(2) (no libcap needed). */
#include "caps.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has_cap(const struct __user_cap_data_struct data[2], unsigned cap)
{
	return data[cap / 32].effective & (UINT32_C(1) << (cap % 32));
}

int caps_missing(char *buf, size_t len)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	bool bpf, raw;

	if (len)
		buf[0] = '\0';
	if (syscall(SYS_capget, &hdr, data))
		return 0; /* cannot tell: let the kernel say no */
	bpf = has_cap(data, CAP_BPF) || has_cap(data, CAP_SYS_ADMIN);
	raw = has_cap(data, CAP_NET_RAW);
	snprintf(buf, len, "%s%s%s", bpf ? "" : "CAP_BPF", !bpf && !raw ? ", " : "",
		 raw ? "" : "CAP_NET_RAW");
	return !bpf + !raw;
}

int caps_drop_to_net_raw(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	unsigned long cap;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		return -errno;
	/* the bounding set first: dropping from it takes CAP_SETPCAP, given up below */
	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if (cap != CAP_NET_RAW && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			return -errno;
	data[CAP_NET_RAW / 32].effective = data[CAP_NET_RAW / 32].permitted = UINT32_C(1)
									      << (CAP_NET_RAW % 32);
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}
