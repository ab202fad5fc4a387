// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_view.c: the screen's pure parts: filter parsing and matching, the column table
 * (sorting by every column, reversed, ties), cell formats, rate windows, selection. */
#include "hosts.h"

#include <errno.h>
#include <netinet/in.h>

#include "columns.h"
#include "convo.h"
#include "rowfilter.h"
#include "fmt.h"
#include "keys.h"
#include "view.h"

static bool matches(const char *filter, const char *addr)
{
	struct flow_key k = key(addr);
	struct filter f;
	char err[128];

	if (filter_parse(filter, &f, err, sizeof(err)))
		abort();
	return filter_match(&f, &k, addr);
}

static void test_filter_cidr_v4(void)
{
	ASSERT_TRUE(matches("10.0.0.0/8", "10.200.3.4"));
	ASSERT_TRUE(!matches("10.0.0.0/8", "11.0.0.1"));
	ASSERT_TRUE(matches("192.168.1.128/25", "192.168.1.200"));
	ASSERT_TRUE(!matches("192.168.1.128/25", "192.168.1.127"));
	ASSERT_TRUE(matches("0.0.0.0/0", "203.0.113.9"));
	ASSERT_TRUE(!matches("0.0.0.0/0", "2001:db8::1")); /* IPv4 space only */
	ASSERT_TRUE(matches("10.1.2.3/32", "10.1.2.3"));
	ASSERT_TRUE(!matches("10.1.2.3/32", "10.1.2.4"));
}

static void test_filter_cidr_v6(void)
{
	ASSERT_TRUE(matches("2001:db8::/32", "2001:db8:ffff::1"));
	ASSERT_TRUE(!matches("2001:db8::/32", "2001:db9::1"));
	ASSERT_TRUE(matches("fe80::/10", "febf::1"));
	ASSERT_TRUE(!matches("fe80::/10", "fec0::1"));
	ASSERT_TRUE(matches("::/0", "10.0.0.1")); /* everything */
	ASSERT_TRUE(matches("::ffff:0:0/96", "10.0.0.1"));
}

static void test_filter_address_and_text(void)
{
	ASSERT_TRUE(matches("10.0.0.1", "10.0.0.1"));
	ASSERT_TRUE(!matches("10.0.0.1", "10.0.0.10")); /* an address is exact */
	ASSERT_TRUE(matches("10.0.", "10.0.7.1"));	/* a prefix is text */
	ASSERT_TRUE(matches(".7.", "10.0.7.1"));
	ASSERT_TRUE(matches("DB8", "2001:db8::1")); /* any case */
	ASSERT_TRUE(!matches("db9", "2001:db8::1"));
	ASSERT_TRUE(matches("", "2001:db8::1"));
}

static void test_filter_invalid(void)
{
	static const char *const bad[] = { "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/", "foo/8",
					   "10.0.0.0/-1", "10.0.0.0/8x",    "/8" };
	struct filter f;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (filter_parse(bad[i], &f, err, sizeof(err)) != -EINVAL)
			FAILF("'%s' parsed", bad[i]);
		else if (!strstr(err, bad[i]))
			FAILF("error for '%s' does not name it: %s", bad[i], err);
	}
	ASSERT_EQ(filter_parse("12345678901234567890123456789012345678901234567890123456789012345",
			       &f, err, sizeof(err)),
		  -EINVAL);
}

/* Three hosts whose every column differs in a known order. */
static struct row rows3[3];

static void make_rows(void)
{
	const char *a[] = { "10.0.0.2", "10.0.0.1", "10.0.0.3" };
	int i;

	memset(rows3, 0, sizeof(rows3));
	for (i = 0; i < 3; i++) {
		struct row *r = &rows3[i];
		double v = i + 1; /* 10.0.0.2 < 10.0.0.1 < 10.0.0.3 in every number */

		r->host.addr = key(a[i]);
		r->rx2 = r->tx2 = r->rx10 = r->tx10 = r->rx40 = r->tx40 = r->peak = v;
		r->share = v / 6;
		r->host.total = (struct flow_counters){ i + 1, i + 1, i + 1, i + 1 };
		r->host.links = (uint64_t)(i + 1);
		host_set_members(&r->host, (uint32_t)(i + 1));
		host_set_geo(&r->host, &(struct geo_info){ .asn = (uint32_t)(i + 1),
							   .cc = { 0, (char)('A' + i) } });
	}
}

