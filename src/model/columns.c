// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* columns.c: the column table and its value, compare and format functions. */
#include "columns.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "convo.h"
#include "fmt.h"
#include "hostinfo.h"

static double v_rx2(const struct row *r)
{
	return r->rx2;
}
static double v_tx2(const struct row *r)
{
	return r->tx2;
}
static double v_rx10(const struct row *r)
{
	return r->rx10;
}
static double v_tx10(const struct row *r)
{
	return r->tx10;
}
static double v_rx40(const struct row *r)
{
	return r->rx40;
}
static double v_tx40(const struct row *r)
{
	return r->tx40;
}
static double v_peak(const struct row *r)
{
	return r->peak;
}
static double v_share(const struct row *r)
{
	return r->share;
}
static double v_ifaces(const struct row *r)
{
	return (double)r->host.links;
}
static double v_hosts(const struct row *r)
{
	return host_members(&r->host);
}
/* The country's sort key: the kind of range, then the code. */
static uint32_t cc_key(const struct host *h)
{
	struct geo_info gi = host_geo(h);

	return (uint32_t)gi.class << 16 | (uint8_t)gi.cc[0] << 8 | (uint8_t)gi.cc[1];
}

static double v_as(const struct row *r)
{
	return host_geo(&r->host).asn;
}
static double v_cc(const struct row *r)
{
	return cc_key(&r->host);
}
/* A peer's ports' sort key: its first port, by protocol then number. */
static uint32_t ports_key(const struct host *h)
{
	struct flow_key keys[CONVO_PEER_PORTS];
	bool more;

	if (!convo_peer_ports(h, keys, &more))
		return 0;
	return (uint32_t)flow_key_port_proto(&keys[0]) << 16 | flow_key_port_number(&keys[0]);
}

static double v_ports(const struct row *r)
{
	return ports_key(&r->host);
}
static double v_history(const struct row *r)
{
	return r->rx40 + r->tx40;
}
static double v_rx_pkts(const struct row *r)
{
	return (double)r->host.total.rx_packets;
}
static double v_rx_bytes(const struct row *r)
{
	return (double)r->host.total.rx_bytes;
}
static double v_tx_pkts(const struct row *r)
{
	return (double)r->host.total.tx_packets;
}
static double v_tx_bytes(const struct row *r)
{
	return (double)r->host.total.tx_bytes;
}

/* Sort keys, computed from the host alone (cheaper than a whole row): the column's
 * value, or one that orders the same (share: the 2 s rate both ways). */
#define KEY(name, expr)                                                                            \
	static double name(const struct hosttab *t, const struct host *h)                          \
	{                                                                                          \
		(void)t;                                                                           \
		return (double)(expr);                                                             \
	}
#define RX(s) hosttab_rate(t, h, s, 0)
#define TX(s) hosttab_rate(t, h, s, 1)
KEY(k_rx2, RX(2))
KEY(k_tx2, TX(2))
KEY(k_rx10, RX(10))
KEY(k_tx10, TX(10))
KEY(k_rx40, RX(40))
KEY(k_tx40, TX(40))
KEY(k_both2, hosttab_rate(t, h, 2, -1))
KEY(k_both40, hosttab_rate(t, h, 40, -1))
KEY(k_peak, h->peak)
KEY(k_rx_pkts, h->total.rx_packets)
KEY(k_rx_bytes, h->total.rx_bytes)
KEY(k_tx_pkts, h->total.tx_packets)
KEY(k_tx_bytes, h->total.tx_bytes)
KEY(k_ifaces, h->links)
KEY(k_hosts, host_members(h))
KEY(k_as, host_geo(h).asn)
KEY(k_cc, cc_key(h))
KEY(k_ports, ports_key(h))
#undef RX
#undef TX
#undef KEY

#define BOTH (VIEW_RATES | VIEW_TOTALS)

