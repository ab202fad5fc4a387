// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* loop.c: two timerfds, a signalfd and the wake fd in one poll(2) with the caller's
 * fds. */
#include "loop.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

struct loop {
	int sample_fd, drain_fd, signal_fd;
	int wake_fd; /* the caller's */
};

static int make_timer(double seconds)
{
	struct itimerspec its;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	if (fd < 0)
		return -1;
	its.it_interval.tv_sec = (time_t)seconds;
	its.it_interval.tv_nsec = (long)((seconds - floor(seconds)) * 1e9);
	its.it_value = its.it_interval;
	if (timerfd_settime(fd, 0, &its, NULL)) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static void loop_signal_set(sigset_t *mask)
{
	sigemptyset(mask);
	sigaddset(mask, SIGINT);
	sigaddset(mask, SIGTERM);
	sigaddset(mask, SIGHUP);
	sigaddset(mask, SIGUSR1);
}

int loop_block_signals(void)
{
	sigset_t mask;

	loop_signal_set(&mask);
	signal(SIGPIPE, SIG_IGN); /* a closed stdout is an EPIPE to handle, not a death */
	return sigprocmask(SIG_BLOCK, &mask, NULL) ? -errno : 0;
}

struct loop *loop_new(double delay, double drain, int wake_fd)
{
	struct loop *l = calloc(1, sizeof(*l));
	sigset_t mask;

	if (!l)
		return NULL;
	l->wake_fd = wake_fd;
	loop_signal_set(&mask);
	l->sample_fd = make_timer(delay);
	l->drain_fd = make_timer(drain < delay ? drain : delay);
	l->signal_fd = loop_block_signals() ? -1 : signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (l->sample_fd < 0 || l->drain_fd < 0 || l->signal_fd < 0) {
		int err = errno;

		loop_free(l);
		errno = err;
		return NULL;
	}
	return l;
}

void loop_free(struct loop *l)
{
	if (!l)
		return;
	if (l->sample_fd >= 0)
		close(l->sample_fd);
	if (l->drain_fd >= 0)
		close(l->drain_fd);
	if (l->signal_fd >= 0)
		close(l->signal_fd);
	free(l);
}

#define LOOP_OWN_FDS 5 /* the timers, the signalfd, the capture's fd, the wake fd */

static bool expired(int fd)
{
	uint64_t ticks;

	return read(fd, &ticks, sizeof(ticks)) == sizeof(ticks);
}

int loop_wait(struct loop *l, int sock, const int *fds, short *revents, int nfds, int timeout_ms,
	      int *signo)
{
	struct pollfd pfd[LOOP_OWN_FDS + LOOP_MAX_FDS] = {
		{ .fd = l->sample_fd, .events = POLLIN }, { .fd = l->drain_fd, .events = POLLIN },
		{ .fd = l->signal_fd, .events = POLLIN }, { .fd = sock, .events = POLLIN },
		{ .fd = l->wake_fd, .events = POLLIN },
	};
	int n, i, events = 0;

	for (i = 0; i < nfds && i < LOOP_MAX_FDS; i++)
		pfd[LOOP_OWN_FDS + i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	n = poll(pfd, (nfds_t)(LOOP_OWN_FDS + i), timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < nfds && i < LOOP_MAX_FDS; i++)
		revents[i] = pfd[LOOP_OWN_FDS + i].revents;
	if (pfd[0].revents & POLLIN && expired(l->sample_fd))
		events |= LOOP_SAMPLE;
	if (pfd[1].revents & POLLIN && expired(l->drain_fd))
		events |= LOOP_DRAIN;
	if (pfd[4].revents & POLLIN) /* answered by the drain, which takes the notices */
		events |= LOOP_DRAIN;
	if (pfd[2].revents & POLLIN) {
		struct signalfd_siginfo si;

		if (read(l->signal_fd, &si, sizeof(si)) == sizeof(si)) {
			*signo = (int)si.ssi_signo;
			events |= LOOP_SIGNAL;
		}
	}
	if (pfd[3].revents & (POLLIN | POLLERR | POLLHUP | POLLNVAL))
		events |= LOOP_LINK;
	return events;
}
