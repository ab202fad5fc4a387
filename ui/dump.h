/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* dump.h: what the screen's d key and SIGUSR1 write: the rows the view holds, in their
 * order, with the columns of the view (rates or totals) in the screen's units (bits or
 * bytes per second), as text (the cells as shown), CSV or JSON by the file's extension,
 * atomically. */
#ifndef FLOWTOP_DUMP_H
#define FLOWTOP_DUMP_H

#include <stddef.h>

#include "view.h"

/* The rows of v on iface, of the frames that matched expr (NULL: every frame); focus
 * names the host whose conversations they are (the conversation view), or is NULL. 0,
 * or -errno with err filled. */
int dump_write(const char *path, const struct view *v, const char *iface, const char *expr,
	       const char *focus, char *err, size_t errlen);

#endif
