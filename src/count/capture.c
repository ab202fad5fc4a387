// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* capture.c: owns the skeleton, the packet sockets, the sampler and the host table, the
 * order in which an interface switch touches them, and the watched interfaces' slots:
 * given at attach time for a list, followed through rtnetlink under "any" (where a gone
 * interface's slot and list entry go to a new one once needed, src/count/slots.h). */
#include "capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <bpf/bpf.h>

#include "bpf_load.h"
#include "expr.h"
#include "filefeed.h"
#include "gate.h"
#include "rawsock.h"
#include "sampler.h"
#include "slots.h"

#define LIST_MAX IFACE_NAMES_MAX /* a slot each; slot 0 is FLOWTOP_SLOT_NONE's */
_Static_assert(LIST_MAX == FLOWTOP_MAX_SLOTS - 1, "a listed interface has a slot");
#define WATCH_MAX CAPTURE_ANY_MAX

/* What one attach watches: the interfaces and the sockets the filter runs on. */
struct watch {
	char name[IFACE_NAMES_LEN]; /* as asked: "eth0", "eth0,wg0" or "any" */
	bool any;
	struct iface_watch links[WATCH_MAX];
	int socks[LIST_MAX]; /* a list's bound sockets, -1 once their interface is gone */
	size_t nlinks;
	int any_sock; /* under any: the one unbound socket, else -1 */
	int nl_fd;    /* under any: rtnetlink's link group, else -1 */
};

struct capture {
	struct flowtop_bpf *skel;
	struct sampler *sampler;
	struct hosttab *hosts;
	struct hosttab *ports; /* the port rows, when the program counts ports; else NULL */
	struct flow_totals totals;
	struct watch w;
	struct slots slots;    /* under any: which slots the interfaces hold */
	unsigned long samples; /* samples taken: a slot released is reusable one later */
	uint64_t no_slot;      /* frames without a slot at the last look (under any) */
	int epoll_fd;	       /* the sockets' errors and rtnetlink, as one fd to poll */
	int stats_fd;	       /* BPF_ENABLE_STATS, -1 when off */
	__u64 run_cnt;	       /* capture_filter_runs() at the last capture_cost() */
	__u64 run_time_ns;
	struct filefeed *feed; /* a capture file's frames on their way (capture_attach_file) */
	unsigned generation;   /* how many times counting started over (count_afresh()) */
	unsigned file_room;    /* capture_file_room(): a ring's slots / an IPv6 record's */
	struct gate *gate;     /* the filter expression in front of the count, or NULL */
	char *pending;	       /* an expression that needs the netmask, before the first
				* watch: compiled by attach(), NULL otherwise */
	uint32_t netmask;      /* the watch's for the expression (watch_netmask()) */
};

static void watch_init(struct watch *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < LIST_MAX; i++)
		w->socks[i] = -1;
	w->any_sock = w->nl_fd = -1;
}

static void watch_close(struct watch *w)
{
	size_t i;

	for (i = 0; i < w->nlinks && !w->any; i++)
		rawsock_close(w->socks[i]);
	rawsock_close(w->any_sock);
	if (w->nl_fd >= 0)
		close(w->nl_fd);
	watch_init(w);
}

