#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# cost.sh -- kernel cost per packet of flowtop's filter in the real receive path, next to
# an empty `return 0` filter and the 2014 seed program (sockex2, when ../shared/seeds is
# there), all attached the same way to the same interface at once and measured on the
# same frames in the same run (kernel.bpf_stats_enabled: run_time_ns / run_cnt):
# per traffic kind of bench/mkpcap.py, then IPv4 UDP from 256, 65,536 and 1,048,576
# distinct sources (bench/churn_send); plus the program's instruction counts.
#
#   bench/cost.sh [LOOPS [FRAMES]]  LOOPS replays of 64 frames per kind (default 3000);
#                                   FRAMES per address count (default 3000000)
#   FLOWTOP_BASE=PATH bench/cost.sh another flowtop binary (a build of the commit before a
#                                   change, say) attached beside them: a column more
# Needs root; creates and removes its own namespaces; restores the sysctl.
set -u
cd "$(dirname "$0")/.." || exit 2
loops=${1:-3000}
frames=${2:-3000000}
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
attach=$(realpath "$out/bench/attach_filter")
send=$(realpath "$out/bench/churn_send")
pids=()
stop_filters() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
}
. bench/lib.sh
bench_stop=stop_filters
bench_pair
python3 bench/mkpcap.py "$tmp"

# attach_ref OBJECT [raw]: a reference filter on the receiving end; its program id in
# ref_id. Not in a $(...): its PID must reach this shell's list, to be ended on exit
attach_ref() {
	ip netns exec "$nsb" "$attach" "$1" "$ifb" ${2:-} >"$tmp/ref.id" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/ref.id" ] && break; sleep 0.1; done
	ref_id=$(cat "$tmp/ref.id")
	rm -f "$tmp/ref.id"
}
ip netns exec "$nsb" "$flowtop" -i "$ifb" -b -d 3600 >/dev/null &
pids+=($!)
ft_pid=$!
attach_ref "$(realpath "$out/bench/empty.bpf.o")"
empty_id=$ref_id
seed_id=
if bash bench/seed.sh "$out" 2>"$tmp/seed.err"; then
	# its loads are written against the Ethernet header: a SOCK_RAW socket, as sockex2_user.c
	attach_ref "$(realpath "$out/bench/sockex2.bpf.o")" raw
	seed_id=$ref_id
fi
# prog_of PID: the program a flowtop holds: its fdinfo names the id of every BPF prog fd
prog_of() {
	local id
	for _ in $(seq 100); do
		id=$(grep -hs '^prog_id:' /proc/"$1"/fdinfo/* | awk '{print $2}' | head -n 1)
		[ -n "$id" ] && break
		sleep 0.1
	done
	echo "$id"
}
ft_id=$(prog_of "$ft_pid")
base_id=
if [ -n "${FLOWTOP_BASE:-}" ]; then
	ip netns exec "$nsb" "$(realpath "$FLOWTOP_BASE")" -i "$ifb" -b -d 3600 >/dev/null &
	pids+=($!)
	base_id=$(prog_of $!)
fi
[ -n "$empty_id" ] && [ -n "$ft_id" ] || { echo "cost.sh: filters not attached" >&2; exit 1; }

stat() { # ID: "run_cnt run_time_ns"
	[ -n "$1" ] || { echo "0 0"; return; }
	bpftool prog show id "$1" -j | jq -r '"\(.run_cnt // 0) \(.run_time_ns // 0)"'
}
# measure NAME COMMAND...: runs the traffic, prints one table row
measure() {
	local name=$1 e0 e1 f0 f1 s0 s1 b0 b1
	shift
	read -r -a e0 < <(stat "$empty_id")
	read -r -a f0 < <(stat "$ft_id")
	read -r -a s0 < <(stat "$seed_id")
	read -r -a b0 < <(stat "$base_id")
	"$@" >/dev/null 2>&1
	sleep 0.3
	read -r -a e1 < <(stat "$empty_id")
	read -r -a f1 < <(stat "$ft_id")
	read -r -a s1 < <(stat "$seed_id")
	read -r -a b1 < <(stat "$base_id")
	awk -v k="$name" -v ec=$((e1[0] - e0[0])) -v en=$((e1[1] - e0[1])) \
		-v fc=$((f1[0] - f0[0])) -v fn=$((f1[1] - f0[1])) \
		-v sc=$((s1[0] - s0[0])) -v sn=$((s1[1] - s0[1])) \
		-v bc=$((b1[0] - b0[0])) -v bn=$((b1[1] - b0[1])) -v base="$base_id" 'BEGIN {
		e = ec ? en / ec : 0; f = fc ? fn / fc : 0; s = sc ? sn / sc : 0; b = bc ? bn / bc : 0
		seed = sc ? sprintf("%.1f | %.2fx", s, e ? s / e : 0) : "- | -"
		more = base == "" ? "" : sprintf(" %.1f | %.3fx |", b, b ? f / b : 0)
		printf "| %s | %d | %.1f | %.1f | **%.2fx** | %s |%s\n", k, fc, e, f, e ? f / e : 0, seed, more }'
}
hdr="| empty filter ns/pkt | flowtop ns/pkt | flowtop / empty | seed sockex2 ns/pkt | seed / empty |"
rule="|---|---:|---:|---:|---:|---:|---:|"
[ -z "$base_id" ] || { hdr="$hdr base flowtop ns/pkt | flowtop / base |"; rule="$rule---:|---:|"; }
echo "| traffic | frames $hdr"
echo "$rule"
for kind in ipv4-udp-64 ipv4-tcp-1500 ipv6-udp qinq-ipv4 gre-key-ipv4; do
	measure "$kind" ip netns exec "$nsa" tcpreplay -q --topspeed --loop="$loops" \
		--intf1="$ifa" "$tmp/$kind.pcap"
done
echo
echo "| IPv4 UDP, distinct sources | frames $hdr"
echo "$rule"
for n in 256 65536 1048576; do
	measure "$n" ip netns exec "$nsa" "$send" "$ifa" 0 "$n" $(((frames + n - 1) / n))
done
[ -n "$seed_id" ] || echo "(no seed column: $(head -n 1 "$tmp/seed.err"))"
echo
"$out/bench/testrun_cost" "$out/bench/empty.bpf.o" 200000 "$tmp"/ipv4-udp-64.pcap \
	"$tmp"/ipv4-tcp-1500.pcap "$tmp"/ipv6-udp.pcap "$tmp"/qinq-ipv4.pcap "$tmp"/gre-key-ipv4.pcap
bpftool prog show id "$ft_id" -j | jq -r '"\nflowtop_count: \(.bytes_xlated / 8) xlated instructions (\(.bytes_xlated) B), \(.bytes_jited) B jited"'
[ -z "$seed_id" ] || bpftool prog show id "$seed_id" -j | jq -r '"sockex2 (seed): \(.bytes_xlated / 8) xlated instructions, \(.bytes_jited) B jited"'
