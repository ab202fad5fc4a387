// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_expr.c: filter expressions translated to eBPF (src/expr/cbpf.c) against libpcap's own
 * interpreter: a table of expressions, every frame of the corpus and thousands of
 * crafted and random ones through BPF_PROG_TEST_RUN, verdict for verdict; and what the
 * translation refuses. */
#include <errno.h>
#include <stdint.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_load.h"
#include "cbpf.h"
#include "expr.h"
#include "gate.h"
#include "judge.h"
#include "sampler.h"
#include "test.h"

#define DLT_EN10MB 1
#define DLT_RAW	   12
#define RUN_MAX	   3500 /* bytes a test run takes */
#define RUN_MIN	   34	/* and at least (bpf_load.h's BPF_LOAD_RUN_MIN) */
#define FRAMES_MAX 20000

static const char *const expressions[] = {
	"tcp",
	"udp port 53",
	"not port 22",
	"tcp port 443 or tcp port 80",
	"portrange 1000-2000",
	"host 10.0.0.1",
	"src host 192.168.1.1 or dst host 10.0.0.2",
	"net 10.0.0.0/8",
	"ip and not net 10.0.0.0/8",
	"net 2001:db8::/32",
	"ip6 host 2001:db8::1",
	"icmp or icmp6",
	"ip6 proto 17",
	"ip6 and tcp",
	"tcp[13] & 2 != 0",
	"tcp[tcpflags] & (tcp-syn|tcp-ack) == tcp-syn",
	"ip[6:2] & 0x1fff != 0",
	"less 100",
	"greater 500",
	"vlan",
	"vlan and udp",
	"vlan 100 and ip",
	"ether host 02:00:00:00:00:01",
	"ether proto 0x88cc or arp",
	"(tcp or udp) and (port 80 or port 6346) and not host 10.0.0.3",
	"ip[0] & 0xf > 5",
	"udp[8:4] = 0x01020304 or tcp[20] = 0x47",
	"(ip[0] << ip[1]) != 0", /* shifts by 32 or more: A is 0 */
	"(ip[0] >> ip[1]) != 0",
	"(ip[1] >> (ip[8] & 0x3f)) = 0 and ip",
	"ip6 protochain 6", /* a loop: libpcap's jump back */
	"ip protochain 17",
	"ip[2:2] / (ip[8] & 1) > 100", /* by 0: rejected */
	"ip[2:2] % (ip[8] & 3) = 1",
};

struct frame {
	uint8_t b[RUN_MAX];
	uint32_t len;
};

static struct frame *frames;
static size_t nframes;

static uint32_t rnd(void)
{
	static uint64_t s = 0x9e3779b97f4a7c15ull;

	s ^= s << 13, s ^= s >> 7, s ^= s << 17;
	return (uint32_t)(s >> 16);
}

/* The frames of a classic pcap file (either byte order) into frames[]. */
static size_t read_pcap(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t h[24], r[16];
	size_t n = 0;
	bool swap;

	if (!f)
		return 0;
	if (fread(h, 1, 24, f) != 24 || (h[0] != 0xd4 && h[0] != 0xa1)) {
		fclose(f);
		return 0;
	}
	swap = h[0] == 0xa1;
	while (nframes < FRAMES_MAX && fread(r, 1, 16, f) == 16) {
		uint32_t caplen = swap ? (uint32_t)r[8] << 24 | r[9] << 16 | r[10] << 8 | r[11]
				       : (uint32_t)r[11] << 24 | r[10] << 16 | r[9] << 8 | r[8];
		struct frame *fr = &frames[nframes];
		uint8_t skip[4096];
		uint32_t keep = caplen < RUN_MAX ? caplen : RUN_MAX;

		if (fread(fr->b, 1, keep, f) != keep)
			break;
		for (uint32_t left = caplen - keep; left;) { /* the rest, unread */
			uint32_t k = left < sizeof(skip) ? left : sizeof(skip);

			if (fread(skip, 1, k, f) != k)
				break;
			left -= k;
		}
		fr->len = keep;
		if (keep >= RUN_MIN)
			nframes++, n++;
	}
	fclose(f);
	return n;
}

static void put(struct frame *f, const void *p, size_t n)
{
	if (f->len + n <= RUN_MAX) {
		memcpy(f->b + f->len, p, n);
		f->len += (uint32_t)n;
	}
}

static void put16(struct frame *f, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	put(f, b, 2);
}

