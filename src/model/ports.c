// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ports.c: port rows' names. The services database is read whole at the first name
 * asked (getservent(): some 600 entries) into a table sorted by port and protocol, so a
 * screen naming its rows each second costs a search, not a read of /etc/services as
 * getservbyport() does at every call. Without the databases (netbase not installed)
 * the protocols the filter reads ports of keep their names, and ports have no service. */
#include "ports.h"

#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

struct service {
	uint16_t port;
	char proto[12];
	size_t line; /* its place in the database: the first of a port and protocol wins */
	char *name;
};

static struct service *services;
static size_t nservices;
static char *proto_names[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int service_cmp(const void *a, const void *b)
{
	const struct service *x = a, *y = b;

	int c;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	c = strcmp(x->proto, y->proto);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Equal port and protocol, whatever the line: what a search compares. */
static int service_find(const void *a, const void *b)
{
	const struct service *x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return strcmp(x->proto, y->proto);
}

/* The protocols whose ports the filter reads, named as /etc/protocols names them, for
 * a machine without it. */
static const struct {
	uint8_t number;
	const char *name;
} builtin_protos[] = {
	{ IPPROTO_ICMP, "icmp" },	{ IPPROTO_TCP, "tcp" },		 { IPPROTO_UDP, "udp" },
	{ IPPROTO_DCCP, "dccp" },	{ IPPROTO_ICMPV6, "ipv6-icmp" }, { IPPROTO_SCTP, "sctp" },
	{ IPPROTO_UDPLITE, "udplite" },
};

static void load_services(void)
{
	struct servent *e;
	struct protoent *p;
	size_t cap = 0;
	unsigned i;

	setservent(1);
	while ((e = getservent())) {
		struct service *grown;

		if (strlen(e->s_proto) >= sizeof(services->proto))
			continue;
		if (nservices == cap) {
			cap = cap ? 2 * cap : 1024;
			grown = realloc(services, cap * sizeof(*services));
			if (!grown)
				break;
			services = grown;
		}
		services[nservices].port = ntohs((uint16_t)e->s_port);
		services[nservices].line = nservices;
		strcpy(services[nservices].proto, e->s_proto);
		services[nservices].name = strdup(e->s_name);
		if (services[nservices].name)
			nservices++;
	}
	endservent();
	if (nservices) /* by port and protocol, a repeated one's first line first */
		qsort(services, nservices, sizeof(*services), service_cmp);
	setprotoent(1);
	while ((p = getprotoent()))
		if (p->p_proto >= 0 && p->p_proto < 256 && !proto_names[p->p_proto])
			proto_names[p->p_proto] = strdup(p->p_name);
	endprotoent();
	for (i = 0; i < sizeof(builtin_protos) / sizeof(builtin_protos[0]); i++)
		if (!proto_names[builtin_protos[i].number])
			proto_names[builtin_protos[i].number] = strdup(builtin_protos[i].name);
	for (i = 0; i < 256; i++) { /* a number the database does not name */
		char name[16];

		if (!proto_names[i] && i != FLOWTOP_PROTO_UNKNOWN) {
			snprintf(name, sizeof(name), "proto %u", i);
			proto_names[i] = strdup(name);
		}
	}
}

void port_name(const struct flow_key *key, struct port_name *out)
{
	uint8_t proto = flow_key_port_proto(key);
	struct service want = { .port = flow_key_port_number(key) }, *found;

	pthread_once(&once, load_services);
	out->proto = proto == FLOWTOP_PROTO_UNKNOWN ? NULL : proto_names[proto];
	out->port = flow_key_port_known(key) ? want.port : -1;
	out->service = NULL;
	if (out->port < 0 || !out->proto || strlen(out->proto) >= sizeof(want.proto))
		return;
	strcpy(want.proto, out->proto);
	found =
	    nservices ? bsearch(&want, services, nservices, sizeof(*services), service_find) : NULL;
	while (found && found > services && !service_find(found - 1, &want))
		found--; /* the first of its port and protocol, as getservbyport() answers */
	out->service = found ? found->name : NULL;
}

/* Whether frames of protocol proto carry ports (or an ICMP type) the filter reads. */
static bool has_ports(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return true;
	default:
		return false;
	}
}

const char *port_label(const struct flow_key *key, bool with_service, char *buf, size_t len)
{
	struct port_name n;

	port_name(key, &n);
	if (!with_service)
		n.service = NULL;
	if (!n.proto)
		snprintf(buf, len, "-");
	else if (n.port >= 0)
		snprintf(buf, len, "%d/%s%s%s", n.port, n.proto, n.service ? " " : "",
			 n.service ? n.service : "");
	else if (has_ports(flow_key_port_proto(key)))
		snprintf(buf, len, "-/%s", n.proto);
	else
		snprintf(buf, len, "%s", n.proto);
	return buf;
}
