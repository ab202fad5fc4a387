// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* flowtop.bpf.c: the socket filter. It walks each frame down to its innermost IP header
 * and hands that header's two addresses and the frame's length to user space through
 * its CPU's ring: in a new record, or added to one of its pair that user space has not
 * taken yet, the owner of the pair's set or the ring record its join hint points at
 * (the ring protocol: struct flow_ring_ctl in bpf/flowtop.h). A pair costs user space a
 * record a drain (or one per 4,095 frames), not a record a frame, and the filter adds
 * to a line its own CPU wrote instead of writing one that user space's CPU read last.
 * It returns 0, so no packet is ever queued to the socket. The filter keeps no
 * per-address state but those sets, a fixed table picked by a hash: a hash table's cache
 * misses grow with the number of addresses, a ring's and the sets' do not. When a CPU's
 * ring is full (user space fell behind) the frame is added to a per-CPU LRU hash, the
 * spill map, instead, and counted in stats.spilled: still exact, only slower.
 *
 * The filter starts at the network header and takes the ethertype from skb->protocol.
 * That is what a SOCK_DGRAM packet socket hands it, and also what BPF_PROG_TEST_RUN
 * hands a socket filter, so the tests run exactly the code that counts live traffic.
 *
 * One loaded program serves every watched interface (a bound socket each, or one
 * unbound socket for all) and cannot tell which socket it runs for: it goes by the
 * frame's ifindex. The links array gives each watched interface a slot (its stats
 * entry, the tag of its records and spill keys) and the length of its link header,
 * which only matters for the byte count. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/if_packet.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "flowtop.h"

#define MAX_LAYERS	 16 /* tags + IP headers + IPv6 extension headers + GRE, per frame */
#define IP_OFFSET_MASK	 0x1fff
#define IP6_OFFSET_MASK	 0xfff8
#define VLAN_HLEN	 4
#define NEXTHDR_HOP	 0
#define NEXTHDR_ROUTING	 43
#define NEXTHDR_FRAGMENT 44
#define NEXTHDR_DEST	 60
#define EEXIST		 17
#define LOOPBACK_IFINDEX 1  /* lo's, in every namespace */
#define IPPROTO_ICMP6	 58 /* <linux/in6.h>'s IPPROTO_ICMPV6 */
/* GRE flag bits as <linux/if_tunnel.h> has them (it drags in libc headers): big-endian
 * constants, to be tested against the unswapped field */
#define GRE_CSUM    bpf_htons(0x8000)
#define GRE_ROUTING bpf_htons(0x4000)
#define GRE_KEY	    bpf_htons(0x2000)
#define GRE_SEQ	    bpf_htons(0x1000)
#define GRE_VERSION bpf_htons(0x0007)

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Ring slots of all CPUs: CPU c owns [c * slots, (c + 1) * slots). Sized before load. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, FLOWTOP_DEFAULT_RING_SLOTS);
	__type(key, __u32);
	__type(value, union flow_ring_slot);
} ring SEC(".maps");

/* One head/tail pair per CPU (struct flow_ring_ctl: the ring protocol). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* possible CPUs, set before load */
	__type(key, __u32);
	__type(value, struct flow_ring_ctl);
} ring_ctl SEC(".maps");

/* Each CPU's pair sets, by a hash of the pair (struct flow_pair_set): an IPv4 pair's
 * record counted in place, and where the CPU's last record of other pairs starts. User
 * space reads an owner only when a notice names it, so the sets' lines stay the CPU's.
 * Sized before load. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, FLOWTOP_JOIN_HINTS / 2);
	__type(key, __u32);
	__type(value, struct flow_pair_set);
} joins SEC(".maps");

/* Wakes user space when a CPU's ring passes a quarter full: one notice (the CPU's tail)
 * a crossing, so that it drains long before the ring fills, whatever its drain timer
 * says (struct flow_ring_ctl's woken). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, FLOWTOP_WAKE_BYTES);
} wake SEC(".maps");

/* The ports of each set's owner (FLOWTOP_PORTS_*), at the set's index in joins: read and
 * written as the owner's addresses are. One entry when ports are not counted. Sized
 * before load. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} owner_ports SEC(".maps");

/* Where frames go when their CPU's ring is full. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__uint(max_entries, FLOWTOP_DEFAULT_SPILL_HOSTS);
	__type(key, struct flow_spill_key);
	__type(value, struct flow_spill);
} spill SEC(".maps");

/* The frame counters, per slot: slot FLOWTOP_SLOT_NONE counts frames of interfaces
 * without one. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FLOWTOP_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct flow_stats);
} stats SEC(".maps");

/* The watched interfaces, at ifindex % FLOWTOP_LINK_INDEX (struct flow_link). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FLOWTOP_LINK_INDEX);
	__type(key, __u32);
	__type(value, struct flow_link);
} links SEC(".maps");

/* A capture file's frame as BPF_PROG_TEST_RUN hands it, against the frame on the wire
 * (written by user space before each run; both 0 live): extra_bytes it had past what
 * the run is given (cut by the file's snap length or the run's size limit), and
 * pad_bytes of zeros at the end of what the run is given, up to the least it takes. */
__u32 extra_bytes;
__u32 pad_bytes;

/* Slots per CPU ring minus one (slots are a power of two); set before load. */
const volatile __u32 ring_mask = FLOWTOP_DEFAULT_RING_SLOTS - 1;

/* Pair sets per CPU minus one (a power of two); set before load. */
const volatile __u32 set_mask = FLOWTOP_JOIN_HINTS / 2 - 1;

/* 1 where the CPU may make a record's stores visible after the head's (weakly ordered:
 * not x86): the head is then published by a fully ordered exchange. Set before load;
 * the verifier drops the branch not taken. */
const volatile __u32 exchange_head = 0;

/* 1 where the kernel has BPF atomics that return the old value (Linux 5.12): a frame
 * may then join its pair's record or owner, the addition telling it whether user space
 * took it (struct flow_ring_ctl's exchange). 0 (Linux 5.10, 5.11): every frame is a
 * record of its own, no set is read or written, and the verifier drops the joins, whose
 * instructions such a kernel refuses. Set before load. */
const volatile __u32 fetch_atomics = 1;

/* Whether this object counts ports (FLOWTOP_PORTS_*): a pair is then also its ports,
 * read from the innermost transport header. The Makefile builds the program twice, with
 * COUNT_PORTS 0 and 1, and flowtop loads the one asked for (src/kernel/bpf_load.c):
 * without ports the compiler drops all they do (the cursor keeps their fields, zeroed).
 * want_ports says which this is,
 * for user space; both objects have the same maps, programs and globals, so one
 * skeleton opens either. */
