#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_ports.sh -- ports live: real TCP to one port (its segments as the stack sends them,
# payload in page fragments, merged by GSO) and UDP datagrams to another, between two
# namespaces on a veth; flowtop --group port on the receiving end, and tcpdump beside
# it on the same interface. Every port's counts must be those tshark decides for the
# frames tcpdump captured (tests/corpus/expected.py), each frame in one row each way,
# the services named; and the text output and -o snapshot say the same rows.
. "$(dirname "$0")/lib.sh"
need_root 7
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

# 300 KB over TCP to 10.79.0.2:5201, read to the end; then 40 datagrams to port 5353
start_bg "$b" "$E2E_TMP/server.out" python3 -c '
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
wait_for 10 grep -q ready "$E2E_TMP/server.out"
ip netns exec "$a" python3 -c '
import socket
c = socket.create_connection(("10.79.0.2", 5201))
c.sendall(bytes(300000))
c.shutdown(socket.SHUT_WR)
c.recv(1)
c.close()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(40):
    u.sendto(bytes(200 + i), ("10.79.0.2", 5353))'
check "the server read all 300,000 bytes" wait_for 10 grep -q "read 300000" "$E2E_TMP/server.out"
stop_bg "$server_pid" TERM
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
		(map(select(.proto == "udp" and .port == 5353 and .service == "mdns"))[0].rx_packets == 40)' \
	"$E2E_TMP/ports.jsonl"
check "-o CSV: the same rows, proto, port and service first" \
	python3 -c 'import csv, json, sys
rows = {(r["proto"], r["port"]): r for r in csv.DictReader(open(sys.argv[1]))}
last = json.loads(open(sys.argv[2]).read().splitlines()[-1])
sys.exit(not (len(rows) == len(last["groups"]) and all(
    rows[(g["proto"], str(g["port"]))]["rx_packets"] == str(g["rx_packets"]) and
    rows[(g["proto"], str(g["port"]))]["service"] == (g["service"] or "")
    for g in last["groups"] if g["port"] is not None)))' "$E2E_TMP/snap.csv" "$E2E_TMP/ports.jsonl"
summary
