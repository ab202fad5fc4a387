// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* iface.c: the default interface from the routing table, interface facts from ioctls,
 * their addresses from rtnetlink. */
#include "iface.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "flowtop.h"

/* The interface of the default route with the lowest metric in /proc/net/route. */
static bool default_route_v4(char name[IF_NAMESIZE])
{
	unsigned long dest, flags, metric, best = (unsigned long)-1;
	char line[256], ifn[IF_NAMESIZE + 1];
	FILE *f = fopen("/proc/net/route", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%16s %lx %*x %lx %*d %*d %lu", ifn, &dest, &flags, &metric) != 4)
			continue; /* the header line */
		if (dest == 0 && (flags & 1 /* RTF_UP */) && metric < best &&
		    strlen(ifn) < IF_NAMESIZE) {
			best = metric;
			strcpy(name, ifn);
		}
	}
	fclose(f);
	return best != (unsigned long)-1;
}

/* ::/0 in /proc/net/ipv6_route: dest, plen, src, plen, next hop, metric, refs, use,
 * flags, name. */
static bool default_route_v6(char name[IF_NAMESIZE])
{
	char line[512], dest[33], ifn[IF_NAMESIZE + 1];
	unsigned plen;
	bool found = false;
	FILE *f = fopen("/proc/net/ipv6_route", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%32s %x %*s %*x %*s %*x %*x %*x %*x %16s", dest, &plen, ifn) != 3)
			continue;
		if (plen == 0 && !strcmp(dest, "00000000000000000000000000000000") &&
		    strcmp(ifn, "lo") && strlen(ifn) < IF_NAMESIZE) {
			strcpy(name, ifn);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* The link header in front of the network header, by link type: Ethernet and loopback
 * have 14 bytes; tun, WireGuard, raw IP, the IP-in-IP tunnels and PPP hand packet
 * sockets the IP packet alone (the version nibble tells IPv4 from IPv6). Any other
 * type's header is unknown to flowtop (802.11 radiotap, CAN, InfiniBand, IP-GRE with
 * its header, ...): *supported says so, and flowtop refuses to attach there. */
static unsigned link_header_len(unsigned short arphrd, bool *supported)
{
	*supported = true;
	switch (arphrd) {
	case ARPHRD_ETHER:
	case ARPHRD_LOOPBACK:
		return FLOWTOP_ETH_HLEN;
	case ARPHRD_NONE:
	case ARPHRD_RAWIP:
	case ARPHRD_TUNNEL:
	case ARPHRD_TUNNEL6:
	case ARPHRD_SIT:
	case ARPHRD_PPP:
		return 0;
	default:
		*supported = false;
		return 0;
	}
}

/* A socket to ask the kernel about interface name with ioctls, and ifr named for it:
 * the fd, or -errno (-ENODEV for a name no interface may have). */
static int ifreq_socket(const char *name, struct ifreq *ifr)
{
	int fd;

	if (strlen(name) >= IF_NAMESIZE)
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(ifr->ifr_name, name);
	return fd;
}

int iface_get(const char *name, struct iface_info *info)
{
	struct ifreq ifr = {};
	int fd, err = 0;

	memset(info, 0, sizeof(*info));
	fd = ifreq_socket(name, &ifr);
	if (fd < 0)
		return fd;
	if (ioctl(fd, SIOCGIFINDEX, &ifr)) {
		err = errno == ENODEV ? -ENODEV : -errno;
		goto out_close;
	}
	info->ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		err = -errno;
		goto out_close;
	}
	info->up = ifr.ifr_flags & IFF_UP;
	info->running = ifr.ifr_flags & IFF_RUNNING;
	info->loopback = ifr.ifr_flags & IFF_LOOPBACK;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		err = -errno;
		goto out_close;
	}
	info->arphrd = ifr.ifr_hwaddr.sa_family;
	info->link_hlen = link_header_len(info->arphrd, &info->supported);
	strcpy(info->name, name);
out_close:
	close(fd);
	return err;
}

