#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# rings.sh -- what the rings' size does at the flood rate. flowtop watches the receiving
# end of a veth in batch mode while flood_send pushes 60-byte UDP frames for S seconds,
# once for each --ring-memory given: the frames that found their CPU's ring full and
# took the spill map instead, and the address updates lost to hosts (never to totals).
# R repetitions each; median (min-max).
#
#   bench/rings.sh [SECONDS [REPS [MIB...]]]   default 5 s, 3 repetitions, 32 and 1 MiB
set -u
cd "$(dirname "$0")/.." || exit 2
secs=${1:-5} reps=${2:-3}
shift 2 2>/dev/null
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(32 1)
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
send=$(realpath "$out/bench/flood_send")
. bench/lib.sh
bench_flood

# once MIB: a flood watched with --ring-memory MIB; prints "frames spilled lost"
once() {
	local o=$tmp/$1.jsonl i
	ip netns exec "$nsb" "$flowtop" -i "$ifb" -b --json -d 0.5 --ring-memory "$1" >"$o" &
	mon=$!
	for i in $(seq 100); do grep -q interval "$o" && break; sleep 0.05; done
	ip netns exec "$nsa" "$send" 10.88.0.2 "$secs" >/dev/null
	kill -INT "$mon"
	wait "$mon"
	mon=
	tail -n 1 "$o" | jq -r '"\(.totals.packets) \(.totals.spilled) \(.totals.lost)"'
}
# med FILE COLUMN: median (min-max) of a column of numbers
med() {
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
		printf "%.2f (%.2f-%.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

echo "| --ring-memory | frames | spilled % | lost updates % |"
echo "|---|---|---|---|"
for mib in "${sizes[@]}"; do
	: >"$tmp/r.$mib"
	for _ in $(seq "$reps"); do
		once "$mib" | awk '{ printf "%d %.4f %.4f\n", $1, 100 * $2 / $1, 50 * $3 / $1 }' >>"$tmp/r.$mib"
	done
	echo "| $mib MiB | $(sort -n "$tmp/r.$mib" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }') | $(med "$tmp/r.$mib" 2) | $(med "$tmp/r.$mib" 3) |"
done