struct capture *capture_new(unsigned max_hosts, size_t ring_bytes, bool ports, bool verbose,
			    char *err, size_t errlen)
{
	struct capture *c = calloc(1, sizeof(*c));
	struct bpf_maps maps;
	int ret;

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	watch_init(&c->w);
	c->stats_fd = -1;
	c->netmask = EXPR_NETMASK_UNKNOWN;
	c->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (c->epoll_fd < 0) {
		snprintf(err, errlen, "cannot create an epoll instance: %s", strerror(errno));
		goto out_free;
	}
	c->skel = bpf_load(&(struct bpf_load_opts){ .ring_budget = ring_bytes,
						    .ports = ports,
						    .verbose = verbose },
			   err, errlen);
	if (!c->skel) {
		ret = errno;
		capture_free(c);
		errno = ret;
		return NULL;
	}
	bpf_load_maps(c->skel, &maps);
	c->file_room = maps.ring_slots / FLOWTOP_RECORD_SLOTS_V6;
	c->sampler = sampler_new(&maps);
	if (!c->sampler) {
		snprintf(err, errlen, "cannot allocate the sampler: %s", strerror(errno));
		goto out_free;
	}
	c->hosts = hosttab_new(max_hosts);
	if (!c->hosts) {
		snprintf(err, errlen, "cannot allocate a table of %u hosts (-m): %s", max_hosts,
			 strerror(errno));
		goto out_free;
	}
	if (ports) { /* as many port rows as hosts (-m): the idlest leave to "other" */
		c->ports = hosttab_new(max_hosts);
		if (!c->ports) {
			snprintf(err, errlen, "cannot allocate a table of %u ports (-m): %s",
				 max_hosts, strerror(errno));
			goto out_free;
		}
		sampler_set_ports(c->sampler, c->ports);
	}
	ret = sampler_reset(c->sampler, c->hosts, &c->totals); /* the totals' first values */
	if (ret) {
		snprintf(err, errlen, "cannot empty the counters: %s", strerror(-ret));
		goto out_free;
	}
	return c;

out_free:
	capture_free(c);
	return NULL;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	watch_close(&c->w);
	if (c->epoll_fd >= 0)
		close(c->epoll_fd);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	hosttab_free(c->hosts);
	hosttab_free(c->ports);
	sampler_free(c->sampler);
	filefeed_free(c->feed);
	gate_free(c->gate);
	free(c->pending);
	if (c->skel)
		bpf_unload(c->skel);
	free(c);
}

