#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_expr.sh -- a filter expression on a capture file (`flowtop -r FILE EXPR`, tcpdump's
# syntax, compiled by libpcap): every corpus capture keeps exactly the frames `tcpdump -r
# FILE EXPR` keeps, host for host, the others counted in `filtered` alone; what the
# corpus' own tool (tshark) decides for the kept frames; every output says the
# expression; a bad expression exits 2 with libpcap's reason.
. "$(dirname "$0")/lib.sh"
need_root 14
need_file "$CORPUS/pcap/SUMMARY.csv" 14
here=$(dirname "$0")

for expr in "tcp" "not port 53" "ip6 or icmp" "tcp[13] & 2 != 0 or less 100" "vlan and udp"; do
	check "every corpus capture: '$expr' keeps tcpdump's frames, the rest filtered" \
		python3 "$here/expr_check.py" "$FLOWTOP" "$CORPUS" "$E2E_TMP" "$expr"
done

# the kept frames of one capture, decided by the corpus' tool as the corpus' own are
g=$CORPUS/pcap/ndpi-gnutella.pcap
tcpdump -r "$g" -w "$E2E_TMP/gnutella-tcp.pcap" tcp 2>/dev/null
python3 "$CORPUS/expected.py" --mode wire --outdir "$E2E_TMP" "$E2E_TMP/gnutella-tcp.pcap" >/dev/null 2>&1
"$FLOWTOP" -r "$g" -b --json -L 0 -o "$E2E_TMP/gnutella.json" tcp >/dev/null
check "tcp on gnutella: tshark's counts of the kept frames, address for address" \
	python3 "$here/compare.py" "$E2E_TMP/gnutella.json" "$E2E_TMP/gnutella-tcp.expected.csv"

# the outputs say it
"$FLOWTOP" -r "$g" -b -n 1 -d 3600 'udp port 6346' >"$E2E_TMP/text" 2>&1
check "text: the expression on the header line, filtered among the counters" \
	eval 'head -n 1 "$E2E_TMP/text" | grep -q "  expression '"'"'udp port 6346'"'"'  interval" &&
	      sed -n 2p "$E2E_TMP/text" | grep -q " filtered [1-9]"'
"$FLOWTOP" -r "$g" -b -o "$E2E_TMP/snap.json" tcp >/dev/null
check "-o: the snapshot says the expression" jqt '.expression == "tcp" and .totals.filtered > 0' "$E2E_TMP/snap.json"
"$FLOWTOP" -r "$g" -b --json -L 1 >"$E2E_TMP/none.jsonl"
check "no expression: none said, nothing filtered" \
	eval 'tail -n 1 "$E2E_TMP/none.jsonl" | jqt "has(\"expression\") | not" &&
	      tail -n 1 "$E2E_TMP/none.jsonl" | jqt ".totals.filtered == 0 and .totals.filtered_bytes == 0"'
tmux_server expr
tm new-session -d -s e -x 150 -y 30 "$FLOWTOP -r $g --speed 0 -N tcp; echo \$? >$E2E_TMP/screen.rc"
shows() { tm capture-pane -p -t e | grep -q -- "$1"; }
check "screen: the header names the expression, the counters filtered" \
	wait_for 10 eval "shows \"ndpi-gnutella.pcap  'tcp'  capture\" && shows ' filtered 1756'"
tm send-keys -t e q
check "screen: q ends it, status 0" wait_for 10 eval '[ "$(cat "$E2E_TMP/screen.rc" 2>/dev/null)" = 0 ]'

# bad expressions
"$FLOWTOP" -r "$g" -b 'tcp port' >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "a syntax error: exit 2, libpcap's reason" \
	eval '[ "$rc" = 2 ] && grep -q "filter expression '"'"'tcp port'"'"': can.t parse filter expression: syntax error" "$E2E_TMP/err"'
"$FLOWTOP" -r "$g" -b --json 'port 99999' >"$E2E_TMP/out" 2>"$E2E_TMP/err"
rc=$?
check "a port out of range: exit 2, said, in JSON too" \
	eval '[ "$rc" = 2 ] && grep -q "port 99999" "$E2E_TMP/err" && jqt ".error | test(\"99999\")" "$E2E_TMP/out"'
"$FLOWTOP" -i lo -b tcp >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "on an interface, not yet: exit 2, said" \
	eval '[ "$rc" = 2 ] && grep -q "counts capture files (-r) for now" "$E2E_TMP/err"'
summary
