#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# cost.sh -- kernel cost per packet of flowtop's filter in the real receive path, next to
# an empty `return 0` filter attached the same way to the same interface, measured on the
# same frames in the same run (kernel.bpf_stats_enabled: run_time_ns / run_cnt), for
# each traffic kind of bench/mkpcap.py; plus the program's instruction counts.
#
#   bench/cost.sh [LOOPS]     LOOPS replays of 64 frames per kind (default 3000)
# Needs root; creates and removes its own namespaces; restores the sysctl.
set -u
cd "$(dirname "$0")/.." || exit 2
loops=${1:-3000}
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
attach=$(realpath "$out/bench/attach_filter")
empty=$(realpath "$out/bench/empty.bpf.o")
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

ip netns exec "$nsb" "$flowtop" -i "$ifb" -b -d 3600 >/dev/null &
pids+=($!)
ft_pid=$!
ip netns exec "$nsb" "$attach" "$empty" "$ifb" >"$tmp/empty.id" &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/empty.id" ] && break; sleep 0.1; done
empty_id=$(cat "$tmp/empty.id")
# the program flowtop holds: its fdinfo names the id of every BPF program fd
for _ in $(seq 100); do
	ft_id=$(grep -hs '^prog_id:' /proc/"$ft_pid"/fdinfo/* | awk '{print $2}' | head -n 1)
	[ -n "$ft_id" ] && break
	sleep 0.1
done
[ -n "$empty_id" ] && [ -n "$ft_id" ] || { echo "cost.sh: filters not attached" >&2; exit 1; }

stat() { bpftool prog show id "$1" -j | jq -r '"\(.run_cnt // 0) \(.run_time_ns // 0)"'; }
echo "| traffic | frames | empty filter ns/pkt | flowtop ns/pkt | ratio |"
echo "|---|---:|---:|---:|---:|"
for kind in ipv4-udp-64 ipv4-tcp-1500 ipv6-udp qinq-ipv4 gre-key-ipv4; do
	read -r e_cnt0 e_ns0 < <(stat "$empty_id")
	read -r f_cnt0 f_ns0 < <(stat "$ft_id")
	ip netns exec "$nsa" tcpreplay -q --topspeed --loop="$loops" --intf1="$ifa" \
		"$tmp/$kind.pcap" >/dev/null 2>&1
	sleep 0.2
	read -r e_cnt1 e_ns1 < <(stat "$empty_id")
	read -r f_cnt1 f_ns1 < <(stat "$ft_id")
	awk -v k="$kind" -v ec=$((e_cnt1 - e_cnt0)) -v en=$((e_ns1 - e_ns0)) \
		-v fc=$((f_cnt1 - f_cnt0)) -v fn=$((f_ns1 - f_ns0)) 'BEGIN {
		e = ec ? en / ec : 0; f = fc ? fn / fc : 0
		printf "| %s | %d | %.1f | %.1f | %.2fx |\n", k, fc, e, f, e ? f / e : 0 }'
done
echo
"$out/bench/testrun_cost" "$empty" 200000 "$tmp"/ipv4-udp-64.pcap "$tmp"/ipv4-tcp-1500.pcap \
	"$tmp"/ipv6-udp.pcap "$tmp"/qinq-ipv4.pcap "$tmp"/gre-key-ipv4.pcap
bpftool prog show id "$ft_id" -j | jq -r '"\nflowtop_count: \(.bytes_xlated / 8) xlated instructions (\(.bytes_xlated) B), \(.bytes_jited) B jited"'
