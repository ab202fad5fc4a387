/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* cbpf.h: a classic BPF program (a filter expression libpcap compiled, src/expr/expr.h) made
 * into eBPF instructions that a socket filter runs: each load through
 * bpf_skb_load_bytes_relative() from the link header on (so an Ethernet program sees
 * the frame as tcpdump does, on a socket that starts at the network header), each
 * verdict a jump to the code its caller puts after it. */
#ifndef FLOWTOP_CBPF_H
#define FLOWTOP_CBPF_H

#include <stddef.h>

#include <linux/bpf.h>

#include "flowtop.h"
#include "expr.h"

/* What the translated code expects at its start, and how it ends:
 *   CBPF_REG_CTX  the __sk_buff (R1 at the program's start: copy it there)
 *   CBPF_REG_LEN  the frame's length on the wire, link header included (classic BPF's
 *                 "len": the caller knows the link header's length)
 *   CBPF_CTX_DATA_AT  at this offset of the __sk_buff (a word of its cb[]), where
 *                 bpf_skb_load_bytes()'s offset 0 lies counted from `start` (its link
 *                 header's length, as flowtop_gate puts it there; 0 on raw IP)
 * R7 and R8 hold classic BPF's A and X; the stack's top CBPF_STACK bytes are its.
 * A frame the expression keeps jumps to the instruction right after the translation,
 * one it rejects match_len instructions further: the caller appends match_len
 * instructions for a match, then those for a rejection. */
#define CBPF_REG_CTX	 BPF_REG_6
#define CBPF_REG_LEN	 BPF_REG_9
#define CBPF_STACK	 80 /* M[0..15], 8 bytes a load lands in, a loop's count */
#define CBPF_CTX_DATA_AT (int16_t)(offsetof(struct __sk_buff, cb) + 4 * FLOWTOP_CB_DATA_AT)
#define CBPF_LOOPS	 32 /* jumps back a run takes at most (libpcap's protochain: headers) */

/* Translates prog (n classic instructions) into out (cap instructions at most), its
 * offsets from `start` on (BPF_HDR_START_MAC for a link type with a header, where
 * classic offset 0 is the link header's first byte; BPF_HDR_START_NET for raw IP). A jump
 * back (libpcap's protochain) is a loop taken CBPF_LOOPS times at most. Returns the
 * instructions written, or -EINVAL (a program the kernel's classic checker would refuse:
 * a jump out of it, a division by a constant 0, a shift by 32 or more) or -EOPNOTSUPP (the kernel's
 * ancillary loads, which libpcap leaves out of programs it compiles for a link type)
 * or -E2BIG (more than cap), the reason in err. */
int cbpf_translate(const struct expr_insn *prog, size_t n, unsigned start, size_t match_len,
		   struct bpf_insn *out, size_t cap, char *err, size_t errlen);

#endif
