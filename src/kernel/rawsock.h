/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* rawsock.h: the AF_PACKET socket the filter runs on. */
#ifndef FLOWTOP_RAWSOCK_H
#define FLOWTOP_RAWSOCK_H

#include "iface.h"

/* Opens a packet socket with prog_fd attached, not yet bound: it sees no traffic.
 * Returns the fd or -errno. */
int rawsock_prepare(int prog_fd);

/* Binds a prepared socket to the interface (ifindex 0: every interface) for no protocol:
 * the interface is checked (-ENODEV when it is gone), but no frame reaches the filter
 * until rawsock_arm(). 0 or -errno. */
int rawsock_bind(int fd, const struct iface_info *iface);
/* Binds the socket again, for every protocol: from now on the filter runs on every frame
 * the interface sends or receives (on loopback only once: each frame is both). Apart
 * from rawsock_bind(), so that counting can start afresh between the two. 0 or -errno. */
int rawsock_arm(int fd, const struct iface_info *iface);

/* Detaches the filter and closes the socket. */
void rawsock_close(int fd);

/* The socket's pending error (ENETDOWN once its interface went down or away), cleared
 * by reading it; 0 when none. */
int rawsock_error(int fd);

#endif
