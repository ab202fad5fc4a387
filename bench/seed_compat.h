/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* seed_compat.h: what the 2014 seed program (samples/bpf/sockex2_kern.c, from
 * ../shared/seeds/) needs to build with today's clang and libbpf, as a benchmark
 * contestant only: its LD_ABS loads, its kernel-internal names, likely/unlikely.
 * bench/seed.sh extracts the program and moves its map to a BTF-defined one. */
#ifndef FLOWTOP_SEED_COMPAT_H
#define FLOWTOP_SEED_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define sk_buff __sk_buff
typedef __u32 u32;
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* <linux/if_tunnel.h> pulls in libc's headers: its GRE flags, as it defines them */
#define GRE_CSUM    bpf_htons(0x8000)
#define GRE_ROUTING bpf_htons(0x4000)
#define GRE_KEY	    bpf_htons(0x2000)
#define GRE_SEQ	    bpf_htons(0x1000)
#define GRE_VERSION bpf_htons(0x0007)

unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");
unsigned long long load_half(void *skb, unsigned long long off) asm("llvm.bpf.load.half");
unsigned long long load_word(void *skb, unsigned long long off) asm("llvm.bpf.load.word");

#endif
