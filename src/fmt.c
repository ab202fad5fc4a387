// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fmt.c: addresses, scaled numbers and timestamps as text. */
#include "fmt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const uint8_t v4mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

bool fmt_is_ipv4(const struct flow_key *key)
{
	return !memcmp(key->addr, v4mapped_prefix, sizeof(v4mapped_prefix));
}

const char *fmt_addr(const struct flow_key *key, char buf[FMT_ADDR_LEN])
{
	if (fmt_is_ipv4(key))
		return inet_ntop(AF_INET, &key->addr[12], buf, FMT_ADDR_LEN);
	return inet_ntop(AF_INET6, key->addr, buf, FMT_ADDR_LEN);
}

int fmt_parse_addr(const char *s, struct flow_key *key)
{
	memset(key, 0, sizeof(*key));
	if (inet_pton(AF_INET, s, &key->addr[12]) == 1) {
		memcpy(key->addr, v4mapped_prefix, sizeof(v4mapped_prefix));
		return 0;
	}
	if (inet_pton(AF_INET6, s, key->addr) == 1)
		return 0;
	return -EINVAL;
}

const char *fmt_scaled(double v, const char *unit, char *buf, size_t len)
{
	static const char prefix[] = { ' ', 'k', 'M', 'G', 'T', 'P' };
	size_t i = 0;

	if (!isfinite(v) || v < 0)
		v = 0;
	while (v >= 999.5 && i + 1 < sizeof(prefix)) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f%s", v, unit);
	else
		snprintf(buf, len, "%.*f%c%s",
			 v < 9.995   ? 2
			 : v < 99.95 ? 1
				     : 0,
			 v, prefix[i], unit);
	return buf;
}

const char *fmt_time_rfc3339(const struct timespec *ts, char buf[FMT_TIME_LEN])
{
	return fmt_time_rfc3339_digits(ts, 3, buf);
}

const char *fmt_time_rfc3339_digits(const struct timespec *ts, int digits, char buf[FMT_TIME_LEN])
{
	time_t sec = ts->tv_sec + ts->tv_nsec / 1000000000L;
	long frac = ts->tv_nsec % 1000000000L;
	struct tm tm;
	size_t n;
	int i;

	if (frac < 0) { /* a time before 1970 as a negative fraction: borrow a second */
		frac += 1000000000L;
		sec--;
	}
	for (i = digits; i < 9; i++)
		frac /= 10;
	gmtime_r(&sec, &tm);
	n = strftime(buf, FMT_TIME_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, FMT_TIME_LEN - n, ".%0*ldZ", digits, frac);
	return buf;
}
