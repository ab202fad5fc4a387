/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* flowtop.h: the map layouts shared by the BPF program and user space; no logic. */
#ifndef FLOWTOP_H
#define FLOWTOP_H

#include <linux/types.h>

#define FLOWTOP_DEFAULT_MAX_HOSTS   65536      /* -m: hosts user space keeps */
#define FLOWTOP_DEFAULT_RING_SLOTS  (1u << 17) /* slots per CPU ring at most (a power of two) */
#define FLOWTOP_DEFAULT_RING_MIB    32	       /* --ring-memory: every CPU's ring together */
#define FLOWTOP_DEFAULT_SPILL_HOSTS 16384      /* entries of the map that takes ring overflow */
#define FLOWTOP_MAX_SLOTS	    256	       /* watched interfaces at once, slot 0 included */
#define FLOWTOP_LINK_INDEX	    4096       /* entries of the links map (see struct flow_link) */
#define FLOWTOP_SLOT_NONE	    0	       /* frames of an interface that has no slot */

/* One IP address, the key of every per-address table. IPv6 as is, IPv4 as IPv4-mapped
 * ::ffff:a.b.c.d, so both families share one map and the key has no padding to compare. */
struct flow_key {
	__u8 addr[16]; /* network byte order */
};

/* A 16-byte slot of a CPU's ring: a record's first slot, an IPv6 record's source or
 * destination, or a notice; also a pair set's owner. What each is, and who writes it
 * when: the ring protocol, at struct flow_ring_ctl. */
union flow_ring_slot {
	struct {
		__u64 count; /* FLOWTOP_RECORD_*, below */
		__be32 src4; /* an IPv4 record's innermost source; 0 in an IPv6 record */
		__be32 dst4; /* and destination */
	} rec;		     /* a record's first slot */
	__u64 word[2];	     /* where a record keeps its ports (FLOWTOP_PORTS_*, below) */
	__u8 addr[16];	     /* an IPv6 record's source (second slot) or destination (third) */
};

/* A record's count, from bit 0: the bytes of its frames on the wire (34 bits), the
 * frames (12), the interface's slot (8, struct flow_link), the innermost IP protocol
 * (8: FLOWTOP_PROTO_UNKNOWN when the dissector stopped before reaching it), whether
 * the pair is IPv6 (the record is three slots), and "taken". */
#define FLOWTOP_RECORD_SLOTS_V4 1 /* slots of an IPv4 pair's record */
#define FLOWTOP_RECORD_SLOTS_V6 3 /* of an IPv6 pair's: the most a record takes */
/* of an IPv4 pair's when the filter counts ports: its ports in the second slot's word[0]
 * (an IPv6 record's are in its first slot's word[1], where an IPv4 record keeps its
 * addresses) */
#define FLOWTOP_RECORD_SLOTS_V4_PORTS 2
#define FLOWTOP_RECORD_FRAME_SHIFT    34
#define FLOWTOP_RECORD_SLOT_SHIFT     46
#define FLOWTOP_RECORD_PROTO_SHIFT    54
#define FLOWTOP_RECORD_ONE_FRAME      (1ull << FLOWTOP_RECORD_FRAME_SHIFT)
#define FLOWTOP_RECORD_BYTES_MASK     (FLOWTOP_RECORD_ONE_FRAME - 1)
#define FLOWTOP_RECORD_FRAMES_MAX                                                                  \
	((1u << (FLOWTOP_RECORD_SLOT_SHIFT - FLOWTOP_RECORD_FRAME_SHIFT)) - 1)
#define FLOWTOP_RECORD_V6    (1ull << 62)
#define FLOWTOP_RECORD_TAKEN (1ull << 63)
/* A notice's count (struct flow_ring_ctl): the index among the CPU's sets of the set
 * whose owner it names in the low bits. A taken record is TAKEN alone, so a notice is
 * never taken for one, nor joined. */
#define FLOWTOP_RECORD_NOTICE (FLOWTOP_RECORD_TAKEN | FLOWTOP_RECORD_V6)
/* the bits that say whose a record is: its slot, protocol and family */
#define FLOWTOP_RECORD_WHOSE (FLOWTOP_RECORD_V6 | 0xffffull << FLOWTOP_RECORD_SLOT_SHIFT)