/* The rows as a conversation's peers: their ports (in the cb) 1, 2 and 3, as a convo
 * notes them (a frame's lower port). */
static void make_peer_ports(void)
{
	struct flow_key focus = key("10.9.9.9");
	struct convo *c = convo_new(&focus, false, 8);
	int i;

	if (!ASSERT_TRUE(c))
		return;
	for (i = 0; i < 3; i++) {
		const struct host *p;

		convo_frames(c, &rows3[i].host.addr, &focus, IPPROTO_UDP,
			     FLOWTOP_PORTS_KNOWN | (uint64_t)(i + 1) << 16 | 60000, 1, 100);
		p = hosttab_find(convo_peers(c), &rows3[i].host.addr);
		if (ASSERT_TRUE(p))
			memcpy(rows3[i].host.cb, p->cb, sizeof(p->cb));
	}
	convo_free(c);
}

static void test_sort_by_every_column(void)
{
	int c;

	make_rows();
	for (c = 0; c < COL__COUNT; c++) {
		const struct row *first, *last;

		if (c == COL_PORTS) /* the cb holds a peer's ports from here on */
			make_peer_ports();
		/* numbers: largest first; the address: lowest first */
		if (c == COL_ADDR) {
			first = &rows3[1];
			last = &rows3[2];
		} else {
			first = &rows3[2];
			last = &rows3[0];
		}
		if (column_compare(c, false, first, last) >= 0)
			FAILF("column %s: wrong order", columns[c].name);
		if (column_compare(c, true, first, last) <= 0)
			FAILF("column %s: reverse does not flip", columns[c].name);
		if (column_compare(c, false, first, first) != 0)
			FAILF("column %s: a row does not equal itself", columns[c].name);
	}
}

static void test_sort_ties_by_address(void)
{
	make_rows();
	rows3[0].rx2 = rows3[1].rx2 = 5;
	/* equal RX 2s: 10.0.0.1 before 10.0.0.2, both ways of reverse consistent */
	ASSERT_TRUE(column_compare(COL_RX2, false, &rows3[1], &rows3[0]) < 0);
	ASSERT_TRUE(column_compare(COL_RX2, true, &rows3[1], &rows3[0]) > 0);
}

static void test_column_names_unique(void)
{
	int i, j;

	for (i = 0; i < COL__COUNT; i++) {
		ASSERT_EQ(column_by_name(columns[i].name), i);
		for (j = i + 1; j < COL__COUNT; j++)
			if (!strcasecmp(columns[i].name, columns[j].name))
				FAILF("two columns named %s", columns[i].name);
	}
	ASSERT_EQ(column_by_name("RX2"), COL_RX2);
	ASSERT_EQ(column_by_name("nope"), -1);
}

static void test_cell_formats(void)
{
	char buf[32];

	make_rows();
	rows3[0].rx2 = 1500;
	column_format(COL_RX2, &rows3[0], true, buf, sizeof(buf));
	ASSERT_STREQ(buf, "12.0kb");
	column_format(COL_RX2, &rows3[0], false, buf, sizeof(buf));
	ASSERT_STREQ(buf, "1.50kB");
	rows3[0].host.total.rx_bytes = 2500000;
	column_format(COL_RX_BYTES, &rows3[0], true, buf, sizeof(buf));
	ASSERT_STREQ(buf, "2.50MB");
	rows3[0].share = 0.5;
	column_format(COL_SHARE, &rows3[0], true, buf, 13); /* a bar of 12 */
	ASSERT_STREQ(buf, "######      ");
	column_format(COL_ADDR, &rows3[0], true, buf, sizeof(buf));
	ASSERT_STREQ(buf, "10.0.0.2");
}

static void push(struct hosttab *t, double dt, uint64_t rx_bytes)
{
	struct flow_key k = key("10.0.0.1");
	struct flow_counters c = { 1, rx_bytes, 0, 0 };

	hosttab_add(t, &k, &c, 0);
	hosttab_end(t, dt);
}

