/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* caps.h: the capabilities flowtop needs, checked before it tries anything, and given up
 * once it is attached. */
#ifndef FLOWTOP_CAPS_H
#define FLOWTOP_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Names the missing capabilities ("CAP_BPF, CAP_NET_RAW") in buf; returns how many are
 * missing (0: all there). CAP_BPF loads the program; CAP_PERFMON lets the verifier
 * accept its bounded loop over the headers (without it the program is too complex for
 * the kernel's checks of unprivileged-like code); CAP_NET_RAW opens the packet socket (need_raw: a
 * capture file needs none). CAP_SYS_ADMIN stands in for CAP_BPF and CAP_PERFMON, as the kernel
 * allows. */
int caps_missing(char *buf, size_t len, bool need_raw);

/* Under file capabilities (or setuid) the kernel marks the process AT_SECURE, and glibc
 * drops the dynamic loader's variables; the libraries flowtop starts still read their
 * own. Removed here, before any of them is initialised, are those that make one parse a
 * file the user chose while flowtop holds its capabilities: ncurses' terminal
 * descriptions (TERMINFO, TERMINFO_DIRS, TERMCAP, and ~/.terminfo through HOME; Debian's
 * mitigation of CVE-2023-29491 covers setuid programs only) and libloc's log level.
 * Returns how many it removed (0 without AT_SECURE). */
int caps_secure_environment(void);

/* Whether this process may become another user (CAP_SETUID, CAP_SETGID and CAP_SETPCAP,
 * as root has). */
int caps_can_change_user(void);

struct caps_user {
	uid_t uid;
	gid_t gid;
};

/* What a run keeps once attached. */
enum caps_keep {
	CAPS_KEEP_NONE = 0,	     /* a capture file: nothing more to open */
	CAPS_KEEP_NET_RAW = 1u << 0, /* a new packet socket when the interface changes */
	CAPS_KEEP_BPF = 1u << 1,     /* the screen's e: the program of a new expression; and
				      * the counters where every bpf() command is gated */
};

/* Whether the kernel refuses every bpf() command, a map's lookup too, to a process
 * without CAP_BPF (or CAP_SYS_ADMIN): Linux 5.10 does while
 * kernel.unprivileged_bpf_disabled is set, where later kernels check it for loading
 * programs and making maps alone. flowtop then keeps CAP_BPF to read its counters.
 * Probed with both out of the effective set a moment; false where it cannot tell. */
bool caps_bpf_gated(void);

/* Keeps what `keep` says and drops every other capability from the effective,
 * permitted, inheritable and ambient sets, and from the bounding set when it may
 * (CAP_SETPCAP, as root has); with user, also becomes that user and group, without
 * supplementary groups. Sets no_new_privs. Call once everything else needing privilege
 * is done. 0 or -errno. */
int caps_drop(const struct caps_user *user, unsigned keep);

#endif