static int poll_fd(struct capture *c, int fd, unsigned events)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };

	return epoll_ctl(c->epoll_fd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

/* A packet socket with the program attached, not yet bound; its fd, or -errno with the
 * reason in err. */
static int open_socket(struct capture *c, char *err, size_t errlen)
{
	int fd = rawsock_prepare(c->gate ? gate_prog_fd(c->gate) : bpf_load_prog_fd(c->skel));

	if (fd < 0)
		snprintf(err, errlen, "cannot open a packet socket: %s%s", strerror(-fd),
			 fd == -EPERM ? " (flowtop needs CAP_NET_RAW)" : "");
	return fd;
}

/* The watched interfaces leave the program's links array, their sockets close. */
static void unwatch(struct capture *c)
{
	size_t i;

	for (i = 0; i < c->w.nlinks; i++)
		if (!c->w.links[i].gone)
			bpf_load_link_drop(c->skel, c->w.links[i].info.ifindex);
	watch_close(&c->w);
}

/* The slots the sampler reads, [0, span): a list's (or a file's) one an entry, those
 * ever given under any. */
static unsigned slot_span(const struct capture *c)
{
	return c->w.any ? c->slots.span : (unsigned)c->w.nlinks + 1;
}

/* Counting starts over on what is now watched: the slots read, the conversations (their
 * peers were other interfaces'), the maps, the table and the totals emptied. */
static int count_afresh(struct capture *c)
{
	c->generation++;
	sampler_set_slots(c->sampler, slot_span(c), capture_several(c));
	sampler_set_convo(c->sampler, NULL);
	return sampler_reset(c->sampler, c->hosts, &c->totals);
}

/* Binds a socket per listed interface into w; on failure nothing stays open. */
static int open_list(struct capture *c, struct watch *w, const struct iface_names *list, char *err,
		     size_t errlen)
{
	const char(*names)[IF_NAMESIZE] = list->names;
	size_t i, j;
	int ret = list->n ? 0 : -EINVAL;

	if (ret)
		snprintf(err, errlen, "no interface to watch");
	for (i = 0; i < list->n; i++) {
		struct iface_info *info = &w->links[i].info;

		ret = iface_get_watchable(names[i], info, err, errlen);
		if (ret)
			break;
		if (c->gate && !gate_fits(c->gate, info->link_hlen, names[i], err, errlen)) {
			ret = -EPROTONOSUPPORT;
			break;
		}
		for (j = 0; j < i; j++)
			if (w->links[j].info.ifindex % FLOWTOP_LINK_INDEX ==
			    info->ifindex % FLOWTOP_LINK_INDEX)
				break;
		if (j < i) {
			snprintf(err, errlen,
				 "cannot watch '%s' and '%s' at once: their indexes %d and %d "
				 "share a place in the filter's table (%d entries)",
				 w->links[j].info.name, names[i], w->links[j].info.ifindex,
				 info->ifindex, FLOWTOP_LINK_INDEX);
			ret = -EBUSY;
			break;
		}
		w->nlinks = i + 1;
		ret = w->socks[i] = open_socket(c, err, errlen);
		if (ret < 0)
			break;
		ret = rawsock_bind(w->socks[i], info);
		if (ret) {
			snprintf(err, errlen, "cannot bind to '%s': %s", names[i], strerror(-ret));
			break;
		}
	}
	if (ret < 0) {
		watch_close(w);
		return ret;
	}
	snprintf(w->name, sizeof(w->name), "%s", list->text);
	return 0;
}

/* Under any: entry k (a gone interface's) leaves the list. */
static void any_remove(struct capture *c, size_t k)
{
	memmove(&c->w.links[k], &c->w.links[k + 1], (c->w.nlinks - k - 1) * sizeof(c->w.links[0]));
	c->w.nlinks--;
}

/* Under any: the slot of a gone interface, released a sample ago or more, is taken back:
 * its counts are put aside (its totals, the hosts' bit) and the gone interface leaves
 * the list. Returns where entry `keep` is now. */
static size_t any_take_back(struct capture *c, unsigned slot, size_t keep)
{
	size_t k;

	sampler_restart_slot(c->sampler, slot);
	hosttab_forget_link(c->hosts, slot);
	if (c->ports)
		hosttab_forget_link(c->ports, slot);
	slots_free(&c->slots, slot);
	for (k = 0; k < c->w.nlinks; k++)
		if (c->w.links[k].gone && c->w.links[k].slot == slot) {
			any_remove(c, k);
			return keep > k ? keep - 1 : keep;
		}
	return keep;
}

/* Under any: gives entry k a slot when its index's place in the filter's table is its
 * own and a slot is left. Without one, its frames count in FLOWTOP_SLOT_NONE, with
 * their link header all the same when the place is its own (the table says its length;
 * a link type flowtop does not know counts as if it had none). */
static void any_give_slot(struct capture *c, size_t k)
{
	const struct iface_info *info = &c->w.links[k].info;
	unsigned slot;

	if (bpf_load_link_put(c->skel, info->ifindex, FLOWTOP_SLOT_NONE, info->link_hlen))
		return; /* its place is another interface's, until that one goes */
	slot = slots_pick(&c->slots, c->samples);
	if (slot == FLOWTOP_SLOT_NONE)
		return;
	if (slots_state(&c->slots, slot) == SLOT_RELEASED)
		k = any_take_back(c, slot, k);
	info = &c->w.links[k].info;
	if (bpf_load_link_put(c->skel, info->ifindex, slot, info->link_hlen))
		return;
	slots_hold(&c->slots, slot);
	c->w.links[k].slot = slot;
}

/* Under any, the list full: a gone interface leaves it, one without a slot first, else
 * one whose slot can be taken back. false when none can yet. */
static bool any_make_room(struct capture *c)
{
	size_t k;

	for (k = 0; k < c->w.nlinks; k++)
		if (c->w.links[k].gone && c->w.links[k].slot == FLOWTOP_SLOT_NONE) {
			any_remove(c, k);
			return true;
		}
	for (k = 0; k < c->w.nlinks; k++)
		if (c->w.links[k].gone &&
		    slots_reusable(&c->slots, c->w.links[k].slot, c->samples)) {
			any_take_back(c, c->w.links[k].slot, 0);
			return true;
		}
	return false;
}

/* Adds an interface that came under any (or was there before it), with a slot if it can
 * have one (any_give_slot()). false when there is no room to list it. */
static bool any_add(struct capture *c, const struct iface_info *info)
{
	size_t k;

	if (c->w.nlinks == WATCH_MAX && !any_make_room(c))
		return false;
	k = c->w.nlinks++;
	c->w.links[k] = (struct iface_watch){ .info = *info, .slot = FLOWTOP_SLOT_NONE };
	any_give_slot(c, k);
	return true;
}

static struct iface_watch *link_by_index(struct capture *c, int ifindex)
{
	size_t i;

	for (i = 0; i < c->w.nlinks; i++)
		if (!c->w.links[i].gone && c->w.links[i].info.ifindex == ifindex)
			return &c->w.links[i];
	return NULL;
}

#define SAY_MORE "; and more" /* what a full message ends with */

/* Appends text to msg (len 0: nothing to say); when it does not fit, msg ends with
 * SAY_MORE instead, once. */
static void say_text(char *msg, size_t len, const char *text)
{
	size_t used = len ? strlen(msg) : 0, more = sizeof(SAY_MORE) - 1;
	int n;

	if (!len || (used >= more && !strcmp(msg + used - more, SAY_MORE)))
		return;
	n = snprintf(msg + used, len - used, "%s%s", used ? "; " : "", text);
	if (n >= 0 && used + (size_t)n + more < len)
		return;
	msg[used] = '\0'; /* it did not fit with room to say there is more */
	if (used && used + more < len)
		strcat(msg, SAY_MORE);
	else if (!used && more + 1 < len)
		strcpy(msg, SAY_MORE + 2);
}

/* Appends "interface NAME WHAT" to msg, as say_text() does. */
static void say(char *msg, size_t len, const char *what, const char *name)
{
	char text[IF_NAMESIZE + 64];

	snprintf(text, sizeof(text), "interface %s %s", name, what);
	say_text(msg, len, text);
}

static void link_gone(struct capture *c, struct iface_watch *l, char *msg, size_t len)
{
	l->gone = true;
	l->info.up = l->info.running = false;
	bpf_load_link_drop(c->skel, l->info.ifindex); /* its slot, or its link header's length */
	if (c->w.any)
		slots_release(&c->slots, l->slot, c->samples);
	say(msg, len, "disappeared", l->info.name);
}

/* Under any: what the kernel says the interfaces are now, against what we have. */
static void any_rescan(struct capture *c, char *msg, size_t len)
{
	struct if_nameindex *all = iface_nameindex(), *i;
	struct iface_info info;
	size_t k;

	if (!all)
		return;
	for (k = 0; k < c->w.nlinks; k++) {
		struct iface_watch *l = &c->w.links[k];
		char name[IF_NAMESIZE];

		for (i = all; i->if_index && (int)i->if_index != l->info.ifindex; i++)
			;
		/* missing from the list: gone, if its index names nothing now either (a list
		 * made while links change may miss one; marked gone, it would come back as
		 * another entry under its own name) */
		if (!l->gone && !i->if_index && !if_indextoname((unsigned)l->info.ifindex, name))
			link_gone(c, l, msg, len);
	}
	for (i = all; i->if_index; i++) {
		struct iface_watch *l = link_by_index(c, (int)i->if_index);

		if (iface_get(i->if_name, &info) || info.ifindex != (int)i->if_index)
			continue; /* renamed or gone since: the next event tells */
		if (l) {
			l->info = info;			  /* a new name, or up and down */
			if (l->slot == FLOWTOP_SLOT_NONE) /* one may be free now */
				any_give_slot(c, (size_t)(l - c->w.links));
		} else if (any_add(c, &info)) {
			say(msg, len, "appeared", info.name);
		}
	}
	iface_freenameindex(all);
	sampler_set_slots(c->sampler, slot_span(c), true);
}

/* Under any: one unbound socket, and rtnetlink to follow the interfaces. */
static int open_any(struct capture *c, struct watch *w, char *err, size_t errlen)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK };
	struct iface_info all = { .ifindex = 0 };
	char why[600];
	int ret;

	if (c->gate && (!gate_fits(c->gate, FLOWTOP_ETH_HLEN, "an interface", why, sizeof(why)) ||
			!gate_fits(c->gate, 0, "an interface", why, sizeof(why)))) {
		snprintf(err, errlen,
			 "-i any watches interfaces with a link header and without: %s", why);
		return -EPROTONOSUPPORT;
	}
	w->nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	if (w->nl_fd < 0 || bind(w->nl_fd, (struct sockaddr *)&nl, sizeof(nl))) {
		snprintf(err, errlen, "cannot follow the interfaces (rtnetlink): %s",
			 strerror(errno));
		ret = -errno;
		goto out_close;
	}
	ret = w->any_sock = open_socket(c, err, errlen);
	if (ret < 0)
		goto out_close;
	ret = rawsock_bind(w->any_sock, &all);
	if (ret) {
		snprintf(err, errlen, "cannot watch every interface: %s", strerror(-ret));
		goto out_close;
	}
	w->any = true;
	snprintf(w->name, sizeof(w->name), IFACE_ANY);
	return 0;

