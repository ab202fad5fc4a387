/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* netns.h: --netns: which network namespace a name, a path or a PID means, and moving
 * flowtop's main thread into it before anything is opened there. */
#ifndef FLOWTOP_NETNS_H
#define FLOWTOP_NETNS_H

#include <stddef.h>

/* The file of the namespace spec names: all digits, a PID (/proc/PID/ns/net); with a
 * '/', a path as given; else a name under /run/netns (as `ip netns` makes them).
 * Returns path, or NULL when spec cannot name one (empty, "." or "..", too long). */
const char *netns_path(const char *spec, char *path, size_t len);

/* Moves the calling thread into the namespace spec names, for good: the interfaces,
 * the default route and the packet sockets flowtop then sees are that namespace's.
 * Takes CAP_SYS_ADMIN. 0, or -errno with the reason in err. */
int netns_enter(const char *spec, char *err, size_t errlen);

#endif