#ifndef COUNT_PORTS
#define COUNT_PORTS 0
#endif
const volatile __u32 want_ports = COUNT_PORTS;

struct vlan_tag {
	__be16 tci;
	__be16 encap_proto;
};

struct gre_base {
	__be16 flags;
	__be16 proto;
};

struct ipv6_ext {
	__u8 nexthdr;
	__u8 hdrlen; /* in 8-byte units, not counting the first 8 */
};

struct ipv6_frag {
	__u8 nexthdr;
	__u8 reserved;
	__be16 frag_off; /* offset in 8-byte units << 3, flags in the low 3 bits */
	__be32 id;
};

enum layer {
	LAYER_ETHERTYPE, /* cursor.next is an ethertype */
	LAYER_IPPROTO,	 /* cursor.next is an IP protocol / IPv6 next header */
};

enum verdict {
	V_MORE,	  /* go on with the next layer */
	V_DONE,	  /* the last IP header found is the innermost on our path */
	V_NON_IP, /* no IP header on the path */
	V_CUT,	  /* a header on the path is cut short or invalid */
};

/* Where the dissector stands, and the addresses of the last IP header it passed. */
struct cursor {
	struct flow_key src; /* last IP header's source (an IPv4 header's in its last 4 bytes
			      * alone: v4) */
	struct flow_key dst; /* and destination */
	__u32 off;	     /* of the next header, in the run's bytes from the network header */
	__u32 end;	     /* where the innermost IP packet so far ends: the frame's end, or
			      * sooner where an IP header declares a shorter length */
	__u16 next;	     /* what the next header is, in the terms of 'layer' */
	__u8 layer;	     /* enum layer */
	__u8 in_ipv6;	     /* next may be an IPv6 extension header */
	__u8 have_ip;	     /* src and dst are set */
	__u8 v4;	     /* src and dst are an IPv4 header's: only their last 4 bytes are */
	__u8 nopts;	     /* option areas passed, in opts (at most MAX_OPTION_AREAS) */
	__u64 opts;	     /* the options of the hop-by-hop and destination headers passed,
			      * [start, end) as 16 bits each, 32 bits an area: checked after
			      * the walk (options_overrun()) */
	__u64 ports;	     /* after the walk, with COUNT_PORTS: FLOWTOP_PORTS_* */
	__u8 ports_read;     /* with COUNT_PORTS: the walk ended at the first IP header, and
			      * the 4 bytes after it were read with it, into ports_pre (as on
			      * the wire) */
	__be16 ports_pre[2];
};

/* Whether n bytes from the cursor fit inside the enclosing IP packet (and the frame). */
static __always_inline int fits(const struct cursor *c, __u32 n)
{
	return c->off + n <= c->end;
}

/* The IP header at the cursor declares its packet `len` bytes long: what follows it
 * must end there (not past the frame, nor past an enclosing packet). */
static __always_inline void bound(struct cursor *c, __u32 len)
{
	if (c->off + len < c->end)
		c->end = c->off + len;
}

/* An IP header and, when ports are counted, the 4 bytes after it: a header without
 * options (IPv4) or extension headers (IPv6) is followed by its transport header, whose
 * ports one load then reads with it (a helper call costs a frame more than the rest of
 * the ports' work together). */
struct ipv4_and_ports {
	struct iphdr h;
	__be16 ports[2];
};

struct ipv6_and_ports {
	struct ipv6hdr h;
	__be16 ports[2];
};

/* Reads the len bytes of an IP header at the cursor into buf, and with COUNT_PORTS and
 * preload the 4 after them too where the frame has them: the bytes read, or 0 when it
 * is cut. Only the first header of a walk preloads (dissect(): outside the layer loop,
 * where the two ways of reading make the verifier walk the rest twice; 5.10's walked
 * 251,874 instructions with every header preloading, more than its budget). Without
 * ports the verifier keeps only the plain load. */
static __always_inline __u32 load_ip_header(struct __sk_buff *skb, const struct cursor *c,
					    void *buf, __u32 len, int preload)
{
	if (COUNT_PORTS && preload && fits(c, len + 4))
		return bpf_skb_load_bytes(skb, c->off, buf, len + 4) ? 0 : len + 4;
	if (!fits(c, len) || bpf_skb_load_bytes(skb, c->off, buf, len))
		return 0;
	return len;
}

/* Notes the ports read with an IP header of hlen bytes at the cursor, when they lie in
 * its packet and right after it. */
static __always_inline void note_ports(struct cursor *c, __u32 hlen, __u32 read,
				       const __be16 ports[2], int preload)
{
	if (COUNT_PORTS && preload && read == hlen + 4 && fits(c, hlen + 4)) {
		c->ports_read = 1;
		__builtin_memcpy(c->ports_pre, ports, 4);
	}
}

static __always_inline enum verdict parse_ipv4(struct __sk_buff *skb, struct cursor *c, int preload)
{
	struct ipv4_and_ports b;
	__u32 hlen, tot_len, read;

	read = load_ip_header(skb, c, &b, sizeof(b.h), preload);
	if (!read)
		return V_CUT;
	hlen = b.h.ihl * 4;
	if (b.h.version != 4 || hlen < sizeof(b.h) || !fits(c, hlen))
		return V_CUT;
	/* a total length shorter than the header is bogus (0 is TSO's "see the frame") */
	tot_len = bpf_ntohs(b.h.tot_len);
	if (tot_len && tot_len < hlen)
		return V_CUT;
	if (tot_len)
		bound(c, tot_len);
	note_ports(c, hlen, read, b.ports, preload);
	/* the 4 bytes alone: a record holds them so, and spill_frame() maps them */
	__builtin_memcpy(&c->src.addr[12], &b.h.saddr, 4);
	__builtin_memcpy(&c->dst.addr[12], &b.h.daddr, 4);
	c->have_ip = 1;
	c->v4 = 1;
	/* a non-first fragment carries neither ports nor an inner header */
	if (bpf_ntohs(b.h.frag_off) & IP_OFFSET_MASK)
		return V_DONE;
	c->off += hlen;
	c->next = b.h.protocol;
	c->layer = LAYER_IPPROTO;
	c->in_ipv6 = 0;
	return V_MORE;
}

