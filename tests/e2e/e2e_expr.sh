#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_expr.sh -- filter expressions, tcpdump's syntax compiled by libpcap. On a capture
# file (`flowtop -r FILE EXPR`) every corpus capture keeps exactly the frames `tcpdump -r
# FILE EXPR` keeps, host for host, the others counted in `filtered` alone, and what the
# corpus' own tool (tshark) decides for the kept frames. Live on a veth, counted in the
# kernel: the frames it matches exactly, the others in `filtered`; the screen's e key;
# every output says the expression; what it cannot judge or parse exits 2.
. "$(dirname "$0")/lib.sh"
need_root 27
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
check "text: the expression on the header line, its rejects among the counters as unmatched" \
	eval 'head -n 1 "$E2E_TMP/text" | grep -q "  expression '"'"'udp port 6346'"'"'  interval" &&
	      sed -n 2p "$E2E_TMP/text" | grep -q " unmatched [1-9]"'
"$FLOWTOP" -r "$g" -b -o "$E2E_TMP/snap.json" tcp >/dev/null
check "-o: the snapshot says the expression" jqt '.expression == "tcp" and .totals.filtered > 0' "$E2E_TMP/snap.json"
"$FLOWTOP" -r "$g" -b --json -L 1 >"$E2E_TMP/none.jsonl"
check "no expression: none said, nothing filtered" \
	eval 'tail -n 1 "$E2E_TMP/none.jsonl" | jqt "has(\"expression\") | not" &&
	      tail -n 1 "$E2E_TMP/none.jsonl" | jqt ".totals.filtered == 0 and .totals.filtered_bytes == 0"'
tmux_server expr
tm new-session -d -s e -x 150 -y 30 "$FLOWTOP -r $g --speed 0 -N tcp; echo \$? >$E2E_TMP/screen.rc"
shows() { tm capture-pane -p -t e | grep -q -- "$1"; }
check "screen: the header names the expression, the rejects among the counters as unmatched" \
	wait_for 10 eval "shows \"ndpi-gnutella.pcap  'tcp'  capture\" && shows ' unmatched 1756'"
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

# live, in the kernel: icmp on a veth while pings and UDP cross it
netns_new xa && a=$NETNS && netns_new xb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ia=fxa-$E2E_SFX ib=fxb-$E2E_SFX
ipv6_off "$a" "$b"
two_hosts "$a" "$b" "$ia" "$ib" 10.78.0 || { fail "cannot set up the veth pair"; summary; exit; }
ip -n "$a" neigh add 10.78.0.9 lladdr "$(mac "$b" "$ib")" dev "$ia" nud permanent
udp() { # COUNT datagrams of 100 bytes to 10.78.0.9, whom nobody is: 142 bytes each
	ip netns exec "$a" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(bytes(100), ("10.78.0.9", 9))' "$1"
}
out=$E2E_TMP/live.jsonl
start_bg "$b" "$out" "$FLOWTOP" -i "$ib" -b --json -d 0.1 icmp
pid=$BG_PID
check "live: flowtop -i IFACE icmp starts" wait_for 10 grep -q interval "$out"
ip netns exec "$a" ping -q -c 20 -i 0.01 -s 100 10.78.0.2 >/dev/null
udp 15
check "live: the 40 ICMP frames counted, the 15 UDP ones filtered alone" \
	wait_for 10 last_is "$out" '.totals.packets == 40 and .totals.bytes == 40 * 142 and .totals.filtered == 15 and .totals.filtered_bytes == 15 * 142'
host() { wait_for 10 last_is "$out" ".hosts[] | select(.ip == \"$1\") | $2"; }
check "live: the pinger's counts exact" host 10.78.0.1 '.tx_packets == 20 and .rx_packets == 20'
check "live: no row for the UDP frames' address" \
	last_is "$out" '[.hosts[].ip] | index("10.78.0.9") == null'
check "live: every line says the expression" last_is "$out" '.expression == "icmp"'
stop_bg "$pid" INT
check "live: exit 0 on SIGINT" [ $? = 0 ]

# live, 'ip broadcast': compiled with the interface's netmask (/24), as tcpdump does; the
# datagrams to 10.78.0.255 (to the broadcast MAC) counted, those to 10.78.0.9 filtered
bcast() { # COUNT datagrams of 100 bytes to 10.78.0.255: 142 bytes each
	ip netns exec "$a" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
for _ in range(int(sys.argv[1])):
    s.sendto(bytes(100), ("10.78.0.255", 9))' "$1"
}
out=$E2E_TMP/bcast.jsonl
start_bg "$b" "$out" "$FLOWTOP" -i "$ib" -b --json -d 0.1 'ip broadcast'
pid=$BG_PID
check "live: flowtop -i IFACE 'ip broadcast' starts" wait_for 10 grep -q interval "$out"
bcast 7
udp 5
check "live: the 7 broadcast datagrams counted, the 5 to 10.78.0.9 filtered" \
	wait_for 10 last_is "$out" '.totals.packets == 7 and .totals.bytes == 7 * 142 and .totals.filtered == 5 and .totals.filtered_bytes == 5 * 142'
check "live: the broadcaster's counts exact" \
	last_is "$out" '.hosts[] | select(.ip == "10.78.0.1") | .tx_packets == 7'
