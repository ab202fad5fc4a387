/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* fmt.h: pure formatters shared by the screen, batch output and snapshots. */
#ifndef FLOWTOP_FMT_H
#define FLOWTOP_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "flowtop.h"

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

/* The noun that agrees with a count of n: one for 1, else many ("1 row", "0 rows"). */
const char *fmt_noun(uint64_t n, const char *one, const char *many);

/* RFC 3339 UTC with milliseconds: 2026-12-03T10:28:58.123Z */
const char *fmt_time_rfc3339(const struct timespec *ts, char buf[FMT_TIME_LEN]);
/* The same with `digits` (1 to 9) of the second: 6 for a capture file's microseconds. */
const char *fmt_time_rfc3339_digits(const struct timespec *ts, int digits, char buf[FMT_TIME_LEN]);

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when s starts none: overlong
 * forms, surrogates and code points past U+10FFFF are not valid. */
size_t fmt_utf8_len(const unsigned char *s);

/* Bytes of s's longest start that fills at most `columns` columns, never a character cut
 * in two: a UTF-8 sequence takes one column (a wide character two, which this does not
 * tell: the names shown are made visible, not measured), a byte that starts none one. */
size_t fmt_utf8_cut(const char *s, size_t columns);

/* s made safe for a terminal, as the screen shows it: a control character as ^X (^? for
 * DEL), a C1 control as \u0080 to \u009f, a byte that is not UTF-8 as \xNN; the rest as
 * it is. A name anyone may give (an interface's, a namespace's, a reverse-DNS name)
 * reaches a terminal or a text file only this way. */
void fmt_put_visible(FILE *f, const char *s);
/* before, s as fmt_put_visible() writes it, after: a name or an expression in a line. */
void fmt_put_framed(FILE *f, const char *before, const char *s, const char *after);
/* The character at *p made visible into out, NUL-terminated: the bytes of p it took. */
#define FMT_VISIBLE_CHAR 8
size_t fmt_visible_char(const unsigned char *p, char out[FMT_VISIBLE_CHAR]);
/* The same into buf (len bytes at least 1), cut between whole characters. */
const char *fmt_visible(const char *s, char *buf, size_t len);
/* "flowtop: MSG" and a newline on stderr, MSG made visible. */
void fmt_complain(const char *msg);

#endif