/* As pcap_lookupnet() asks: the interface's IPv4 address, then its netmask. */
int iface_ipv4_netmask(const char *name, uint32_t *mask)
{
	struct ifreq ifr = {};
	int fd, err = 0;

	fd = ifreq_socket(name, &ifr);
	if (fd < 0)
		return fd;
	ifr.ifr_addr.sa_family = AF_INET;
	if (ioctl(fd, SIOCGIFADDR, &ifr) || ioctl(fd, SIOCGIFNETMASK, &ifr))
		err = -errno;
	else
		memcpy(mask, &((struct sockaddr_in *)&ifr.ifr_netmask)->sin_addr, sizeof(*mask));
	close(fd);
	return err;
}

/* Takes the names of one rtnetlink message batch (RTM_NEWLINK messages) into *all; 1 at
 * the dump's end, 0 for more, or -errno. */
static int nameindex_take(const void *buf, size_t len, struct if_nameindex **all, size_t *n)
{
	const struct nlmsghdr *h;

	for (h = buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		const struct ifinfomsg *ifi = NLMSG_DATA(h);
		const struct rtattr *a;
		struct if_nameindex *more;
		int alen;

		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)) &&
				       *(const int *)NLMSG_DATA(h)
				   ? *(const int *)NLMSG_DATA(h)
				   : -EIO;
		if (h->nlmsg_type != RTM_NEWLINK || h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
			continue;
		alen = (int)IFLA_PAYLOAD(h);
		for (a = IFLA_RTA(ifi); RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
			if (a->rta_type != IFLA_IFNAME)
				continue;
			more = realloc(*all, (*n + 2) * sizeof(**all));
			if (!more)
				return -ENOMEM;
			*all = more;
			more[*n].if_index = (unsigned)ifi->ifi_index;
			more[*n].if_name = strndup(RTA_DATA(a), RTA_PAYLOAD(a));
			if (!more[*n].if_name)
				return -ENOMEM;
			more[++*n] = (struct if_nameindex){ 0, NULL };
			break;
		}
	}
	return 0;
}

struct if_nameindex *iface_nameindex(void)
{
	/* with an extension mask the kernel sizes the dump's messages for the largest
	 * interface's (rtnl_calcit()); without one a message past some 4 KB is left out,
	 * as glibc's own dump does. No statistics: they are not read */
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
		struct rtattr mask_attr;
		__u32 mask;
	} req = { .h = { .nlmsg_len = sizeof(req),
			 .nlmsg_type = RTM_GETLINK,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			 .nlmsg_seq = 1 },
		  .ifi = { .ifi_family = AF_UNSPEC },
		  .mask_attr = { .rta_len = RTA_LENGTH(sizeof(__u32)), .rta_type = IFLA_EXT_MASK },
		  .mask = RTEXT_FILTER_SKIP_STATS };
	struct if_nameindex *all = calloc(1, sizeof(*all));
	size_t n = 0, cap = 32768;
	void *buf = malloc(cap), *bigger;
	ssize_t got;
	int fd = -1, ret = all && buf ? 0 : -ENOMEM;

	if (!ret && ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) < 0 ||
		     send(fd, &req, sizeof(req), 0) < 0))
		ret = -errno;
	while (!ret) {
		/* the next batch's whole length first, and room for it */
		got = recv(fd, buf, cap, MSG_PEEK | MSG_TRUNC);
		if (got < 0 && errno == EINTR)
			continue;
		if (got > 0 && (size_t)got > cap) {
			bigger = realloc(buf, (size_t)got);
			if (!bigger) {
				ret = -ENOMEM;
				break;
			}
			buf = bigger, cap = (size_t)got;
		}
		got = got < 0 ? got : recv(fd, buf, cap, 0);
		if (got < 0)
			ret = errno == EINTR ? 0 : -errno;
		else if (got == 0)
			ret = -EIO;
		else
			ret = nameindex_take(buf, (size_t)got, &all, &n);
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	if (ret < 0) {
		iface_freenameindex(all);
		errno = -ret;
		return NULL;
	}
	return all;
}

void iface_freenameindex(struct if_nameindex *all)
{
	struct if_nameindex *i;

	for (i = all; i && i->if_name; i++)
		free(i->if_name);
	free(all);
}

void iface_names_or_default(struct iface_names *l)
{
	char name[IF_NAMESIZE];

	if (l->text[0])
		return;
	iface_default(name);
	iface_names_add(l, name);
}

