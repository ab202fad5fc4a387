/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* pcapfile.h: capture files (pcap, pcapng) through libpcap, each frame made into what
 * the filter is given live: a 14-byte Ethernet header in front of the network header
 * (BPF_PROG_TEST_RUN wants one), the length of the file's link header, and the bytes
 * the frame had on the wire that the file (its snap length) or a test run does not
 * hold. */
#ifndef FLOWTOP_PCAPFILE_H
#define FLOWTOP_PCAPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "bpf_load.h"

/* Bytes handed on at most, Ethernet header included: what a test run takes. */
#define PCAPFILE_FRAME_MAX BPF_LOAD_RUN_MAX

/* One frame as the filter takes it. */
struct pcap_frame {
	const uint8_t *data; /* Ethernet header, then the network header on */
	uint32_t len;	     /* bytes at data, at least 14 */
	uint32_t extra;	     /* bytes on the wire past them */
	uint32_t wire_len;   /* the whole frame's on the wire, link header included */
	bool filtered;	     /* the filter expression rejected it: count it there alone */
	struct timespec ts;  /* the capture's time of the frame */
};

/* How the file's link type is made an Ethernet frame: the length of its link header in
 * the file (0 for raw IP), and -1 for a link type flowtop does not read. */
int pcapfile_link_hlen(int dlt);

/* Makes a frame of link type dlt (caplen bytes in the file, wire_len on the wire) into
 * one for the filter, in out (PCAPFILE_FRAME_MAX bytes). A frame shorter than its
 * link header is handed on as an empty IPv4 packet, cut short in its first
 * header, as it is. Returns its length, or -1 for a link type flowtop does not read. */
int pcapfile_convert(int dlt, const uint8_t *pkt, uint32_t caplen, uint32_t wire_len, uint8_t *out,
		     uint32_t *extra);

struct pcapfile;

/* Opens path ("-": standard input). NULL with the reason in err: no such file, not a
 * capture, or a link type flowtop does not read (named). */
struct pcapfile *pcapfile_open(const char *path, char *err, size_t errlen);
void pcapfile_close(struct pcapfile *p);

/* Frames from now on must match expr (pcap-filter(7), compiled by libpcap for the file's
 * link type: the frames tcpdump -r FILE EXPR keeps); the others come marked filtered.
 * 0, or -EINVAL with libpcap's reason in err. */
int pcapfile_set_expression(struct pcapfile *p, const char *expr, char *err, size_t errlen);

/* The link header's length of the file's link type (see pcapfile_link_hlen()). */
unsigned pcapfile_hlen(const struct pcapfile *p);

/* The next frame into f (valid until the next call): 1, 0 at the end of the file, or -1
 * when the file breaks (truncated, garbage), with the frame number in err. */
int pcapfile_next(struct pcapfile *p, struct pcap_frame *f, char *err, size_t errlen);

#endif
