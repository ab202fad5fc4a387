// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fuzz_expr.c: libFuzzer target: any text as a filter expression (`flowtop EXPR`, the
 * `e` key), compiled by libpcap for both kinds of link, translated and assembled into
 * the judge's room exactly (a heap block of BPF_MAXINSNS instructions, so AddressSanitizer
 * sees a write past it); a judge that fits ends in its two tail calls. Inputs are
 * repeated up to 16 times, joined by " or ", so that short seeds make long expressions. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/dlt.h>

#include "expr.h"
#include "judge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpf_insn *insns = malloc(BPF_MAXINSNS * sizeof(*insns));
	unsigned times = size ? 1 + data[0] % 16 : 1, i;
	char *text = malloc(times * (size + 4) + 1), err[512];
	struct expr *eth = NULL, *raw = NULL;
	size_t len = 0;
	int n;

	if (!insns || !text)
		goto out;
	if (size) /* the first byte says how many times */
		data++, size--;
	for (i = 0; i < times; i++) {
		if (i)
			memcpy(text + len, " or ", 4), len += 4;
		memcpy(text + len, data, size), len += size;
	}
	text[len] = '\0';
	if (strlen(text) != len) /* a NUL inside: not a command line's text */
		goto out;
	eth = expr_compile(text, DLT_EN10MB, EXPR_NETMASK_UNKNOWN, err, sizeof(err));
	raw = expr_compile(text, DLT_RAW, EXPR_NETMASK_UNKNOWN, err, sizeof(err));
	if (!eth && !raw)
		goto out;
	n = judge_assemble(insns, BPF_MAXINSNS, eth, raw, 3, err, sizeof(err));
	if (n == 0 || n > BPF_MAXINSNS ||
	    (n < 0 && n != -E2BIG && n != -EINVAL && n != -EOPNOTSUPP))
		abort();
	if (n > 0 && insns[n - 1].code != (BPF_JMP | BPF_EXIT))
		abort();
out:
	expr_free(eth);
	expr_free(raw);
	free(text);
	free(insns);
	return 0;
}
