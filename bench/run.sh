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
status=0
# run CMD...: a benchmark's table; a failure is written down and the others still run
run() {
	"$@" 2>"$tmp.err" || {
		status=1
		echo "**failed** (\`$*\`): $(tail -n 3 "$tmp.err" | tr '\n' ' ')"
	}
	rm -f "$tmp.err"
}
{
	echo "# flowtop benchmark results"
	echo
	echo "Written by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC') at"
	echo "$(git rev-parse --short HEAD 2>/dev/null || echo "a tree outside git"); kernel"
	echo "$(uname -r), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
	echo "Every ratio is against a reference measured in the same run."
	echo
	echo "## Kernel cost per packet in the real receive path"
	echo
	echo "\`bench/cost.sh 3000 3000000\`: 64 flows of each kind replayed 3,000 times across a"
	echo "veth, then 3,000,000 IPv4 UDP frames from 256, 65,536 and 1,048,576 distinct sources;"
	echo "flowtop's filter, an empty \`return 0\` filter and the 2014 seed program sockex2 (built"
	echo "from ../shared/seeds, on a SOCK_RAW socket as it was written for) attached to the same"
	echo "receiving interface at once; \`kernel.bpf_stats_enabled\`, run_time_ns / run_cnt. The"
	echo "seed counts only by destination, in a 1,024-entry hash, and follows fewer headers."
	echo
	run bench/cost.sh 3000 3000000
	echo
	echo "## The cost of watching, each watcher alone"
	echo
	echo "\`PORTS=1 bench/alone.sh 3000000 3\`: each watcher alone on the receiving veth for a"
	echo "flood of its own (rounds interleaved), the sender and the receive path on CPU 0, the"
	echo "watcher's process on CPU 1: the filter's kernel time per frame, the process's CPU time"
	echo "per frame, and their sum, against the empty filter, the seed and tcpdump's process;"
	echo "then flowtop --group port (the program that counts ports too) against flowtop."
	echo
	PORTS=1 run bench/alone.sh 3000000 3
	echo
	echo "\`ENCAP=gre bench/alone.sh 3000000 3 65536\`: the same, each frame carried in GRE with a"
	echo "key (70 bytes on the wire; the sources that differ are the inner ones)."
	echo
	ENCAP=gre run bench/alone.sh 3000000 3 65536
	echo
	echo "\`PAIRS=1 bench/alone.sh 3000000 3 256\`: the same, 256 pairs in turn that differ in"
	echo "their host bytes alone, 10.100.0.i to 10.200.0.i, every fourth IPv6 (fd00:100::i to"
	echo "fd00:200::i, 80 bytes on the wire): the pairs a hash of the addresses must spread."
	echo
	PAIRS=1 run bench/alone.sh 3000000 3 256
	echo
	echo "\`SCATTER=1 bench/alone.sh 3000000 3 65536 1048576\`: the same, new sources in a"
	echo "scattered order (as a scan or a spoofed flood sends them) to 16 destinations, every"
	echo "fourth IPv6: each source sends once a round; in a full table they wait at its door."
	echo
	SCATTER=1 run bench/alone.sh 3000000 3 65536 1048576
	echo
	echo "## \`-i any\` against one bound interface"
	echo
	echo "\`bench/any.sh 3 3 100\`: the flood of flood.sh watched with \`-i any\` in a namespace"
	echo "with 100 idle veth pairs beside the flooded one, and bound to the flooded veth alone;"
	echo "3 rounds of 3 s each, interleaved; the filter's kernel time per frame."
	echo
	run bench/any.sh 3 3 100
	echo
	echo "## Reading a capture file"
	echo
	echo "\`bench/read.sh 1000000 3\`: a capture of 1,000,000 64-byte IPv4 UDP frames read by"
	echo "\`flowtop -r FILE -b\` and by \`tshark -q -z endpoints,ip\`, 3 rounds interleaved."
	echo
	run bench/read.sh 1000000 3
	echo
	echo "## Watching a flood: flowtop against tcpdump and iftop"
	echo
	echo "\`bench/flood.sh 5 3\`: a sendmmsg sender floods a veth with 60-byte UDP frames for"
	echo "5 s while each contestant watches the receiving end; 3 repetitions."
	echo
	run bench/flood.sh 5 3
	echo
	echo "## User-space cost of one sampling interval"
	echo
	echo "\`$out/bench/tick 1000 10000 100000 1000000\`: N hosts each sending one frame in the"
	echo "interval: folding the ring records in, closing the sample, the view (a sort key per"
	echo "host, the rows shown picked as they pass, and built), drawing; then an interval with"
	echo "no traffic. CPU time per phase, median of 5 ticks; resident memory per host. Then a"
	echo "flood of new sources into a full table of the default -m 65536 (each sending once:"
	echo "it waits at the table's door and leaves from it), drained 20,000 records at a time:"
	echo "CPU time per record. Then a table of -m 1000000 filling up from empty with as many"
	echo "new sources, 20,000 a drain, a sample closed every 200,000: the longest drain, the"
	echo "median one and the longest close, wall time (the pages the table takes are faulted"
	echo "in then). Then a sample's group build by AS while 65,536 new public sources arrive,"
	echo "their location look-ups made in place (as a capture file's) and aside by the worker"
	echo "(live): wall time the sample waits, median of 3, and when the worker's last answer"
	echo "is in."
	echo
	run "$out/bench/tick" 1000 10000 100000 1000000
	echo
	echo "## The screen under address churn"
	echo
	echo "\`bench/churn.sh 3\`: a flood of 3 million distinct sources (1 million at a time,"
	echo "bench/churn_send, as fast as it sends) through the screen at the default -m 65536;"
	echo "then -m 1100000 with a million hosts all sending every second."
	echo
	run bench/churn.sh 3
	echo
	echo "## Ring size at the flood rate"
	echo
	echo "\`bench/rings.sh 5 3 32 1\`: flowtop in batch mode watching the flood of flood.sh with the"
	echo "rings' default 32 MiB (the largest ring, 131,072 16-byte slots a CPU, up to 16 CPUs)"
	echo "and with 1 MiB (on 2 CPUs 32,768 slots each; an IPv4 record takes one): frames that"
	echo "found their ring full and took the spill map, and address updates lost to hosts"
	echo "(never to the totals)."
	echo
	run bench/rings.sh 5 3 32 1
	echo
	echo "## Idle CPU of the interactive screen"
	echo
	echo "\`bench/idle.sh 10000 60\`: the screen under tmux, 10,000 hosts in the table, 1 s delay."
	echo
	run bench/idle.sh 10000 60
	echo
	echo "## The screen with the Prometheus exporter"
	echo
	echo "\`bench/exporter.sh 100000 10\`: the screen under tmux with 100,000 hosts each sending once a"
	echo "second, alone and then with \`--listen\` and /metrics scraped every second, in the same run."
	echo
	run bench/exporter.sh 100000 10
} >"$tmp"
mv "$tmp" "$res" && cat "$res"
exit "$status"
