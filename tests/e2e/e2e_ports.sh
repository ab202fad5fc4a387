#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_ports.sh -- ports live: real TCP to one port (its segments as the stack sends them,
# payload in page fragments, merged by GSO) and UDP datagrams to another, between two
# namespaces on a veth; flowtop --group port on the receiving end, and tcpdump beside
# it on the same interface. Every port's counts must be those tshark decides for the
# frames tcpdump captured (tests/corpus/expected.py), each frame in one row each way,
# the services named; and the -o snapshot says the same rows. On the screen: a through
# the groupings to the ports, a filter on a protocol, Enter on a port lists the hosts
# that use it from then on, Esc returns.
. "$(dirname "$0")/lib.sh"
need_root 19
here=$(dirname "$0")

netns_new a && a=$NETNS && netns_new b && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ia=fpa-$E2E_SFX ib=fpb-$E2E_SFX
ipv6_off "$a" "$b"
two_hosts "$a" "$b" "$ia" "$ib" 10.79.0 || { fail "cannot set up the veth pair"; summary; exit; }

start_bg "$b" "$E2E_TMP/ports.jsonl" "$FLOWTOP" -i "$ib" -b --json -d 0.2 -L 0 --group port \
	-o "$E2E_TMP/snap.csv"
pid=$BG_PID
start_bg "$b" "$E2E_TMP/tcpdump.out" tcpdump -i "$ib" -n -U -s 256 -w "$E2E_TMP/live.pcap"
dump_pid=$BG_PID
check "flowtop samples and tcpdump listens" \
	wait_for 10 eval 'grep -q interval "$E2E_TMP/ports.jsonl" &&
		grep -q "listening on" "$E2E_TMP/tcpdump.out.err"'

# traffic OUT: 300 KB over TCP to 10.79.0.2:5201, read to the end by a server whose
# output is OUT; then 40 datagrams to port 5353, and one of 3,000 bytes in fragments
traffic() {
	start_bg "$b" "$1" python3 -c '
import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.79.0.2", 5201))
s.listen(1)
print("ready", flush=True)
c, _ = s.accept()
n = 0
while True:
    b = c.recv(65536)
    if not b:
        break
    n += len(b)
c.close()
print("read", n, flush=True)'
	server_pid=$BG_PID
	wait_for 10 grep -q ready "$1"
	ip netns exec "$a" python3 -c '
import socket
c = socket.create_connection(("10.79.0.2", 5201))
c.sendall(bytes(300000))
c.shutdown(socket.SHUT_WR)
c.recv(1)
c.close()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(40):
    u.sendto(bytes(200 + i), ("10.79.0.2", 5353))
u.sendto(bytes(3000), ("10.79.0.2", 5353))  # in fragments: the later ones have no port'
	wait_for 10 grep -q "read 300000" "$1"
	local read_all=$?
	stop_bg "$server_pid" TERM
	return $read_all
}
check "the server read all 300,000 bytes" traffic "$E2E_TMP/server.out"
# the connection closed both ways before the datagrams went: no frame comes after them
frames() { tcpdump -r "$E2E_TMP/live.pcap" 2>/dev/null | wc -l; }
check "tcpdump captured the datagrams" wait_for 10 eval '[ "$(frames)" -ge 50 ]'
stop_bg "$dump_pid" INT
n=$(frames)
check "flowtop counted the $n frames tcpdump captured" wait_for 10 counted "$E2E_TMP/ports.jsonl" "$n"
stop_bg "$pid" INT

python3 "$CORPUS/expected.py" --mode wire --outdir "$E2E_TMP" "$E2E_TMP/live.pcap" >/dev/null 2>&1
check "every port's frames and bytes are tshark's of the capture, each frame once each way" \
	python3 "$here/compare_ports.py" "$E2E_TMP/ports.jsonl" "$E2E_TMP/live.ports.csv"
check "the TCP port and the UDP port named from the services database" \
	jqt -s '.[-1].groups | (map(select(.proto == "tcp" and .port == 5201))[0].rx_packets > 10) and
		(map(select(.proto == "udp" and .port == 5353 and .service == "mdns"))[0].rx_packets == 41)' \
	"$E2E_TMP/ports.jsonl"
check "-o CSV: the later fragments on the row of no protocol and no port" \
	grep -q '^,,,[1-9]' "$E2E_TMP/snap.csv"
check "-o CSV: the same rows, proto, port and service first, every counter in its column" \
	python3 -c 'import csv, json, sys
rows = {(r["proto"], r["port"]): r for r in csv.DictReader(open(sys.argv[1]))}
last = json.loads(open(sys.argv[2]).read().splitlines()[-1])
key = lambda g: (g["proto"] or "", "" if g["port"] is None else str(g["port"]))
sys.exit(not (len(rows) == len(last["groups"]) and all(
    rows[key(g)][f] == str(g[f]) for g in last["groups"]
    for f in ("rx_packets", "rx_bytes", "tx_packets", "tx_bytes")) and all(
    rows[key(g)]["service"] == (g["service"] or "") for g in last["groups"])))' \
	"$E2E_TMP/snap.csv" "$E2E_TMP/ports.jsonl"