static __always_inline enum verdict parse_ipv6(struct __sk_buff *skb, struct cursor *c, int preload)
{
	struct ipv6_and_ports b;
	__u32 read = load_ip_header(skb, c, &b, sizeof(b.h), preload);

	if (!read)
		return V_CUT;
	if (b.h.version != 6)
		return V_CUT;
	/* payload length 0: a jumbogram or BIG TCP, the frame says how long */
	if (b.h.payload_len)
		bound(c, sizeof(b.h) + bpf_ntohs(b.h.payload_len));
	note_ports(c, sizeof(b.h), read, b.ports, preload);
	__builtin_memcpy(c->src.addr, &b.h.saddr, 16);
	__builtin_memcpy(c->dst.addr, &b.h.daddr, 16);
	c->have_ip = 1;
	c->v4 = 0;
	c->off += sizeof(b.h);
	c->next = b.h.nexthdr;
	c->layer = LAYER_IPPROTO;
	c->in_ipv6 = 1;
	return V_MORE;
}

static __always_inline enum verdict parse_ethertype(struct __sk_buff *skb, struct cursor *c)
{
	struct vlan_tag tag;

	switch (c->next) {
	case ETH_P_8021Q:
	case ETH_P_8021AD:
		if (!fits(c, sizeof(tag)) || bpf_skb_load_bytes(skb, c->off, &tag, sizeof(tag)))
			return V_CUT;
		c->off += sizeof(tag);
		c->next = bpf_ntohs(tag.encap_proto);
		return V_MORE;
	case ETH_P_IP:
		return parse_ipv4(skb, c, 0);
	case ETH_P_IPV6:
		return parse_ipv6(skb, c, 0);
	default:
		/* behind GRE a tag may carry anything: the outer header is then the last */
		return c->have_ip ? V_DONE : V_NON_IP;
	}
}

/* GRE version 0 without routing, with any of checksum, key and sequence number. */
static __always_inline enum verdict parse_gre(struct __sk_buff *skb, struct cursor *c)
{
	struct gre_base gre;
	__u32 hlen = sizeof(gre);
	__u16 proto;

	if (!fits(c, sizeof(gre)) || bpf_skb_load_bytes(skb, c->off, &gre, sizeof(gre)))
		return V_CUT;
	/* GRE_* are big-endian constants: compare them with the unswapped field */
	if (gre.flags & (GRE_VERSION | GRE_ROUTING))
		return V_DONE;
	if (gre.flags & GRE_CSUM)
		hlen += 4;
	if (gre.flags & GRE_KEY)
		hlen += 4;
	if (gre.flags & GRE_SEQ)
		hlen += 4;
	if (!fits(c, hlen))
		return V_CUT;
	proto = bpf_ntohs(gre.proto);
	if (proto != ETH_P_IP && proto != ETH_P_IPV6 && proto != ETH_P_8021Q)
		return V_DONE;
	c->off += hlen;
	c->next = proto;
	c->layer = LAYER_ETHERTYPE;
	return V_MORE;
}

#define MAX_TLV_OPTIONS 16 /* options checked per hop-by-hop or destination header */
/* hop-by-hop or destination headers whose options are checked, per frame: a hop-by-hop
 * and a destination header (measured: with four, 6.1's verifier gave up, the areas'
 * bounds making states of their own on every path) */
#define MAX_OPTION_AREAS 2

/* Whether an option in [off, end) of a hop-by-hop or destination-options header runs
 * past end, as the kernel's IPv6 input would drop it: each is type, length, data, but
 * Pad1 (type 0), one byte. The walk stops after MAX_TLV_OPTIONS options; what lies
 * beyond is not checked.
 *
 * Run after the layer walk, on the areas it noted (options_overrun()), not inside it:
 * the walk keeps its registers, and the verifier its pruning. Before Linux 6.4 the
 * verifier's precision tracking gives up at a BPF-to-BPF call and marks every scalar
 * of the states before it precise, so the states of the layer loop stop matching each
 * other: 6.1 walked over a million instructions with this a global function called
 * from the loop (see the README's Kernels and tests/kern/test_verifier.c). */
static __always_inline int tlv_options_overrun(struct __sk_buff *skb, __u32 off, __u32 end)
{
	__u8 opt[2];
	int i;

	for (i = 0; i < MAX_TLV_OPTIONS && off < end; i++) {
		if (bpf_skb_load_bytes(skb, off, opt, 1))
			return 1;
		if (opt[0] == 0) { /* Pad1 */
			off++;
			continue;
		}
		if (off + 2 > end || bpf_skb_load_bytes(skb, off, opt, 2))
			return 1;
		off += 2 + opt[1];
	}
	return off > end;
}

static __always_inline enum verdict parse_ipv6_ext(struct __sk_buff *skb, struct cursor *c)
{
	struct ipv6_frag frag;
	struct ipv6_ext ext;
	__u32 hlen;

	if (c->next == NEXTHDR_FRAGMENT) {
		if (!fits(c, sizeof(frag)) || bpf_skb_load_bytes(skb, c->off, &frag, sizeof(frag)))
			return V_CUT;
		if (bpf_ntohs(frag.frag_off) & IP6_OFFSET_MASK)
			return V_DONE;
		c->off += sizeof(frag);
		c->next = frag.nexthdr;
		return V_MORE;
	}
	if (!fits(c, sizeof(ext)) || bpf_skb_load_bytes(skb, c->off, &ext, sizeof(ext)))
		return V_CUT;
	hlen = (ext.hdrlen + 1) * 8;
	if (!fits(c, hlen))
		return V_CUT;
	if ((c->next == NEXTHDR_HOP || c->next == NEXTHDR_DEST) && c->nopts < MAX_OPTION_AREAS) {
		/* fits() above: both ends are within the frame, below 64 KiB */
		c->opts |= (__u64)((c->off + sizeof(ext)) << 16 | (c->off + hlen))
			   << (32 * c->nopts);
		c->nopts++;
	}
	c->off += hlen;
	c->next = ext.nexthdr;
	return V_MORE;
}

static __always_inline enum verdict parse_ipproto(struct __sk_buff *skb, struct cursor *c)
{
	switch (c->next) {
	case IPPROTO_IPIP:
		c->next = ETH_P_IP;
		c->layer = LAYER_ETHERTYPE;
		return V_MORE;
	case IPPROTO_IPV6:
		c->next = ETH_P_IPV6;
		c->layer = LAYER_ETHERTYPE;
		return V_MORE;
	case IPPROTO_GRE:
		return parse_gre(skb, c);
	case NEXTHDR_HOP:
	case NEXTHDR_ROUTING:
	case NEXTHDR_FRAGMENT:
	case NEXTHDR_DEST:
		return c->in_ipv6 ? parse_ipv6_ext(skb, c) : V_DONE;
	default:
		return V_DONE;
	}
}

/* Adds one frame to one direction of one address in the spill map. The map is per CPU, so plain
 * additions are enough; when another CPU created the entry between our lookup and our
 * insert, the insert fails with -EEXIST and we add to the entry it made. */