/* A watched interface as the filter knows it: the value of the links array at index
 * ifindex % FLOWTOP_LINK_INDEX (an array, so finding it costs no hash). A frame whose
 * ifindex is not the entry's has no slot: it is counted in slot FLOWTOP_SLOT_NONE's
 * stats, as if it had no link header, until user space gives its interface a slot. */
struct flow_link {
	__u32 ifindex; /* 0: a free entry */
	__u16 slot;    /* 1 .. FLOWTOP_MAX_SLOTS - 1: the interface's stats entry and its
			* records' and spill keys' tag; FLOWTOP_SLOT_NONE: it has none (but
			* hlen holds) */
	__u16 hlen;    /* bytes of link header in front of the network header: 14 on
			* Ethernet and loopback, 0 where there is none (tun, WireGuard: the
			* ethertype then comes from the IP version nibble) */
};

/* Key of the spill map: an address on one interface. */
struct flow_spill_key {
	struct flow_key addr; /* or a port's key (FLOWTOP_PORT_KEY_KIND) */
	__u32 slot;	      /* | FLOWTOP_SPILL_PORT for a port's key */
};

/* The wake ring (a BPF ring buffer; the wakes of struct flow_ring_ctl): an 8-byte notice
 * each, 16 bytes with its header, one a CPU between two drains, so 64 KiB holds those of
 * 4,096 CPUs. */
#define FLOWTOP_WAKE_BYTES (64u << 10)

#define FLOWTOP_PROTO_UNKNOWN 255 /* IPPROTO_RAW's number, never a real next header */

/* Ports. In the program built to count them (COUNT_PORTS, bpf/flowtop.bpf.c; its
 * want_ports says so), a pair is also its frames' transport ports, and its records and its set's
 * owner carry them in a 64-bit word: the innermost IP header's transport header's source port (bits
 * 16-31) and destination port (bits 0-15) for TCP, UDP, UDP-Lite, SCTP and DCCP, an ICMP or ICMPv6
 * message's type as both, and FLOWTOP_PORTS_KNOWN; 0 when the frame has none to read (another
 * protocol, a later fragment, a transport header cut short): "no port". */
#define FLOWTOP_PORTS_KNOWN  (1ull << 32)
#define FLOWTOP_PORTS_SRC(w) ((__u16)((w) >> 16))
#define FLOWTOP_PORTS_DST(w) ((__u16)(w))

/* A port as a key of the per-address tables (struct flow_key): bytes 0-9 zero, byte 10
 * FLOWTOP_PORT_KEY_KIND, byte 11 the IP protocol, bytes 12-13 the port (big endian),
 * byte 14 1 when the port is known, 0 for the protocol's "no port". No IPv4-mapped
 * address has it (their byte 10 is 0xff); in the spill map a port's key is told apart
 * by its slot, which carries FLOWTOP_SPILL_PORT. */
#define FLOWTOP_PORT_KEY_KIND 'P'
#define FLOWTOP_SPILL_PORT    (1u << 31)