void iface_default(char name[IF_NAMESIZE])
{
	struct if_nameindex *all, *i;
	struct iface_info info;

	if (default_route_v4(name) || default_route_v6(name))
		return;
	all = iface_nameindex();
	for (i = all; i && i->if_index; i++) {
		if (!iface_get(i->if_name, &info) && info.up && !info.loopback) {
			strcpy(name, info.name);
			iface_freenameindex(all);
			return;
		}
	}
	iface_freenameindex(all);
	strcpy(name, "lo");
}

size_t iface_list(char *buf, size_t len)
{
	struct if_nameindex *all = iface_nameindex(), *i;
	size_t n = 0, used = 0;

	if (len)
		buf[0] = '\0';
	for (i = all; i && i->if_index; i++, n++) {
		int w = snprintf(buf + used, len - used, "%s%s", n ? ", " : "", i->if_name);

		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	iface_freenameindex(all);
	return n;
}

void iface_describe_error(const char *name, int err, char *buf, size_t len)
{
	char names[512];

	if (err != -ENODEV) {
		snprintf(buf, len, "cannot query interface '%s': %s", name, strerror(-err));
		return;
	}
	iface_list(names, sizeof(names));
	snprintf(buf, len, "no interface '%s' (there are: %s)", name, names);
}

void iface_describe_unsupported(const struct iface_info *info, char *buf, size_t len)
{
	snprintf(buf, len,
		 "cannot count on '%s': its link type (ARPHRD %u) has a header flowtop does "
		 "not know; it counts on Ethernet, loopback and raw IP links (tun, WireGuard, "
		 "IP-in-IP, PPP)",
		 info->name, info->arphrd);
}

int iface_split(const char *list, char (*names)[IF_NAMESIZE], size_t max, char *err, size_t errlen)
{
	const char *p = list, *comma;
	size_t n = 0, len, i;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len || len >= IF_NAMESIZE) {
			snprintf(err, errlen, "invalid interface name '%.*s' (1 to %d bytes)",
				 (int)len, p, IF_NAMESIZE - 1);
			return -EINVAL;
		}
		for (i = 0; i < n && (strlen(names[i]) != len || memcmp(names[i], p, len)); i++)
			;
		if (i == n) {
			if (n == max) {
				snprintf(err, errlen, "more than %zu interfaces in '%s'", max,
					 list);
				return -EINVAL;
			}
			memcpy(names[n], p, len);
			names[n++][len] = '\0';
		}
		if (!comma)
			return (int)n;
		p = comma + 1;
	}
}

