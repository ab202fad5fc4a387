/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* kfeatures.h: the kernel features flowtop relies on, each with the Linux version that
 * brought it, and probes that tell whether the running kernel has them. */
#ifndef FLOWTOP_KFEATURES_H
#define FLOWTOP_KFEATURES_H

#include <stdbool.h>
#include <stddef.h>

/* The oldest kernel flowtop runs on: the newest version of the features it needs. */
#define KFEATURES_OLDEST "5.10"

struct kfeature {
	const char *name;     /* what it is, as the README's table says it */
	const char *since;    /* the mainline version that brought it */
	const char *use;      /* what flowtop does with it */
	const char *fallback; /* what flowtop does without it; NULL: it cannot run */
	int (*probe)(void);   /* 1 present, 0 missing, -errno cannot tell; NULL: implied by
			       * the others (no probe of its own) */
};

extern const struct kfeature kfeatures[];
extern const size_t kfeatures_count;

/* Whether err (a -errno of the bpf() system call) says the kernel does not do what it
 * was asked: EINVAL (a command or flag it does not know), its own ENOTSUPP (524: a map
 * type without the operation, as per-CPU arrays without batch lookups before 5.13),
 * ENOTSUP or EOPNOTSUPP. */
bool kfeatures_unsupported(int err);

/* Names each needed feature the running kernel lacks, with its version, in out
 * ("BPF atomics (Linux 5.12), ..."): how many. Probes load small maps and programs:
 * call it after a load failed, as the one who loads flowtop's program. */
int kfeatures_missing(char *out, size_t outlen);

/* Whether the kernel has BPF atomics that return the old value (Linux 5.12): 1, 0, or
 * -errno when it cannot tell (no privilege). */
int kfeatures_fetch_atomics(void);

#endif