/* The ring protocol, the one statement of it: how the filter hands frames to user space
 * and user space takes them. bpf/flowtop.bpf.c and src/count/sampler.c point here and keep
 * only what is local to their code.
 *
 * Rings. Each CPU has a ring of 16-byte slots (union flow_ring_slot; a power of two of
 * them, CPU c's [c * slots, (c + 1) * slots) of the ring map), its pair sets (struct
 * flow_pair_set) and this block, head and tail on cache lines of their own. head and
 * tail count slots since the ring was made; a slot's index is count & (slots - 1).
 * [tail, head) is what the filter published and user space has not drained; the filter
 * writes new records in [head, tail + slots) alone. The filter on that CPU is the only
 * writer of head, woken, the slots past head and the sets (but for the owners' counts),
 * user space the only writer of tail and no_joins; a socket filter does not nest on a
 * CPU, so the filter never races itself. Records' and owners' counts alone are written
 * by both (the exchange, below).
 *
 * Records. The frames of one pair (same addresses, protocol and interface, and ports
 * when they are counted) on a CPU between two drains go to one record. An IPv4 pair's
 * record is one slot (count, src4, dst4), two with ports; an IPv6 pair's is three, its
 * source and destination in the two slots after the first (FLOWTOP_RECORD_SLOTS_*). A
 * record's count holds whose it is (interface, protocol, family: FLOWTOP_RECORD_WHOSE)
 * and how much (frames and their bytes) in one word, so a frame joins its pair's record
 * with one atomic addition. The filter writes a new record
 * whole, then moves head past it, publishing it (its stores ordered before head's); user
 * space loads head with acquire, so each record before head is whole. The filter finds a
 * pair's last record by its set's join hints, and joins it only when it lies at or past
 * tail, is of the pair, is not taken and has room; else it writes a new one. User space
 * sums the records.
 *
 * Owners and notices. An IPv4 pair may instead be counted in place, in its set's owner:
 * a record as the ring's are (count, src4, dst4) that lives in the set. A free owner
 * (count 0) is claimed by the next IPv4 pair of its set: the filter writes its
 * addresses (and ports, in the owner_ports array at the set's index) and count, then
 * publishes a notice, a ring slot whose count is FLOWTOP_RECORD_NOTICE and the set's
 * index, that names it. User space reads an owner only when a notice names it. Its
 * addresses and ports change only while it is free, and a set
 * has one notice out at most: an owner is claimed, or opened again, only while free.
 *
 * The exchange that frees. User space drains [tail, head): it reads each record, or
 * the owner a notice names, and takes it by an atomic exchange of its count, a
 * record's for FLOWTOP_RECORD_TAKEN, an owner's for 0, which frees it; what the
 * exchange returns is what it counts, and no frame joins it after. The filter's
 * additions are atomic against the exchange: one that finds its record taken went to
 * a record already read, and the filter writes the frame in a new record; one that
 * finds its owner free (0) opens it again for the frame, with a new notice. User space
 * then stores tail (release), handing the drained slots back to the filter.
 *
 * Wakes. A live frame that takes the ring past a quarter full since tail wakes user
 * space, once for that tail (woken = tail + 1): an 8-byte notice in the wake ring
 * (FLOWTOP_WAKE_BYTES), after which a drain follows, whatever it named. A notice lost
 * to a full wake ring is made up by the drain timer. A capture file's frames never
 * wake: their runs drain as they go.
 *
 * Joins. While user space sets no_joins, every frame is a new record and no set is read
 * or written (sampler.c's joins_paid() judges whether joining pays). */
struct flow_ring_ctl {
	__u64 head;  /* slots published (the filter writes it) */
	__u64 woken; /* tail + 1 when the filter last woke user space, at the ring's passing
		      * a quarter full since that tail (the filter writes it) */
	__u64 _pad1[6];
	__u64 tail;	/* slots consumed (user space writes it) */
	__u64 no_joins; /* nonzero: every frame a new record, no pair set read or written
			 * (user space found that the CPU's pairs did not repeat; see
			 * sampler.c's joins_paid()) */
	__u64 _pad2[6];
};

/* The CPU's pair sets: an array of sets, CPU c's [c * sets, (c + 1) * sets), a pair's the
 * one at a hash of it. A set holds an IPv4 pair's record in place, its owner (claimed,
 * named and freed as struct flow_ring_ctl says), and two join hints for the pairs that
 * do not own it. The frames of the owner's pair add to it there, on a line only the
 * CPU's filter writes, and no record is read in the ring. A frame that cannot be
 * counted in the owner (another pair owns it, IPv6, a full count) goes to a ring record.
 *
 * A hint says where the CPU's last record of a pair starts: in the low
 * FLOWTOP_HINT_POS_BITS the record's first slot plus one (0: nowhere), above them a tag
 * of the pair's hash, so that another pair's hint is told without reading its record.
 * The newest hint of a set is way[0]: two pairs that share a set both join their
 * records, three take turns (measured: with one hint a set, the few pairs of 256 that
 * shared one wrote a record a frame, more records than all the others together). A hint
 * is only ever a guess: the filter checks the record it points at. 2,048 sets a CPU (64
 * KiB), fewer on more than 256 CPUs (bpf_load_join_hints() counts their hints). */
