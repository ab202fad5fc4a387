/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* iface.h: network interfaces: which one to watch by default, what they are. */
#ifndef FLOWTOP_IFACE_H
#define FLOWTOP_IFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

struct iface_info {
	char name[IF_NAMESIZE];
	int ifindex;
	unsigned short arphrd; /* link type, ARPHRD_* */
	unsigned link_hlen;    /* bytes of link header before the network header */
	bool up, running, loopback;
	bool supported; /* flowtop knows this link type's header (see iface.c) */
};

/* An interface being watched: what it is, its slot in the filter's counters (struct
 * flow_link; FLOWTOP_SLOT_NONE when it got none), and whether it vanished meanwhile
 * (its counts stay). */
struct iface_watch {
	struct iface_info info;
	unsigned slot;
	bool gone;
};

#define IFACE_ANY "any" /* -i any: every interface, those that come later too */

#define IFACE_NAMES_MAX 255  /* interfaces of a list: a slot each (FLOWTOP_MAX_SLOTS - 1) */
#define IFACE_NAMES_LEN 1024 /* the longest list as text, its NUL included */

/* What -i asks for, parsed once (iface_names_parse()) and handed as it is to what
 * checks, attaches and shows it: "any", or interfaces by name. */
struct iface_names {
	char text[IFACE_NAMES_LEN];		  /* "eth0", "eth0,wg0" or "any"; "": none */
	char names[IFACE_NAMES_MAX][IF_NAMESIZE]; /* a list's, each once, in order */
	size_t n;				  /* 0 under any */
	bool any;
};

/* Parses "any" or a list "eth0,wg0" into l. 0, or -EINVAL with the reason in err (too
 * long, an empty or too long name, more than IFACE_NAMES_MAX). */
int iface_names_parse(struct iface_names *l, const char *text, char *err, size_t errlen);
/* l empty (n 0, text ""), then what iface_names_add() makes it. */
void iface_names_clear(struct iface_names *l);
/* Adds name to l, or makes l "any" for IFACE_ANY (for good: a name then changes
 * nothing). -EINVAL when it does not fit or is no name; a name listed already is 0. */
int iface_names_add(struct iface_names *l, const char *name);

/* Splits an -i list, "eth0,wg0", into names[0..max-1], each once. Returns how many, or
 * -EINVAL with the reason in err (an empty or too long name, more than max). */
int iface_split(const char *list, char (*names)[IF_NAMESIZE], size_t max, char *err, size_t errlen);

/* The interface of the IPv4 (then IPv6) default route, else the first that is up and not
 * loopback, else "lo". */
void iface_default(char name[IF_NAMESIZE]);
/* An empty -i list becomes the default interface (iface_default()); one with names stays. */
void iface_names_or_default(struct iface_names *l);

/* The interfaces of this namespace, as if_nameindex(3) lists them, but from a dump the
 * kernel sizes for the largest interface's message: glibc's if_nameindex() asks for
 * one it does not size, whose messages stop at a page or so, and leaves out an
 * interface with some twenty alternative names (or a NIC's many virtual functions):
 * anyone who may name an interface could hide one from -i any so. NULL with errno on
 * failure; free with iface_freenameindex(). */
struct if_nameindex *iface_nameindex(void);
void iface_freenameindex(struct if_nameindex *all);

/* 0, or -ENODEV when there is no such interface, or another -errno. */
int iface_get(const char *name, struct iface_info *info);

/* The netmask of name's IPv4 address, network order, in *mask (pcap_lookupnet()'s, which
 * tcpdump compiles its expression with). 0, or -EADDRNOTAVAIL when it has no IPv4
 * address, or another -errno. */
int iface_ipv4_netmask(const char *name, uint32_t *mask);

/* iface_get(), and a refusal of a link type flowtop does not know (-EPROTONOSUPPORT),
 * each said in err for the user. 0 or -errno. */
int iface_get_watchable(const char *name, struct iface_info *info, char *err, size_t errlen);

/* "eth0, lo, veth1" (sorted by index), cut to len. Returns the number of interfaces. */
size_t iface_list(char *buf, size_t len);

/* Why flowtop refuses info's interface (!info->supported). */
void iface_describe_unsupported(const struct iface_info *info, char *buf, size_t len);

struct flow_key;

#define IFACE_ADDRESSES_MAX 4096 /* addresses iface_addresses() lists at most */

/* The IPv4 (as IPv4-mapped keys) and IPv6 addresses of the interfaces of links[0..n-1]
 * (by index, gone ones left out), or of every interface when links is NULL, into out:
 * sorted, each once, max at most (the first met). How many, or -errno. One rtnetlink
 * dump of the addresses alone (getifaddrs() dumps the links too, at 2.6 ms a call
 * with 256 interfaces). */
int iface_addresses(const struct iface_watch *links, size_t n, struct flow_key *out, size_t max);
/* Its part in a buffer of rtnetlink messages, len bytes of a reply to RTM_GETADDR: the
 * addresses of RTM_NEWADDR messages into out[0..*count-1], *count grown. 1 at the dump's
 * end (NLMSG_DONE), 0 when more is to come, -errno for an error the kernel answered or
 * a message cut short (-EBADMSG). */
int iface_addresses_parse(const void *buf, size_t len, const struct iface_watch *links, size_t n,
			  struct flow_key *out, size_t *count, size_t max);

/* Why iface_get(name) failed with err, for the user: "no interface 'x' (there are: ...)". */
void iface_describe_error(const char *name, int err, char *buf, size_t len);

#endif
