/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* fetchless.h: flowtop's BPF object as a kernel without BPF atomics that return the old
 * value (Linux 5.10, 5.11) takes it. */
#ifndef FLOWTOP_FETCHLESS_H
#define FLOWTOP_FETCHLESS_H

#include <stddef.h>

/* A copy of the BPF object elf (sz bytes) whose fetching atomics (fetch-and-add,
 * exchange) are stores those kernels' verifiers take where they never run and refuse
 * where they do: each stands in a branch that the program's fetch_atomics (0) or
 * exchange_head (0) keeps from running.
 * Made once an object (two at most) and kept for the process; NULL with errno when the
 * object is not one. How
 * many instructions were rewritten in *rewritten. */
const void *fetchless_object(const void *elf, size_t sz, size_t *rewritten);

#endif
