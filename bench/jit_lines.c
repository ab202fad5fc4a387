// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* jit_lines.c: where a loaded BPF program spends its samples, by source line. Debian's
 * perf cannot annotate a BPF program (it is built without libopcodes), but the kernel
 * keeps, for each source line the compiler noted, the address of its first JIT
 * instruction (jited_line_info) and the line's text (line_info, into the program's
 * BTF). Each sample address read on stdin (`perf script -F ip`, hexadecimal, one a
 * line) goes to the line whose code starts at or before it in the same function's image
 * (the JIT's prologue, before the function's first line, counts as a line of its own);
 * addresses outside the program are counted apart. A source line the compiler spread
 * over several places is summed.
 *
 *   perf script -F ip | jit_lines PROG_ID [LINES]   the LINES (30) lines with most
 *                                                   samples, with their share */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

struct line {
	__u64 addr;	  /* its first JIT instruction */
	unsigned num;	  /* in its source file */
	const char *text; /* the source line, from the program's BTF */
	unsigned long samples;
};

static int by_addr(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->num > 0) - (y->num > 0); /* a prologue before a line at its address */
}

static int by_source(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->text, y->text);
}

static int by_samples(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 : by_addr(a, b);
}

/* The line whose code holds addr (lines[n] sorted by address), or NULL before the
 * first. */
static struct line *line_at(struct line *lines, size_t n, __u64 addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lines[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &lines[lo - 1] : NULL;
}

int main(int argc, char **argv)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info), nlines, i, n;
	unsigned long total = 0, outside = 0;
	unsigned long long addr;
	struct bpf_line_info *li;
	struct line *lines;
	struct btf *btf;
	__u64 *jited, *ksyms;
	__u32 *lens, nfuncs;
	int fd, show = argc > 2 ? atoi(argv[2]) : 30;

	if (argc < 2) {
		fprintf(stderr, "usage: perf script -F ip | jit_lines PROG_ID [LINES]\n");
		return 2;
	}
	fd = bpf_prog_get_fd_by_id((__u32)strtoul(argv[1], NULL, 10));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "jit_lines: program %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	nlines = info.nr_line_info < info.nr_jited_line_info ? info.nr_line_info
							     : info.nr_jited_line_info;
	nfuncs = info.nr_jited_ksyms < info.nr_jited_func_lens ? info.nr_jited_ksyms
							       : info.nr_jited_func_lens;
	if (!nlines || !nfuncs || info.line_info_rec_size != sizeof(*li)) {
		fprintf(stderr, "jit_lines: program %s has no line information\n", argv[1]);
		return 1;
	}
	li = calloc(nlines, sizeof(*li));
	jited = calloc(nlines, sizeof(*jited));
	lines = calloc(nlines + nfuncs, sizeof(*lines));
	ksyms = calloc(nfuncs, sizeof(*ksyms));
	lens = calloc(nfuncs, sizeof(*lens));
	if (!li || !jited || !lines || !ksyms || !lens)
		return 1;
	memset(&info, 0, sizeof(info));
	info.nr_line_info = nlines;
	info.line_info_rec_size = sizeof(*li);
	info.line_info = (__u64)(unsigned long)li;
	info.nr_jited_line_info = nlines;
	info.jited_line_info_rec_size = sizeof(*jited);
	info.jited_line_info = (__u64)(unsigned long)jited;
	info.nr_jited_ksyms = nfuncs;
	info.jited_ksyms = (__u64)(unsigned long)ksyms;
	info.nr_jited_func_lens = nfuncs;
	info.jited_func_lens = (__u64)(unsigned long)lens;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "jit_lines: program %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	btf = btf__load_from_kernel_by_id(info.btf_id);
	if (!btf) {
		fprintf(stderr, "jit_lines: program %s's BTF: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (i = 0; i < nlines; i++) {
		const char *text = btf__name_by_offset(btf, li[i].line_off);

		lines[i].addr = jited[i];
		lines[i].num = BPF_LINE_INFO_LINE_NUM(li[i].line_col);
		lines[i].text = text ? text + strspn(text, " \t") : "?";
	}
	for (i = 0; i < nfuncs; i++) /* each function's prologue: its start to its first line */
		lines[nlines + i] = (struct line){ .addr = ksyms[i], .text = "(prologue)" };
	nlines += nfuncs;
	qsort(lines, nlines, sizeof(*lines), by_addr);
	while (scanf("%llx", &addr) == 1) {
		struct line *l = NULL;

		for (i = 0; i < nfuncs && !l; i++)
			if (addr >= ksyms[i] && addr - ksyms[i] < lens[i])
				l = line_at(lines, nlines, addr);
		if (l) {
			l->samples++;
			total++;
		} else {
			outside++;
		}
	}
	/* a source line the compiler spread over several places: one line, their sum */
	qsort(lines, nlines, sizeof(*lines), by_source);
	for (i = 1, n = 0; i < nlines; i++) {
		if (!by_source(&lines[n], &lines[i]))
			lines[n].samples += lines[i].samples;
		else
			lines[++n] = lines[i];
	}
	nlines = n + 1;
	qsort(lines, nlines, sizeof(*lines), by_samples);
	printf("%lu samples in the program (%lu outside it)\n", total, outside);
	for (i = 0; i < nlines && (int)i < show && lines[i].samples; i++)
		printf("%5.1f %% %7lu  line %4u  %.100s\n", 100.0 * lines[i].samples / total,
		       lines[i].samples, lines[i].num, lines[i].text);
	btf__free(btf);
	free(li), free(jited), free(lines), free(ksyms), free(lens);
	return 0;
}