/* Several interfaces: the IFACE column is in the view, a row names its interfaces in
 * slot order, those without a slot ("other") last; one interface: no such column. */
static void test_iface_column(void)
{
	struct hosttab *t = hosttab_new(16);
	struct flow_key k = key("10.0.0.1");
	struct flow_counters c = { 1, 100, 0, 0 };
	struct view v;
	char buf[64];

	view_init(&v);
	ASSERT_TRUE(!column_in_view(COL_IFACE, VIEW_RATES));
	ASSERT_TRUE(column_in_view(COL_IFACE, VIEW_RATES | VIEW_SEVERAL) &&
		    column_in_view(COL_IFACE, VIEW_TOTALS | VIEW_SEVERAL));
	v.sort = COL_TX_BYTES; /* a totals column, then the next one to its right */
	v.totals = true;
	view_move_sort(&v, 1);
	ASSERT_EQ(v.sort, COL_SHARE); /* IFACE skipped: one interface */
	v.several = true;
	v.sort = COL_TX_BYTES;
	view_move_sort(&v, 1);
	ASSERT_EQ(v.sort, COL_IFACE);
	v.link_names[0] = "other";
	v.link_names[1] = "eth0";
	v.link_names[3] = "wg0";
	hosttab_add(t, &k, &c, link_bit(3) | link_bit(0) | link_bit(1));
	hosttab_end(t, 1.0);
	ASSERT_OK(view_build(&v, t, 10, NULL, NULL));
	ASSERT_EQ(v.nbuilt, 1);
	ASSERT_STREQ(v.rows[0].ifaces, "eth0+wg0+other");
	column_format(COL_IFACE, &v.rows[0], false, buf, sizeof(buf));
	ASSERT_STREQ(buf, "eth0+wg0+other");
	view_free(&v);
	hosttab_free(t);
}

static void test_rate_windows(void)
{
	struct hosttab *t = hosttab_new(16);
	const struct host *h;
	struct row r;
	int i;

	/* 40 one-second samples: 1000 B/s for 30 s, then 5000 B/s for 10 s */
	for (i = 0; i < 40; i++)
		push(t, 1.0, i < 30 ? 1000 : 5000);
	h = hosttab_get(t, 0);
	row_fill(&r, t, h, 5000);
	ASSERT_DBL(r.rx2, 5000);
	ASSERT_DBL(r.rx10, 5000);
	ASSERT_DBL(r.rx40, (30 * 1000 + 10 * 5000) / 40.0);
	ASSERT_DBL(r.tx2, 0);
	ASSERT_DBL(r.peak, 5000);
	ASSERT_DBL(r.share, 1.0);
	/* ten more samples without traffic: the 2 and 10 s windows fall, the peak stays */
	for (i = 0; i < 10; i++)
		hosttab_end(t, 1.0);
	row_fill(&r, t, h, 1);
	ASSERT_DBL(r.rx10, 0);
	ASSERT_DBL(r.rx40, (20 * 1000 + 10 * 5000) / 40.0);
	ASSERT_DBL(r.peak, 5000);
	/* half-second samples: 2 s is the last four */
	hosttab_clear(t);
	for (i = 0; i < 8; i++)
		push(t, 0.5, i < 4 ? 50 : 150);
	h = hosttab_get(t, 0);
	ASSERT_DBL(hosttab_rate(t, h, 2, 0), 300);
	ASSERT_DBL(hosttab_rate(t, h, 40, 0), 200); /* all that is kept */
	hosttab_free(t);
}

static const char *shown(const struct row *r)
{
	static char buf[64];

	column_format(COL_ADDR, r, true, buf, sizeof(buf));
	return buf;
}

/* 10.0.0.1 sends 200, 300 and 400 bytes to the three others: it is in every frame. */
static void fill4(struct hosttab *t)
{
	const char *a[] = { "10.0.0.2", "192.0.2.1", "2001:db8::1" };
	int i;

	for (i = 0; i < 3; i++) {
		struct flow_key src = key("10.0.0.1"), dst = key(a[i]);

		hosttab_add_frame(t, &src, 1, (uint64_t)(i + 2) * 100, 0);
		hosttab_add_frame(t, &dst, 0, (uint64_t)(i + 2) * 100, 0);
	}
	hosttab_end(t, 1.0);
}