#define FLOWTOP_JOIN_HINTS 4096	      /* hints per CPU at most (a power of two) */
#define FLOWTOP_JOIN_TOTAL (1u << 20) /* hints of all CPUs together, at most */
#define FLOWTOP_JOIN_FLOOR 256	      /* hints per CPU at least */
#define FLOWTOP_HINT_POS_BITS                                                                      \
	48 /* a ring's slots since it was made: 2^48 is 9 years                                    \
	    * of a slot a microsecond */
struct flow_pair_set {
	union flow_ring_slot owner; /* an IPv4 pair's record, counted in place */
	__u64 way[2];		    /* join hints, the newest first */
};

/* The fields of struct flow_counters, for code that does the same to each. */
#define FLOW_COUNTERS_FIELDS(X) X(rx_packets) X(rx_bytes) X(tx_packets) X(tx_bytes)

/* Per-address counters, cumulative. rx/tx are seen from the address's side: rx counts
 * frames sent *to* it. */
struct flow_counters {
	__u64 rx_packets; /* frames whose innermost destination is this address */
	__u64 rx_bytes;	  /* their length on the wire, link header and VLAN tags included */
	__u64 tx_packets; /* frames whose innermost source is this address */
	__u64 tx_bytes;	  /* likewise */
};

/* Value of the spill map, one copy per CPU: the counters, and when the CPU that made the
 * entry made it (0 in the other CPUs' copies). An entry evicted and made again between
 * two reads has another stamp, so its counters are all new, even when they are not
 * smaller than those read before. */
struct flow_spill {
	struct flow_counters c;
	__u64 created_ns; /* bpf_ktime_get_ns() at creation, on the creating CPU's copy */
};

/* The filter's counters, the one list of them: X(field, JSON key, text label,
 * Prometheus family, help), a NULL name where an output leaves the field out. struct
 * flow_stats is made from it, and so are user space's sums and deltas of it and every
 * output of them (src/count/sampler.c, src/output/report.c, src/output/metrics.c, ui/screen.c). */
#define FLOW_STATS_FIELDS(X)                                                                       \
	X(frames, "packets", NULL, "flowtop_frames_total", "Frames the filter saw.")               \
	X(bytes, "bytes", NULL, "flowtop_bytes_total",                                             \
	  "Bytes of the frames the filter saw, link header included.")                             \
	X(out_frames, "out_packets", NULL, "flowtop_sent_frames_total",                            \
	  "Frames this host sent, of those the filter saw (the rest it received).")                \
	X(out_bytes, "out_bytes", NULL, "flowtop_sent_bytes_total", "Bytes of the frames sent.")   \
	X(non_ip, "non_ip", "non-IP", "flowtop_non_ip_frames_total", "Frames with no IP header.")  \
	X(truncated, "truncated", "truncated", "flowtop_truncated_frames_total",                   \
	  "Frames cut short or invalid inside a header.")                                          \
	X(lost, "lost", "lost", "flowtop_lost_updates_total",                                      \
	  "Address updates lost to hosts, not to totals: refused by the spill map or evicted by "  \
	  "its LRU before a read.")                                                                \
	X(spilled, "spilled", "spilled", "flowtop_spilled_frames_total",                           \
	  "Frames counted through the spill map (a per-CPU ring was full).")                       \
	X(filtered, "filtered", "unmatched", "flowtop_filtered_frames_total",                      \
	  "Frames the filter expression rejected: counted nowhere else.")                          \
	X(filtered_bytes, "filtered_bytes", NULL, "flowtop_filtered_bytes_total",                  \
	  "Bytes of the frames the filter expression rejected.")                                   \
	X(new_entries, NULL, NULL, NULL, NULL)

/* An entry of the per-CPU stats array, one per slot: every frame the filter saw
 * (FLOW_STATS_FIELDS): frames, counted or not, and their bytes on the wire; of them, those this
 * host sent; frames with no IP header on the dissector's path; frames cut short or invalid inside a
 * header on the path; address updates lost; frames counted in the spill map because
 * their CPU's ring was full; frames a filter expression rejected, and their bytes
 * (counted there alone); spill map entries the filter created. User space keeps its
 * sums in the same struct, lost there also counting what the spill map's LRU dropped. */
