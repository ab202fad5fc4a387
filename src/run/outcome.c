// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* outcome.c: exit statuses and error lines (see outcome.h). */
#include "outcome.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "fmt.h"
#include "report.h"

enum outcome outcome_of_error(int err)
{
	switch (err) {
	case -ENODEV:
	case -EPROTONOSUPPORT:
	case -EBUSY:
	case -EOPNOTSUPP:
		return OUTCOME_USAGE;
	default:
		return OUTCOME_FAILED;
	}
}

enum outcome outcome_of_replay(int status)
{
	return !status ? OUTCOME_OK : status == -1 ? OUTCOME_USAGE : OUTCOME_FAILED;
}

void outcome_say(bool json, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fmt_complain(msg);
	if (json) {
		fputs("{\"error\":", stdout);
		report_json_string(stdout, msg);
		fputs("}\n", stdout);
		fflush(stdout);
	}
}
