// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_verifier.c: the verifier's budget. Each program is loaded as flowtop loads it,
 * with the verifier's statistics, and must take the running kernel's verifier at most a
 * quarter of the 1,000,000 instructions it processes before it gives up: a change that
 * would break an older kernel (whose verifier prunes less) fails here first, on the
 * kernel at hand. make check-kernels runs it on Debian 12's 6.1 and 13's 6.12 as well. Prints each
 * count, so a run records them for the kernel it ran on. Twice: as loaded without ports
 * and with them (--group port), two programs the verifier checks apart. */
#include "test.h"

#include <sys/utsname.h>

#include "bpf_load.h"

#define VERIFIER_LIMIT	1000000ul /* BPF_COMPLEXITY_LIMIT_INSNS, since Linux 5.2 */
#define VERIFIER_BUDGET (VERIFIER_LIMIT / 4)

static struct bpf_load_verified verified[BPF_LOAD_PROGS];
static bool loaded, ports;
static struct flowtop_bpf *skel;

/* Both programs load, and the log said what the verifier processed for each. */
static void test_programs_load_with_statistics(void)
{
	int i;

	struct bpf_maps maps;

	if (!ASSERT_TRUE(loaded))
		return;
	for (i = 0; i < BPF_LOAD_PROGS; i++) {
		ASSERT_TRUE(verified[i].prog[0] != '\0');
		if (!ASSERT_TRUE(verified[i].insns > 0))
			printf("  %s's log: %s\n", verified[i].prog, verified[i].log);
	}
	/* the object asked for, also the second of a process (each its own fetchless copy) */
	bpf_load_maps(skel, &maps);
	ASSERT_EQ(maps.ports, ports);
}

/* Each program within the budget, on this kernel. */
static void test_programs_within_the_budget(void)
{
	struct utsname u;
	int i;

	uname(&u);
	for (i = 0; i < BPF_LOAD_PROGS; i++) {
		printf("  Linux %s: %s%s: %lu instructions processed, %lu states (budget %lu)\n",
		       u.release, verified[i].prog, ports ? " with ports" : "", verified[i].insns,
		       verified[i].states, VERIFIER_BUDGET);
		if (verified[i].insns > VERIFIER_BUDGET)
			FAILF("%s: %lu instructions processed, over the budget of %lu",
			      verified[i].prog, verified[i].insns, VERIFIER_BUDGET);
	}
}

/* Where the kernel counts them itself (bpf_prog_info, Linux 5.16), it says what its
 * log said: the budget is read right. */
static void test_log_agrees_with_prog_info(void)
{
	int i;

	for (i = 0; i < BPF_LOAD_PROGS; i++)
		if (verified[i].prog_info)
			ASSERT_EQ(verified[i].prog_info, verified[i].insns);
}

int main(void)
{
	char err[256];
	int i;

	if (!test_need_root("test_verifier", 6))
		return test_summary("test_verifier");
	for (ports = false;; ports = true) {
		memset(verified, 0, sizeof(verified));
		skel = bpf_load(&(struct bpf_load_opts){ .verified = verified, .ports = ports },
				err, sizeof(err));
		loaded = skel != NULL;
		if (!loaded) {
			printf("  %s\n", err);
			for (i = 0; i < BPF_LOAD_PROGS; i++)
				printf("  %s's log: %s\n", verified[i].prog, verified[i].log);
		}
		RUN_TEST(test_programs_load_with_statistics);
		RUN_TEST(test_programs_within_the_budget);
		RUN_TEST(test_log_agrees_with_prog_info);
		bpf_unload(skel);
		if (ports)
			break;
	}
	return test_summary("test_verifier");
}