struct flow_stats {
#define FLOW_STATS_MEMBER(field, json, text, family, help) __u64 field;
	FLOW_STATS_FIELDS(FLOW_STATS_MEMBER)
#undef FLOW_STATS_MEMBER
};

#define FLOWTOP_ETH_HLEN 14 /* struct flow_link's hlen on Ethernet and loopback */

/* A filter expression in front of the count (src/expr/gate.c): flowtop_gate, attached in
 * flowtop_count's place, works out where the frame's link header starts and how long
 * the frame is on the wire (as flowtop_count does: one function of the program), puts
 * that in the frame's cb[] and tail-calls the expression's judge through the gate_progs
 * array. The judge, assembled by user space from the expression, tail-calls
 * flowtop_count for a frame it keeps and flowtop_rejected for one it does not, which
 * counts it in its slot's `filtered` counters alone. */
enum flowtop_gate_prog {
	FLOWTOP_GATE_JUDGE,    /* the expression's judge, replaced whole by a new one */
	FLOWTOP_GATE_COUNT,    /* flowtop_count */
	FLOWTOP_GATE_REJECTED, /* flowtop_rejected */
	FLOWTOP_GATE_PROGS,
};

/* What flowtop_gate leaves in the frame's __sk_buff.cb[] for the judge. */
enum flowtop_gate_cb {
	FLOWTOP_CB_SLOT,     /* the frame's slot */
	FLOWTOP_CB_WIRE_LEN, /* its bytes on the wire, link header and tags included */
	FLOWTOP_CB_LINK,     /* its link header's length: 0 for none (raw IP) */
	FLOWTOP_CB_DATA_AT,  /* where offset 0 of bpf_skb_load_bytes() lies, counted from
			      * the link header's first byte: payload past the linear head
			      * is read from there (bpf_skb_load_bytes_relative() cannot) */
};

/* A capture file's frames go to the filter several to one BPF_PROG_TEST_RUN of
 * flowtop_count_file, which a syscall's fixed cost makes worth it: after the 14 bytes
 * the run takes as an Ethernet header come up to FLOWTOP_FILE_BATCH frames, each a
 * struct flow_file_frame and its first `len` bytes from the network header on, then a
 * header whose len is FLOWTOP_FILE_END. The program returns a mask of the frames it
 * could not dissect in the bytes it was given but would have in those held back: user
 * space runs them again whole (flowtop_count, one frame a run). */
#define FLOWTOP_FILE_BATCH 32	  /* frames a run at most: the bits of its return value */
#define FLOWTOP_FILE_HEAD  128	  /* bytes of a frame a run is given at most */
#define FLOWTOP_FILE_END   0xffff /* struct flow_file_frame.len after the last frame */

struct flow_file_frame {
	__u16 len;	 /* bytes of the frame that follow, from its network header on */
	__u16 ethertype; /* what the frame's link header says its network header is */
	__u32 held;	 /* bytes the batch held back: the frame's, past len */
	__u32 extra;	 /* bytes the frame had on the wire that the file does not hold */
};

_Static_assert(sizeof(struct flow_key) == 16, "flow_key must have no padding");
_Static_assert(sizeof(struct flow_counters) == 32, "flow_counters layout");
_Static_assert(sizeof(struct flow_stats) == 11 * 8, "flow_stats: FLOW_STATS_FIELDS, u64 each");
_Static_assert(sizeof(union flow_ring_slot) == 16, "flow_ring_slot layout");
_Static_assert(sizeof(struct flow_spill) == 40, "flow_spill layout");
_Static_assert(sizeof(struct flow_spill_key) == 20, "flow_spill_key must have no padding");
_Static_assert(sizeof(struct flow_link) == 8, "flow_link layout");
_Static_assert(FLOWTOP_MAX_SLOTS <= 256, "a slot fits a record's 8 bits");
_Static_assert(sizeof(struct flow_ring_ctl) == 128, "flow_ring_ctl layout");
_Static_assert(sizeof(struct flow_pair_set) == 32, "flow_pair_set layout");
_Static_assert(sizeof(struct flow_file_frame) == 12, "flow_file_frame layout");

#endif /* FLOWTOP_H */
