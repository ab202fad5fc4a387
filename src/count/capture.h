/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* capture.h: the counting engine the run (run.h) drives: one loaded program, attached to
 * the watched interfaces (one, a list, or all), sampled on demand. */
#ifndef FLOWTOP_CAPTURE_H
#define FLOWTOP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "convo.h"
#include "hosttab.h"
#include "iface.h"
#include "totals.h"

struct capture;

/* Loads the program, its rings in ring_bytes (see bpf_load_ring_slots()); the host
 * table holds at most max_hosts, and so does the table of port rows, made when ports
 * are counted (capture_ports()). NULL on failure, reason in err; errno EOPNOTSUPP when
 * the kernel cannot run the program (see bpf_load()). */
struct capture *capture_new(unsigned max_hosts, size_t ring_bytes, bool ports, bool verbose,
			    char *err, size_t errlen);
void capture_free(struct capture *c);

/* Interfaces listed under any at once: each with its name and its link header's length
 * in the filter's table, FLOWTOP_MAX_SLOTS - 1 of them with counters of their own (the
 * rest count as "other interfaces"). A gone one leaves the list when its slot or its
 * place is needed. */
#define CAPTURE_ANY_MAX 1024

/* Moves the loaded program to ifaces: one interface, a list "eth0,wg0" (a bound socket
 * each), or "any" (one unbound socket: every interface, those that come later too).
 * The new sockets are prepared and bound, then the old ones closed and the counters
 * emptied. When one cannot be opened or bound, the current interfaces stay attached,
 * their counters untouched, and err says why. 0 or -errno. */
int capture_attach(struct capture *c, const struct iface_names *ifaces, char *err, size_t errlen);

/* Counts only the frames that match text (pcap-filter(7); NULL or "": every frame), in
 * the kernel (src/expr/gate.h), the others in the `filtered` counters alone: when watching,
 * anew at once (the interfaces attached again, counters started over), else from the
 * first capture_attach(). -errno, the reason in err, for an expression libpcap or the
 * kernel refuses or an interface whose kind of link it cannot judge ("ether host" on
 * a tun); the one before stays in force then. */
int capture_set_expression(struct capture *c, const char *text, char *err, size_t errlen);
/* The expression in force, or NULL. */
const char *capture_expression(const struct capture *c);

/* For a capture file (name: its path) instead of interfaces: no socket; the frames come
 * through capture_feed(), with a link header of hlen bytes. 0 or -errno. */
#define CAPTURE_FILE_IFINDEX 1 /* BPF_PROG_TEST_RUN's frames come on loopback's index */
int capture_attach_file(struct capture *c, const char *name, unsigned hlen, char *err,
			size_t errlen);
/* Hands the filter one frame of the file (as bpf_load_run_frame() takes it), which
 * may wait in a batch until capture_flush() (src/count/filefeed.h). 0 or -errno. */
int capture_feed(struct capture *c, const void *frame, size_t len, uint32_t extra);
/* A frame of the file the filter expression rejected (pcapfile_set_expression()), of
 * wire_len bytes: counted in `filtered` alone. */
void capture_feed_filtered(struct capture *c, uint32_t wire_len);
/* Runs the frames fed and waiting: call it before the counts are read. 0 or -errno. */
int capture_flush(struct capture *c);

/* Reads the kernel's counters; interval is the time since the previous sample. */
int capture_sample(struct capture *c, double interval);

/* Empties the rings into the host table; call it every CAPTURE_DRAIN_SECONDS and
 * whenever capture_wake_fd() polls readable (the filter found a ring a quarter full),
 * so the rings never fill (frames then take the slower spill map). */
uint64_t capture_drain(struct capture *c);
int capture_wake_fd(const struct capture *c);
#define CAPTURE_DRAIN_SECONDS 0.25

/* Feeds the frames counted from now on to conv too (NULL: stop); see convo.h. Not
 * owned; attaching to another interface stops it. */
void capture_set_convo(struct capture *c, struct convo *conv);

/* Follows the watched interfaces: what happened since the last call is said in msg
 * ("interface wg0 disappeared; interface veth9 appeared", empty for nothing). A listed
 * interface is gone once its name no longer names its index here (removed, renamed,
 * moved to another namespace); its counts stay. Returns -ENODEV when every listed one
 * is gone, else 0 (under any, always 0). */
int capture_link_event(struct capture *c, char *msg, size_t len);

/* Turns on the kernel's run-time statistics of BPF programs while flowtop runs
 * (BPF_ENABLE_STATS; CAP_SYS_ADMIN). 0 or -errno. */
int capture_enable_stats(struct capture *c);

/* What the socket filter cost since the previous call, by the kernel's BPF statistics,
 * which time the program a socket runs: flowtop_count, or with a filter expression its
 * gate, whose time includes the expression's judge and the count (tail calls, which the
 * kernel does not time apart). */
struct capture_cost {
	bool known;	 /* the statistics are on */
	bool expression; /* an expression is in force: the time is the gate's, count included */
	uint64_t frames; /* runs since the previous call */
	double ns;	 /* their average time, when frames > 0 */
};

struct capture_cost capture_cost(struct capture *c);

/* The socket filter's cumulative runs and run time (the kernel's BPF statistics,
 * switched on by capture_enable_stats()): flowtop_count's and the gate's, each frame
 * counted once. 0, or -ENODATA when they are off. */
int capture_filter_runs(struct capture *c, uint64_t *runs, uint64_t *run_ns);

/* An fd to poll for POLLIN: something happened to the watched interfaces (call
 * capture_link_event()). */
int capture_fd(const struct capture *c);
/* The interfaces as asked: "eth0", "eth0,wg0" or "any". */
const char *capture_name(const struct capture *c);
/* The frames of a capture file a CPU's ring holds for sure: fed between two drains,
 * no more than this spill nothing, each an IPv6 record of its own though it be. */
unsigned capture_file_room(const struct capture *c);
/* How many times counting started over (an attach, a switch): it changes with every
 * start over and only then, whatever the names watched. */
unsigned capture_generation(const struct capture *c);
bool capture_any(const struct capture *c);
/* Whether more than one interface is watched (a list, or any): then hosts say where they
 * were seen, and the outputs name the interfaces row by row. */
bool capture_several(const struct capture *c);
/* Whether any watched interface is up (always under any). */
bool capture_up(const struct capture *c);
/* The watched interfaces, gone ones included, in the order listed or seen. */
const struct iface_watch *capture_links(const struct capture *c, size_t *n);
struct hosttab *capture_hosts(const struct capture *c);
/* The port rows (flow_key_port() keys), when the program counts ports; else NULL. */
struct hosttab *capture_ports(const struct capture *c);
const struct flow_totals *capture_totals(const struct capture *c);

#endif