static __always_inline void account(const struct flow_spill_key *key, int tx, __u64 bytes,
				    struct flow_stats *st)
{
	/* a port's update the map refuses is found missing by user space (2 a spilled
	 * frame), as an address's is; the filter's `lost` counts addresses' alone */
	int is_port = COUNT_PORTS && (key->slot & FLOWTOP_SPILL_PORT);
	struct flow_spill *v, init = {};
	long err;

	v = bpf_map_lookup_elem(&spill, key);
	if (!v) {
		init.created_ns = bpf_ktime_get_ns();
		if (tx) {
			init.c.tx_packets = 1;
			init.c.tx_bytes = bytes;
		} else {
			init.c.rx_packets = 1;
			init.c.rx_bytes = bytes;
		}
		err = bpf_map_update_elem(&spill, key, &init, BPF_NOEXIST);
		if (!err) {
			st->new_entries++;
			return;
		}
		v = err == -EEXIST ? bpf_map_lookup_elem(&spill, key) : NULL;
		if (!v) {
			if (!is_port)
				st->lost++;
			return;
		}
	}
	if (tx) {
		v->c.tx_packets++;
		v->c.tx_bytes += bytes;
	} else {
		v->c.rx_packets++;
		v->c.rx_bytes += bytes;
	}
}

static __always_inline __be32 ipv4_of(const struct flow_key *key)
{
	return *(const __be32 *)&key->addr[12];
}

/* The spill map's key of an address the walk left in the cursor: IPv4 as IPv4-mapped. */
static __always_inline void set_key(struct flow_key *key, const struct flow_key *addr, int v4)
{
	__be32 addr4;

	if (!v4) {
		*key = *addr;
		return;
	}
	addr4 = ipv4_of(addr);
	__builtin_memset(key->addr, 0, 10);
	key->addr[10] = 0xff;
	key->addr[11] = 0xff;
	__builtin_memcpy(&key->addr[12], &addr4, 4);
}

/* The spill map's key of a port (FLOWTOP_PORT_KEY_KIND): known, or the protocol's
 * "no port". */
static __always_inline void set_port_key(struct flow_key *key, __u8 proto, __u16 port, int known)
{
	__builtin_memset(key->addr, 0, 16);
	key->addr[10] = FLOWTOP_PORT_KEY_KIND;
	key->addr[11] = proto;
	key->addr[12] = port >> 8;
	key->addr[13] = port & 0xff;
	key->addr[14] = known ? 1 : 0;
}

/* The innermost IP protocol of a walked frame: FLOWTOP_PROTO_UNKNOWN when the walk
 * stopped before reaching it (a later IPv4 fragment). */
static __always_inline __u8 proto_of(const struct cursor *c)
{
	return c->layer == LAYER_IPPROTO ? (__u8)c->next : FLOWTOP_PROTO_UNKNOWN;
}

/* A frame whose CPU's ring is full, into the spill map: the cold path, a function of its
 * own so that the hot one keeps its registers. Called after the layer walk, where 6.1's
 * verifier still prunes (tests/kern/test_verifier.c keeps it so). With ports, its
 * source port as sender and its destination port as receiver too, under keys of their
 * own (FLOWTOP_SPILL_PORT). */
static __noinline void spill_frame(const struct cursor *c, __u64 bytes, __u32 slot,
				   struct flow_stats *st)
{
	struct flow_spill_key key = { .slot = slot };
	int known = (c->ports & FLOWTOP_PORTS_KNOWN) != 0;

	st->spilled++;
	set_key(&key.addr, &c->src, c->v4);
	account(&key, 1, bytes, st);
	set_key(&key.addr, &c->dst, c->v4);
	account(&key, 0, bytes, st);
	if (!COUNT_PORTS)
		return;
	key.slot = slot | FLOWTOP_SPILL_PORT;
	set_port_key(&key.addr, proto_of(c), FLOWTOP_PORTS_SRC(c->ports), known);
	account(&key, 1, bytes, st);
	set_port_key(&key.addr, proto_of(c), FLOWTOP_PORTS_DST(c->ports), known);
	account(&key, 0, bytes, st);
}

/* Slot pos of this CPU's ring. */
static __always_inline union flow_ring_slot *ring_at(__u32 cpu, __u64 pos)
{
	__u32 idx = cpu * (ring_mask + 1) + ((__u32)pos & ring_mask);

	return bpf_map_lookup_elem(&ring, &idx);
}

static __always_inline int same_addr(const union flow_ring_slot *s, const struct flow_key *key)
{
	const __u64 *a = (const __u64 *)s->addr, *b = (const __u64 *)key->addr;

	return a[0] == b[0] && a[1] == b[1];
}

/* Whether the record at pos, whose count says it is of the frame's slot, protocol and
 * family (whose), has the frame's addresses, and its ports when they are counted. */
static __always_inline int same_addrs(__u32 cpu, __u64 pos, const union flow_ring_slot *first,
				      const struct cursor *c)
{
	const union flow_ring_slot *src, *dst;

	if (c->v4) {
		if (first->rec.src4 != ipv4_of(&c->src) || first->rec.dst4 != ipv4_of(&c->dst))
			return 0;
		if (!COUNT_PORTS)
			return 1;
		src = ring_at(cpu, pos + 1);
		return src && src->word[0] == c->ports;
	}
	if (COUNT_PORTS && first->word[1] != c->ports)
		return 0;
	src = ring_at(cpu, pos + 1);
	dst = ring_at(cpu, pos + 2);
	return src && dst && same_addr(src, &c->src) && same_addr(dst, &c->dst);
}

/* MurmurHash3's 64-bit finalizer: each bit of x changes each bit of the result, the low
 * ones too (a multiplication alone carries a bit up, never down). */
static __always_inline __u64 mix64(__u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ x >> 33;
}

/* A hash of the pair: its addresses and whose (the slot, protocol and family bits of a
 * count). Each 64-bit word of them is mixed whole before they are combined: an
 * address's host byte is the top byte of its little-endian word, and pairs that differ
 * there alone (10.100.0.i to 10.200.0.i) must still differ in the low bits, which pick
 * the pair's set (its high 16 are the hint's tag). An IPv4 pair is one word, source
 * above destination; an IPv6 pair's four are weighed apart (odd factors), so that a
 * pair and its reverse, or two pairs that swap their hosts, do not cancel out. */
