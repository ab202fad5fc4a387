// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* slots.c: the stats slots of the interfaces watched under any (see slots.h). */
#include "slots.h"

#include <string.h>

#include "hosttab.h"

void slots_reset(struct slots *s)
{
	memset(s, 0, sizeof(*s));
	s->state[FLOWTOP_SLOT_NONE] = SLOT_HELD;
	s->span = 1;
}

bool slots_reusable(const struct slots *s, unsigned slot, unsigned long samples)
{
	return slot < FLOWTOP_MAX_SLOTS && s->state[slot] == SLOT_RELEASED &&
	       s->released[slot] < samples;
}

static unsigned lowest(const struct slots *s, enum slot_state state, unsigned from, unsigned to,
		       unsigned long samples)
{
	unsigned i;

	for (i = from; i < to; i++)
		if (state == SLOT_FREE ? s->state[i] == SLOT_FREE : slots_reusable(s, i, samples))
			return i;
	return FLOWTOP_SLOT_NONE;
}

unsigned slots_pick(const struct slots *s, unsigned long samples)
{
	unsigned slot = lowest(s, SLOT_FREE, 1, LINK_BITS, samples);

	if (slot == FLOWTOP_SLOT_NONE)
		slot = lowest(s, SLOT_RELEASED, 1, FLOWTOP_MAX_SLOTS, samples);
	if (slot == FLOWTOP_SLOT_NONE)
		slot = lowest(s, SLOT_FREE, LINK_BITS, FLOWTOP_MAX_SLOTS, samples);
	return slot;
}

void slots_hold(struct slots *s, unsigned slot)
{
	s->state[slot] = SLOT_HELD;
	if (slot >= s->span)
		s->span = slot + 1;
}

void slots_release(struct slots *s, unsigned slot, unsigned long samples)
{
	if (slot == FLOWTOP_SLOT_NONE || slot >= FLOWTOP_MAX_SLOTS)
		return;
	s->state[slot] = SLOT_RELEASED;
	s->released[slot] = samples;
}

void slots_free(struct slots *s, unsigned slot)
{
	if (slot != FLOWTOP_SLOT_NONE && slot < FLOWTOP_MAX_SLOTS)
		s->state[slot] = SLOT_FREE;
}