out_close:
	watch_close(w);
	return ret;
}

/* Hooks the sockets of the watch, bound for no protocol until now. An interface gone
 * since it was bound is gone (as its socket's error would say); 0, or -errno when the
 * socket of any cannot be hooked. */
static int arm(struct capture *c, const char *ifname, char *err, size_t errlen)
{
	struct iface_info all = { .ifindex = 0 };
	size_t i;
	int ret;

	if (c->w.any) {
		ret = rawsock_arm(c->w.any_sock, &all);
		if (ret)
			snprintf(err, errlen, "watching '%s', but cannot take its frames: %s",
				 ifname, strerror(-ret));
		return ret;
	}
	for (i = 0; i < c->w.nlinks; i++)
		if (rawsock_arm(c->w.socks[i], &c->w.links[i].info))
			link_gone(c, &c->w.links[i], NULL, 0);
	return 0;
}

/* The netmask an expression is compiled with on ifaces, as tcpdump does: the IPv4 one of
 * the one interface watched (in host order, expr_compile()'s); none under any, for a list
 * or without an IPv4 address. Taken when the watch starts: an address changed later is
 * not followed. */
static uint32_t watch_netmask(const struct iface_names *ifaces)
{
	uint32_t mask;

	if (ifaces->any || ifaces->n != 1 || iface_ipv4_netmask(ifaces->names[0], &mask))
		return EXPR_NETMASK_UNKNOWN;
	return ntohl(mask);
}