/* A frame the expressions have something to say about: Ethernet, 0-2 tags, IPv4 (with
 * options, fragments) or IPv6 (with a hop-by-hop header), TCP, UDP or ICMP among a few
 * addresses and ports, cut anywhere now and then. */
static void crafted(struct frame *f)
{
	static const uint8_t v4[][4] = {
		{ 10, 0, 0, 1 }, { 10, 0, 0, 2 }, { 10, 0, 0, 3 }, { 192, 168, 1, 1 }
	};
	static const uint16_t ports[] = { 22, 53, 80, 443, 1500, 6346, 9 };
	static const uint8_t protos[] = { 6, 17, 1, 58, 47 };
	uint8_t mac[12] = { 2, 0, 0, 0, 0, (uint8_t)(rnd() % 3), 2, 0, 0, 0, 0, 2 };
	uint8_t proto = protos[rnd() % 5], l4[20] = { 0 }, pay[600];
	unsigned tags = rnd() % 4 == 0 ? 1 + rnd() % 2 : 0, i, plen = rnd() % sizeof(pay);
	bool six = rnd() % 3 == 0;

	f->len = 0;
	put(f, mac, 12);
	for (i = 0; i < tags; i++) {
		put16(f, i ? 0x8100 : (rnd() % 2 ? 0x8100 : 0x88a8));
		put16(f, (uint16_t)(rnd() % 2 ? 100 : rnd() % 4096));
	}
	for (i = 0; i < sizeof(pay); i++)
		pay[i] = (uint8_t)rnd();
	l4[0] = (uint8_t)(ports[rnd() % 7] >> 8), l4[1] = (uint8_t)ports[rnd() % 7];
	l4[2] = (uint8_t)(ports[rnd() % 7] >> 8), l4[3] = (uint8_t)ports[rnd() % 7];
	l4[12] = 0x50, l4[13] = (uint8_t)rnd();
	if (six) {
		uint8_t h[40] = { 0x60 }, a[16] = { 0x20, 0x01, 0x0d, 0xb8 };

		put16(f, 0x86dd);
		h[6] = rnd() % 4 == 0 ? 0 : (proto == 1 ? 58 : proto); /* 0: hop-by-hop */
		h[7] = 64;
		a[15] = (uint8_t)(1 + rnd() % 2);
		memcpy(h + 8, a, 16);
		a[15] = (uint8_t)(1 + rnd() % 2), a[2] = rnd() % 2 ? 0x0d : 0x0e;
		memcpy(h + 24, a, 16);
		h[4] = (uint8_t)((20 + plen + (h[6] ? 0 : 8)) >> 8),
		h[5] = (uint8_t)(20 + plen + (h[6] ? 0 : 8));
		put(f, h, 40);
		if (!h[6]) {
			uint8_t hbh[8] = { proto == 1 ? 58 : proto, 0, 1, 4 };

			put(f, hbh, 8);
		}
	} else {
		unsigned opts = rnd() % 4 == 0 ? 1 + rnd() % 2 : 0;
		uint8_t h[60] = { (uint8_t)(0x45 + opts), 0 }, o[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
		uint16_t total = (uint16_t)(20 + 4 * opts + 20 + plen);

		put16(f, 0x0800);
		h[2] = (uint8_t)(total >> 8), h[3] = (uint8_t)total;
		if (rnd() % 6 == 0)
			h[6] = (uint8_t)(rnd() % 2 ? 0x20 : 0), h[7] = (uint8_t)(rnd() % 2 ? 8 : 0);
		h[8] = 64, h[9] = proto;
		memcpy(h + 12, v4[rnd() % 4], 4);
		memcpy(h + 16, v4[rnd() % 4], 4);
		put(f, h, 20);
		put(f, o, 4 * opts);
	}
	put(f, l4, 20);
	put(f, pay, plen);
	if (rnd() % 5 == 0) /* cut anywhere a test run takes */
		f->len = RUN_MIN + rnd() % (f->len - RUN_MIN + 1);
}

static void random_bytes(struct frame *f)
{
	uint32_t i;

	f->len = RUN_MIN + rnd() % 200;
	for (i = 0; i < f->len; i++)
		f->b[i] = (uint8_t)rnd();
	if (rnd() % 2) /* IPv4 or IPv6 behind it, now and then */
		f->b[12] = rnd() % 2 ? 0x08 : 0x86, f->b[13] = f->b[12] == 0x08 ? 0 : 0xdd;
}

/* The verdict program: the translation between a prologue (the context, the length on
 * the wire: a test run's frame less its Ethernet header, plus hlen) and its two ends. */
static int load_insns(const struct expr_insn *prog, size_t n, unsigned hlen, unsigned start,
		      char *err, size_t errlen)
{
	static struct bpf_insn insns[16384];
	static char log[1 << 16];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 0);
	size_t k = 0;
	int body, fd;

	insns[k++] =
	    (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_X, CBPF_REG_CTX, BPF_REG_1, 0, 0 };
	insns[k++] = (struct bpf_insn){ BPF_LDX | BPF_MEM | BPF_W, CBPF_REG_LEN, CBPF_REG_CTX,
					offsetof(struct __sk_buff, len), 0 };
	insns[k++] = (struct bpf_insn){ BPF_ALU | BPF_ADD | BPF_K, CBPF_REG_LEN, 0, 0, (int)hlen };
	/* a test run's offset 0 is past its 14 bytes of Ethernet header, as flowtop_gate
	 * says of a live frame (a register's store: 6.1's verifier takes no immediate's
	 * into the context) */
	insns[k++] = (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, (int)hlen };
	insns[k++] = (struct bpf_insn){ BPF_STX | BPF_MEM | BPF_W, CBPF_REG_CTX, BPF_REG_2,
					CBPF_CTX_DATA_AT, 0 };
	body = cbpf_translate(prog, n, start, 2, insns + k,
			      sizeof(insns) / sizeof(insns[0]) - k - 4, err, errlen);
	if (body < 0)
		return body;
	k += (size_t)body;
	insns[k++] = (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 1 };
	insns[k++] = (struct bpf_insn){ BPF_JMP | BPF_EXIT, 0, 0, 0, 0 };
	insns[k++] = (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0 };
	insns[k++] = (struct bpf_insn){ BPF_JMP | BPF_EXIT, 0, 0, 0, 0 };
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "expr_test", "GPL", insns, k, &opts);
	if (fd < 0) {
		opts.log_level = 1;
		fd =
		    bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "expr_test", "GPL", insns, k, &opts);
		snprintf(err, errlen, "the kernel refuses it: %s (%.300s)", strerror(errno),
			 log + (strlen(log) > 300 ? strlen(log) - 300 : 0));
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	return fd;
}

