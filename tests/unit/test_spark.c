// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_spark.c: sparklines: scaled to their largest cell, silence blank, any traffic
 * visible, values averaged into cells, block elements or ASCII, never past the buffer. */
#include "test.h"

#include "spark.h"

static void test_ascii_levels(void)
{
	double v[8] = { 0, 1, 2, 3, 4, 5, 6, 8 };
	char buf[64];

	ASSERT_EQ(spark_format(v, 8, 8, false, buf, sizeof(buf)), 8);
	ASSERT_STREQ(buf, " ._-:=+#"); /* 0 blank, 8 the full level, 1 the lowest */
}

static void test_tiny_traffic_shows(void)
{
	double v[4] = { 1e9, 0, 1, 0 };
	char buf[64];

	spark_format(v, 4, 4, false, buf, sizeof(buf));
	ASSERT_STREQ(buf, "# . "); /* one byte beside a gigabyte still shows */
}

static void test_silence_is_blank(void)
{
	double v[40] = { 0 };
	char buf[128];

	ASSERT_EQ(spark_format(v, 40, 20, true, buf, sizeof(buf)), 20);
	ASSERT_STREQ(buf, "                    ");
}

static void test_cells_average_values(void)
{
	double v[40] = { 0 };
	char buf[128];
	int i;

	for (i = 20; i < 40; i++)
		v[i] = 100;
	v[0] = 100; /* cell 0 holds v[0] and v[1]: half of the full level */
	spark_format(v, 40, 20, false, buf, sizeof(buf));
	ASSERT_STREQ(buf, ":         ##########");
}

static void test_utf8_blocks(void)
{
	double v[3] = { 0, 1, 8 };
	char buf[64];

	spark_format(v, 3, 3, true, buf, sizeof(buf));
	ASSERT_STREQ(buf, " \u2581\u2588");
	ASSERT_EQ(spark_format(v, 3, 3, true, buf, 5), 2); /* " " and one block fit in 5 */
	ASSERT_STREQ(buf, " \u2581");
}

static void test_fewer_values_than_cells(void)
{
	double v[2] = { 1, 2 };
	char buf[64];

	spark_format(v, 2, 4, false, buf, sizeof(buf));
	ASSERT_STREQ(buf, "::##");
}

int main(void)
{
	RUN_TEST(test_ascii_levels);
	RUN_TEST(test_tiny_traffic_shows);
	RUN_TEST(test_silence_is_blank);
	RUN_TEST(test_cells_average_values);
	RUN_TEST(test_utf8_blocks);
	RUN_TEST(test_fewer_values_than_cells);
	return test_summary("test_spark");
}
