// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* caps.c: reads the effective capability set with capget(2) (no libcap needed). */
#include "caps.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
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
