/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* caps.h: the capabilities flowtop needs, checked before it tries anything. */
#ifndef FLOWTOP_CAPS_H
#define FLOWTOP_CAPS_H

#include <stddef.h>

/* Names the missing capabilities ("CAP_BPF, CAP_NET_RAW") in buf; returns how many are
 * missing (0: all there). CAP_SYS_ADMIN stands in for CAP_BPF, as the kernel allows. */
int caps_missing(char *buf, size_t len);

/* Keeps CAP_NET_RAW (a new packet socket when the interface changes) and drops every
 * other capability from the effective, permitted, inheritable, ambient and bounding
 * sets; sets no_new_privs. Call once everything else needing privilege is done.
 * 0 or -errno. */
int caps_drop_to_net_raw(void);

#endif