/* The gate of text on a watch (name: "eth0", "eth0,wg0", "any" or a file's path; n
 * interfaces) whose netmask is netmask. Only what needs a netmask ('ip broadcast') is
 * compiled with it, so that a new watch rebuilds no other. NULL, *ret and err set, when
 * it needs one the watch has not (-EPROTONOSUPPORT: watch one interface) or gate_new()
 * refuses it (-EINVAL). */
static struct gate *make_gate(struct capture *c, const char *text, uint32_t netmask,
			      const char *name, bool any, size_t n, int *ret, char *err,
			      size_t errlen)
{
	struct gate *g;

	if (!expr_needs_netmask(text)) {
		netmask = EXPR_NETMASK_UNKNOWN;
	} else if (netmask == EXPR_NETMASK_UNKNOWN) {
		char why[IFACE_NAMES_LEN + 64];

		if (c->feed)
			snprintf(why, sizeof(why), "a capture file has none");
		else if (any)
			snprintf(why, sizeof(why), "-i any watches every interface");
		else if (n > 1)
			snprintf(why, sizeof(why), "'%s' are %zu interfaces", name, n);
		else
			snprintf(why, sizeof(why), "'%s' has no IPv4 address", name);
		snprintf(err, errlen,
			 "filter expression '%.512s': 'ip broadcast' takes the netmask of the one "
			 "interface watched, but %s: watch one interface with an IPv4 address",
			 text, why);
		*ret = -EPROTONOSUPPORT;
		return NULL;
	}
	g = gate_new(c->skel, text, netmask, err, errlen);
	if (!g)
		*ret = -EINVAL;
	return g;
}

/* capture_attach(), and whether the sockets were swapped (*swapped): a failure before
 * the swap leaves everything as it was, one after it leaves the new watch in place. */
