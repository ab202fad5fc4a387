#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# flood.sh -- the whole-system cost of watching a flood. A sender (flood_send, sendmmsg)
# pushes 60-byte UDP frames across a veth for S seconds to a MAC that is not the
# receiver's, so the receiver's stack drops them after the packet taps and sends
# nothing back. Each contestant watches the receiving end in turn; we record its
# user+sys CPU, the frames it accounted against those the receiver saw (ip -s link), and
# the sender's rate against the run with no monitor, and for the BPF contestants the
# time their filter ran in the kernel (kernel.bpf_stats_enabled), which no process is
# charged for. R repetitions; median (min-max).
#
#   bench/flood.sh [SECONDS [REPS]]      default 5 s, 3 repetitions (root)
set -u
cd "$(dirname "$0")/.." || exit 2
secs=${1:-5} reps=${2:-3}
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
send=$(realpath "$out/bench/flood_send")
attach=$(realpath "$out/bench/attach_filter")
empty=$(realpath "$out/bench/empty.bpf.o")
. bench/lib.sh
bench_flood
a=$nsa b=$nsb ia=$ifa ib=$ifb

# nanoseconds the BPF program held by PID has run, or - when it holds none
bpf_ns() {
	local id
	id=$(grep -hs '^prog_id:' /proc/"$1"/fdinfo/* | awk '{print $2}' | head -n 1)
	[ -n "$id" ] || { echo -; return; }
	bpftool prog show id "$id" -j | jq '.run_time_ns // 0'
}
rx_packets() { ip -n "$b" -s -j link show "$ib" | jq '.[0].stats64.rx.packets'; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
hz=$(getconf CLK_TCK)

# run NAME COMMAND...: one repetition; prints "rate cpu_s accounted received filter_s"
run() {
	local name=$1 c0=0 c1=0 r0 r1 res acc=- b0=- b1=-
	shift
	mon=
	if [ $# -gt 0 ]; then
		ip netns exec "$b" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
		mon=$!
		sleep 1.5
		# iptraf-ng -B forks into the background: watch the daemon instead
		[ "$name" = iptraf-ng ] && mon=$(pgrep -f "^iptraf-ng -i $ib -B" | head -n 1)
		c0=$(cpu_ticks "$mon")
		b0=$(bpf_ns "$mon")
	fi
	r0=$(rx_packets)
	res=$(ip netns exec "$a" "$send" 10.88.0.2 "$secs")
	sleep 0.5
	r1=$(rx_packets)
	if [ -n "$mon" ]; then
		c1=$(cpu_ticks "$mon")
		b1=$(bpf_ns "$mon")
		kill -INT "$mon"
		[ "$name" = iptraf-ng ] && kill -TERM "$mon"
		for _ in $(seq 50); do kill -0 "$mon" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$mon" 2>/dev/null
		wait "$mon" 2>/dev/null
		mon=
	fi
	case "$name" in
	flowtop) acc=$(tail -n 1 "$tmp/$name.out" | jq '.totals.packets') ;;
	tcpdump) acc=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$tmp/$name.err") ;;
	esac
	set -- $res
	awk -v p="$1" -v s="$2" -v c=$((c1 - c0)) -v hz="$hz" -v acc="$acc" -v rx=$((r1 - r0)) \
		-v b0="$b0" -v b1="$b1" 'BEGIN { printf "%.0f %.3f %s %d %s\n", p / s, c / hz, acc, rx,
			b0 == "-" ? "-" : sprintf("%.3f", (b1 - b0) / 1e9) }'
}

# median (min-max) of column COL of FILE
stat() { sort -g -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
	printf "%s (%s-%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'; }

contestants=(none empty flowtop tcpdump iftop)
command -v iptraf-ng >/dev/null && contestants+=(iptraf-ng)
for r in $(seq "$reps"); do
	for name in "${contestants[@]}"; do
		case "$name" in
		none) run none ;;
		empty) run empty "$attach" "$empty" "$ib" ;;
		flowtop) run flowtop "$flowtop" -i "$ib" -b --json -d 60 ;;
		tcpdump) run tcpdump tcpdump -i "$ib" -n -w /dev/null ;;
		iftop) run iftop iftop -i "$ib" -n -N -P -t -s $((secs + 5)) ;;
		iptraf-ng) run iptraf-ng iptraf-ng -i "$ib" -B -L "$tmp/iptraf.log" ;;
		esac >>"$tmp/$name.res"
	done
done

median() { # FILE COL
	awk -v c="$2" '$c != "-" { print $c }' "$1" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}
base_rate=$(median "$tmp/none.res" 1)
tcpdump_cpu=$(median "$tmp/tcpdump.res" 2)
echo "| watching the receiver | sender pkt/s, median (min-max) | vs no monitor | monitor process CPU s | its filter in the kernel, s | process CPU vs tcpdump | frames accounted / received |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for name in "${contestants[@]}"; do
	rate=$(median "$tmp/$name.res" 1)
	cpu=$(median "$tmp/$name.res" 2)
	filt=$(median "$tmp/$name.res" 5)
	acc=$(awk '$3 != "-" { a += $3; r += $4; n++ } END { if (n) printf "%.4f%%", 100 * a / r; else print "n/a" }' "$tmp/$name.res")
	awk -v n="$name" -v rs="$(stat "$tmp/$name.res" 1)" -v cs="$(stat "$tmp/$name.res" 2)" \
		-v rate="$rate" -v base="$base_rate" -v cpu="$cpu" -v t="$tcpdump_cpu" -v acc="$acc" \
		-v filt="$filt" 'BEGIN {
		printf "| %s | %s | %.2fx | %s | %s | %s | %s |\n", n, rs, rate / base, cs, filt,
			(n == "none" ? "-" : cpu <= 0 ? "< 1/" sprintf("%.0f", t / (0.5 / 100)) : cpu >= t ? sprintf("%.1fx", cpu / t) : sprintf("1/%.1f", t / cpu)), acc }'
done
echo
echo "Each run: $secs s of 60-byte UDP frames, $reps repetitions; CPU from /proc/PID/stat"
echo "(clock ticks of $hz Hz: \"< 1/N\" means the process used less than half a tick). A"
echo "filter's kernel time is charged to no process: it shows in the sender's rate."
