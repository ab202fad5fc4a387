// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* pcapfile.c: libpcap reads the file (pcap or pcapng, any byte order, micro- or
 * nanosecond stamps); here only each link type's header becomes an Ethernet header. */
#include "pcapfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <sys/socket.h>

#include <pcap/pcap.h>

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

struct pcapfile {
	pcap_t *pcap;
	struct bpf_program expr; /* pcapfile_set_expression(), when has_expr */
	bool has_expr;
	int dlt;
	unsigned long long frames; /* read so far */
	int nsec;		   /* stamps in nanoseconds */
	uint8_t buf[PCAPFILE_FRAME_MAX];
};

int pcapfile_link_hlen(int dlt)
{
	switch (dlt) {
	case DLT_EN10MB:
		return ETH_HLEN;
	case DLT_LINUX_SLL:
		return 16;
	case DLT_LINUX_SLL2:
		return 20;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return 0;
	case DLT_NULL:
	case DLT_LOOP:
		return 4;
	default:
		return -1;
	}
}

/* The ethertype the link header (hlen bytes at pkt) says follows it; the IP version
 * nibble where there is no link header. */
static uint16_t ethertype_of(int dlt, const uint8_t *pkt, uint32_t hlen, uint32_t caplen)
{
	uint32_t family;

	switch (dlt) {
	case DLT_LINUX_SLL:
		return (uint16_t)(pkt[14] << 8 | pkt[15]);
	case DLT_LINUX_SLL2:
		return (uint16_t)(pkt[0] << 8 | pkt[1]);
	case DLT_NULL:
	case DLT_LOOP: /* an address family: network order for LOOP; for NULL the order of
			* the host that wrote the file, which a family never fills past 16 bits */
		memcpy(&family, pkt, 4);
		if (dlt == DLT_LOOP)
			family = ntohl(family);
		else if (family > 0xffff)
			family = __builtin_bswap32(family);
		if (family == AF_INET)
			return ETH_P_IP;
		/* AF_INET6 is 10 on Linux, 24, 28 or 30 on the BSDs and macOS */
		if (family == 10 || family == 24 || family == 28 || family == 30)
			return ETH_P_IPV6;
		return 0;
	default: /* raw IP */
		if (caplen <= hlen)
			return 0;
		return pkt[hlen] >> 4 == 4 ? ETH_P_IP : pkt[hlen] >> 4 == 6 ? ETH_P_IPV6 : 0;
	}
}

int pcapfile_convert(int dlt, const uint8_t *pkt, uint32_t caplen, uint32_t wire_len, uint8_t *out,
		     uint32_t *extra)
{
	int h = pcapfile_link_hlen(dlt);
	uint32_t hlen, body, total;
	uint16_t type;

	if (h < 0)
		return -1;
	hlen = (uint32_t)h;
	if (wire_len < caplen)
		wire_len = caplen; /* a file that says less was on the wire than it holds */
	if (caplen < hlen || (dlt == DLT_EN10MB && caplen < ETH_HLEN)) {
		/* cut inside its link header: nothing says what follows */
		memset(out, 0, ETH_HLEN);
		memcpy(out, pkt, caplen < ETH_HLEN ? caplen : ETH_HLEN);
		out[12] = ETH_P_IP >> 8;
		out[13] = ETH_P_IP & 0xff;
		/* the filter adds the file's link header (hlen), not an Ethernet one */
		*extra = wire_len > hlen ? wire_len - hlen : 0;
		return ETH_HLEN;
	}
	if (dlt == DLT_EN10MB) { /* as it is, up to what a run takes */
		total = caplen < PCAPFILE_FRAME_MAX ? caplen : PCAPFILE_FRAME_MAX;
		memcpy(out, pkt, total);
		*extra = wire_len - total;
		return (int)total;
	}
	type = ethertype_of(dlt, pkt, hlen, caplen);
	memset(out, 0, 12);
	out[12] = (uint8_t)(type >> 8);
	out[13] = (uint8_t)type;
	body = caplen - hlen < PCAPFILE_FRAME_MAX - ETH_HLEN ? caplen - hlen
							     : PCAPFILE_FRAME_MAX - ETH_HLEN;
	memcpy(out + ETH_HLEN, pkt + hlen, body);
	/* on the wire: the file's link header and the whole packet; the filter adds hlen */
	*extra = wire_len - hlen - body;
	return (int)(ETH_HLEN + body);
}

struct pcapfile *pcapfile_open(const char *path, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	struct pcapfile *p = calloc(1, sizeof(*p));
	const char *name;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->pcap = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!p->pcap) {
		size_t n = strlen(path); /* libpcap names the file too: once is enough */
		const char *why =
		    !strncmp(perr, path, n) && !strncmp(perr + n, ": ", 2) ? perr + n + 2 : perr;

		snprintf(err, errlen, "cannot read '%s': %s", path, why);
		free(p);
		return NULL;
	}
	p->nsec = pcap_get_tstamp_precision(p->pcap) == PCAP_TSTAMP_PRECISION_NANO;
	p->dlt = pcap_datalink(p->pcap);
	if (pcapfile_link_hlen(p->dlt) < 0) {
		name = pcap_datalink_val_to_name(p->dlt);
		snprintf(err, errlen,
			 "'%s': link type %s (%d) is not one flowtop reads (Ethernet, Linux "
			 "cooked SLL and SLL2, raw IP, BSD loopback)",
			 path, name ? name : "unknown", p->dlt);
		pcapfile_close(p);
		return NULL;
	}
	return p;
}

void pcapfile_close(struct pcapfile *p)
{
	if (!p)
		return;
	if (p->has_expr)
		pcap_freecode(&p->expr);
	if (p->pcap)
		pcap_close(p->pcap);
	free(p);
}

int pcapfile_set_expression(struct pcapfile *p, const char *expr, char *err, size_t errlen)
{
	struct bpf_program prog;

	if (pcap_compile(p->pcap, &prog, expr, 1, PCAP_NETMASK_UNKNOWN)) {
		snprintf(err, errlen, "filter expression '%s': %s", expr, pcap_geterr(p->pcap));
		return -EINVAL;
	}
	if (p->has_expr)
		pcap_freecode(&p->expr);
	p->expr = prog;
	p->has_expr = true;
	return 0;
}

unsigned pcapfile_hlen(const struct pcapfile *p)
{
	return (unsigned)pcapfile_link_hlen(p->dlt);
}

int pcapfile_next(struct pcapfile *p, struct pcap_frame *f, char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *pkt;
	int ret = pcap_next_ex(p->pcap, &h, &pkt), len;

	if (ret == PCAP_ERROR_BREAK)
		return 0;
	if (ret != 1) {
		snprintf(err, errlen, "the capture breaks at frame %llu: %s", p->frames + 1,
			 pcap_geterr(p->pcap));
		return -1;
	}
	p->frames++;
	f->wire_len = h->len;
	f->filtered = p->has_expr && !pcap_offline_filter(&p->expr, h, pkt);
	len = pcapfile_convert(p->dlt, pkt, h->caplen, h->len, p->buf, &f->extra);
	f->data = p->buf;
	f->len = (uint32_t)len;
	f->ts.tv_sec = h->ts.tv_sec;
	f->ts.tv_nsec = p->nsec ? h->ts.tv_usec : h->ts.tv_usec * 1000L;
	return 1;
}