static __always_inline __u32 pair_hash(const struct cursor *c, __u64 whose)
{
	const __u32 *s = (const __u32 *)c->src.addr, *d = (const __u32 *)c->dst.addr;
	__u64 h;

	/* ports, when counted, are whose too: xored into the first word mixed below (pairs
	 * whose ports and addresses xor alike share a set; joins only, never a count) */
	if (COUNT_PORTS)
		whose ^= c->ports;
	if (c->v4)
		h = mix64(((__u64)s[3] << 32 | d[3]) ^ whose);
	else
		h = mix64(((__u64)s[0] << 32 | s[1]) ^ whose) ^
		    mix64((__u64)s[2] << 32 | s[3]) * 3 ^ mix64((__u64)d[0] << 32 | d[1]) * 5 ^
		    mix64((__u64)d[2] << 32 | d[3]) * 7;
	return (__u32)(h ^ h >> 32);
}

/* This CPU's pair set for a pair of hash h. */
static __always_inline struct flow_pair_set *pair_set(__u32 cpu, __u32 h)
{
	__u32 idx = cpu * (set_mask + 1) + (h & set_mask);

	return bpf_map_lookup_elem(&joins, &idx);
}

/* Whether a frame of `bytes` still fits the count of a record or owner. */
static __always_inline int count_has_room(__u64 count, __u64 bytes)
{
	return (count >> FLOWTOP_RECORD_FRAME_SHIFT & FLOWTOP_RECORD_FRAMES_MAX) !=
		   FLOWTOP_RECORD_FRAMES_MAX &&
	       (count & FLOWTOP_RECORD_BYTES_MASK) + bytes <= FLOWTOP_RECORD_BYTES_MASK;
}

/* Adds the frame to the record its hint points at (hint: the tag of the pair's hash h,
 * and where the record starts, plus one) when that one is of the same pair (whose, and
 * the addresses), user space has not taken it and it has room: 1 then; 0 when the
 * addition found it taken (struct flow_ring_ctl's exchange), and the caller writes a
 * new one. Another pair's tag, or a record before the tail, is not even read. */
static __always_inline int ring_join(__u32 cpu, const struct flow_ring_ctl *ctl, __u64 hint,
				     __u32 h, const struct cursor *c, __u64 bytes, __u64 whose)
{
	__u64 count, pos = (hint & ((1ull << FLOWTOP_HINT_POS_BITS) - 1)) - 1;
	union flow_ring_slot *rec;

	if (hint >> FLOWTOP_HINT_POS_BITS != h >> 16 || pos + 1 == 0 ||
	    pos < *(volatile __u64 *)&ctl->tail)
		return 0;
	rec = ring_at(cpu, pos);
	if (!rec)
		return 0;
	count = *(volatile __u64 *)&rec->rec.count;
	if ((count & (FLOWTOP_RECORD_TAKEN | FLOWTOP_RECORD_WHOSE)) != whose ||
	    !count_has_room(count, bytes) || !same_addrs(cpu, pos, rec, c))
		return 0;
	count = __sync_fetch_and_add(&rec->rec.count, FLOWTOP_RECORD_ONE_FRAME | bytes);
	return !(count & FLOWTOP_RECORD_TAKEN);
}

/* Points the set of a pair of hash h at its new record at pos: the pair's hint,
 * where it has one (its record was taken), else the newest. */
static __always_inline void note_hint(struct flow_pair_set *set, __u32 h, __u64 pos)
{
	__u64 hint = (__u64)(h >> 16) << FLOWTOP_HINT_POS_BITS | (pos + 1);

	if (set->way[1] >> FLOWTOP_HINT_POS_BITS == h >> 16) {
		set->way[1] = hint;
		return;
	}
	if (set->way[0] >> FLOWTOP_HINT_POS_BITS != h >> 16)
		set->way[1] = set->way[0];
	set->way[0] = hint;
}

/* Wakes user space when this CPU's ring, published up to head, holds more than a
 * quarter of its slots since it drained to tail: once for that tail (woken; the wakes of
 * struct flow_ring_ctl). */
static __always_inline void wake_when_filling(struct flow_ring_ctl *ctl, __u64 head, __u64 tail)
{
	if (head - tail <= (ring_mask + 1) / 4 || ctl->woken == tail + 1)
		return;
	ctl->woken = tail + 1;
	bpf_ringbuf_output(&wake, &tail, sizeof(tail), BPF_RB_FORCE_WAKEUP);
}

/* Moves this CPU's head to head, publishing what was written before it (struct
 * flow_ring_ctl; a socket filter runs with bottom halves off, so it does not nest). On
 * x86 stores are not reordered with each other, and a plain store to head publishes the
 * record; elsewhere head is written by an exchange, which the BPF memory model orders
 * fully (a store-release would do, but BPF has one only from Linux 6.15 and clang 20).
 * tail is the one the caller made room by (ring_room()); for a live frame, a head past
 * a quarter of the ring from it wakes user space. */
static __always_inline void publish(struct flow_ring_ctl *ctl, __u64 head, __u64 tail, int live)
{
	if (exchange_head) {
		__sync_lock_test_and_set(&ctl->head, head);
	} else {
		asm volatile("" ::: "memory"); /* what it publishes before the head */
		*(volatile __u64 *)&ctl->head = head;
	}
	if (live)
		wake_when_filling(ctl, head, tail);
}

/* The slot at this CPU's head (read into *head, its tail into *tail) when the ring has
 * room for len more slots, else NULL. */
static __always_inline union flow_ring_slot *ring_room(__u32 cpu, struct flow_ring_ctl *ctl,
						       __u32 len, __u64 *head, __u64 *tail)
{
	*head = ctl->head;
	*tail = *(volatile __u64 *)&ctl->tail;
	return *head + len - *tail > ring_mask + 1 ? NULL : ring_at(cpu, *head);
}

/* Opens the owner of this CPU's set idx for the frame's pair, with count (the frame,
 * and whose), and publishes the notice that names it (struct flow_ring_ctl): 1, or 0
 * when the ring has no room for the notice (the owner is then left free). The owner is
 * free or holds this frame alone, and user space reads it only after the notice, so
 * plain stores do. */
static __always_inline int owner_open(__u32 cpu, struct flow_ring_ctl *ctl,
				      union flow_ring_slot *own, __u64 *ports, __u32 idx,
				      const struct cursor *c, __u64 count, int live)
{
	union flow_ring_slot *notice;
	__u64 head, tail;

	notice = ring_room(cpu, ctl, 1, &head, &tail);
	if (!notice) {
		own->rec.count = 0;
		return 0;
	}
	own->rec.src4 = ipv4_of(&c->src);
	own->rec.dst4 = ipv4_of(&c->dst);
	if (ports)
		*ports = c->ports;
	own->rec.count = count;
	notice->rec.count = FLOWTOP_RECORD_NOTICE | idx;
	notice->rec.src4 = notice->rec.dst4 = 0;
	publish(ctl, head + 1, tail, live);
	return 1;
}