static int attach(struct capture *c, const struct iface_names *ifaces, bool *swapped, char *err,
		  size_t errlen)
{
	const char *ifname = ifaces->text;
	const char *text = c->pending ? c->pending : c->gate ? gate_text(c->gate) : NULL;
	struct gate *old = c->gate, *judge = NULL;
	uint32_t mask = watch_netmask(ifaces);
	struct watch *next = malloc(sizeof(*next));
	char why[1536];
	size_t i;
	int ret = 0, armed, installed = 0;

	*swapped = false;
	if (!next) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	watch_init(next);
	/* An expression compiled with the netmask (or waiting for one) is compiled anew
	 * with this watch's, and the new sockets are checked against it. */
	if (text && (c->pending ||
		     (gate_netmask(old) != EXPR_NETMASK_UNKNOWN && gate_netmask(old) != mask))) {
		judge = make_gate(c, text, mask, ifname, ifaces->any, ifaces->n, &ret, err, errlen);
		if (!judge) {
			free(next);
			return ret;
		}
		c->gate = judge;
	}
	/* The new sockets are prepared and bound while the current ones still count, so a
	 * failure up to here leaves everything as it was. */
	ret =
	    ifaces->any ? open_any(c, next, err, errlen) : open_list(c, next, ifaces, err, errlen);
	if (ret) {
		c->gate = old;
		gate_free(judge);
		free(next);
		return ret;
	}
	/* Then the swap. Closing the current sockets waits for the filter's runs on their
	 * frames (packet_release); the new ones take none yet. */
	unwatch(c);
	c->w = *next;
	free(next);
	*swapped = true;
	c->netmask = mask;
	if (judge) { /* in force before the new sockets are hooked (arm()) */
		installed = gate_install(judge);
		gate_free(old);
		free(c->pending);
		c->pending = NULL;
	}
	c->no_slot = 0;
	slots_reset(&c->slots);
	for (i = 0; i < c->w.nlinks && !c->w.any; i++) { /* a list's; none yet under any */
		c->w.links[i].slot = (unsigned)i + 1;
		bpf_load_link_put(c->skel, c->w.links[i].info.ifindex, c->w.links[i].slot,
				  c->w.links[i].info.link_hlen);
		poll_fd(c, c->w.socks[i], 0); /* EPOLLERR: down or gone */
	}
	if (c->w.any) {
		any_rescan(c, NULL, 0);
		poll_fd(c, c->w.nl_fd, EPOLLIN);
	}
	/* No socket is hooked yet (bound for no protocol): the counters start over with no
	 * frame on its way, then every socket takes frames, also when they could not start
	 * over (counted on from where they were, and said, rather than not at all). */
	ret = count_afresh(c);
	armed = arm(c, ifname, why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "watching '%s', but cannot empty the counters: %s", ifname,
			 strerror(-ret));
	else if (installed)
		snprintf(err, errlen, "watching '%s', but cannot put the expression in force: %s",
			 ifname, strerror(-installed));
	else if (armed)
		snprintf(err, errlen, "%s", why);
	return ret ? ret : installed ? installed : armed;
}

int capture_attach(struct capture *c, const struct iface_names *ifaces, char *err, size_t errlen)
{
	bool swapped;

	return attach(c, ifaces, &swapped, err, errlen);
}

/* The gate in force is next (NULL: none); what was in force before is freed, or next when
 * it was not taken. */
int capture_set_expression(struct capture *c, const char *text, char *err, size_t errlen)
{
	struct gate *old = c->gate, *next = NULL;
	struct iface_names *now = NULL;
	bool swapped = false;
	int ret = 0;

	if (!c->w.any && !c->w.nlinks && text && text[0] && expr_needs_netmask(text)) {
		/* not watching yet: the first capture_attach() knows the netmask */
		char *copy = strdup(text);

		if (!copy) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		free(c->pending);
		c->pending = copy;
		c->gate = NULL;
		gate_uninstall(c->skel);
		gate_free(old);
		return 0;
	}
	if (text && text[0]) {
		next = make_gate(c, text, c->netmask, c->w.name, c->w.any, c->w.nlinks, &ret, err,
				 errlen);
		if (!next)
			return ret;
		/* in force at once for sockets that attach flowtop_gate: the current ones,
		 * if they do, judge with it until the new ones replace them */
		ret = gate_install(next);
		if (ret) {
			snprintf(err, errlen, "cannot put the expression in force: %s",
				 strerror(-ret));
			gate_free(next);
			return ret;
		}
	}
	c->gate = next;
	if ((c->w.any || c->w.nlinks) && !c->feed) { /* watching: anew, now */
		now = malloc(sizeof(*now));
		ret = now ? iface_names_parse(now, c->w.name, err, errlen) : -ENOMEM;
		if (!ret)
			ret = attach(c, now, &swapped, err, errlen);
		free(now);
	}
	if (ret && !swapped) { /* nothing changed: the old expression stays in force */
		c->gate = old;
		if (old)
			gate_install(old);
		else
			gate_uninstall(c->skel);
		gate_free(next);
		return ret;
	}
	/* the new sockets took the new expression (or none), also when they could not
	 * start over: what the screen says is in force is */
	free(c->pending);
	c->pending = NULL;
	if (!next)
		gate_uninstall(c->skel);
	gate_free(old);
	return ret;
}

