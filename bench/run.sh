#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# run.sh -- `make bench`: every benchmark in one go, written to bench/RESULTS.md with the
# date, kernel, CPU and the exact commands. Root; never part of `make check`.
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-.output}
res=bench/RESULTS.md
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	echo "# flowtop benchmark results"
	echo
	echo "Written by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'); kernel"
	echo "$(uname -r), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
	echo "Every ratio is against a reference measured in the same run."
	echo
	echo "## Kernel cost per packet in the real receive path"
	echo
	echo "\`bench/cost.sh 3000\`: 64 flows of each kind replayed 3,000 times across a veth;"
	echo "flowtop's filter and an empty \`return 0\` filter attached the same way to the same"
	echo "receiving interface; \`kernel.bpf_stats_enabled\`, run_time_ns / run_cnt."
	echo
	bench/cost.sh 3000 || exit 1
	echo
	echo "## Watching a flood: flowtop against tcpdump and iftop"
	echo
	echo "\`bench/flood.sh 5 3\`: a sendmmsg sender floods a veth with 60-byte UDP frames for"
	echo "5 s while each contestant watches the receiving end; 3 repetitions."
	echo
	bench/flood.sh 5 3 || exit 1
	echo
	echo "## User-space cost of one sampling interval"
	echo
	echo "\`$out/bench/tick 1000 10000 100000 1000000\`: CPU time per phase, median of 5"
	echo "ticks; RSS growth of the process for that map size."
	echo
	"$out/bench/tick" 1000 10000 100000 1000000 || exit 1
	echo
	echo "## Idle CPU of the interactive screen"
	echo
	echo "\`bench/idle.sh 10000 60\`: the screen under tmux, 10,000 hosts in the map, 1 s delay."
	echo
	bench/idle.sh 10000 60 || exit 1
} >"$tmp" && mv "$tmp" "$res" && cat "$res"
