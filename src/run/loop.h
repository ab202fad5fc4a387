/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* loop.h: the one event loop under the batch mode and the screen: the sample timer, the
 * drain timer and the filter's wake fd, SIGINT/SIGTERM/SIGHUP/SIGUSR1 through a
 * signalfd, the capture's errors, and the caller's own fds (the keyboard, the
 * resolver). Signals are blocked from loop_new() on and stay blocked, so no thread
 * started later takes one, and one arriving during shutdown cannot kill what ends
 * cleanly. */
#ifndef FLOWTOP_LOOP_H
#define FLOWTOP_LOOP_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#define LOOP_MAX_FDS 2 /* the caller's own fds */

enum loop_event {
	LOOP_SAMPLE = 1u << 0, /* time for a sample */
	LOOP_DRAIN = 1u << 1,  /* time to empty the rings (the timer, or the wake fd) */
	LOOP_SIGNAL = 1u << 2, /* a signal arrived: its number in signo */
	LOOP_LINK = 1u << 3,   /* the links fd is readable: check the interfaces */
};

struct loop;

/* Blocks the loop's signals in the calling thread, as loop_new() does: call it before
 * starting a thread that must never take one. 0 or -errno. */
int loop_block_signals(void);

/* Samples every delay seconds; drains every drain seconds, and whenever wake_fd (not
 * owned; -1: none) polls readable, which the drain must then answer (it stays readable
 * until then). NULL with errno set. */
struct loop *loop_new(double delay, double drain, int wake_fd);
void loop_free(struct loop *l);

/* Waits for something to do (timeout_ms, or -1 for no limit), on the loop's fds, the
 * links fd sock (POLLIN) and fds[0..nfds) (POLLIN). Returns LOOP_* bits, 0 on a timeout or
 * EINTR, or -errno; revents[i] is what fds[i] reported. Timer expirations are consumed;
 * one signal is read per call. */
int loop_wait(struct loop *l, int sock, const int *fds, short *revents, int nfds, int timeout_ms,
	      int *signo);

#endif