const char *capture_expression(const struct capture *c)
{
	return c->pending ? c->pending : c->gate ? gate_text(c->gate) : NULL;
}

int capture_attach_file(struct capture *c, const char *name, unsigned hlen, char *err,
			size_t errlen)
{
	struct iface_watch *l = &c->w.links[0];
	int ret;

	unwatch(c);
	c->netmask = EXPR_NETMASK_UNKNOWN;
	snprintf(c->w.name, sizeof(c->w.name), "%s", name);
	c->w.nlinks = 1;
	*l = (struct iface_watch){ .info = { .ifindex = CAPTURE_FILE_IFINDEX,
					     .link_hlen = hlen,
					     .up = true,
					     .supported = true },
				   .slot = 1 };
	snprintf(l->info.name, sizeof(l->info.name), "file");
	if (!c->feed)
		c->feed = filefeed_new(c->skel);
	if (!c->feed) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = bpf_load_link_put(c->skel, CAPTURE_FILE_IFINDEX, 1, hlen);
	if (!ret)
		ret = count_afresh(c);
	if (ret)
		snprintf(err, errlen, "cannot set the filter up for '%s': %s", name,
			 strerror(-ret));
	return ret;
}

int capture_feed(struct capture *c, const void *frame, size_t len, uint32_t extra)
{
	return filefeed_add(c->feed, frame, len, extra);
}

void capture_feed_filtered(struct capture *c, uint32_t wire_len)
{
	sampler_add_filtered(c->sampler, c->w.links[0].slot, wire_len);
}

int capture_flush(struct capture *c)
{
	return c->feed ? filefeed_flush(c->feed) : 0;
}

int capture_sample(struct capture *c, double interval)
{
	int err = sampler_read(c->sampler, c->hosts, &c->totals, interval);

	c->samples += !err;
	return err;
}

uint64_t capture_drain(struct capture *c)
{
	return sampler_drain(c->sampler, c->hosts);
}

void capture_set_convo(struct capture *c, struct convo *conv)
{
	sampler_set_convo(c->sampler, conv);
}

/* Under any: reads what rtnetlink said since the last call. A message longer than the
 * buffer (a link's with many alternative names passes 16 KB) is cut: what it said is
 * lost, so the interfaces are read again, and that is said. */
static void any_events(struct capture *c, char *msg, size_t len)
{
	char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));
	bool rescan = false;
	ssize_t n;

	while ((n = recv(c->w.nl_fd, buf, sizeof(buf), MSG_TRUNC)) != 0) {
		const struct nlmsghdr *h;

		if (n < 0) {
			rescan |= errno == ENOBUFS; /* events were dropped: ask again */
			if (errno == EINTR || errno == ENOBUFS)
				continue;
			break;
		}
		if ((size_t)n > sizeof(buf)) {
			char cut[96];

			snprintf(cut, sizeof(cut),
				 "a link message of %zd bytes was cut at %zu: the interfaces "
				 "read again",
				 n, sizeof(buf));
			say_text(msg, len, cut);
			rescan = true;
			n = sizeof(buf);
		}
		for (h = (const struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			const struct ifinfomsg *ifi = NLMSG_DATA(h);
			struct iface_watch *l;

			if ((h->nlmsg_type != RTM_NEWLINK && h->nlmsg_type != RTM_DELLINK) ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi))) /* too short to hold it */
				continue;
			l = link_by_index(c, ifi->ifi_index);
			if (h->nlmsg_type == RTM_DELLINK && l)
				link_gone(c, l, msg, len);
			else if (h->nlmsg_type == RTM_NEWLINK)
				rescan = true; /* new, renamed, up or down: read it as it is */
		}
	}
	if (rescan)
		any_rescan(c, msg, len);
}

/* A listed interface: down, back up, or gone (removed, renamed or moved away: its index
 * no longer names it here). */