const struct column columns[COL__COUNT] = {
	/*               name, views, kind, value, sort key */
	[COL_ADDR] = { "addr", BOTH, KIND_TEXT, NULL, NULL },
	[COL_RX2] = { "rx2", VIEW_RATES, KIND_RATE, v_rx2, k_rx2 },
	[COL_TX2] = { "tx2", VIEW_RATES, KIND_RATE, v_tx2, k_tx2 },
	[COL_RX10] = { "rx10", VIEW_RATES, KIND_RATE, v_rx10, k_rx10 },
	[COL_TX10] = { "tx10", VIEW_RATES, KIND_RATE, v_tx10, k_tx10 },
	[COL_RX40] = { "rx40", VIEW_RATES, KIND_RATE, v_rx40, k_rx40 },
	[COL_TX40] = { "tx40", VIEW_RATES, KIND_RATE, v_tx40, k_tx40 },
	[COL_PEAK] = { "peak", VIEW_RATES, KIND_RATE, v_peak, k_peak },
	[COL_RX_PKTS] = { "rxpkts", VIEW_TOTALS, KIND_PACKETS, v_rx_pkts, k_rx_pkts },
	[COL_RX_BYTES] = { "rxbytes", VIEW_TOTALS, KIND_BYTES, v_rx_bytes, k_rx_bytes },
	[COL_TX_PKTS] = { "txpkts", VIEW_TOTALS, KIND_PACKETS, v_tx_pkts, k_tx_pkts },
	[COL_TX_BYTES] = { "txbytes", VIEW_TOTALS, KIND_BYTES, v_tx_bytes, k_tx_bytes },
	[COL_IFACE] = { "iface", BOTH | VIEW_SEVERAL, KIND_IFACES, v_ifaces, k_ifaces },
	[COL_HOSTS] = { "hosts", BOTH | VIEW_GROUPS, KIND_COUNT, v_hosts, k_hosts },
	[COL_AS] = { "as", BOTH | VIEW_AS, KIND_AS, v_as, k_as },
	[COL_CC] = { "cc", BOTH | VIEW_CC, KIND_CC, v_cc, k_cc },
	[COL_PORTS] = { "ports", BOTH | VIEW_PEERS, KIND_PORTS, v_ports, k_ports },
	[COL_SHARE] = { "share", BOTH, KIND_BAR, v_share, k_both2 },
	[COL_HISTORY] = { "history", VIEW_RATES, KIND_HISTORY, v_history, k_both40 },
};

int column_by_name(const char *name)
{
	int i;

	for (i = 0; i < COL__COUNT; i++)
		if (!strcasecmp(name, columns[i].name))
			return i;
	return -1;
}

void row_fill(struct row *r, const struct hosttab *t, const struct host *h, double share_of)
{
	r->host = *h;
	hosttab_history(t, h, &r->hist);
	r->name = NULL;
	r->label[0] = r->as[0] = r->cc[0] = r->ports[0] = '\0';
	r->rx2 = hosttab_rate(t, h, 2, 0);
	r->tx2 = hosttab_rate(t, h, 2, 1);
	r->rx10 = hosttab_rate(t, h, 10, 0);
	r->tx10 = hosttab_rate(t, h, 10, 1);
	r->rx40 = hosttab_rate(t, h, 40, 0);
	r->tx40 = hosttab_rate(t, h, 40, 1);
	r->peak = h->peak;
	r->ifaces[0] = '\0';
	r->share = share_of > 0 ? (r->rx2 + r->tx2) / share_of : 0;
	if (r->share > 1)
		r->share = 1; /* float rounding */
}

double column_key(enum col_id col, const struct hosttab *t, const struct host *h)
{
	return columns[col].key ? columns[col].key(t, h) : 0;
}

int column_compare(enum col_id col, bool reverse, const struct row *a, const struct row *b)
{
	int r = 0;

	if (columns[col].value) {
		double va = columns[col].value(a), vb = columns[col].value(b);

		r = va > vb ? -1 : va < vb ? 1 : 0;
	}
	if (!r)
		r = flow_key_cmp(&a->host.addr, &b->host.addr);
	return reverse ? -r : r;
}

void column_format(enum col_id col, const struct row *r, bool bits, char *buf, size_t len)
{
	const struct column *c = &columns[col];
	double v = c->value ? c->value(r) : 0;
	int fill, i;

	switch (c->kind) {
	case KIND_IFACES:
		snprintf(buf, len, "%s", r->ifaces);
		break;
	case KIND_TEXT: {
		char title[GROUP_LABEL_LEN];

		snprintf(buf, len, "%s", row_title(r, title));
		break;
	}
	case KIND_AS:
		snprintf(buf, len, "%s", r->as);
		break;
	case KIND_CC:
		snprintf(buf, len, "%s", r->cc);
		break;
	case KIND_PORTS:
		snprintf(buf, len, "%s", r->ports);
		break;
	case KIND_RATE:
		fmt_scaled(bits ? v * 8 : v, bits ? "b" : "B", buf, len);
		break;
	case KIND_PACKETS:
	case KIND_COUNT:
		fmt_scaled(v, "", buf, len);
		break;
	case KIND_BYTES:
		fmt_scaled(v, "B", buf, len);
		break;
	case KIND_BAR: /* as wide as buf, less its terminator */
		if (!len)
			break;
		fill = (int)(v * (double)(len - 1) + 0.5);
		for (i = 0; (size_t)i + 1 < len; i++)
			buf[i] = i < fill ? '#' : ' ';
		buf[i] = '\0';
		break;
	case KIND_HISTORY: /* a picture, not a number: drawn by the screen */
		if (len)
			buf[0] = '\0';
		break;
	}
}

const char *row_title(const struct row *r, char buf[GROUP_LABEL_LEN])
{
	if (r->label[0])
		return r->label;
	if (r->name)
		return r->name;
	return fmt_addr(&r->host.addr, buf);
}
