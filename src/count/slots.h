/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* slots.h: which of the filter's stats slots the interfaces watched under any hold. A
 * slot is given lowest first; one an interface held is taken back once the interface is
 * gone and a sample has drained its last records, so that interfaces that come and go
 * all day (a container host's veths) never run out of them. */
#ifndef FLOWTOP_SLOTS_H
#define FLOWTOP_SLOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "flowtop.h"

enum slot_state {
	SLOT_FREE,     /* never held since slots_reset(), or its counts put aside since */
	SLOT_HELD,     /* an interface's */
	SLOT_RELEASED, /* its interface is gone: its counts still shown as the gone one's */
};

struct slots {
	uint8_t state[FLOWTOP_MAX_SLOTS];
	unsigned long released[FLOWTOP_MAX_SLOTS]; /* the sample count when it was released */
	unsigned span;				   /* slots ever held, and 0: [0, span) */
};

/* All free but FLOWTOP_SLOT_NONE. */
void slots_reset(struct slots *s);

/* The slot to give the next interface, when `samples` samples have been taken: the
 * lowest free one while it has a host link bit of its own (link_bit()), then the lowest
 * released before the last sample (the caller puts its counts aside first, see
 * slots_state()), then the lowest free one left. FLOWTOP_SLOT_NONE when none is. */
unsigned slots_pick(const struct slots *s, unsigned long samples);
/* Whether a slot was released before the last of `samples`: no record of it can still
 * be on its way. */
bool slots_reusable(const struct slots *s, unsigned slot, unsigned long samples);

static inline enum slot_state slots_state(const struct slots *s, unsigned slot)
{
	return (enum slot_state)s->state[slot];
}

void slots_hold(struct slots *s, unsigned slot);
/* Its interface is gone, after `samples` samples. */
void slots_release(struct slots *s, unsigned slot, unsigned long samples);
/* Its counts are put aside: free again. */
void slots_free(struct slots *s, unsigned slot);

#endif
