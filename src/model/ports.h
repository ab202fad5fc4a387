/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* ports.h: what a port row is called (a flow_key_port() key): its protocol's name from the
 * protocols database, its number, and its service from the services database
 * (netbase's /etc/protocols and /etc/services, read once). */
#ifndef FLOWTOP_PORTS_H
#define FLOWTOP_PORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flowkey.h"

/* A port row's parts: proto the protocol's name ("tcp", "ipv6-icmp", "proto 253"; NULL
 * where the frames' protocol is unknown: later IPv4 fragments), port its number or -1
 * for "no port", service its name or NULL. The strings live as long as the process. */
struct port_name {
	const char *proto;
	int port;
	const char *service;
};

void port_name(const struct flow_key *key, struct port_name *out);

/* "443/tcp https", "53/udp domain", "8/icmp", "-/tcp" (its frames had no port to read),
 * "gre" (a protocol without ports), "-" (unknown): into buf of len bytes, returned;
 * without the service's name unless with_service. */
const char *port_label(const struct flow_key *key, bool with_service, char *buf, size_t len);

#endif
