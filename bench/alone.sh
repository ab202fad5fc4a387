#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# alone.sh -- the cost of watching as a user meets it: each watcher alone on the
# receiving veth for a flood of its own (rounds interleaved: empty, seed, flowtop,
# tcpdump, empty, ...), the sender (and with it the receive path) pinned to CPU 0, the
# watcher's process to CPU 1. Per frame: the filter's kernel time (BPF run-time
# statistics), the watcher process's CPU time (its threads' /proc schedstat, in ns: a
# 100 Hz tick is 5 to 10 ns a frame of a 2-million-frame flood), over the frames the
# veth carried, and their sum; against the empty filter, the seed and tcpdump.
#
#   bench/alone.sh [FRAMES [ROUNDS [SOURCES...]]]   default 3,000,000 frames, 3 rounds,
#                                                    256 65536 1048576 sources
#   ENCAP=gre bench/alone.sh ...          the frames in GRE with a key (churn_send --gre):
#                                          the sources counted are the inner ones
#   PAIRS=1 bench/alone.sh ...            SOURCES pairs in turn that differ in their host
#                                          bytes alone (churn_send --pairs): 10.100.x.y to
#                                          10.200.x.y, every fourth IPv6 (fd00:100::i to
#                                          fd00:200::i)
#   SCATTER=1 bench/alone.sh ...          SOURCES new sources in a scattered order to 16
#                                          destinations, every fourth IPv6 (churn_send
#                                          --scatter): a scan or a spoofed flood
#   FLOWTOP_BASE=PATH bench/alone.sh ...  another flowtop build (the commit before a
#                                          change) in the rounds too, and columns for it:
#                                          each build alone, so neither pays for the
#                                          other's first touch of a frame
#   EXPR='tcp port 443' bench/alone.sh ...  flowtop with that filter expression in the
#                                          rounds too (its gate's kernel time: the tail
#                                          call into the count included), and columns
#   PORTS=1 bench/alone.sh ...            flowtop --group port (the program that counts
#                                          ports too) in the rounds, and columns
# Needs root; makes and removes its own namespaces; restores the sysctl.
set -u
cd "$(dirname "$0")/.." || exit 2
frames=${1:-3000000} rounds=${2:-3}
encap=() kind="IPv4 UDP sources"
[ "${ENCAP:-}" = gre ] && encap=(--gre) kind="GRE (key) IPv4 UDP sources"
[ "${PAIRS:-}" = 1 ] && encap=(--pairs) kind="UDP pairs i to i, 1 in 4 IPv6"
[ "${SCATTER:-}" = 1 ] && encap=(--scatter) kind="scattered UDP sources to 16 destinations, 1 in 4 IPv6"
shift 2 2>/dev/null
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=(256 65536 1048576)
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
base=${FLOWTOP_BASE:+$(realpath "$FLOWTOP_BASE")}
expr=${EXPR:-} ports=${PORTS:-}
attach=$(realpath "$out/bench/attach_filter")
send=$(realpath "$out/bench/churn_send")
watcher=
stop_watcher() {
	[ -z "$watcher" ] || { kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null; }
	watcher=
}
. bench/lib.sh
bench_stop=stop_watcher
bench_pair
have_seed=0
bash bench/seed.sh "$out" 2>"$tmp/seed.err" && have_seed=1