static void test_view_filter_sort_select(void)
{
	struct hosttab *t = hosttab_new(16);
	struct view v;
	char err[64];

	view_init(&v);
	fill4(t);
	ASSERT_OK(view_build(&v, t, 10, NULL, NULL));
	ASSERT_EQ(v.nrows, 4);
	ASSERT_STREQ(shown(&v.rows[0]), "2001:db8::1"); /* the most received first */
	ASSERT_STREQ(shown(&v.rows[3]), "10.0.0.1");
	view_select(&v, 2, 10); /* 10.0.0.2, held */
	ASSERT_STREQ(shown(&v.rows[2]), "10.0.0.2");
	v.reverse = true;
	ASSERT_OK(view_build(&v, t, 10, NULL, NULL));
	ASSERT_STREQ(shown(&v.rows[0]), "10.0.0.1");
	ASSERT_STREQ(shown(&v.rows[v.selected]), "10.0.0.2"); /* the selection follows */
	ASSERT_OK(filter_parse("10.0.0.0/8", &v.filter, err, sizeof(err)));
	ASSERT_OK(view_build(&v, t, 10, NULL, NULL));
	ASSERT_EQ(v.nrows, 2);
	view_select(&v, 100, 10);
	ASSERT_EQ(v.selected, 1);
	view_select(&v, -100, 10);
	ASSERT_EQ(v.selected, 0);
	/* '>' walks the rates view's columns and wraps */
	v.sort = COL_PEAK;
	view_move_sort(&v, 1);
	ASSERT_EQ(v.sort, COL_SHARE);
	view_move_sort(&v, 1);
	ASSERT_EQ(v.sort, COL_HISTORY);
	view_move_sort(&v, 1);
	ASSERT_EQ(v.sort, COL_ADDR);
	view_move_sort(&v, -1);
	ASSERT_EQ(v.sort, COL_HISTORY);
	v.totals = true;
	v.sort = COL_SHARE;
	view_move_sort(&v, 1); /* the totals view has no history column */
	ASSERT_EQ(v.sort, COL_ADDR);
	v.sort = COL_ADDR;
	view_move_sort(&v, 1);
	ASSERT_EQ(v.sort, COL_RX_PKTS);
	view_free(&v);
	hosttab_free(t);
}

/* Paused, the selection stays on the rows built: paging past them would show an empty
 * table, since a paused view is not rebuilt. */
static void test_paused_selection_stays_on_built_rows(void)
{
	struct hosttab *t = hosttab_new(16);
	struct view v;

	view_init(&v);
	fill4(t);
	ASSERT_OK(view_build(&v, t, 2, NULL, NULL)); /* a page of 2 of the 4 */
	ASSERT_EQ(v.nrows, 4);
	ASSERT_EQ(v.nbuilt, 2);
	v.paused = true;
	view_select(&v, 100, 2);
	ASSERT_EQ(v.selected, 1);
	ASSERT_EQ(v.top, 0);
	v.paused = false; /* live: the rest will be built when the selection goes there */
	view_select(&v, 100, 2);
	ASSERT_EQ(v.selected, 3);
	view_free(&v);
	hosttab_free(t);
}

/* A host in every frame has a share of 100 %, whatever the filter shows. */
static void test_share_of_a_host_in_every_frame(void)
{
	struct hosttab *t = hosttab_new(16);
	struct view v;
	char err[64];

	view_init(&v);
	fill4(t);
	ASSERT_OK(filter_parse("10.0.0.1", &v.filter, err, sizeof(err)));
	ASSERT_OK(view_build(&v, t, 10, NULL, NULL));
	ASSERT_EQ(v.nrows, 1);
	ASSERT_DBL(v.rows[0].share, 1.0);
	memset(&v.filter, 0, sizeof(v.filter));
	ASSERT_OK(view_build(&v, t, 10, NULL, NULL));
	ASSERT_STREQ(shown(&v.rows[0]), "2001:db8::1");
	ASSERT_DBL(v.rows[0].share, 400.0 / 900); /* of the 900 bytes of the 3 frames */
	view_free(&v);
	hosttab_free(t);
}

