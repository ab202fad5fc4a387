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

const char *fmt_noun(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
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

size_t fmt_utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

size_t fmt_utf8_cut(const char *s, size_t columns)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0, n;

	for (; p[at] && columns; columns--) {
		n = fmt_utf8_len(p + at);
		at += n ? n : 1;
	}
	return at;
}

size_t fmt_visible_char(const unsigned char *p, char out[FMT_VISIBLE_CHAR])
{
	size_t n = fmt_utf8_len(p);

	if (n == 0)
		snprintf(out, FMT_VISIBLE_CHAR, "\\x%02x", *p);
	else if (*p < 0x20)
		snprintf(out, FMT_VISIBLE_CHAR, "^%c", *p + 0x40);
	else if (*p == 0x7f)
		snprintf(out, FMT_VISIBLE_CHAR, "^?");
	else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) /* U+0080 to U+009F */
		snprintf(out, FMT_VISIBLE_CHAR, "\\u%04x", p[1]);
	else
		memcpy(out, p, n), out[n] = '\0';
	return n ? n : 1;
}

void fmt_put_visible(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char c[FMT_VISIBLE_CHAR];

	while (*p) {
		p += fmt_visible_char(p, c);
		fputs(c, f);
	}
}

void fmt_put_framed(FILE *f, const char *before, const char *s, const char *after)
{
	fputs(before, f);
	fmt_put_visible(f, s);
	fputs(after, f);
}

const char *fmt_visible(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0, n;
	char c[FMT_VISIBLE_CHAR];

	buf[0] = '\0';
	while (*p) {
		p += fmt_visible_char(p, c);
		n = strlen(c);
		if (at + n >= len)
			break;
		memcpy(buf + at, c, n + 1);
		at += n;
	}
	return buf;
}

void fmt_complain(const char *msg)
{
	fputs("flowtop: ", stderr);
	fmt_put_visible(stderr, msg);
	fputc('\n', stderr);
}
