// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* caps.c: the capabilities flowtop needs, checked before it starts and given up once it
 * is attached, with libcap-ng. */
#include "caps.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cap-ng.h>
#include <linux/bpf.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has(unsigned cap)
{
	return capng_have_capability(CAPNG_EFFECTIVE, cap);
}

int caps_missing(char *buf, size_t len, bool need_raw)
{
	bool admin, bpf, perfmon, raw;

	if (len)
		buf[0] = '\0';
	if (capng_get_caps_process())
		return 0; /* cannot tell: let the kernel say no */
	admin = has(CAP_SYS_ADMIN);
	bpf = admin || has(CAP_BPF);
	perfmon = admin || has(CAP_PERFMON);
	raw = !need_raw || has(CAP_NET_RAW);
	snprintf(buf, len, "%s%s%s%s%s", bpf ? "" : "CAP_BPF",
		 !bpf && (!perfmon || !raw) ? ", " : "", perfmon ? "" : "CAP_PERFMON",
		 !perfmon && !raw ? ", " : "", raw ? "" : "CAP_NET_RAW");
	return !bpf + !perfmon + !raw;
}

int caps_can_change_user(void)
{
	return !capng_get_caps_process() && has(CAP_SETUID) && has(CAP_SETGID) && has(CAP_SETPCAP);
}

bool caps_bpf_gated(void)
{
	static const unsigned caps[] = { CAP_BPF, CAP_SYS_ADMIN };
	bool had[2], gated;
	union bpf_attr attr;
	size_t i;

	if (capng_get_caps_process())
		return false;
	for (i = 0; i < 2; i++) {
		had[i] = capng_have_capability(CAPNG_EFFECTIVE, caps[i]);
		if (had[i] && capng_update(CAPNG_DROP, CAPNG_EFFECTIVE, caps[i]))
			return false;
	}
	if ((had[0] || had[1]) && capng_apply(CAPNG_SELECT_CAPS))
		return false;
	/* no map: a kernel that does not gate the command answers EBADF */
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (__u32)-1;
	gated = syscall(SYS_bpf, BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr)) < 0 && errno == EPERM;
	/* back as they were (should that fail, caps_drop() sets every set whole anyway) */
	for (i = 0; i < 2; i++)
		if (had[i])
			(void)capng_update(CAPNG_ADD, CAPNG_EFFECTIVE, caps[i]);
	if (had[0] || had[1])
		(void)capng_apply(CAPNG_SELECT_CAPS);
	return gated;
}

int caps_drop(const struct caps_user *user, unsigned keep)
{
	bool setpcap, has_bpf, has_admin;
	int ret;

	if (capng_get_caps_process())
		return -EPERM;
	setpcap = has(CAP_SETPCAP);
	has_bpf = has(CAP_BPF);
	has_admin = has(CAP_SYS_ADMIN);
	capng_clear(CAPNG_SELECT_ALL);
	if (keep & CAPS_KEEP_NET_RAW &&
	    capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED | CAPNG_BOUNDING_SET,
			 CAP_NET_RAW))
		return -EINVAL;
	/* CAP_BPF, or CAP_SYS_ADMIN where it stands in for it (a process given that alone) */
	if (keep & CAPS_KEEP_BPF &&
	    capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED | CAPNG_BOUNDING_SET,
			 !has_bpf && has_admin ? CAP_SYS_ADMIN : CAP_BPF))
		return -EINVAL;
	if (user) {
		/* keeps the state above across setresgid/setgroups/setresuid */
		ret = capng_change_id((int)user->uid, (int)user->gid,
				      CAPNG_DROP_SUPP_GRP | CAPNG_CLEAR_BOUNDING |
					  CAPNG_CLEAR_AMBIENT);
		if (ret)
			return errno ? -errno : -EPERM;
	} else {
		/* dropping from the bounding set takes CAP_SETPCAP, which a process started
		 * with file capabilities lacks; its bounding set only limits what a program it
		 * executes could gain, and flowtop executes none (no_new_privs is set below) */
		ret = capng_apply(setpcap
				      ? CAPNG_SELECT_ALL
				      : (capng_select_t)(CAPNG_SELECT_CAPS | CAPNG_SELECT_AMBIENT));
		if (ret)
			return errno ? -errno : -EPERM;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return 0;
}

int caps_secure_environment(void)
{
	static const char *const unsafe[] = { "TERMINFO", "TERMINFO_DIRS", "TERMCAP",
					      "TERMPATH", "HOME",	   "LOC_LOG" };
	size_t i;
	int n = 0;

	if (!getauxval(AT_SECURE))
		return 0;
	for (i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++)
		if (getenv(unsafe[i]) && !unsetenv(unsafe[i]))
			n++;
	return n;
}