static const char *fake_name(const struct flow_key *k, bool lookup, void *arg)
{
	int *lookups = arg;

	*lookups += lookup;
	return k->addr[15] == 2 ? "two.example" : NULL;
}

/* Only the rows asked for are built (and named), while nrows counts every match; a
 * text filter matches the address also once a name is known. */
static void test_view_builds_only_what_is_shown(void)
{
	struct hosttab *t = hosttab_new(2000);
	struct view v;
	char err[64];
	int lookups = 0;
	unsigned i;

	view_init(&v);
	v.names = true;
	for (i = 0; i < 1000; i++) {
		struct flow_key k = key("10.0.0.0");

		k.addr[14] = (uint8_t)(i >> 8), k.addr[15] = (uint8_t)i;
		hosttab_add_frame(t, &k, 0, 10 + i, 0);
	}
	hosttab_end(t, 1.0);
	ASSERT_OK(view_build(&v, t, 25, fake_name, &lookups));
	ASSERT_EQ(v.nrows, 1000);
	ASSERT_EQ(v.nbuilt, 25);
	ASSERT_EQ(lookups, 25);			       /* names only for the rows built */
	ASSERT_STREQ(shown(&v.rows[0]), "10.0.3.231"); /* the busiest: 1009 B */
	ASSERT_STREQ(shown(&v.rows[24]), "10.0.3.207");
	ASSERT_OK(filter_parse("10.0.0.", &v.filter, err, sizeof(err)));
	ASSERT_OK(view_build(&v, t, 25, fake_name, &lookups));
	ASSERT_EQ(v.nrows, 256); /* 10.0.0.0 to 10.0.0.255 */
	ASSERT_OK(filter_parse("two.example", &v.filter, err, sizeof(err)));
	ASSERT_OK(view_build(&v, t, 25, fake_name, &lookups));
	ASSERT_EQ(v.nrows, 4); /* 10.0.0.2, 10.0.1.2, 10.0.2.2, 10.0.3.2 by name */
	view_free(&v);
	hosttab_free(t);
}

/* A sample of 1 s in which host 10.0.0.i (1..30) receives bytes(i) bytes. */
static void sample30(struct hosttab *t, uint64_t (*bytes)(int i))
{
	int i;

	for (i = 1; i <= 30; i++) {
		struct flow_key k = key("10.0.0.0");

		k.addr[15] = (uint8_t)i;
		if (bytes(i))
			hosttab_add_frame(t, &k, 0, bytes(i), 0);
	}
	hosttab_end(t, 1.0);
}

static uint64_t low_first(int i)
{
	return (uint64_t)(31 - i) * 100; /* 10.0.0.1 the busiest */
}

static uint64_t first_falls(int i)
{
	return i == 1 ? 2150 : low_first(i); /* .1 between .9 and .10 */
}

static uint64_t low_quiet(int i)
{
	return i <= 5 ? 0 : (uint64_t)i * 1000; /* 10.0.0.30 the busiest, .1 to .5 last */
}

/* The rows come and go under the scroll: with no selection made the top is shown; a
 * selection made stays on its host and the page follows it, even past the rows built;
 * fewer rows, the page is full again. */
