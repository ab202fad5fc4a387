#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# any.sh -- what `-i any` costs against one bound interface. The receiving namespace has
# N idle veth pairs besides the flooded one; flowtop watches it once with `-i any` (one
# unbound socket, a slot per interface) and once bound to the flooded interface alone,
# rounds interleaved (any, bound, any, ...). Per frame: the filter's kernel time
# (kernel.bpf_stats_enabled: run_time_ns / run_cnt), and the sender's rate, which
# carries what the filter's time is charged to nobody.
#
#   bench/any.sh [SECONDS [ROUNDS [IDLE]]]   default 3 s, 3 rounds, 100 idle veths
set -u
cd "$(dirname "$0")/.." || exit 2
secs=${1:-3} rounds=${2:-3} idle=${3:-100}
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
send=$(realpath "$out/bench/flood_send")
. bench/lib.sh
bench_flood
for i in $(seq "$idle"); do
	ip -n "$nsb" link add "fbi$i-$sfx" type veth peer name "fbj$i-$sfx" || exit 1
	ip -n "$nsb" link set "fbi$i-$sfx" up && ip -n "$nsb" link set "fbj$i-$sfx" up
done

# once IFACE: one flood watched with -i IFACE; prints "ns_per_frame frames sender_pps"
once() {
	local id r0 r1 pps
	ip netns exec "$nsb" "$flowtop" -i "$1" -b -d 3600 >/dev/null &
	mon=$!
	for _ in $(seq 100); do
		id=$(grep -hs '^prog_id:' /proc/"$mon"/fdinfo/* | awk '{print $2}' | head -n 1)
		[ -n "$id" ] && break
		sleep 0.05
	done
	r0=$(bpftool prog show id "$id" -j | jq -r '"\(.run_cnt // 0) \(.run_time_ns // 0)"')
	pps=$(ip netns exec "$nsa" "$send" 10.88.0.2 "$secs" | awk '$2 > 0 { printf "%d", $1 / $2 }')
	r1=$(bpftool prog show id "$id" -j | jq -r '"\(.run_cnt // 0) \(.run_time_ns // 0)"')
	kill -INT "$mon"
	wait "$mon"
	mon=
	echo "$r0 $r1 ${pps:-0}" | awk '{ c = $3 - $1; printf "%.2f %d %d\n", c ? ($4 - $2) / c : 0, c, $5 }'
}
: >"$tmp/any"
: >"$tmp/bound"
for _ in $(seq "$rounds"); do
	once any >>"$tmp/any"
	once "$ifb" >>"$tmp/bound"
done
med() { # FILE COLUMN: the median
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}
echo "| watching | filter ns/frame, median | frames filtered, median | sender pkt/s, median |"
echo "|---|---:|---:|---:|"
echo "| bound to the flooded veth | $(med "$tmp/bound" 1) | $(med "$tmp/bound" 2) | $(med "$tmp/bound" 3) |"
echo "| \`-i any\`, $idle idle veth pairs beside it | $(med "$tmp/any" 1) | $(med "$tmp/any" 2) | $(med "$tmp/any" 3) |"
awk -v a="$(med "$tmp/any" 1)" -v b="$(med "$tmp/bound" 1)" \
	'BEGIN { printf "\n`-i any` / bound, filter time per frame: **%.2fx**\n", b ? a / b : 0 }'