static int load_verdict(const struct expr *e, unsigned hlen, unsigned start, char *err,
			size_t errlen)
{
	size_t n;
	const struct expr_insn *prog = expr_insns(e, &n);

	return load_insns(prog, n, hlen, start, err, errlen);
}

static int verdict(int fd, const struct frame *f)
{
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = f->b, .data_size_in = f->len, .repeat = 1);

	if (bpf_prog_test_run_opts(fd, &run))
		return -errno;
	return run.retval != 0;
}

/* Every expression, every frame: the eBPF verdict is libpcap's. */
static void test_verdicts_as_libpcap(void)
{
	size_t i, j, matched = 0, runs = 0, refused = 0;
	char err[512];

	for (i = 0; i < sizeof(expressions) / sizeof(expressions[0]); i++) {
		struct expr *e = expr_compile(expressions[i], DLT_EN10MB, EXPR_NETMASK_UNKNOWN, err,
					      sizeof(err));
		size_t wrong = 0, kept = 0;
		int fd;

		if (!ASSERT_TRUE(e)) {
			printf("  %s\n", err);
			continue;
		}
		fd = load_verdict(e, 14, BPF_HDR_START_MAC, err, sizeof(err));
		if (!ASSERT_TRUE(fd >= 0)) {
			printf("  '%s': %s\n", expressions[i], err);
			expr_free(e);
			continue;
		}
		for (j = 0; j < nframes; j++) {
			int want = expr_matches(e, frames[j].b, frames[j].len, frames[j].len);
			int got = verdict(fd, &frames[j]);

			if (got == -EINVAL) { /* shorter than a test run takes of its protocol
					       * (an IPv6 header's 54 bytes) */
				refused++;
				continue;
			}
			kept += want;
			runs++;
			if (got != want && wrong++ < 3)
				printf("  '%s', frame %zu (%u bytes): eBPF %d, libpcap %d\n",
				       expressions[i], j, frames[j].len, got, want);
		}
		ASSERT_EQ(wrong, 0);
		matched += kept > 0 && kept < nframes;
		close(fd);
		expr_free(e);
	}
	printf("  %zu frames, %zu runs (%zu too short for a test run); %zu of %zu expressions "
	       "kept some and not all\n",
	       nframes, runs, refused, matched, sizeof(expressions) / sizeof(expressions[0]));
	ASSERT_TRUE(refused < runs / 50);
	/* the frames say something to every expression: none keeps all or nothing */
	ASSERT_EQ(matched, sizeof(expressions) / sizeof(expressions[0]));
}