int iface_get_watchable(const char *name, struct iface_info *info, char *err, size_t errlen)
{
	int ret = iface_get(name, info);

	if (ret) {
		iface_describe_error(name, ret, err, errlen);
		return ret;
	}
	if (!info->supported) {
		iface_describe_unsupported(info, err, errlen);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

int iface_names_parse(struct iface_names *l, const char *text, char *err, size_t errlen)
{
	int n;

	iface_names_clear(l);
	if (strlen(text) >= sizeof(l->text)) {
		snprintf(err, errlen, "interface list too long (%zu bytes)", sizeof(l->text) - 1);
		return -EINVAL;
	}
	if (!strcmp(text, IFACE_ANY)) {
		l->any = true;
	} else {
		n = iface_split(text, l->names, IFACE_NAMES_MAX, err, errlen);
		if (n < 0)
			return n;
		l->n = (size_t)n;
	}
	strcpy(l->text, text);
	return 0;
}

void iface_names_clear(struct iface_names *l)
{
	l->text[0] = '\0';
	l->n = 0;
	l->any = false;
}

int iface_names_add(struct iface_names *l, const char *name)
{
	size_t len = strlen(name), used = strlen(l->text), i;

	if (l->any)
		return 0;
	if (!strcmp(name, IFACE_ANY)) {
		l->any = true;
		l->n = 0;
		strcpy(l->text, IFACE_ANY);
		return 0;
	}
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return 0;
	if (!len || len >= IF_NAMESIZE || l->n == IFACE_NAMES_MAX ||
	    used + len + 2 > sizeof(l->text))
		return -EINVAL;
	strcpy(l->names[l->n++], name);
	snprintf(l->text + used, sizeof(l->text) - used, "%s%s", used ? "," : "", name);
	return 0;
}

/* Whether ifindex is one of the interfaces of links (gone ones aside); NULL: any is. */
static bool watched(int ifindex, const struct iface_watch *links, size_t n)
{
	size_t i;

	if (!links)
		return true;
	for (i = 0; i < n; i++)
		if (!links[i].gone && links[i].info.ifindex == ifindex)
			return true;
	return false;
}

/* key into the sorted out[0..*n-1] unless it is there or out holds max already. */
static void insert_sorted(struct flow_key *out, size_t *n, size_t max, const struct flow_key *key)
{
	size_t lo = 0, hi = *n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(&out[mid], key, sizeof(*key));

		if (!c)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (*n == max)
		return;
	memmove(&out[lo + 1], &out[lo], (*n - lo) * sizeof(*out));
	out[lo] = *key;
	(*n)++;
}

/* The address of an RTM_NEWADDR message of len bytes (its header's included) as a key:
 * IFA_LOCAL, else IFA_ADDRESS (on a point-to-point link IFA_ADDRESS is the peer's).
 * False when it has none, or is neither IPv4 nor IPv6. */
static bool address_of(const struct ifaddrmsg *ifa, size_t len, struct flow_key *key)
{
	size_t alen = ifa->ifa_family == AF_INET ? 4 : ifa->ifa_family == AF_INET6 ? 16 : 0;
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*ifa));
	const char *msg = (const char *)ifa - NLMSG_HDRLEN, *local = NULL, *address = NULL;

	while (alen && len >= off + sizeof(struct rtattr)) {
		const struct rtattr *rta = (const void *)(msg + off);

		if (rta->rta_len < sizeof(*rta) || rta->rta_len > len - off)
			break;
		if (rta->rta_len == RTA_LENGTH(alen) && rta->rta_type == IFA_LOCAL)
			local = msg + off + RTA_LENGTH(0);
		if (rta->rta_len == RTA_LENGTH(alen) && rta->rta_type == IFA_ADDRESS)
			address = msg + off + RTA_LENGTH(0);
		off += RTA_ALIGN(rta->rta_len);
	}
	if (!local)
		local = address;
	if (!local)
		return false;
	memset(key, 0, sizeof(*key));
	if (alen == 4)
		key->addr[10] = key->addr[11] = 0xff; /* ::ffff:a.b.c.d, as the filter keys it */
	memcpy(&key->addr[16 - alen], local, alen);
	return true;
}

int iface_addresses_parse(const void *buf, size_t len, const struct iface_watch *links, size_t n,
			  struct flow_key *out, size_t *count, size_t max)
{
	const char *p = buf;
	size_t off = 0;
	struct flow_key key;

	while (len - off >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *h = (const void *)(p + off);
		const void *data = p + off + NLMSG_HDRLEN;

		if (h->nlmsg_len < sizeof(*h) || h->nlmsg_len > len - off)
			return -EBADMSG;
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = data;

			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			return e->error ? e->error : 1;
		}
		if (h->nlmsg_type == RTM_NEWADDR &&
		    h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct ifaddrmsg))) {
			const struct ifaddrmsg *ifa = data;

			if (watched((int)ifa->ifa_index, links, n) &&
			    address_of(ifa, h->nlmsg_len, &key))
				insert_sorted(out, count, max, &key);
		}
		off += NLMSG_ALIGN(h->nlmsg_len);
		if (off > len)
			break;
	}
	return 0;
}

int iface_addresses(const struct iface_watch *links, size_t n, struct flow_key *out, size_t max)
{
	struct {
		struct nlmsghdr h;
		struct ifaddrmsg ifa;
	} req = { .h = { .nlmsg_len = sizeof(req),
			 .nlmsg_type = RTM_GETADDR,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			 .nlmsg_seq = 1 },
		  .ifa = { .ifa_family = AF_UNSPEC } };
	union {
		struct nlmsghdr h; /* aligns the buffer for the headers in it */
		char bytes[32768];
	} buf;
	size_t count = 0;
	ssize_t got;
	int fd, ret = 0;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) < 0)
		ret = -errno;
	while (!ret) {
		/* MSG_TRUNC: the message's whole length, to see one cut to the buffer */
		got = recv(fd, buf.bytes, sizeof(buf.bytes), MSG_TRUNC);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			ret = -errno;
		else if (got == 0 || (size_t)got > sizeof(buf.bytes))
			ret = -EMSGSIZE;
		else
			ret = iface_addresses_parse(buf.bytes, (size_t)got, links, n, out, &count,
						    max);
	}
	close(fd);
	return ret < 0 ? ret : (int)count;
}
