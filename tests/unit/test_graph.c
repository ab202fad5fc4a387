// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_graph.c: the traffic graph: a ring of the last 60 samples read oldest first, and
 * rows of eighths scaled to the peak, the lowest row showing any traffic at all. */
#include "test.h"

#include "graph.h"

static void test_ring_keeps_the_last_60(void)
{
	struct graph g;
	double v[GRAPH_SAMPLES];
	int i;

	graph_clear(&g);
	graph_push(&g, 1, 10);
	graph_push(&g, 2, 20);
	ASSERT_EQ(graph_last(&g, GRAPH_IN, 4, v), 4);
	ASSERT_DBL(v[0] + v[1], 0.0); /* not sampled yet */
	ASSERT_DBL(v[2], 1.0);
	ASSERT_DBL(v[3], 2.0);
	graph_last(&g, GRAPH_OUT, 1, v);
	ASSERT_DBL(v[0], 20.0);
	for (i = 0; i < 100; i++)
		graph_push(&g, i, -5); /* a negative rate (counters restarted) reads 0 */
	ASSERT_EQ(graph_last(&g, GRAPH_IN, 1000, v), GRAPH_SAMPLES);
	ASSERT_DBL(v[0], 40.0); /* 100 pushed: the oldest kept is the 41st */
	ASSERT_DBL(v[GRAPH_SAMPLES - 1], 99.0);
	graph_last(&g, GRAPH_OUT, 1, v);
	ASSERT_DBL(v[0], 0.0);
}

static void test_rows_scale_to_the_peak(void)
{
	double v[4] = { 0, 1, 50, 100 };
	char buf[64];

	/* 3 rows = 24 eighths: 100 fills all three, 50 twelve eighths, 1 the lowest */
	ASSERT_EQ(graph_row(v, 4, 100, 3, 0, false, buf, sizeof(buf)), 4);
	ASSERT_STREQ(buf, "   #");
	graph_row(v, 4, 100, 3, 1, false, buf, sizeof(buf));
	ASSERT_STREQ(buf, "  :#"); /* 12 - 8 = 4 eighths in the middle row */
	graph_row(v, 4, 100, 3, 2, false, buf, sizeof(buf));
	ASSERT_STREQ(buf, " .##");
	graph_row(v, 4, 100, 3, 1, true, buf, sizeof(buf));
	ASSERT_STREQ(buf, "  \u2584\u2588");
}

static void test_silence_and_no_peak_are_blank(void)
{
	double v[3] = { 0, 0, 0 };
	char buf[16];

	graph_row(v, 3, 0, 2, 1, true, buf, sizeof(buf));
	ASSERT_STREQ(buf, "   ");
	ASSERT_EQ(graph_row(v, 3, 0, 2, 1, true, buf, 3), 2); /* clipped to the buffer */
	ASSERT_STREQ(buf, "  ");
}

int main(void)
{
	RUN_TEST(test_ring_keeps_the_last_60);
	RUN_TEST(test_rows_scale_to_the_peak);
	RUN_TEST(test_silence_and_no_peak_are_blank);
	return test_summary("test_graph");
}
