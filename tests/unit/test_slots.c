// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_slots.c: the stats slots of the interfaces under any: lowest first while they have
 * a host link bit of their own, a gone interface's taken back only a sample after it
 * went, never more than the filter has; and the host table forgetting a slot's bit. */
#include "hosts.h"

#include "hosttab.h"
#include "slots.h"

/* slots 1 .. 63 first, in order */
static void test_lowest_first(void)
{
	struct slots s;
	unsigned i;

	slots_reset(&s);
	ASSERT_EQ(s.span, 1);
	for (i = 1; i < 5; i++) {
		ASSERT_EQ(slots_pick(&s, 0), i);
		slots_hold(&s, i);
	}
	ASSERT_EQ(s.span, 5);
}

/* a released slot: not before a sample has passed since (its records may be on their
 * way), and while bits of their own are left, a fresh one is given instead */
static void test_release_waits_a_sample(void)
{
	struct slots s;
	unsigned i;

	slots_reset(&s);
	for (i = 1; i < LINK_BITS; i++)
		slots_hold(&s, slots_pick(&s, 7));
	slots_release(&s, 9, 7);
	slots_release(&s, 4, 7);
	ASSERT_TRUE(!slots_reusable(&s, 4, 7));
	ASSERT_EQ(slots_pick(&s, 7), LINK_BITS); /* not yet: a fresh one past the bits */
	ASSERT_TRUE(slots_reusable(&s, 4, 8));
	ASSERT_EQ(slots_pick(&s, 8), 4); /* a bit of its own beats a fresh slot past them */
	ASSERT_EQ(slots_state(&s, 4), SLOT_RELEASED);
	slots_free(&s, 4);
	slots_hold(&s, 4);
	ASSERT_EQ(slots_pick(&s, 8), 9);
}

/* while fresh slots with bits of their own are left, gone interfaces keep theirs (their
 * rows and counts stay) */
static void test_gone_kept_while_bits_left(void)
{
	struct slots s;

	slots_reset(&s);
	slots_hold(&s, slots_pick(&s, 0));
	slots_hold(&s, slots_pick(&s, 0));
	slots_release(&s, 1, 0);
	ASSERT_EQ(slots_pick(&s, 5), 3);
}

/* 255 slots at most: with all held, none; the interfaces of a busy container host come
 * and go all day and still get one */
static void test_churn_never_runs_out(void)
{
	struct slots s;
	unsigned long sample;
	unsigned i, slot, held[FLOWTOP_MAX_SLOTS];

	slots_reset(&s);
	for (i = 1; i < FLOWTOP_MAX_SLOTS; i++) {
		held[i] = slots_pick(&s, 0);
		slots_hold(&s, held[i]);
	}
	ASSERT_EQ(slots_pick(&s, 0), FLOWTOP_SLOT_NONE);
	ASSERT_EQ(s.span, FLOWTOP_MAX_SLOTS);
	for (sample = 1; sample < 5000; sample++) { /* one goes, one comes, each sample */
		unsigned gone = held[1 + sample * 7 % (FLOWTOP_MAX_SLOTS - 1)];

		slots_release(&s, gone, sample);
		slot = slots_pick(&s, sample + 1);
		if (!ASSERT_EQ(slot, gone))
			break;
		slots_free(&s, slot);
		slots_hold(&s, slot);
	}
	ASSERT_EQ(slots_pick(&s, sample), FLOWTOP_SLOT_NONE);
}

/* FLOWTOP_SLOT_NONE is never given, never released */
static void test_slot_none_stays(void)
{
	struct slots s;

	slots_reset(&s);
	slots_release(&s, FLOWTOP_SLOT_NONE, 0);
	slots_free(&s, FLOWTOP_SLOT_NONE);
	ASSERT_EQ(slots_state(&s, FLOWTOP_SLOT_NONE), SLOT_HELD);
	ASSERT_EQ(slots_pick(&s, 10), 1);
}

/* hosts seen on an interface whose slot goes to another were seen on "another
 * interface"; the other bits stay; slots without a bit of their own change nothing */
static void test_forget_link(void)
{
	struct hosttab *t = hosttab_new(16);
	struct flow_key a = key("10.0.0.1"), b = key("10.0.0.2");

	hosttab_add_frame(t, &a, 1, 100, link_bit(3) | link_bit(5));
	hosttab_add_frame(t, &b, 1, 100, link_bit(5));
	hosttab_end(t, 1.0);
	hosttab_forget_link(t, 3);
	ASSERT_EQ(hosttab_find(t, &a)->links, link_bit(FLOWTOP_SLOT_NONE) | link_bit(5));
	ASSERT_EQ(hosttab_find(t, &b)->links, link_bit(5));
	hosttab_forget_link(t, 100);
	ASSERT_EQ(hosttab_find(t, &b)->links, link_bit(5));
	ASSERT_TRUE(link_bit_own(63) && !link_bit_own(64) && !link_bit_own(FLOWTOP_SLOT_NONE));
	ASSERT_EQ(link_bit_nth(0), 1);
	ASSERT_EQ(link_bit_nth(LINK_BITS - 1), FLOWTOP_SLOT_NONE);
	hosttab_free(t);
	/* an address at a full table's door forgets the slot too, and brings its links in */
	t = hosttab_new(1);
	hosttab_add_frame(t, &a, 1, 100, link_bit(5));
	hosttab_add_frame(t, &b, 1, 100, link_bit(3));
	ASSERT_TRUE(hosttab_find(t, &b) == NULL);
	hosttab_forget_link(t, 3);
	hosttab_add_frame(t, &b, 1, 100, link_bit(6));
	if (ASSERT_TRUE(hosttab_find(t, &b) != NULL))
		ASSERT_EQ(hosttab_find(t, &b)->links, link_bit(FLOWTOP_SLOT_NONE) | link_bit(6));
	hosttab_free(t);
}

int main(void)
{
	RUN_TEST(test_lowest_first);
	RUN_TEST(test_release_waits_a_sample);
	RUN_TEST(test_gone_kept_while_bits_left);
	RUN_TEST(test_churn_never_runs_out);
	RUN_TEST(test_slot_none_stays);
	RUN_TEST(test_forget_link);
	return test_summary("test_slots");
}