/* Counts an IPv4 frame in the owner of its pair's set (idx, this CPU's): 1 then; 0 when
 * the caller puts it in a ring record (another pair owns the set, the owner's count is
 * full, or a free owner finds no room for its notice). An addition that finds the owner
 * freed by user space's exchange (struct flow_ring_ctl) opens it again. */
static __always_inline int owner_add(__u32 cpu, struct flow_ring_ctl *ctl,
				     struct flow_pair_set *set, __u32 idx, const struct cursor *c,
				     __u64 bytes, __u64 whose, int live)
{
	union flow_ring_slot *own = &set->owner;
	__u64 one = FLOWTOP_RECORD_ONE_FRAME | bytes, count = *(volatile __u64 *)&own->rec.count;
	__u32 at = cpu * (set_mask + 1) + idx;
	__u64 *ports = NULL;

	if (COUNT_PORTS) {
		ports = bpf_map_lookup_elem(&owner_ports, &at);
		if (!ports)
			return 0;
	}
	if (count) {
		if ((count & (FLOWTOP_RECORD_TAKEN | FLOWTOP_RECORD_WHOSE)) != whose ||
		    !count_has_room(count, bytes) || own->rec.src4 != ipv4_of(&c->src) ||
		    own->rec.dst4 != ipv4_of(&c->dst) || (ports && *ports != c->ports))
			return 0;
		if (__sync_fetch_and_add(&own->rec.count, one))
			return 1;
	}
	return owner_open(cpu, ctl, own, ports, idx, c, whose | one, live);
}

/* Hands the frame to user space (struct flow_ring_ctl): an IPv4 frame counted in its
 * set's owner when its pair owns the set or can (owner_add()), else added to the last
 * record of its pair in this CPU's ring (ring_join()), or in a new record it publishes
 * the pair's hint then points at; 0 when the ring is full. No set is touched under
 * no_joins; only a live frame may wake user space. */
static __always_inline int ring_push(const struct cursor *c, __u64 bytes, __u16 slot, int live)
{
	__u64 whose = (c->v4 ? 0 : FLOWTOP_RECORD_V6) |
		      (__u64)proto_of(c) << FLOWTOP_RECORD_PROTO_SHIFT |
		      (__u64)(slot & 0xff) << FLOWTOP_RECORD_SLOT_SHIFT;
	__u32 cpu = bpf_get_smp_processor_id(), len = !c->v4	    ? FLOWTOP_RECORD_SLOTS_V6
						      : COUNT_PORTS ? FLOWTOP_RECORD_SLOTS_V4_PORTS
								    : FLOWTOP_RECORD_SLOTS_V4;
	union flow_ring_slot *first, *src, *dst;
	__u32 h = pair_hash(c, whose);
	struct flow_ring_ctl *ctl;
	struct flow_pair_set *set;
	__u64 head, tail, joins;

	ctl = bpf_map_lookup_elem(&ring_ctl, &cpu);
	set = pair_set(cpu, h);
	if (!ctl || !set)
		return 0;
	/* in a flood of pairs that do not repeat, a set is a line missed in vain (a flag of
	 * its own, not set made NULL: 6.1's verifier loses which of the two clang tests) */
	joins = fetch_atomics && !*(volatile __u64 *)&ctl->no_joins;
	if (joins && ((c->v4 && owner_add(cpu, ctl, set, h & set_mask, c, bytes, whose, live)) ||
		      ring_join(cpu, ctl, set->way[0], h, c, bytes, whose) ||
		      ring_join(cpu, ctl, set->way[1], h, c, bytes, whose)))
		return 1;
	first = ring_room(cpu, ctl, len, &head, &tail);
	if (!first)
		return 0;
	if (c->v4) {
		first->rec.src4 = ipv4_of(&c->src);
		first->rec.dst4 = ipv4_of(&c->dst);
		if (COUNT_PORTS) {
			src = ring_at(cpu, head + 1);
			if (!src)
				return 0;
			src->word[0] = c->ports;
			src->word[1] = 0;
		}
	} else {
		src = ring_at(cpu, head + 1);
		dst = ring_at(cpu, head + 2);
		if (!src || !dst)
			return 0;
		__builtin_memcpy(src->addr, c->src.addr, 16);
		__builtin_memcpy(dst->addr, c->dst.addr, 16);
		first->word[1] = COUNT_PORTS ? c->ports : 0;
	}
	first->rec.count = whose | FLOWTOP_RECORD_ONE_FRAME | bytes;
	if (joins)
		note_hint(set, h, head);
	publish(ctl, head + len, tail, live);
	return 1;
}

/* Whether the frame's first tag lies in front of offset 0, between the MAC header and
 * the network header: a tag the kernel inserted on transmit for a device without VLAN
 * offload (validate_xmit_vlan), or one a packet socket sent inline (the kernel moves the
 * network header past it). Elsewhere (BPF_PROG_TEST_RUN) it is at offset 0. All come
 * with protocol 0x8100 and no tag in metadata: what follows the MAC header's ethertype
 * is offset 0 only in the last case. */
static __always_inline int tag_before_start(struct __sk_buff *skb)
{
	__u64 after_mac, at_start;

	if (bpf_skb_load_bytes_relative(skb, FLOWTOP_ETH_HLEN, &after_mac, sizeof(after_mac),
					BPF_HDR_START_MAC) ||
	    bpf_skb_load_bytes(skb, 0, &at_start, sizeof(at_start)))
		return 0;
	return after_mac != at_start;
}

/* The watched interface at ifindex: its slot and its link header's length; 0 when the
 * links array does not know it (its entry is free or another index's). */
static __always_inline int link_of(__u32 ifindex, __u32 *slot, __u32 *hlen)
{
	__u32 idx = ifindex % FLOWTOP_LINK_INDEX;
	const struct flow_link *link = bpf_map_lookup_elem(&links, &idx);

	if (link && link->ifindex == ifindex) {
		*slot = link->slot;
		*hlen = link->hlen;
		return 1;
	}
	*slot = FLOWTOP_SLOT_NONE;
	*hlen = 0;
	return 0;
}

/* Whether a frame of an interface the links array does not know has a link header:
 * where there is none (tun, WireGuard) the MAC header is set where the network header
 * is, so the first bytes from both starts are the same bytes. */
static __always_inline int has_link_header(struct __sk_buff *skb)
{
	__u64 at_mac = 0, at_start = 0;

	if (bpf_skb_load_bytes_relative(skb, 0, &at_mac, sizeof(at_mac), BPF_HDR_START_MAC) ||
	    bpf_skb_load_bytes(skb, 0, &at_start, sizeof(at_start)))
		return 0;
	return at_mac != at_start;
}

