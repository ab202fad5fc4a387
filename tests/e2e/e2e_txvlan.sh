#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_txvlan.sh -- VLAN tags on frames this host sends, watched on the sending veth.
# With tx VLAN offload off, a tag pushed on transmit (here by a tc classifier, as an
# 8021q device does) is inserted inline by the kernel in front of where the filter's
# offset 0 stays; a frame a packet socket sends with the tag inline reaches the filter
# alike (protocol 0x8100, no tag in metadata). Both must be counted on their IP
# addresses, with the tag in the bytes on the wire (they were non-IP before).
. "$(dirname "$0")/lib.sh"
need_root 6
prog=$TESTBIN/vlan_push.bpf.o
[ -r "$prog" ] || { fail "no $prog (make builds it with the tests)"; summary; exit; }

netns_new va && a=$NETNS && netns_new vb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
ia=ftva-$E2E_SFX ib=ftvb-$E2E_SFX
veth_pair "$a" "$b" "$ia" "$ib" || { fail "cannot create the veth pair"; summary; exit; }
ip -n "$a" addr add 10.79.0.1/24 dev "$ia"
ip -n "$b" addr add 10.79.0.2/24 dev "$ib"
ip -n "$a" neigh add 10.79.0.2 lladdr "$(mac "$b" "$ib")" dev "$ia" nud permanent
ip netns exec "$a" ethtool -K "$ia" txvlan off >/dev/null 2>&1
check "tx VLAN offload is off on the sender" \
	eval 'ip netns exec "$a" ethtool -k "$ia" | grep -q "^tx-vlan-offload: off"'
tc -n "$a" qdisc add dev "$ia" clsact &&
	tc -n "$a" filter add dev "$ia" egress bpf direct-action obj "$prog" sec tc ||
	{ fail "cannot attach the tc classifier"; summary; exit; }

start_bg "$a" "$E2E_TMP/out.jsonl" "$FLOWTOP" -i "$ia" -b --json -d 0.1
pid=$BG_PID
# and with an expression, which judges the frame with its tag as it is counted: in its
# length on the wire, and read past it
start_bg "$a" "$E2E_TMP/expr.jsonl" "$FLOWTOP" -i "$ia" -b --json -d 0.1 'vlan 100 and udp and greater 146'
expr_pid=$BG_PID
wait_for 10 eval 'grep -q interval "$E2E_TMP/out.jsonl" && grep -q interval "$E2E_TMP/expr.jsonl"' ||
	{ fail "flowtop did not start"; summary; exit; }

# 200 UDP datagrams of 100 bytes: 14 + 4 + 20 + 8 + 100 = 146 bytes each on the wire,
# tagged by the classifier; then 50 frames a packet socket sends with the tag inline,
# IPv4/UDP from 10.79.1.1 to 10.79.1.2 with 60 bytes of payload: 106 bytes each
ip netns exec "$a" python3 - "$ia" "$(mac "$b" "$ib")" <<'PY'
import socket, struct, sys
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(200):
    udp.sendto(bytes(100), ("10.79.0.2", 9))
def csum(b):
    s = sum(struct.unpack("!10H", b))
    s = (s >> 16) + (s & 0xFFFF)
    return ~(s + (s >> 16)) & 0xFFFF
raw = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
raw.bind((sys.argv[1], 0))
dst = bytes.fromhex(sys.argv[2].replace(":", ""))
for i in range(50):
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 88, i, 0, 64, 17, 0,
                               bytes([10, 79, 1, 1]), bytes([10, 79, 1, 2])))
    ip[10:12] = struct.pack("!H", csum(bytes(ip)))
    frame = (dst + bytes.fromhex("020000000001") + struct.pack("!HHH", 0x8100, 100, 0x0800)
             + bytes(ip) + struct.pack("!HHHH", 4000, 9, 68, 0) + bytes(60))
    raw.send(frame)
PY
check "flowtop sees all 250 frames" wait_for 10 counted "$E2E_TMP/out.jsonl" 250
check "'vlan 100 and udp and greater 146': the 200 tagged by the kernel kept (146 bytes), the 50 of 106 filtered" \
	wait_for 10 last_is "$E2E_TMP/expr.jsonl" '.totals.packets == 200 and .totals.bytes == 29200 and .totals.filtered == 50 and .totals.filtered_bytes == 5300'
stop_bg "$expr_pid" INT
stop_bg "$pid" INT
host() { # IP FIELD: the host's counter in the last sample
	tail -n 1 "$E2E_TMP/out.jsonl" | jq -r --arg ip "$1" ".hosts[] | select(.ip == \$ip) | .$2"
}
check "no frame taken for non-IP or truncated" \
	last_is "$E2E_TMP/out.jsonl" '.totals.non_ip == 0 and .totals.truncated == 0'
check "the kernel's inline tag: 200 frames from 10.79.0.1 to 10.79.0.2, 146 bytes each" \
	eval '[ "$(host 10.79.0.1 tx_packets)/$(host 10.79.0.1 tx_bytes)" = 200/29200 ] &&
	      [ "$(host 10.79.0.2 rx_packets)/$(host 10.79.0.2 rx_bytes)" = 200/29200 ]'
check "a packet socket's inline tag: 50 frames from 10.79.1.1 to 10.79.1.2, 106 bytes each" \
	eval '[ "$(host 10.79.1.1 tx_packets)/$(host 10.79.1.1 tx_bytes)" = 50/5300 ] &&
	      [ "$(host 10.79.1.2 rx_packets)/$(host 10.79.1.2 rx_bytes)" = 50/5300 ]'
check "the totals: every byte on the wire" \
	last_is "$E2E_TMP/out.jsonl" '.totals.packets == 250 and .totals.bytes == 34500'
summary