/* 'ip broadcast' takes a netmask (the watched interface's, host order): with
 * 255.255.255.0, the verdicts are libpcap's on every frame, and on each untagged IPv4 one
 * sent anew to its /24's broadcast address, to 255.255.255.255 and to its network; those
 * to a broadcast address are kept, every one. */
static void test_broadcast_with_netmask(void)
{
	static const char *const texts[] = { "ip broadcast", "udp and ip broadcast",
					     "not ip broadcast and ip" };
	const uint32_t mask = 0xffffff00;
	struct frame *f = malloc(sizeof(*f));
	size_t to_bcast = 0, bcast_kept = 0;
	size_t i, j, v;
	char err[512];

	ASSERT_TRUE(expr_compile("ip broadcast", DLT_EN10MB, EXPR_NETMASK_UNKNOWN, err,
				 sizeof(err)) == NULL);
	ASSERT_TRUE(strstr(err, "netmask not known") != NULL);
	ASSERT_TRUE(expr_needs_netmask("udp and ip broadcast"));
	ASSERT_TRUE(!expr_needs_netmask("ip multicast"));
	ASSERT_TRUE(!expr_needs_netmask("tcp port"));
	if (!ASSERT_TRUE(f))
		return;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct expr *e = expr_compile(texts[i], DLT_EN10MB, mask, err, sizeof(err));
		size_t wrong = 0, kept = 0, runs = 0;
		int fd;

		if (!ASSERT_TRUE(e)) {
			printf("  %s\n", err);
			continue;
		}
		fd = load_verdict(e, 14, BPF_HDR_START_MAC, err, sizeof(err));
		if (!ASSERT_TRUE(fd >= 0)) {
			printf("  '%s': %s\n", texts[i], err);
			expr_free(e);
			continue;
		}
		for (j = 0; j < nframes; j++) {
			for (v = 0; v < 4; v++) {
				static const uint8_t last[] = { 255, 255, 0 };
				int want, got;

				*f = frames[j];
				if (v && (f->len < 34 || f->b[12] != 0x08 || f->b[13] != 0x00))
					break;
				if (v == 2)
					memset(f->b + 30, 255, 4);
				else if (v)
					f->b[33] = last[v - 1];
				want = expr_matches(e, f->b, f->len, f->len);
				got = verdict(fd, f);
				if (got == -EINVAL) /* too short for a test run */
					continue;
				kept += want;
				runs++;
				if (!i && (v == 1 || v == 2))
					to_bcast++, bcast_kept += got == 1;
				if (got != want && wrong++ < 3)
					printf("  '%s', frame %zu/%zu: eBPF %d, libpcap %d\n",
					       texts[i], j, v, got, want);
			}
		}
		printf("  '%s': %zu of %zu kept\n", texts[i], kept, runs);
		ASSERT_EQ(wrong, 0);
		ASSERT_TRUE(kept > 0 && kept < runs);
		close(fd);
		expr_free(e);
	}
	ASSERT_TRUE(to_bcast > 1000);
	ASSERT_EQ(bcast_kept, to_bcast);
	free(f);
}

/* Compiled for a link type without a header (tun, WireGuard): the network header at 0,
 * as a raw-IP frame of a test run has it after its 14 bytes of Ethernet: the verdicts
 * on the frames behind that header are libpcap's on the same bytes without it. */