static void test_view_scroll_follows_rows(void)
{
	const size_t page = 5;
	struct hosttab *t = hosttab_new(64);
	char err[64];
	struct view v;

	view_init(&v);
	sample30(t, low_first);
	sample30(t, low_first);
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_STREQ(shown(&v.rows[0]), "10.0.0.1");
	ASSERT_TRUE(v.selected == 0 && v.top == 0);
	/* .1 slows down: it sinks to row 8, the top stays with the busiest */
	sample30(t, first_falls);
	sample30(t, first_falls);
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_STREQ(shown(&v.rows[8]), "10.0.0.1");
	ASSERT_EQ(v.top, 0);
	ASSERT_EQ(v.selected, 0);
	ASSERT_STREQ(shown(&v.rows[0]), "10.0.0.2");
	/* and to the bottom */
	sample30(t, low_quiet);
	sample30(t, low_quiet);
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_TRUE(v.top == 0 && v.selected == 0);
	ASSERT_STREQ(shown(&v.rows[0]), "10.0.0.30");

	/* a selection made: .2, which sinks to row 26, past the 11 rows a page builds */
	sample30(t, low_first);
	sample30(t, low_first);
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_EQ(v.nbuilt, 2 * page + 1);
	view_select(&v, 1, page);
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_STREQ(shown(&v.rows[v.selected]), "10.0.0.2");
	sample30(t, low_quiet);
	sample30(t, low_quiet);
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_EQ(v.selected, 26); /* after the 25 busy ones and .1, by address */
	ASSERT_TRUE(v.selected < v.nbuilt);
	ASSERT_STREQ(shown(&v.rows[v.selected]), "10.0.0.2");
	ASSERT_EQ(v.top, 26 - page + 1); /* the page followed it down */
	/* a filter leaves 8 rows without it: the row at its place is the last, and the page
	 * shows the last 5, not 1 */
	ASSERT_OK(filter_parse(".0.1", &v.filter, err, sizeof(err))); /* .1, .10-.19 */
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_EQ(v.nrows, 11);
	ASSERT_EQ(v.selected, 10);
	ASSERT_EQ(v.top, 11 - page);
	ASSERT_OK(filter_parse(".0.2", &v.filter, err, sizeof(err))); /* .2, .20-.29 */
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_OK(filter_parse("10.0.0.0/8", &v.filter, err, sizeof(err)));
	view_select(&v, -100, page); /* up to the first row, .29: still held */
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_STREQ(shown(&v.rows[v.selected]), "10.0.0.29");
	ASSERT_TRUE(v.held && v.selected == 1 && v.top == 0); /* after .30 */
	ASSERT_OK(filter_parse(".0.2", &v.filter, err, sizeof(err)));
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_EQ(v.nrows, 11);
	view_select(&v, 10, page);
	ASSERT_EQ(v.top, 6);
	ASSERT_OK(filter_parse("10.0.0.25", &v.filter, err, sizeof(err))); /* one row */
	ASSERT_OK(view_refresh(&v, t, 0, page, NULL, NULL));
	ASSERT_TRUE(v.selected == 0 && v.top == 0);
	view_free(&v);
	hosttab_free(t);
}

static void test_keys_unique(void)
{
	unsigned i, j, k, l;

	for (i = 0; i < key_bindings_count; i++)
		for (k = 0; k < 4 && key_bindings[i].keys[k]; k++)
			for (j = 0; j < key_bindings_count; j++)
				for (l = 0; l < 4 && key_bindings[j].keys[l]; l++)
					if ((i != j || k != l) &&
					    key_bindings[i].keys[k] == key_bindings[j].keys[l])
						FAILF("key %d bound twice",
						      key_bindings[i].keys[k]);
	ASSERT_EQ(keys_action('q'), ACT_QUIT);
	ASSERT_EQ(keys_action(' '), ACT_PAUSE);
	ASSERT_EQ(keys_action('!'), ACT_NONE); /* iftop's shell escape: not here */
}

int main(void)
{
	RUN_TEST(test_filter_cidr_v4);
	RUN_TEST(test_filter_cidr_v6);
	RUN_TEST(test_filter_address_and_text);
	RUN_TEST(test_filter_invalid);
	RUN_TEST(test_sort_by_every_column);
	RUN_TEST(test_sort_ties_by_address);
	RUN_TEST(test_column_names_unique);
	RUN_TEST(test_cell_formats);
	RUN_TEST(test_rate_windows);
	RUN_TEST(test_view_filter_sort_select);
	RUN_TEST(test_share_of_a_host_in_every_frame);
	RUN_TEST(test_paused_selection_stays_on_built_rows);
	RUN_TEST(test_view_builds_only_what_is_shown);
	RUN_TEST(test_view_scroll_follows_rows);
	RUN_TEST(test_keys_unique);
	RUN_TEST(test_iface_column);
	return test_summary("test_view");
}
