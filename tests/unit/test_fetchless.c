// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_fetchless.c: the BPF object as a kernel without BPF atomics that fetch takes it
 * (src/kernel/fetchless.c): every fetching atomic of the embedded object, and nothing else,
 * becomes a store to r10 + 0, which a verifier refuses wherever it could run. */
#include <string.h>

#include <linux/bpf.h>

#include "bpf_load.h"
#include "fetchless.h"
#include "test.h"

/* The embedded object holds this many fetching atomics: each in a join (ring_join(),
 * owner_add()) or the exchange of the head (publish()), inlined into flowtop_count and
 * the capture file's count_file_frame(). A new one must stand behind fetch_atomics or
 * exchange_head too: then this number changes with it, after a look. */
#define FETCHING_ATOMICS 10

/* The copy of one of the two objects (ports or not); NULL when it fails a check. */
static const unsigned char *check_copy(bool ports)
{
	const struct bpf_insn *was, *now;
	size_t sz, rewritten = 0, changed = 0, i;
	const unsigned char *elf = bpf_load_object(ports, &sz);
	const unsigned char *copy = fetchless_object(elf, sz, &rewritten);

	if (!ASSERT_TRUE(copy))
		return NULL;
	ASSERT_EQ(rewritten, FETCHING_ATOMICS);
	ASSERT_TRUE(copy != elf);
	/* instructions lie 8-aligned in the code sections: every changed 8 bytes there was
	 * a fetching atomic and is now a store of the same register and size to r10 + 0 */
	for (i = 0; i + sizeof(struct bpf_insn) <= sz; i += sizeof(struct bpf_insn)) {
		if (!memcmp(elf + i, copy + i, sizeof(struct bpf_insn)))
			continue;
		was = (const struct bpf_insn *)(elf + i);
		now = (const struct bpf_insn *)(copy + i);
		changed++;
		ASSERT_EQ(BPF_CLASS(was->code), BPF_STX);
		ASSERT_EQ(BPF_MODE(was->code), BPF_ATOMIC);
		ASSERT_TRUE(was->imm & BPF_FETCH);
		ASSERT_EQ(now->code, BPF_STX | BPF_MEM | BPF_SIZE(was->code));
		ASSERT_EQ(now->dst_reg, BPF_REG_10);
		ASSERT_EQ(now->src_reg, was->src_reg);
		ASSERT_EQ(now->off, 0);
		ASSERT_EQ(now->imm, 0);
	}
	ASSERT_EQ(changed, FETCHING_ATOMICS);
	/* made once: the same copy again */
	ASSERT_TRUE(fetchless_object(elf, sz, &rewritten) == copy);
	return copy;
}

/* Each embedded object its own copy (one made first must not be handed out for the
 * other: Linux 5.10 then ran the program without ports where ports were asked). */
static void test_fetching_atomics_become_refused_stores(void)
{
	const unsigned char *plain = check_copy(false), *ports = check_copy(true);

	ASSERT_TRUE(plain && ports && plain != ports);
	ASSERT_TRUE(check_copy(false) == plain);
}

int main(void)
{
	RUN_TEST(test_fetching_atomics_become_refused_stores);
	return test_summary("test_fetchless");
}
