#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# profile.sh -- where flowtop's filter spends its time, by source line: flowtop watches
# the receiving veth of a flood from SOURCES IPv4 UDP sources in turn (churn_send, which
# with the receive path runs on CPU 0; flowtop's process on CPU 1), perf samples CPU 0
# for SECONDS, and jit_lines puts each sample that fell in the filter on its source line
# (Debian's perf cannot annotate BPF itself). Not part of `make bench`.
#
#   bench/profile.sh [SOURCES [SECONDS [LINES]]]   default 256 sources, 5 s, 30 lines
#
# Needs root and perf (linux-perf); makes and removes its own namespaces.
set -u
cd "$(dirname "$0")/.." || exit 2
sources=${1:-256} seconds=${2:-5} show=${3:-30}
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
send=$(realpath "$out/bench/churn_send")
lines=$(realpath "$out/bench/jit_lines")
command -v perf >/dev/null || { echo "profile.sh: needs perf (apt install linux-perf)" >&2; exit 2; }
watcher= sender=
stop_all() {
	local p
	for p in $sender $watcher; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	return 0
}
. bench/lib.sh
bench_stop=stop_all
bench_pair

ip netns exec "$nsb" taskset -c 1 "$flowtop" -i "$ifb" -b -d 1 >/dev/null &
watcher=$!
prog=
for _ in $(seq 100); do # its program, once it is attached (10 s at most)
	prog=$(grep -hs '^prog_id:' /proc/"$watcher"/fdinfo/* | awk '{ print $2 }' | head -n 1)
	[ -n "$prog" ] && break
	kill -0 "$watcher" 2>/dev/null || break
	sleep 0.1
done
[ -n "$prog" ] || { echo "profile.sh: flowtop attached no program" >&2; exit 1; }
# more frames than the sampling takes; stopped when it is over
ip netns exec "$nsa" taskset -c 0 "$send" "$ifa" 0 "$sources" $((100000000 / sources)) >/dev/null &
sender=$!
for _ in $(seq 100); do # the flood under way: the program has run (10 s at most)
	[ "$(bpftool prog show id "$prog" -j | jq -r '.run_cnt // 0')" -gt 100000 ] && break
	sleep 0.1
done
perf record -q -F 20000 -C 0 -o "$tmp/perf.data" -- sleep "$seconds" 2>/dev/null ||
	{ echo "profile.sh: perf record failed" >&2; exit 1; }
echo "flowtop's filter (program $prog) at $sources sources in turn, CPU 0 sampled $seconds s at 20 kHz:"
perf script -i "$tmp/perf.data" -F ip 2>/dev/null | "$lines" "$prog" "$show"
