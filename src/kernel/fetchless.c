// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fetchless.c: flowtop's BPF object for kernels without BPF atomics that return the old
 * value (before Linux 5.12). Their verifiers refuse an object holding one of those
 * instructions anywhere, even in code that never runs, so in a copy of the object each
 * becomes an instruction they take in code that never runs and refuse in code that
 * does: a store of its register to the frame pointer's own slot (r10 + 0, outside the
 * stack). The program runs none of them there: the joins that fetch stand behind
 * fetch_atomics and the exchange of the head behind exchange_head, both 0 on such a
 * kernel (bpf_load.c), and its verifier drops what they guard; a fetching atomic added
 * outside them makes the load fail ("invalid stack off=0"), never a join that reads
 * the addend for the old value. */
#include "fetchless.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

/* The copies made, one per object it was asked for (flowtop embeds two: with and
 * without ports), kept for the process. */
#define FETCHLESS_OBJECTS 2
static struct {
	const void *of; /* the object copied */
	void *copy;
	size_t rewritten;
} made[FETCHLESS_OBJECTS];

/* Rewrites the fetching atomics of one section's n instructions: how many. */
static size_t rewrite(struct bpf_insn *insn, size_t n)
{
	size_t i, done = 0;

	for (i = 0; i < n; i++) {
		__u8 cls = BPF_CLASS(insn[i].code), mode = BPF_MODE(insn[i].code);

		if (cls == BPF_STX && mode == BPF_ATOMIC && insn[i].imm & BPF_FETCH) {
			insn[i].code = BPF_STX | BPF_MEM | BPF_SIZE(insn[i].code);
			insn[i].dst_reg = BPF_REG_10;
			insn[i].off = 0;
			insn[i].imm = 0;
			done++;
		}
	}
	return done;
}

const void *fetchless_object(const void *elf, size_t sz, size_t *rewritten)
{
	Elf_Scn *scn = NULL;
	size_t done = 0, i;
	void *copy;
	Elf *e;

	for (i = 0; i < FETCHLESS_OBJECTS && made[i].of; i++)
		if (made[i].of == elf) {
			*rewritten = made[i].rewritten;
			return made[i].copy;
		}
	if (i == FETCHLESS_OBJECTS) {
		errno = ENOSPC; /* cannot be: two objects are embedded */
		return NULL;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = EINVAL;
		return NULL;
	}
	copy = malloc(sz);
	if (!copy)
		return NULL;
	memcpy(copy, elf, sz);
	e = elf_memory(copy, sz);
	if (!e || elf_kind(e) != ELF_K_ELF)
		goto bad;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			goto bad;
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (sh.sh_offset > sz || sh.sh_size > sz - sh.sh_offset ||
		    sh.sh_size % sizeof(struct bpf_insn) ||
		    sh.sh_offset % _Alignof(struct bpf_insn))
			goto bad;
		done += rewrite((struct bpf_insn *)((char *)copy + sh.sh_offset),
				sh.sh_size / sizeof(struct bpf_insn));
	}
	elf_end(e);
	made[i].of = elf;
	made[i].copy = copy;
	made[i].rewritten = *rewritten = done;
	return copy;

bad:
	if (e)
		elf_end(e);
	free(copy);
	errno = EINVAL;
	return NULL;
}