# Prometheus: --metrics-group port, a series per busy port and port="other"; each sum
# over port is every frame, once each way; a second round of traffic only adds
PORT=9573
scrape() { ip netns exec "$b" curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics"; }
val() { awk -v f="$1" 'index($0, f "{") == 1 { print $NF; exit }' "$2"; }
sum_of() { awk -v f="$1" 'index($0, f "{") == 1 { s += $NF } END { printf "%d\n", s }' "$2"; }
# settled FILE: a scrape whose sums over port, both ways, are the frames counted
settled() {
	scrape >"$1" && local n=$(val flowtop_frames_total "$1") &&
		[ "${n:-0}" -gt 50 ] && [ "$(sum_of flowtop_port_receive_packets_total "$1")" = "$n" ] &&
		[ "$(sum_of flowtop_port_transmit_packets_total "$1")" = "$n" ] &&
		[ "$(sum_of flowtop_port_receive_bytes_total "$1")" = "$(val flowtop_bytes_total "$1")" ]
}
ip netns exec "$b" "$FLOWTOP" -i "$ib" --listen "127.0.0.1:$PORT" --metrics-group port \
	--metrics-top 3 -N -d 0.1 </dev/null >"$E2E_TMP/exp.out" 2>"$E2E_TMP/exp.err" &
exp_pid=$!
E2E_PIDS+=("$exp_pid")
wait_for 10 eval 'scrape | grep -q "^flowtop_frames_total"'
traffic "$E2E_TMP/server4.out"
check "--metrics-group port: the sums over port are every frame, each way" \
	wait_for 10 settled "$E2E_TMP/m1.txt"
# the top 3 are the busiest of the last sample, then by total: a sample that held only the
# datagrams (once under AddressSanitizer) ranks 5201/tcp out of them until an idle one
check "--metrics-group port: promtool accepts it; 5201/tcp and port=\"other\" among 4 series" \
	wait_for 10 eval 'settled "$E2E_TMP/m1.txt" && promtool check metrics <"$E2E_TMP/m1.txt" &&
	      grep -q "^flowtop_port_receive_packets_total{.*proto=\"tcp\",port=\"5201\",service=\"-\"} " "$E2E_TMP/m1.txt" &&
	      grep -q "^flowtop_port_receive_packets_total{.*port=\"other\"} " "$E2E_TMP/m1.txt" &&
	      [ "$(grep -c "^flowtop_port_receive_packets_total{" "$E2E_TMP/m1.txt")" = 4 ]'
traffic "$E2E_TMP/server5.out"
wait_for 10 eval 'settled "$E2E_TMP/m2.txt" && [ "$(val flowtop_frames_total "$E2E_TMP/m2.txt")" -gt "$(val flowtop_frames_total "$E2E_TMP/m1.txt")" ]'
check "--metrics-group port: after more traffic no series went back" \
	python3 -c 'import sys
def series(path):
    out = {}
    for line in open(path):
        if line.startswith("flowtop_port_"):
            name, value = line.rsplit(" ", 1)
            out[name] = int(value)
    return out
one, two = series(sys.argv[1]), series(sys.argv[2])
sys.exit(not one or any(k in two and two[k] < v for k, v in one.items()))' "$E2E_TMP/m1.txt" "$E2E_TMP/m2.txt"
stop_bg "$exp_pid" INT

# the screen, live: the ports counted from the start, a reaching them
tmux_server ports
tm new-session -d -s p -x 150 -y 30 \
	"ip netns exec $b $FLOWTOP -i $ib -N; echo \$? >$E2E_TMP/screen.rc"
pane() { tm capture-pane -p -t p; }
shows() {
	local re=$1
	wait_for 10 eval 'pane | grep -Eq "$re"'
}
check "screen: watching, rows by host" shows "^ADDRESS "
traffic "$E2E_TMP/server2.out"
tm send-keys -t p a a a a
check "screen: a four times, rows by port, the services named, no HOSTS column" \
	eval 'shows "  by port" && shows "^PORT " && shows "^5201/tcp " && shows "^5353/udp mdns " &&
	      ! pane | grep -q "^PORT .* HOSTS "'
tm send-keys -t p / udp Enter
check "screen: /udp leaves the UDP ports alone" \
	eval 'shows "row filter: udp" && ! pane | grep -q "^5201/tcp " && shows "^5353/udp "'
tm send-keys -t p / 5201 Enter Enter
check "screen: Enter on 5201/tcp: the hosts on it, from now on" shows "hosts on 5201/tcp, counted for"
traffic "$E2E_TMP/server3.out"
check "screen: both ends of the new connection listed, nothing else" \
	eval 'shows "^10\.79\.0\.1 " && shows "^10\.79\.0\.2 " && [ "$(pane | grep -Ec "^10\.79\.0\.")" = 2 ]'
tm send-keys -t p d
for _ in $(seq 80); do tm send-keys -t p BSpace; done
tm send-keys -t p "$E2E_TMP/hosts.json" Enter
check "screen: d there: the hosts on the port, the port named" \
	wait_for 5 eval 'jqt ".conversations_of == \"5201/tcp\" and ([.rows[].ip] | sort) == [\"10.79.0.1\", \"10.79.0.2\"]" "$E2E_TMP/hosts.json"'
tm send-keys -t p Escape
check "screen: Esc back to the ports" eval 'shows "  by port" && ! pane | grep -q "hosts on"'
tm send-keys -t p q
check "screen: q, exit 0" wait_for 5 eval '[ "$(cat "$E2E_TMP/screen.rc" 2>/dev/null)" = 0 ]'
summary