/* A live frame before its walk: its slot, its link header, where offset 0 (the start
 * bpf_skb_load_bytes() reads from) lies in it, the ethertype the walk starts with, and
 * its bytes on the wire. flowtop_count and flowtop_gate both take a frame from here, so
 * an expression judges the frame that is counted. end: the frame's bytes from offset 0
 * (the walk's end). */
struct frame_start {
	__u32 slot;
	__u32 hlen;    /* the link header's bytes: 0 for none */
	__u32 data_at; /* offset 0's distance from the link header's first byte */
	__u16 next;    /* the walk's first ethertype: 0 for none it knows */
	__u64 bytes;   /* on the wire: the link header and every tag included */
};

static __always_inline void frame_begin(struct __sk_buff *skb, __u32 end, struct frame_start *f)
{
	int known = link_of(skb->ifindex, &f->slot, &f->hlen);
	struct vlan_tag tag;
	__u8 first;

	if (!known && has_link_header(skb))
		f->hlen = FLOWTOP_ETH_HLEN;
	f->data_at = f->hlen;
	/* on the wire: the link header, and an outer tag the kernel moved into metadata */
	f->bytes = (__u64)end + f->hlen + (skb->vlan_present ? VLAN_HLEN : 0) + extra_bytes;
	if (f->hlen || !known) {
		f->next = bpf_ntohs(skb->protocol);
		if ((f->next == ETH_P_8021Q || f->next == ETH_P_8021AD) && !skb->vlan_present &&
		    tag_before_start(skb)) {
			/* or a tag the kernel inserted in front of offset 0: read it where it
			 * is, and take its length into the bytes on the wire */
			if (bpf_skb_load_bytes_relative(skb, FLOWTOP_ETH_HLEN, &tag, sizeof(tag),
							BPF_HDR_START_MAC))
				f->next = 0;
			else
				f->next = bpf_ntohs(tag.encap_proto);
			f->bytes += VLAN_HLEN;
			f->data_at += VLAN_HLEN;
		}
	} else if (bpf_skb_load_bytes(skb, 0, &first, 1)) {
		f->next = 0;
	} else {
		f->next = (first >> 4) == 4 ? ETH_P_IP : (first >> 4) == 6 ? ETH_P_IPV6 : 0;
	}
}

/* Whether an option of the areas the walk noted runs past its header (the frame is then
 * cut, as the kernel's IPv6 input would drop it). The first MAX_OPTION_AREAS are
 * checked; a frame with more hop-by-hop and destination headers is not past them. */
static __always_inline int options_overrun(struct __sk_buff *skb, const struct cursor *c)
{
	__u32 area;
	int i;

	for (i = 0; i < MAX_OPTION_AREAS && i < c->nopts; i++) {
		area = (__u32)(c->opts >> (32 * i));
		if (tlv_options_overrun(skb, area >> 16, area & 0xffff))
			return 1;
	}
	return 0;
}

/* Whether the walk goes on past an IPv4 header of protocol next (parse_ipproto(): a
 * tunnel; the extension headers are IPv6's alone). */
static __always_inline int ipv4_carries_ip(__u16 next)
{
	return next == IPPROTO_IPIP || next == IPPROTO_IPV6 || next == IPPROTO_GRE;
}

/* Whether the walk goes on past an IPv6 header of next header next: a tunnel, or an
 * extension header (parse_ipproto()). */
static __always_inline int ipv6_carries_more(__u16 next)
{
	return ipv4_carries_ip(next) || next == NEXTHDR_HOP || next == NEXTHDR_ROUTING ||
	       next == NEXTHDR_FRAGMENT || next == NEXTHDR_DEST;
}

/* Walks the frame's headers from the cursor to its innermost IP header. The most common
 * frame, an IPv4 packet that carries no other, takes its first layer outside the loop,
 * in a straight line (the loop's switches and jumps cost it more than the checks do);
 * counting ports, an IPv6 one too. Only that first header reads the ports with it: one
 * the walk goes on from is not the last. */
static __always_inline enum verdict dissect(struct __sk_buff *skb, struct cursor *c)
{
	enum verdict v = V_MORE;
	int i = 0;

	if (c->next == ETH_P_IP) {
		v = parse_ipv4(skb, c, 1);
		if (v == V_MORE && !ipv4_carries_ip(c->next))
			return V_DONE;
		i = 1;
	} else if (COUNT_PORTS && c->next == ETH_P_IPV6) {
		v = parse_ipv6(skb, c, 1);
		if (v == V_MORE && !ipv6_carries_more(c->next))
			return V_DONE;
		i = 1;
	}
	if (COUNT_PORTS)
		c->ports_read = 0;
	for (; i < MAX_LAYERS && v == V_MORE; i++)
		v = c->layer == LAYER_ETHERTYPE ? parse_ethertype(skb, c) : parse_ipproto(skb, c);
	if (c->nopts && v != V_CUT && options_overrun(skb, c))
		return V_CUT;
	return v;
}

/* The bytes of a walked frame's innermost transport header its ports are read from:
 * the first four of TCP, UDP, UDP-Lite, SCTP and DCCP (source and destination port),
 * an ICMP or ICMPv6 message's first (its type); 0 for another protocol or a later
 * fragment (the walk stopped at its IP header or its fragment header). */
static __always_inline __u32 ports_bytes(const struct cursor *c)
{
	if (c->layer != LAYER_IPPROTO)
		return 0;
	switch (c->next) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		return 4;
	case IPPROTO_ICMP:
	case IPPROTO_ICMP6:
		return 1;
	default:
		return 0;
	}
}

/* The ports of a walked frame (FLOWTOP_PORTS_*): 0, "no port", also when its transport
 * header is cut short. */
static __always_inline __u64 transport_ports(struct __sk_buff *skb, const struct cursor *c)
{
	__u32 n = ports_bytes(c);
	__be16 p[2];
	__u8 type;

	if (n && c->ports_read) { /* read with the IP header */
		if (n == 1) {
			type = *(__u8 *)c->ports_pre;
			return FLOWTOP_PORTS_KNOWN | (__u64)type << 16 | type;
		}
		return FLOWTOP_PORTS_KNOWN | (__u64)bpf_ntohs(c->ports_pre[0]) << 16 |
		       bpf_ntohs(c->ports_pre[1]);
	}
	if (n == 4) {
		if (!fits(c, sizeof(p)) || bpf_skb_load_bytes(skb, c->off, p, sizeof(p)))
			return 0;
		return FLOWTOP_PORTS_KNOWN | (__u64)bpf_ntohs(p[0]) << 16 | bpf_ntohs(p[1]);
	}
	if (n == 1) {
		if (!fits(c, sizeof(type)) || bpf_skb_load_bytes(skb, c->off, &type, sizeof(type)))
			return 0;
		return FLOWTOP_PORTS_KNOWN | (__u64)type << 16 | type;
	}
	return 0;
}