static void test_raw_ip_link(void)
{
	static const char *const raw[] = { "tcp port 443 or udp", "net 10.0.0.0/8 and less 100",
					   "ip6 or icmp" };
	char err[512];
	size_t i, j, wrong = 0;

	for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
		struct expr *e =
		    expr_compile(raw[i], DLT_RAW, EXPR_NETMASK_UNKNOWN, err, sizeof(err));
		int fd = e ? load_verdict(e, 0, BPF_HDR_START_NET, err, sizeof(err)) : -1;

		if (!ASSERT_TRUE(fd >= 0)) {
			printf("  '%s': %s\n", raw[i], err);
			expr_free(e);
			continue;
		}
		for (j = 0; j < nframes; j++) {
			const struct frame *f = &frames[j];
			/* a test run pulls 14 bytes: the expression sees the rest, and its length
			 */
			int want = expr_matches(e, f->b + 14, f->len - 14, f->len - 14);

			int got;

			if (f->b[12] != 0x08 && f->b[12] != 0x86)
				continue; /* a test run's frame is IP behind its header */
			got = verdict(fd, f);
			if (got != -EINVAL && got != want && wrong++ < 3)
				printf("  raw '%s', frame %zu: not libpcap's verdict\n", raw[i], j);
		}
		close(fd);
		expr_free(e);
	}
	ASSERT_EQ(wrong, 0);
}

/* The gate in front of the counting program: a frame the expression keeps is counted
 * (tail call into flowtop_count: its host, its slot's frames), one it rejects in its
 * slot's filtered counters alone, with its bytes on the wire; every frame in one or the
 * other. */
static void test_gate_counts_or_filters(void)
{
	struct flowtop_bpf *skel;
	struct sampler *ss;
	struct hosttab *tab = hosttab_new(1024);
	struct flow_totals totals;
	struct bpf_maps maps;
	struct gate *g;
	uint64_t kept = 0, kept_bytes = 0, other = 0, other_bytes = 0;
	struct expr *e;
	char err[512];
	size_t j;

	skel = bpf_load(&(struct bpf_load_opts){ .ring_slots = 4096 }, err, sizeof(err));
	if (!ASSERT_TRUE(skel && tab)) {
		printf("  %s\n", err);
		hosttab_free(tab);
		return;
	}
	bpf_load_link_put(skel, 1, 3, 14); /* a test run's frames come on lo's index */
	bpf_load_maps(skel, &maps);
	ss = sampler_new(&maps);
	sampler_set_slots(ss, 4, false);
	g = gate_new(skel, "udp or (tcp and port 443)", EXPR_NETMASK_UNKNOWN, err, sizeof(err));
	e = expr_compile("udp or (tcp and port 443)", DLT_EN10MB, EXPR_NETMASK_UNKNOWN, err,
			 sizeof(err));
	if (!ASSERT_TRUE(g && e && ss && !gate_install(g) && !sampler_reset(ss, tab, &totals))) {
		printf("  %s\n", err);
		goto out;
	}
	for (j = 0; j < nframes; j++) {
		LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = frames[j].b,
			    .data_size_in = frames[j].len, .repeat = 1);
		bool want = expr_matches(e, frames[j].b, frames[j].len, frames[j].len);

		if (bpf_prog_test_run_opts(gate_prog_fd(g), &run))
			continue;	       /* too short for a test run */
		if (!ASSERT_EQ(run.retval, 0)) /* nothing queued to the socket */
			break;
		if (want)
			kept++, kept_bytes += frames[j].len;
		else
			other++, other_bytes += frames[j].len;
		if (j % 1024 == 1023) /* the rings drained, as a capture's loop does */
			sampler_drain(ss, tab);
	}
	if (ASSERT_OK(sampler_read(ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.slot_total[3].frames, kept);
		ASSERT_EQ(totals.slot_total[3].bytes, kept_bytes);
		ASSERT_EQ(totals.slot_total[3].filtered, other);
		ASSERT_EQ(totals.slot_total[3].filtered_bytes, other_bytes);
		ASSERT_TRUE(kept > 1000 && other > 1000);
	}
	ASSERT_STREQ(gate_text(g), "udp or (tcp and port 443)");
	ASSERT_TRUE(gate_fits(g, 14, "eth0", err, sizeof(err)) &&
		    gate_fits(g, 0, "tun0", err, sizeof(err)));
	gate_free(g);
	/* an Ethernet primitive: no program for links without that header, and said */
	g = gate_new(skel, "ether host 02:00:00:00:00:01", EXPR_NETMASK_UNKNOWN, err, sizeof(err));
	if (ASSERT_TRUE(g)) {
		ASSERT_TRUE(!gate_fits(g, 0, "tun0", err, sizeof(err)));
		ASSERT_TRUE(strstr(err, "'tun0' has no link header") != NULL);
	}
	ASSERT_TRUE(gate_new(skel, "tcp port", EXPR_NETMASK_UNKNOWN, err, sizeof(err)) == NULL);
	ASSERT_TRUE(strstr(err, "syntax error") != NULL);
out:
	gate_free(g);
	expr_free(e);
	sampler_free(ss);
	hosttab_free(tab);
	bpf_unload(skel);
}

