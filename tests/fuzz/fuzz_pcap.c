// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fuzz_pcap.c: libFuzzer target: any bytes as a capture file, read by libpcap as -r
 * reads one, every frame made into the filter's (pcapfile_convert()): the frame must
 * fit the buffer, start with an Ethernet header, and account for every byte on the
 * wire. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pcap/pcap.h>

#include "pcapfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[PCAP_ERRBUF_SIZE];
	static uint8_t out[PCAPFILE_FRAME_MAX];
	FILE *f = fmemopen((void *)data, size, "rb");
	struct pcap_pkthdr *h;
	const u_char *pkt;
	uint32_t extra;
	pcap_t *p;
	int dlt, len, hlen, i;

	if (!f)
		return 0;
	p = pcap_fopen_offline(f, err); /* takes f when it opens; pcap_close() closes it */
	if (!p) {
		/* not when it fails (pcap_open_offline() closes its own): glibc keeps every
		 * open FILE on its list, so a FILE left open here is reachable, never reported
		 * as a leak, and its 8 KB buffer a run took fuzz_pcap past 2 GB */
		fclose(f);
		return 0;
	}
	dlt = pcap_datalink(p);
	hlen = pcapfile_link_hlen(dlt);
	for (i = 0; i < 1000 && pcap_next_ex(p, &h, &pkt) == 1; i++) {
		len = pcapfile_convert(dlt, pkt, h->caplen, h->len, out, &extra);
		if (hlen < 0) {
			if (len != -1)
				abort();
			continue;
		}
		if (len < 14 || len > PCAPFILE_FRAME_MAX)
			abort();
		/* the wire's bytes: the link header, what is handed on past the Ethernet
		 * header, and extra; a frame cut inside its link header counts its own */
		if ((uint64_t)len - 14 + (uint64_t)hlen + extra !=
			(h->len > h->caplen ? h->len : h->caplen) &&
		    h->caplen >= (uint32_t)hlen && !(dlt == DLT_EN10MB && h->caplen < 14))
			abort();
	}
	pcap_close(p);
	return 0;
}
