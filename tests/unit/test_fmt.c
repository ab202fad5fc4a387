// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_fmt.c: addresses, scaled numbers and timestamps. */
#include "test.h"

#include "fmt.h"

static void test_ipv4_mapped_prints_dotted(void)
{
	struct flow_key k = { .addr = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 } };
	char buf[FMT_ADDR_LEN];

	ASSERT_STREQ(fmt_addr(&k, buf), "192.0.2.1");
}

static void test_ipv6_prints_rfc5952(void)
{
	struct flow_key k = { .addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } };
	char buf[FMT_ADDR_LEN];

	ASSERT_STREQ(fmt_addr(&k, buf), "2001:db8::1");
}

static void test_parse_roundtrip_and_v4mapped_merge(void)
{
	struct flow_key a, b;
	char buf[FMT_ADDR_LEN];

	ASSERT_OK(fmt_parse_addr("10.1.2.3", &a));
	ASSERT_OK(fmt_parse_addr("::ffff:10.1.2.3", &b));
	ASSERT_TRUE(!memcmp(&a, &b, sizeof(a)));
	ASSERT_STREQ(fmt_addr(&b, buf), "10.1.2.3");
	ASSERT_OK(fmt_parse_addr("FE80::0:1", &a));
	ASSERT_STREQ(fmt_addr(&a, buf), "fe80::1");
	ASSERT_TRUE(fmt_parse_addr("10.1.2", &a) != 0);
	ASSERT_TRUE(fmt_parse_addr("", &a) != 0);
	ASSERT_TRUE(fmt_parse_addr("1::2::3", &a) != 0);
}

static void test_scaled(void)
{
	char buf[32];

	ASSERT_STREQ(fmt_scaled(0, "b/s", buf, sizeof(buf)), "0b/s");
	ASSERT_STREQ(fmt_scaled(999, "b/s", buf, sizeof(buf)), "999b/s");
	ASSERT_STREQ(fmt_scaled(1000, "b/s", buf, sizeof(buf)), "1.00kb/s");
	ASSERT_STREQ(fmt_scaled(12345, "b/s", buf, sizeof(buf)), "12.3kb/s");
	ASSERT_STREQ(fmt_scaled(999999, "B", buf, sizeof(buf)), "1.00MB");
	ASSERT_STREQ(fmt_scaled(123.4e9, "b/s", buf, sizeof(buf)), "123Gb/s");
	ASSERT_STREQ(fmt_scaled(-5, "", buf, sizeof(buf)), "0");
	ASSERT_STREQ(fmt_scaled(1.0 / 0.0, "", buf, sizeof(buf)), "0");
}

static void test_noun_agrees(void)
{
	ASSERT_STREQ(fmt_noun(1, "row", "rows"), "row");
	ASSERT_STREQ(fmt_noun(0, "row", "rows"), "rows");
	ASSERT_STREQ(fmt_noun(2, "row", "rows"), "rows");
}

static void test_rfc3339(void)
{
	struct timespec ts = { .tv_sec = 1796293738, .tv_nsec = 123999999 };
	char buf[FMT_TIME_LEN];

	ASSERT_STREQ(fmt_time_rfc3339(&ts, buf), "2026-12-03T10:28:58.123Z");
	/* before 1970, and a fraction kept negative (as a / and % of nanoseconds give it):
	 * still a valid time, not ".-999999" */
	ts = (struct timespec){ .tv_sec = -1, .tv_nsec = 0 };
	ASSERT_STREQ(fmt_time_rfc3339_digits(&ts, 6, buf), "1969-12-31T23:59:59.000000Z");
	ts = (struct timespec){ .tv_sec = 0, .tv_nsec = -1000 };
	ASSERT_STREQ(fmt_time_rfc3339_digits(&ts, 6, buf), "1969-12-31T23:59:59.999999Z");
}

/* A line cut at a width never halves a character: "↓" is 3 bytes and one column. */
static void test_utf8_cut(void)
{
	ASSERT_EQ(fmt_utf8_cut("ab", 5), 2);
	ASSERT_EQ(fmt_utf8_cut("abc", 2), 2);
	ASSERT_EQ(fmt_utf8_cut("a\u2193b", 2), 4);
	ASSERT_EQ(fmt_utf8_cut("\xe2\x86\x93\xe2\x86\x93", 1), 3);
	ASSERT_EQ(fmt_utf8_cut("\xff\xfex", 2), 2); /* bytes that start no character */
	ASSERT_EQ(fmt_utf8_cut("\xe2\x86", 1), 1);  /* a sequence cut short: a byte */
	ASSERT_EQ(fmt_utf8_cut("abc", 0), 0);
}

int main(void)
{
	RUN_TEST(test_utf8_cut);
	RUN_TEST(test_ipv4_mapped_prints_dotted);
	RUN_TEST(test_ipv6_prints_rfc5952);
	RUN_TEST(test_parse_roundtrip_and_v4mapped_merge);
	RUN_TEST(test_scaled);
	RUN_TEST(test_noun_agrees);
	RUN_TEST(test_rfc3339);
	return test_summary("test_fmt");
}