/* A frame of an interface the links array does not know (under any, an index that
 * shares its entry with another's) is judged as it is counted: an Ethernet frame by the
 * Ethernet translation, with its header in its bytes. */
static void test_gate_unknown_link(void)
{
	static const uint8_t arp[42] = { [12] = 0x08, [13] = 0x06, [14] = 0x00, [15] = 0x01,
					 [16] = 0x08, [18] = 6,	   [19] = 4,	[21] = 1 };
	struct flowtop_bpf *skel;
	struct flow_stats st[256];
	struct frame f = { .len = 0 };
	struct gate *g = NULL;
	char err[512];
	size_t j;

	skel = bpf_load(&(struct bpf_load_opts){ .ring_slots = 4096 }, err, sizeof(err));
	if (!ASSERT_TRUE(skel)) {
		printf("  %s\n", err);
		return;
	}
	g = gate_new(skel, "arp", EXPR_NETMASK_UNKNOWN, err, sizeof(err));
	if (!ASSERT_TRUE(g && !gate_install(g)))
		goto out;
	for (j = 0; j < nframes && !f.len; j++) /* an IPv4 frame of the corpus */
		if (frames[j].b[12] == 0x08 && frames[j].b[13] == 0 && frames[j].len >= 60)
			f = frames[j];
	ASSERT_TRUE(f.len);
	{
		LIBBPF_OPTS(bpf_test_run_opts, run_arp, .data_in = arp, .data_size_in = sizeof(arp),
			    .repeat = 1);
		LIBBPF_OPTS(bpf_test_run_opts, run_ip, .data_in = f.b, .data_size_in = f.len,
			    .repeat = 1);
		__u32 zero = FLOWTOP_SLOT_NONE;
		struct bpf_maps maps;
		uint64_t frames_n = 0, filtered = 0, filtered_bytes = 0, bytes = 0;
		int cpus = libbpf_num_possible_cpus(), c;

		ASSERT_OK(bpf_prog_test_run_opts(gate_prog_fd(g), &run_arp));
		ASSERT_OK(bpf_prog_test_run_opts(gate_prog_fd(g), &run_ip));
		bpf_load_maps(skel, &maps);
		if (ASSERT_TRUE(cpus > 0 && cpus <= 256) &&
		    ASSERT_OK(bpf_map_lookup_elem(maps.stats_fd, &zero, st))) {
			for (c = 0; c < cpus; c++) {
				frames_n += st[c].frames, bytes += st[c].bytes;
				filtered += st[c].filtered;
				filtered_bytes += st[c].filtered_bytes;
			}
			ASSERT_EQ(frames_n, 1); /* the ARP frame, counted */
			ASSERT_EQ(bytes, sizeof(arp));
			ASSERT_EQ(filtered, 1); /* the IPv4 one, not */
			ASSERT_EQ(filtered_bytes, f.len);
		}
	}
out:
	gate_free(g);
	bpf_unload(skel);
}

/* Classic programs libpcap's compiler does not write but its interpreter runs, at the
 * edges of their operands: the translation's verdict is the interpreter's. */