static void list_event(struct capture *c, size_t i, char *msg, size_t len)
{
	struct iface_watch *l = &c->w.links[i];
	struct iface_info now;
	int err = rawsock_error(c->w.socks[i]);

	if (iface_get(l->info.name, &now) || now.ifindex != l->info.ifindex) {
		link_gone(c, l, msg, len);
		rawsock_close(c->w.socks[i]);
		c->w.socks[i] = -1;
		return;
	}
	now.up = now.up && err != ENETDOWN;
	if (l->info.up && !now.up)
		say(msg, len, "is down", l->info.name);
	else if (!l->info.up && now.up)
		say(msg, len, "is up", l->info.name);
	l->info.up = now.up;
	l->info.running = now.running;
}

int capture_link_event(struct capture *c, char *msg, size_t len)
{
	size_t i, gone = 0;

	if (len)
		msg[0] = '\0';
	if (c->w.any) {
		any_events(c, msg, len);
		/* frames of an interface without a slot, which rtnetlink did not tell of (its
		 * events dropped), or which had none to take: look again if one is free */
		if (slots_pick(&c->slots, c->samples) != FLOWTOP_SLOT_NONE && c->totals.nslots &&
		    c->totals.slot_total[FLOWTOP_SLOT_NONE].frames != c->no_slot) {
			c->no_slot = c->totals.slot_total[FLOWTOP_SLOT_NONE].frames;
			any_rescan(c, msg, len);
		}
		return 0;
	}
	for (i = 0; i < c->w.nlinks; i++) {
		if (!c->w.links[i].gone)
			list_event(c, i, msg, len);
		gone += c->w.links[i].gone;
	}
	return !c->w.nlinks || gone == c->w.nlinks ? -ENODEV : 0;
}

int capture_wake_fd(const struct capture *c)
{
	return sampler_wake_fd(c->sampler);
}

int capture_fd(const struct capture *c)
{
	return c->epoll_fd;
}

const char *capture_name(const struct capture *c)
{
	return c->w.name;
}

unsigned capture_file_room(const struct capture *c)
{
	return c->file_room;
}

unsigned capture_generation(const struct capture *c)
{
	return c->generation;
}

bool capture_up(const struct capture *c)
{
	size_t i;

	if (c->w.any)
		return true;
	for (i = 0; i < c->w.nlinks; i++)
		if (c->w.links[i].info.up)
			return true;
	return false;
}

bool capture_any(const struct capture *c)
{
	return c->w.any;
}

bool capture_several(const struct capture *c)
{
	return c->w.any || c->w.nlinks > 1;
}

const struct iface_watch *capture_links(const struct capture *c, size_t *n)
{
	*n = c->w.nlinks;
	return c->w.links;
}

struct hosttab *capture_hosts(const struct capture *c)
{
	return c->hosts;
}

struct hosttab *capture_ports(const struct capture *c)
{
	return c->ports;
}

const struct flow_totals *capture_totals(const struct capture *c)
{
	return &c->totals;
}

int capture_enable_stats(struct capture *c)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		return fd;
	c->stats_fd = fd;
	return 0;
}

int capture_filter_runs(struct capture *c, uint64_t *runs, uint64_t *run_ns)
{
	/* a socket runs one of them; the count, tail-called by the gate, is not timed then */
	const int fds[] = { bpf_load_prog_fd(c->skel), bpf_load_gate_fd(c->skel) };
	size_t i;

	if (c->stats_fd < 0)
		return -ENODATA;
	*runs = *run_ns = 0;
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(fds[i], &info, &len))
			return -ENODATA;
		*runs += info.run_cnt;
		*run_ns += info.run_time_ns;
	}
	return 0;
}

struct capture_cost capture_cost(struct capture *c)
{
	struct capture_cost cost = { .expression = c->gate != NULL };
	uint64_t runs, run_ns;

	if (capture_filter_runs(c, &runs, &run_ns))
		return cost;
	cost.known = true;
	if (runs > c->run_cnt) {
		cost.frames = runs - c->run_cnt;
		cost.ns = (double)(run_ns - c->run_time_ns) / (double)cost.frames;
	}
	c->run_cnt = runs;
	c->run_time_ns = run_ns;
	return cost;
}