/* Counts a dissected frame of `bytes` on the wire: in its slot's stats, and its two
 * addresses in a record of this CPU's ring, or in the spill map when the ring is full.
 * live: a frame of a socket (not of a capture file), whose record may wake user space. */
static __always_inline void count(struct __sk_buff *skb, struct cursor *c, enum verdict v,
				  __u64 bytes, __u32 slot, struct flow_stats *st, int outgoing,
				  int live)
{
	st->frames++;
	st->bytes += bytes;
	if (outgoing) {
		st->out_frames++;
		st->out_bytes += bytes;
	}
	if (v == V_CUT) {
		st->truncated++;
		return;
	}
	if (!c->have_ip) { /* V_NON_IP, or MAX_LAYERS tags */
		st->non_ip++;
		return;
	}
	/* V_DONE, or MAX_LAYERS reached: the last IP header passed is the innermost */
	if (COUNT_PORTS)
		c->ports = transport_ports(skb, c);
	if (ring_push(c, bytes, (__u16)slot, live))
		return;
	spill_frame(c, bytes, slot, st);
}

/* Whether the frame is loopback's sent copy: lo hands an unbound socket each frame
 * twice, as sent and as received, and it is counted once (a bound socket drops the sent
 * copy itself, PACKET_IGNORE_OUTGOING). */
static __always_inline int loopback_sent_copy(struct __sk_buff *skb)
{
	return skb->ifindex == LOOPBACK_IFINDEX && skb->pkt_type == PACKET_OUTGOING;
}

SEC("socket")
int flowtop_count(struct __sk_buff *skb)
{
	struct cursor c = { .end = skb->len - pad_bytes, .layer = LAYER_ETHERTYPE };
	struct frame_start f;
	struct flow_stats *st;

	if (loopback_sent_copy(skb))
		return 0;
	frame_begin(skb, c.end, &f);
	st = bpf_map_lookup_elem(&stats, &f.slot);
	if (!st)
		return 0;
	c.next = f.next;
	count(skb, &c, dissect(skb, &c), f.bytes, f.slot, st, skb->pkt_type == PACKET_OUTGOING, 1);
	return 0;
}

/* A frame the expression rejects (flowtop_gate's judge): its slot's `filtered`
 * counters alone, with its bytes on the wire, from what flowtop_gate put in cb[]. */
SEC("socket")
int flowtop_rejected(struct __sk_buff *skb)
{
	__u32 slot = skb->cb[FLOWTOP_CB_SLOT];
	struct flow_stats *st = bpf_map_lookup_elem(&stats, &slot);

	if (st) {
		st->filtered++;
		st->filtered_bytes += skb->cb[FLOWTOP_CB_WIRE_LEN];
	}
	return 0;
}

/* The programs flowtop_gate hands a frame to (enum flowtop_gate_prog): the judge is
 * user space's, put in and replaced whole when the expression changes. */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, FLOWTOP_GATE_PROGS);
	__uint(key_size, sizeof(__u32));
	__array(values, int(struct __sk_buff *));
} gate_progs SEC(".maps") = {
	.values = {
		[FLOWTOP_GATE_COUNT] = (void *)&flowtop_count,
		[FLOWTOP_GATE_REJECTED] = (void *)&flowtop_rejected,
	},
};

/* In flowtop_count's place while a filter expression is in force (src/expr/gate.c): the
 * frame's start as flowtop_count takes it, into cb[] for the judge. */
SEC("socket")
int flowtop_gate(struct __sk_buff *skb)
{
	struct frame_start f;

	if (loopback_sent_copy(skb))
		return 0;
	frame_begin(skb, skb->len, &f);
	skb->cb[FLOWTOP_CB_SLOT] = f.slot;
	skb->cb[FLOWTOP_CB_WIRE_LEN] = (__u32)f.bytes;
	skb->cb[FLOWTOP_CB_LINK] = f.hlen;
	skb->cb[FLOWTOP_CB_DATA_AT] = f.data_at;
	bpf_tail_call(skb, &gate_progs, FLOWTOP_GATE_JUDGE);
	/* no judge (none is attached without one): not lost, but not counted either */
	bpf_tail_call(skb, &gate_progs, FLOWTOP_GATE_REJECTED);
	return 0;
}

/* One frame of a capture file's batch (struct flow_file_frame at off), dissected and
 * counted as flowtop_count does a frame of the file's interface. Returns the bytes it
 * takes in the batch, negated when it must be run again whole (cut short in what it
 * was given, not in what the batch held back), or 0 after the last. A global function:
 * the verifier checks it once, not once a frame of the batch. */
__noinline int count_file_frame(struct __sk_buff *skb, __u32 off, __u32 slot, __u32 hlen)
{
	struct cursor c = { .layer = LAYER_ETHERTYPE };
	struct flow_file_frame f;
	struct flow_stats *st;
	enum verdict v;

	if (bpf_skb_load_bytes(skb, off, &f, sizeof(f)) || f.len == FLOWTOP_FILE_END)
		return 0;
	c.off = off + sizeof(f);
	c.end = c.off + f.len;
	c.next = f.ethertype;
	st = bpf_map_lookup_elem(&stats, &slot);
	if (!st)
		return 0;
	v = dissect(skb, &c);
	/* cut short in what the run was given, its headers or (counted) its ports: whole */
	if (f.held && (v == V_CUT || (COUNT_PORTS && c.have_ip && !fits(&c, ports_bytes(&c)))))
		return -(int)(sizeof(f) + f.len);
	count(skb, &c, v, (__u64)f.len + f.held + f.extra + hlen, slot, st, 0, 0);
	return sizeof(f) + f.len;
}

/* A batch of a capture file's frames (see struct flow_file_frame), all of the file's
 * interface: the mask of those to run again whole. */
SEC("socket")
int flowtop_count_file(struct __sk_buff *skb)
{
	__u32 off = 0, again = 0, hlen, slot;
	int i, took;

	link_of(skb->ifindex, &slot, &hlen);

	for (i = 0; i < FLOWTOP_FILE_BATCH; i++) {
		took = count_file_frame(skb, off, slot, hlen);
		if (!took)
			break;
		if (took < 0) {
			again |= 1u << i;
			took = -took;
		}
		off += took;
	}
	return again;
}