static void test_edge_operands(void)
{
#define EDGE(...)                                                                                  \
	{                                                                                          \
		(const struct expr_insn[]){ __VA_ARGS__ },                                         \
		    sizeof((const struct expr_insn[]){ __VA_ARGS__ }) / sizeof(struct expr_insn)   \
	}
	const struct {
		const struct expr_insn *prog;
		size_t n;
	} edges[] = {
		/* X + k past 2^32: out of the frame, not wrapped round to offset 14 */
		EDGE({ 0x01, 0, 0, 0xffffffff }, { 0x50, 0, 0, 15 }, { 0x06, 0, 0, 1 }),
		EDGE({ 0x01, 0, 0, 0x7ffffff0 }, { 0x50, 0, 0, 0x20 }, { 0x06, 0, 0, 1 }),
		/* shifts by X of 32 and more: A is 0 */
		EDGE({ 0x00, 0, 0, 1 }, { 0x01, 0, 0, 40 }, { 0x6c, 0, 0, 0 }, { 0x16, 0, 0, 0 }),
		EDGE({ 0x00, 0, 0, 0x80000000 }, { 0x01, 0, 0, 32 }, { 0x7c, 0, 0, 0 },
		     { 0x16, 0, 0, 0 }),
		EDGE({ 0x00, 0, 0, 0x80000000 }, { 0x01, 0, 0, 31 }, { 0x7c, 0, 0, 0 },
		     { 0x16, 0, 0, 0 }),
		/* division and modulo by X = 0: the frame is rejected */
		EDGE({ 0x00, 0, 0, 7 }, { 0x01, 0, 0, 0 }, { 0x3c, 0, 0, 0 }, { 0x06, 0, 0, 1 }),
		EDGE({ 0x00, 0, 0, 7 }, { 0x01, 0, 0, 0 }, { 0x9c, 0, 0, 0 }, { 0x06, 0, 0, 1 }),
		/* negation, and a comparison of the negative as unsigned */
		EDGE({ 0x00, 0, 0, 5 }, { 0x84, 0, 0, 0 }, { 0x25, 0, 1, 0x7fffffff },
		     { 0x06, 0, 0, 1 }, { 0x06, 0, 0, 0 }),
		/* the length on the wire, a word's load at the frame's last bytes, and past */
		EDGE({ 0x80, 0, 0, 0 }, { 0x16, 0, 0, 0 }),
		EDGE({ 0x80, 0, 0, 0 }, { 0x14, 0, 0, 4 }, { 0x07, 0, 0, 0 }, { 0x40, 0, 0, 0 },
		     { 0x16, 0, 0, 0 }),
		EDGE({ 0x80, 0, 0, 0 }, { 0x14, 0, 0, 3 }, { 0x07, 0, 0, 0 }, { 0x40, 0, 0, 0 },
		     { 0x06, 0, 0, 1 }),
		/* an IPv4 header's length from its first byte, and a load by it */
		EDGE({ 0xb1, 0, 0, 14 }, { 0x50, 0, 0, 14 }, { 0x16, 0, 0, 0 }),
	};
#undef EDGE
	size_t i, j, wrong = 0, runs = 0;
	char err[512];

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		int fd =
		    load_insns(edges[i].prog, edges[i].n, 14, BPF_HDR_START_MAC, err, sizeof(err));

		if (!ASSERT_TRUE(fd >= 0)) {
			printf("  edge %zu: %s\n", i, err);
			continue;
		}
		for (j = 0; j < nframes; j += 7) {
			const struct frame *f = &frames[j];
			int want =
			    expr_insns_match(edges[i].prog, edges[i].n, f->b, f->len, f->len);
			int got = verdict(fd, f);

			if (got == -EINVAL)
				continue;
			runs++;
			if (got != want && wrong++ < 5)
				printf("  edge %zu, frame %zu (%u bytes): eBPF %d, libpcap %d\n", i,
				       j, f->len, got, want);
		}
		close(fd);
	}
	ASSERT_EQ(wrong, 0);
	ASSERT_TRUE(runs > 1000);
}

/* judge_assemble() of "ip[1]=1 or ... ip[ips]=.. or len=5001 or ... or len=1" (lens
 * terms of len) into a room of BPF_MAXINSNS: its result, and nothing written past. */
static int assemble_terms(unsigned ips, unsigned lens)
{
	enum {
		CAP = BPF_MAXINSNS,
		GUARD = 64
	};
	struct bpf_insn *insns = calloc(CAP + GUARD, sizeof(*insns));
	char text[16384], err[512];
	struct expr *eth, *raw;
	size_t i, len = 0;
	int n;

	for (i = 1; i <= ips; i++)
		len +=
		    (size_t)snprintf(text + len, sizeof(text) - len, "ip[%zu]=%zu or ", i, i % 256);
	for (i = 1; i <= lens; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "len=%zu or ", 5000 + i);
	snprintf(text + len, sizeof(text) - len, "len=1");
	eth = expr_compile(text, DLT_EN10MB, EXPR_NETMASK_UNKNOWN, err, sizeof(err));
	raw = expr_compile(text, DLT_RAW, EXPR_NETMASK_UNKNOWN, err, sizeof(err));
	n = insns && eth && raw ? judge_assemble(insns, CAP, eth, raw, 99, err, sizeof(err))
				: -ENOMEM;
	for (i = CAP; insns && i < CAP + GUARD; i++) /* nothing past the room */
		if (!ASSERT_EQ(insns[i].code, 0))
			break;
	free(insns);
	expr_free(eth);
	expr_free(raw);
	return n;
}