# start NAME: the watcher alone on the receiving end, its process on CPU 1; sets watcher
# and prog (its program's id, empty for tcpdump)
start() {
	local id
	case "$1" in
	empty) ip netns exec "$nsb" taskset -c 1 "$attach" "$(realpath "$out/bench/empty.bpf.o")" "$ifb" >"$tmp/id" & ;;
	seed) ip netns exec "$nsb" taskset -c 1 "$attach" "$(realpath "$out/bench/sockex2.bpf.o")" "$ifb" raw >"$tmp/id" & ;;
	flowtop) ip netns exec "$nsb" taskset -c 1 "$flowtop" -i "$ifb" -b -d 1 >/dev/null & ;;
	base) ip netns exec "$nsb" taskset -c 1 "$base" -i "$ifb" -b -d 1 >/dev/null & ;;
	expr) ip netns exec "$nsb" taskset -c 1 "$flowtop" -i "$ifb" -b -d 1 "$expr" >/dev/null & ;;
	ports) ip netns exec "$nsb" taskset -c 1 "$flowtop" -i "$ifb" -b -d 1 --group port >/dev/null & ;;
	tcpdump) ip netns exec "$nsb" taskset -c 1 tcpdump -i "$ifb" -n -w /dev/null 2>/dev/null & ;;
	esac
	watcher=$!
	prog=
	for _ in $(seq 100); do
		case "$1" in
		empty | seed) [ -s "$tmp/id" ] && prog=$(cat "$tmp/id") ;;
		flowtop | base | ports) prog=$(grep -hs '^prog_id:' /proc/"$watcher"/fdinfo/* | awk '{print $2}' | head -n 1) ;;
		expr) # the gate: the program the socket runs (the count runs inside its time)
			for id in $(grep -hs '^prog_id:' /proc/"$watcher"/fdinfo/* | awk '{print $2}'); do
				[ "$(bpftool prog show id "$id" -j | jq -r .name)" = flowtop_gate ] && prog=$id
			done ;;
		tcpdump) [ -e /proc/"$watcher"/fd ] && ls -l /proc/"$watcher"/fd 2>/dev/null | grep -q socket && prog=- ;;
		esac
		[ -n "$prog" ] && break
		sleep 0.1
	done
	rm -f "$tmp/id"
	[ "$prog" = - ] && prog=
	sleep 0.5 # tcpdump and flowtop settle into their loops
}
run_stat() { # ID: "run_cnt run_time_ns"
	[ -n "$1" ] || { echo "0 0"; return; }
	bpftool prog show id "$1" -j | jq -r '"\(.run_cnt // 0) \(.run_time_ns // 0)"'
}
rx() { ip -n "$nsb" -s -j link show "$ifb" | jq '.[0].stats64.rx.packets'; }

# once NAME SOURCES: one flood watched by NAME alone; prints "kernel_ns process_ns"
once() {
	local r0 r1 c0 c1 k0 k1
	start "$1"
	read -r -a k0 < <(run_stat "$prog")
	c0=$(cpu_ns "$watcher") r0=$(rx)
	ip netns exec "$nsa" taskset -c 0 "$send" "${encap[@]}" "$ifa" 0 "$2" $(((frames + $2 - 1) / $2)) >/dev/null
	sleep 1.2 # flowtop's last drain and sample of the flood
	read -r -a k1 < <(run_stat "$prog")
	c1=$(cpu_ns "$watcher") r1=$(rx)
	stop_watcher
	awk -v n=$((r1 - r0)) -v kc=$((k1[0] - k0[0])) -v kn=$((k1[1] - k0[1])) \
		-v c=$((c1 - c0)) 'BEGIN {
		printf "%.1f %.1f\n", kc ? kn / kc : 0, n ? c / n : 0 }'
}
med() { sort -g -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }

names=(empty flowtop tcpdump)
[ "$have_seed" = 1 ] && names=(empty seed flowtop tcpdump)
[ -n "$base" ] && names+=(base)
[ -n "$expr" ] && names+=(expr)
[ -n "$ports" ] && names+=(ports)
echo "| $kind | empty filter ns | seed ns | flowtop kernel ns | flowtop process ns | flowtop kernel + process ns | flowtop kernel / empty | flowtop kernel + process / seed | tcpdump process ns | tcpdump / flowtop, process |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sources[@]}"; do
	for w in "${names[@]}"; do : >"$tmp/$w.$n"; done
	for _ in $(seq "$rounds"); do
		for w in "${names[@]}"; do once "$w" "$n" >>"$tmp/$w.$n"; done
	done
	e=$(med "$tmp/empty.$n" 1) fk=$(med "$tmp/flowtop.$n" 1) fp=$(med "$tmp/flowtop.$n" 2)
	tp=$(med "$tmp/tcpdump.$n" 2) s=-
	[ "$have_seed" = 1 ] && s=$(med "$tmp/seed.$n" 1)
	awk -v n="$n" -v e="$e" -v s="$s" -v fk="$fk" -v fp="$fp" -v tp="$tp" 'BEGIN {
		seed = s == "-" ? "-" : sprintf("%.2fx", (fk + fp) / s)
		printf "| %d | %.1f | %s | %.1f | %.1f | %.1f | **%.2fx** | %s | %.1f | **%.1fx** |\n",
			n, e, s, fk, fp, fk + fp, e ? fk / e : 0, seed, tp, fp ? tp / fp : 0 }'
done
[ "$have_seed" = 1 ] || echo "(no seed column: $(head -n 1 "$tmp/seed.err"))"
if [ -n "$expr" ]; then
	echo
	echo "| $kind | flowtop kernel ns | with '$expr' kernel ns | with / without, kernel | with '$expr' kernel + process ns |"
	echo "|---:|---:|---:|---:|---:|"
	for n in "${sources[@]}"; do
		fk=$(med "$tmp/flowtop.$n" 1) xk=$(med "$tmp/expr.$n" 1) xp=$(med "$tmp/expr.$n" 2)
		awk -v n="$n" -v fk="$fk" -v xk="$xk" -v xp="$xp" 'BEGIN {
			printf "| %d | %.1f | %.1f | %.3fx | %.1f |\n", n, fk, xk, fk ? xk / fk : 0, xk + xp }'
	done
fi
# versus A B LABEL_A LABEL_B: B's rounds against A's, source count by source count
versus() {
	echo
	echo "| $kind | $3 kernel ns | $4 kernel ns | $4 / $3, kernel | $3 process ns | $4 process ns | $4 / $3, kernel + process |"
	echo "|---:|---:|---:|---:|---:|---:|---:|"
	for n in "${sources[@]}"; do
		awk -v n="$n" -v ak="$(med "$tmp/$1.$n" 1)" -v ap="$(med "$tmp/$1.$n" 2)" \
			-v bk="$(med "$tmp/$2.$n" 1)" -v bp="$(med "$tmp/$2.$n" 2)" 'BEGIN {
			printf "| %d | %.1f | %.1f | **%.3fx** | %.1f | %.1f | %.3fx |\n", n, ak, bk,
				ak ? bk / ak : 0, ap, bp, ak + ap ? (bk + bp) / (ak + ap) : 0 }'
	done
}
[ -z "$ports" ] || versus flowtop ports "flowtop" "with ports"
[ -z "$base" ] || versus base flowtop "base" "flowtop"
