#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# exporter.sh -- CPU of the interactive flowtop (under a private tmux server) with N
# hosts each sending once a second (churn_send), alone, then with --listen and /metrics
# scraped every second, in the same run: user+sys seconds per second over S seconds.
#
#   bench/exporter.sh [N [S]]     default 100000 hosts, 10 s (root)
set -u
cd "$(dirname "$0")/.." || exit 2
n=${1:-100000} secs=${2:-10}
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
sfx=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
ns=ftx-$sfx sock=ftx-$sfx port=9562
spid= cpid=
cleanup() {
	local p
	for p in $spid $cpid; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	tmux -L "$sock" kill-server 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
command -v curl >/dev/null || { echo "exporter.sh: curl is not installed" >&2; exit 1; }
ip netns add "$ns" || exit 1
ip -n "$ns" link set lo up
ip -n "$ns" link add "fxa-$sfx" type veth peer name "fxb-$sfx"
ip -n "$ns" link set "fxa-$sfx" up
ip -n "$ns" link set "fxb-$sfx" up
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# cpu ARGS...: the screen's CPU in % of one CPU, with flowtop ARGS; scraped with --listen
cpu() {
	local pid t0 t1 i
	tmux -L "$sock" new-session -d -s x -x 120 -y 40 \
		"ip netns exec $ns $flowtop -i fxa-$sfx -N -m $((n * 2)) $*"
	for _ in $(seq 50); do
		pid=$(pgrep -f "^$flowtop -i fxa-$sfx" | head -n 1)
		[ -n "$pid" ] && grep -qs '^prog_id' /proc/"$pid"/fdinfo/* && break
		sleep 0.1
	done
	[ -n "$pid" ] || { echo "exporter.sh: flowtop did not start" >&2; exit 1; }
	ip netns exec "$ns" "$out/bench/churn_send" "fxb-$sfx" 0 "$n" >/dev/null || exit 1
	ip netns exec "$ns" "$out/bench/churn_send" "fxb-$sfx" 0 "$n" $((secs + 4)) "$n" >/dev/null &
	spid=$!
	if [[ "$*" == *--listen* ]]; then
		( for i in $(seq $((secs + 4))); do
			ip netns exec "$ns" curl -s --max-time 2 "http://127.0.0.1:$port/metrics" >/dev/null
			sleep 1
		done ) &
		cpid=$!
	fi
	sleep 2
	t0=$(ticks "$pid")
	sleep "$secs"
	t1=$(ticks "$pid")
	kill $spid $cpid 2>/dev/null
	wait $spid $cpid 2>/dev/null
	spid= cpid=
	tmux -L "$sock" kill-server 2>/dev/null
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$secs" 'BEGIN { printf "%.1f", 100 * d / hz / s }'
}

alone=$(cpu)
served=$(cpu --listen "127.0.0.1:$port")
echo "| $n hosts, each sending once a second | screen CPU, % of one CPU |"
echo "|---|---:|"
echo "| the screen alone | $alone |"
echo "| the screen with --listen, scraped every second | $served |"
echo
awk -v a="$alone" -v s="$served" 'BEGIN {
	if (a > 0) printf "With the exporter scraped every second the screen uses %.2fx the CPU it uses alone.\n", s / a }'
