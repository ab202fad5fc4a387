// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_rings.c: how big the per-CPU rings and join hints are made from the memory
 * budget, for CPU counts this machine does not have. */
#include "test.h"

#include <stdint.h>

#include "bpf_load.h"
#include "cli.h"

#define MIB ((size_t)1 << 20)

static void test_ring_sizes_from_the_budget(void)
{
	/* 2 CPUs in 32 MiB: the largest ring, 2 MiB each */
	ASSERT_EQ(bpf_load_ring_slots(BPF_LOAD_RING_BUDGET, 2), FLOWTOP_DEFAULT_RING_SLOTS);
	/* 24 CPUs: 1.33 MiB each holds 87381 16-byte slots, the power of two below is 65536 */
	ASSERT_EQ(bpf_load_ring_slots(32 * MIB, 24), 65536);
	/* 512 CPUs: 64 KiB each, 4096 slots, 32 MiB in all */
	ASSERT_EQ(bpf_load_ring_slots(32 * MIB, 512), 4096);
	/* 4096 CPUs in 1 MiB: the floor, not nothing */
	ASSERT_EQ(bpf_load_ring_slots(MIB, 4096), BPF_LOAD_RING_FLOOR);
	/* a budget as large as one likes: never past the largest ring */
	ASSERT_EQ(bpf_load_ring_slots(SIZE_MAX, 1), FLOWTOP_DEFAULT_RING_SLOTS);
	/* more rings than one map's 2^32 entries hold: refused, not wrapped */
	ASSERT_EQ(bpf_load_ring_slots(32 * MIB, 1u << 21), 0);
	ASSERT_EQ(bpf_load_ring_slots(32 * MIB, 0), 0);
}

static void test_join_hints_per_cpu(void)
{
	/* up to 256 CPUs: 4,096 hints each, 32 KiB */
	ASSERT_EQ(bpf_load_join_hints(1), FLOWTOP_JOIN_HINTS);
	ASSERT_EQ(bpf_load_join_hints(256), FLOWTOP_JOIN_HINTS);
	/* more: halved until all of them hold 1 Mi (8 MiB) */
	ASSERT_EQ(bpf_load_join_hints(257), 2048);
	ASSERT_EQ(bpf_load_join_hints(1024), 1024);
	/* and never under the floor, whatever that takes */
	ASSERT_EQ(bpf_load_join_hints(8192), FLOWTOP_JOIN_FLOOR);
	ASSERT_EQ(bpf_load_join_hints(1u << 20), FLOWTOP_JOIN_FLOOR);
}

static void test_ring_memory_option(void)
{
	char a0[] = "flowtop", a1[] = "--ring-memory", a2[] = "8", z2[] = "0";
	char *argv[] = { a0, a1, a2, NULL }, *zero[] = { a0, a1, z2, NULL };
	struct cli_opts o;
	char err[256];

	ASSERT_EQ(cli_parse(3, argv, &o, stdout, err, sizeof(err)), CLI_RUN);
	ASSERT_EQ(o.ring_mib, 8);
	ASSERT_EQ(cli_parse(1, argv, &o, stdout, err, sizeof(err)), CLI_RUN);
	ASSERT_EQ((size_t)o.ring_mib << 20, BPF_LOAD_RING_BUDGET); /* the default, one place */
	ASSERT_EQ(cli_parse(3, zero, &o, stdout, err, sizeof(err)), CLI_USAGE);
	ASSERT_TRUE(strstr(err, "--ring-memory takes 1 to 65536 MiB") != NULL);
}

int main(void)
{
	RUN_TEST(test_ring_sizes_from_the_budget);
	RUN_TEST(test_ring_memory_option);
	RUN_TEST(test_join_hints_per_cpu);
	return test_summary("test_rings");
}
