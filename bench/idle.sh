#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# idle.sh -- CPU of the interactive flowtop (its screen under a private tmux server) with
# N hosts in its table (one frame from each, sent by churn_send) and then no traffic:
# user+sys seconds per second over S seconds, from /proc/PID/stat.
#
#   bench/idle.sh [N [S]]     default 10000 hosts, 60 s (root)
set -u
cd "$(dirname "$0")/.." || exit 2
n=${1:-10000} secs=${2:-60}
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
sfx=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
ns=fti-$sfx sock=fti-$sfx
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ip netns add "$ns" || exit 1
ip -n "$ns" link add "fia-$sfx" type veth peer name "fib-$sfx"
ip -n "$ns" link set "fia-$sfx" up
ip -n "$ns" link set "fib-$sfx" up
tmux -L "$sock" new-session -d -s idle -x 120 -y 40 \
	"ip netns exec $ns $flowtop -i fia-$sfx -N -m $((n * 2))"
for _ in $(seq 50); do
	pid=$(pgrep -f "^$flowtop -i fia-$sfx" | head -n 1)
	[ -n "$pid" ] && grep -qs '^prog_id' /proc/"$pid"/fdinfo/* && break # maps first, then the program
	sleep 0.1
done
ip netns exec "$ns" "$out/bench/churn_send" "fib-$sfx" 0 "$n" >/dev/null || exit 1
sleep 2
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
t0=$(ticks "$pid")
sleep "$secs"
t1=$(ticks "$pid")
hz=$(getconf CLK_TCK)
awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$secs" -v n="$n" 'BEGIN {
	printf "interactive flowtop, %d hosts, no traffic: %.2f%% of one CPU (user+sys %.2f s in %d s)\n",
		n, 100 * d / hz / s, d / hz, s }'
