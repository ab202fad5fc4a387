// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fuzz_cli.c: libFuzzer target: any argument vector (NUL-separated) through cli_parse. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], err[256];
	struct cli_opts opts;
	int argc = 0;
	size_t i, start = 0;

	if (!out)
		out = fopen("/dev/null", "w");
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = (char *)"flowtop";
	for (i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	if (cli_parse(argc, argv, &opts, out, err, sizeof(err)) == CLI_USAGE && !err[0])
		abort(); /* a usage error must say what is wrong */
	free(buf);
	return 0;
}
