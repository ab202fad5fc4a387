// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* testrun_cost.c: the filter's cost per frame through BPF_PROG_TEST_RUN with repeat, on
 * the first frame of each pcap given, next to an empty filter in the same run.
 *
 *   testrun_cost EMPTY.bpf.o REPEAT PCAP...     prints a Markdown table
 *   PORTS=1 testrun_cost ...                    the program that counts ports */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_load.h"

/* The first frame of a classic pcap file into buf; its length, or 0. */
static size_t first_frame(const char *path, unsigned char *buf, size_t cap)
{
	unsigned char hdr[24], rec[16];
	unsigned int len;
	size_t n = 0;
	FILE *f = fopen(path, "rb");

	if (f && fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr) &&
	    fread(rec, 1, sizeof(rec), f) == sizeof(rec)) {
		memcpy(&len, rec + 8, 4);
		if (len <= cap && fread(buf, 1, len, f) == len)
			n = len;
	}
	if (f)
		fclose(f);
	return n;
}

static double run(int prog, const unsigned char *frame, size_t len, unsigned repeat)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = (__u32)len,
		    .repeat = repeat);

	return bpf_prog_test_run_opts(prog, &opts) ? -1 : (double)opts.duration;
}

int main(int argc, char **argv)
{
	unsigned char frame[2048];
	struct flowtop_bpf *skel;
	struct bpf_object *obj;
	unsigned repeat;
	char err[256];
	int empty, i;

	if (argc < 4) {
		fprintf(stderr, "usage: testrun_cost EMPTY.bpf.o REPEAT PCAP...\n");
		return 2;
	}
	repeat = (unsigned)atoi(argv[2]);
	obj = bpf_object__open_file(argv[1], NULL);
	skel =
	    bpf_load(&(struct bpf_load_opts){ .ports = getenv("PORTS") != NULL }, err, sizeof(err));
	if (!obj || bpf_object__load(obj) || !skel) {
		fprintf(stderr, "testrun_cost: cannot load the programs %s\n", skel ? "" : err);
		return 1;
	}
	bpf_load_link_put(skel, 1, 1, 14);
	empty = bpf_program__fd(bpf_object__next_program(obj, NULL));
	printf(
	    "| traffic (BPF_PROG_TEST_RUN, repeat %u) | empty ns/run | flowtop ns/run | ratio |\n",
	    repeat);
	printf("|---|---:|---:|---:|\n");
	for (i = 3; i < argc; i++) {
		size_t len = first_frame(argv[i], frame, sizeof(frame));
		const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		double e, f;

		if (!len)
			continue;
		e = run(empty, frame, len, repeat);
		f = run(bpf_load_prog_fd(skel), frame, len, repeat);
		printf("| %.*s | %.1f | %.1f | %.2fx |\n", (int)(strlen(name) - 5), name, e, f,
		       e > 0 ? f / e : 0);
	}
	bpf_unload(skel);
	bpf_object__close(obj);
	return 0;
}