stop_bg "$pid" INT
check "live: 'ip broadcast': exit 0 on SIGINT" [ $? = 0 ]
ip netns exec "$b" "$FLOWTOP" -i any -b --json -n 1 'ip broadcast' >"$E2E_TMP/out" 2>"$E2E_TMP/err"
rc=$?
check "-i any 'ip broadcast': exit 2, the netmask of one interface asked for, in JSON too" \
	eval '[ "$rc" = 2 ] && grep -q "takes the netmask of the one interface watched, but -i any watches every interface" "$E2E_TMP/err" && jqt ".error | test(\"netmask\")" "$E2E_TMP/out"'

# live, payload past the linear head: real TCP keeps what it sends in page fragments
# (and a veth hands them on as they are), where a load relative to the MAC header never
# reaches; an HTTP request's first bytes matched as tcpdump matches them, on the
# receiving and on the sending side
get='tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420'
mkdir -p "$E2E_TMP/www" && echo hello >"$E2E_TMP/www/index.html"
start_bg "$b" "$E2E_TMP/http" python3 -m http.server -b 10.78.0.2 -d "$E2E_TMP/www" 8080
http_pid=$BG_PID
rx=$E2E_TMP/get-rx.jsonl tx=$E2E_TMP/get-tx.jsonl cap=$E2E_TMP/get.pcap
start_bg "$b" "$rx" "$FLOWTOP" -i "$ib" -b --json -d 0.1 "$get"
rx_pid=$BG_PID
start_bg "$a" "$tx" "$FLOWTOP" -i "$ia" -b --json -d 0.1 "$get"
tx_pid=$BG_PID
start_bg "$b" "$E2E_TMP/tcpdump" tcpdump -i "$ib" -U -w "$cap" "$get"
dump_pid=$BG_PID
check "live payload: flowtop on both ends and tcpdump start" \
	wait_for 10 eval 'grep -q interval "$rx" && grep -q interval "$tx" && grep -q "listening on" "$E2E_TMP/tcpdump.err" &&
		ip netns exec "$a" curl -s -o /dev/null http://10.78.0.2:8080/'
pad=$(head -c 3000 /dev/zero | tr '\0' x)
for i in 1 2 3 4 5; do
	ip netns exec "$a" curl -s -m 5 -o /dev/null -H "X-Pad: $pad" "http://10.78.0.2:8080/?$i"
done
wait_for 10 eval '[ "$(tcpdump -r "$cap" 2>/dev/null | wc -l)" -ge 6 ]'
kept=$(tcpdump -r "$cap" 2>/dev/null | wc -l)
check "live payload: tcpdump keeps the 6 requests" [ "$kept" = 6 ]
check "live payload: flowtop counts what tcpdump keeps, received" \
	wait_for 10 eval 'counted "$rx" "$kept"'
check "live payload: and sent" wait_for 10 eval 'counted "$tx" "$kept"'
stop_bg "$dump_pid" INT
stop_bg "$rx_pid" INT
stop_bg "$tx_pid" INT
stop_bg "$http_pid" TERM

# the screen: e sets one, counting anew; a bad one is said and the one before stays
tm new-session -d -s l -x 150 -y 30 \
	"ip netns exec $b $FLOWTOP -i $ib -N -d 0.2; echo \$? >$E2E_TMP/live.rc"
lshows() { tm capture-pane -p -t l | grep -q -- "$1"; }
wait_for 10 lshows "flowtop  $ib (up)" || fail "the screen did not start"
tm send-keys -t l e
check "screen: e asks for an expression" wait_for 5 lshows "Count only (tcpdump's syntax; empty: all):"
tm send-keys -t l udp Enter
check "screen: e sets it, named in the header" \
	wait_for 5 eval "lshows \"flowtop  $ib (up)  'udp'\" && lshows \"counting what 'udp' matches\""
ip netns exec "$a" ping -q -c 3 -i 0.01 -s 100 10.78.0.2 >/dev/null
udp 4
check "screen: the UDP frames counted, the pings filtered" \
	wait_for 10 eval 'tm capture-pane -p -t l | grep "^10\.78\.0\.9 " >/dev/null && lshows " unmatched 6"'
tm send-keys -t l e C-u
for _ in $(seq 5); do tm send-keys -t l BSpace; done
tm send-keys -t l "tcp port" Enter
check "screen: a bad expression said, the one before in force" \
	wait_for 5 eval "lshows 'syntax error' && lshows \"flowtop  $ib (up)  'udp'\""
tm send-keys -t l q
check "screen: q ends it, status 0" wait_for 10 eval '[ "$(cat "$E2E_TMP/live.rc" 2>/dev/null)" = 0 ]'

# what an expression cannot judge: refused at start, named
ip netns exec "$b" "$FLOWTOP" -i any -b -n 1 'ether host 02:00:00:00:00:01' >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "-i any with an Ethernet primitive: exit 2, why" \
	eval '[ "$rc" = 2 ] && grep -q "with a link header and without: .*has no link header" "$E2E_TMP/err"'
ip netns exec "$b" "$FLOWTOP" -i "$ib" -b -n 1 'tcp port' >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "live: a syntax error: exit 2, libpcap's reason" \
	eval '[ "$rc" = 2 ] && grep -q "syntax error" "$E2E_TMP/err"'
summary