/* The judge is assembled into its room and no further, whatever the expression: ones
 * whose Ethernet translation ends in the last instructions of the room, two at a time
 * (the raw one's room was then counted below zero and written past the buffer), and one
 * that fits. */
static void test_gate_room(void)
{
	unsigned ips, lens;
	int n = assemble_terms(19, 10);

	ASSERT_TRUE(n > 0 && n <= BPF_MAXINSNS);
	for (ips = 195; ips <= 216; ips++)
		for (lens = 0; lens <= 10; lens++)
			ASSERT_EQ(assemble_terms(ips, lens), -E2BIG);
}

/* What the translation refuses, and says. */
static void test_refusals(void)
{
	static const struct expr_insn ancillary[] = { { 0x20, 0, 0, (uint32_t)-4096 + 4 },
						      { 0x06, 0, 0, 1 } };
	static const struct expr_insn no_ret[] = { { 0x00, 0, 0, 1 } };
	static const struct expr_insn out_of_it[] = { { 0x15, 5, 0, 1 }, { 0x06, 0, 0, 0 } };
	static const struct expr_insn div0[] = { { 0x34, 0, 0, 0 }, { 0x06, 0, 0, 0 } };
	struct bpf_insn out[64];
	char err[256];

	const unsigned mac = BPF_HDR_START_MAC;

	ASSERT_EQ(cbpf_translate(ancillary, 2, mac, 2, out, 64, err, sizeof(err)), -EOPNOTSUPP);
	ASSERT_TRUE(strstr(err, "ancillary") != NULL);
	ASSERT_EQ(cbpf_translate(no_ret, 1, mac, 2, out, 64, err, sizeof(err)), -EINVAL);
	ASSERT_EQ(cbpf_translate(out_of_it, 2, mac, 2, out, 64, err, sizeof(err)), -EINVAL);
	ASSERT_EQ(cbpf_translate(div0, 2, mac, 2, out, 64, err, sizeof(err)), -EINVAL);
	ASSERT_TRUE(strstr(err, "divides by 0") != NULL);
	ASSERT_EQ(cbpf_translate(out_of_it + 1, 1, mac, 2, out, 2, err, sizeof(err)), -E2BIG);
	ASSERT_TRUE(expr_compile("tcp port", DLT_EN10MB, EXPR_NETMASK_UNKNOWN, err, sizeof(err)) ==
		    NULL);
	ASSERT_TRUE(strstr(err, "syntax error") != NULL);
}

int main(void)
{
	const char *corpus = getenv("FLOWTOP_CORPUS") ? getenv("FLOWTOP_CORPUS") : "tests/corpus";
	char path[4096], list[4096];
	size_t i, from_corpus = 0;
	FILE *l;

	if (!test_need_root("test_expr", 4))
		return test_summary("test_expr");
	frames = calloc(FRAMES_MAX, sizeof(*frames));
	if (!frames)
		return 1;
	snprintf(list, sizeof(list), "ls %s/pcap/*.pcap* 2>/dev/null", corpus);
	l = popen(list, "r");
	while (l && fgets(path, sizeof(path), l)) {
		path[strcspn(path, "\n")] = '\0';
		from_corpus += read_pcap(path);
	}
	if (l)
		pclose(l);
	for (i = 0; i < 4000 && nframes < FRAMES_MAX; i++)
		crafted(&frames[nframes++]);
	for (i = 0; i < 2000 && nframes < FRAMES_MAX; i++)
		random_bytes(&frames[nframes++]);
	printf("  %zu corpus frames, %zu crafted and random\n", from_corpus, nframes - from_corpus);
	if (!from_corpus)
		printf("FAIL test_expr: no corpus frames under %s\n", corpus), test_failed++;
	RUN_TEST(test_verdicts_as_libpcap);
	RUN_TEST(test_raw_ip_link);
	RUN_TEST(test_broadcast_with_netmask);
	RUN_TEST(test_gate_counts_or_filters);
	RUN_TEST(test_gate_unknown_link);
	RUN_TEST(test_edge_operands);
	RUN_TEST(test_gate_room);
	RUN_TEST(test_refusals);
	free(frames);
	return test_summary("test_expr");
}
