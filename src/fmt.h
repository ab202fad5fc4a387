/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* fmt.h: pure formatters shared by the screen, batch output and snapshots. */
#ifndef FLOWTOP_FMT_H
#define FLOWTOP_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../bpf/flowtop.h"

#define FMT_ADDR_LEN 46 /* INET6_ADDRSTRLEN */
#define FMT_TIME_LEN 32

/* Whether key is an IPv4 address (IPv4-mapped ::ffff:a.b.c.d). */
bool fmt_is_ipv4(const struct flow_key *key);

/* IPv4-mapped keys print as a.b.c.d, others as RFC 5952 IPv6. */
const char *fmt_addr(const struct flow_key *key, char buf[FMT_ADDR_LEN]);

/* Parses what fmt_addr prints (and any inet_pton form) back into a key. */
int fmt_parse_addr(const char *s, struct flow_key *key);

/* A value scaled to k, M, G, T (powers of 1000) with 3 significant digits, and unit. */
const char *fmt_scaled(double v, const char *unit, char *buf, size_t len);

/* RFC 3339 UTC with milliseconds: 2026-12-03T10:28:58.123Z */
const char *fmt_time_rfc3339(const struct timespec *ts, char buf[FMT_TIME_LEN]);
/* The same with `digits` (1 to 9) of the second: 6 for a capture file's microseconds. */
const char *fmt_time_rfc3339_digits(const struct timespec *ts, int digits, char buf[FMT_TIME_LEN]);

#endif
