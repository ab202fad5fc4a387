// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* filefeed.c: the run being gathered, and a copy of each frame it holds only the head
 * of, for the rare frame whose headers go past FLOWTOP_FILE_HEAD bytes: the program
 * names those, and they run again whole, one to a run. */
#include "filefeed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_ether.h>

#include "bpf_load.h"
#include "flowtop.h"

struct whole_frame {
	uint32_t at, len, extra; /* in held[]; len 0: the batch holds all of it */
};

struct filefeed {
	struct flowtop_bpf *skel;
	uint8_t run[BPF_LOAD_RUN_MAX]; /* a 14-byte Ethernet header, then the frames */
	size_t used;
	unsigned n;
	struct whole_frame whole[FLOWTOP_FILE_BATCH];
	uint8_t held[FLOWTOP_FILE_BATCH * BPF_LOAD_RUN_MAX];
	size_t held_used;
	struct filefeed_stats done;
};

/* The run's own Ethernet header: to no one, so the kernel takes it for loopback's */
static void start(struct filefeed *f)
{
	memset(f->run, 0, ETH_HLEN);
	f->run[12] = ETH_P_IP >> 8;
	f->used = ETH_HLEN;
	f->n = 0;
	f->held_used = 0;
}

struct filefeed *filefeed_new(struct flowtop_bpf *skel)
{
	struct filefeed *f = malloc(sizeof(*f));

	if (!f)
		return NULL;
	f->skel = skel;
	f->done = (struct filefeed_stats){ 0 };
	start(f);
	return f;
}

void filefeed_free(struct filefeed *f)
{
	free(f);
}

int filefeed_flush(struct filefeed *f)
{
	struct flow_file_frame end = { .len = FLOWTOP_FILE_END };
	uint32_t again = 0;
	unsigned i;
	int err = 0;

	if (!f->n)
		return 0;
	memcpy(f->run + f->used, &end, sizeof(end));
	f->used += sizeof(end);
	if (f->used < BPF_LOAD_RUN_MIN) { /* the least a run takes: past the end, unread */
		memset(f->run + f->used, 0, BPF_LOAD_RUN_MIN - f->used);
		f->used = BPF_LOAD_RUN_MIN;
	}
	err = bpf_load_run_file(f->skel, f->run, f->used, &again);
	f->done.runs++;
	f->done.frames += f->n;
	for (i = 0; !err && i < f->n; i++) {
		if (!(again & (1u << i)))
			continue;
		err = bpf_load_run_frame(f->skel, f->held + f->whole[i].at, f->whole[i].len,
					 f->whole[i].extra);
		f->done.runs++;
		f->done.again++;
	}
	start(f);
	return err;
}

int filefeed_add(struct filefeed *f, const void *frame, size_t len, uint32_t extra)
{
	const uint8_t *p = frame;
	struct flow_file_frame h;
	size_t body, head;
	int err;

	if (len < ETH_HLEN || len > BPF_LOAD_RUN_MAX)
		return -EMSGSIZE;
	body = len - ETH_HLEN;
	head = body < FLOWTOP_FILE_HEAD ? body : FLOWTOP_FILE_HEAD;
	if (f->n == FLOWTOP_FILE_BATCH ||
	    f->used + 2 * sizeof(h) + head > sizeof(f->run)) { /* and the end's header */
		err = filefeed_flush(f);
		if (err)
			return err;
	}
	h = (struct flow_file_frame){
		.len = (uint16_t)head,
		.ethertype = (uint16_t)(p[12] << 8 | p[13]),
		.held = (uint32_t)(body - head),
		.extra = extra,
	};
	memcpy(f->run + f->used, &h, sizeof(h));
	memcpy(f->run + f->used + sizeof(h), p + ETH_HLEN, head);
	f->used += sizeof(h) + head;
	f->whole[f->n] = (struct whole_frame){ 0 };
	if (h.held) {
		f->whole[f->n] =
		    (struct whole_frame){ (uint32_t)f->held_used, (uint32_t)len, extra };
		memcpy(f->held + f->held_used, frame, len);
		f->held_used += len;
	}
	f->n++;
	return 0;
}

void filefeed_stats(const struct filefeed *f, struct filefeed_stats *out)
{
	*out = f->done;
}
