#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_multi.sh -- several interfaces at once: `-i A,B` and `-i any`.
# A router namespace with two veths, each to a namespace of its own: pings to the router
# on each, and pings routed from one side to the other, which cross both interfaces and
# are counted on each. Then `-i any` beside a tun device (no link header), loopback, an
# interface created while watching and one deleted. Counts are exact: no IPv6, static
# neighbours (no ARP), ICMP echoes answered once each, UDP to an address nobody holds.
. "$(dirname "$0")/lib.sh"
need_root 42

netns_new mr && r=$NETNS && netns_new ma && a=$NETNS && netns_new mb && b=$NETNS ||
	{ fail "cannot create namespaces"; summary; exit; }
ipv6_off "$r" "$a" "$b"
ra=fma-$E2E_SFX rb=fmb-$E2E_SFX
veth_pair "$r" "$a" "$ra" pa && veth_pair "$r" "$b" "$rb" pb ||
	{ fail "cannot create the veth pairs"; summary; exit; }
ip -n "$r" addr add 10.81.1.1/24 dev "$ra"
ip -n "$r" addr add 10.81.2.1/24 dev "$rb"
ip -n "$a" addr add 10.81.1.2/24 dev pa
ip -n "$b" addr add 10.81.2.2/24 dev pb
ip -n "$a" route add default via 10.81.1.1
ip -n "$b" route add default via 10.81.2.1
ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
ip -n "$r" neigh add 10.81.1.2 lladdr "$(mac "$a" pa)" dev "$ra" nud permanent
ip -n "$r" neigh add 10.81.2.2 lladdr "$(mac "$b" pb)" dev "$rb" nud permanent
ip -n "$a" neigh add 10.81.1.1 lladdr "$(mac "$r" "$ra")" dev pa nud permanent
ip -n "$b" neigh add 10.81.2.1 lladdr "$(mac "$r" "$rb")" dev pb nud permanent

out=$E2E_TMP/list.jsonl
start_bg "$r" "$out" "$FLOWTOP" -i "$ra,$rb" -b --json -d 0.1 -o "$E2E_TMP/list.json"
pid=$BG_PID
wait_for 10 grep -q interval "$out" || { fail "flowtop -i A,B did not start"; summary; exit; }
check "-i A,B: both interfaces listed, up" \
	last_is "$out" "[.interfaces[] | .name + \" \" + .state] == [\"$ra up\", \"$rb up\"]"

# ICMP echo of 100 bytes: 14 + 20 + 8 + 100 = 142 bytes on the wire, request and reply
ip netns exec "$a" ping -q -c 20 -i 0.01 -s 100 10.81.1.1 >/dev/null
ip netns exec "$b" ping -q -c 30 -i 0.01 -s 100 10.81.2.1 >/dev/null
ip netns exec "$a" ping -q -c 10 -i 0.01 -s 100 10.81.2.2 >/dev/null # routed
# on A: 40 + 20 routed; on B: 60 + 20 routed
check "every frame counted once per interface it crossed: 140" wait_for 10 counted "$out" 140
iface() { last_is "$out" ".interfaces[] | select(.name == \"$1\") | $2"; }
# a sample reads the rings before the totals: the hosts may show the last frames one
# sample after the totals do, so a host's counts are waited for
host() { wait_for 10 last_is "$out" ".hosts[] | select(.ip == \"$1\") | $2"; }
check "per interface: A 60 frames, 8520 bytes" iface "$ra" '.totals.packets == 60 and .totals.bytes == 8520'
check "per interface: B 80 frames, 11360 bytes; 40 of them sent" \
	iface "$rb" '.totals.packets == 80 and .totals.bytes == 11360 and .totals.out_packets == 40'
check "the totals are the interfaces' sum" last_is "$out" '.totals.packets == 140 and .totals.bytes == 19880'
check "one row per address, summed: the routed pinger counted on both interfaces" \
	host 10.81.1.2 '.tx_packets == 40 and .rx_packets == 40 and .tx_bytes == 5680'
check "a host names the interfaces it was seen on" \
	eval "host 10.81.1.2 '.interfaces == [\"$ra\", \"$rb\"]' && host 10.81.1.1 '.interfaces == [\"$ra\"]'"
check "the far side: 30 pings to the router and 10 routed, each counted twice" \
	host 10.81.2.2 '.tx_packets == 50 and .rx_packets == 50'
check "one row per address: no address twice" \
	wait_for 10 last_is "$out" '[.hosts[].ip] | length == (unique | length)'

# the screen on the same two interfaces (tmux): a header line each, the IFACE column,
# the picker marking several and offering any, a dump naming the interfaces
tmux_server multi
screen() { tm capture-pane -p -t m; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
shows() { screen | grep -q -- "$1"; }
tm new-session -d -s m -x 150 -y 30 \
	"ip netns exec $r $FLOWTOP -i $ra,$rb -N -d 0.2; echo \$? >$E2E_TMP/screen.rc"
wait_for 10 shows "flowtop  $ra,$rb (up)" || fail "the screen did not start"
ip netns exec "$a" ping -q -c 5 -i 0.01 -s 100 10.81.2.2 >/dev/null
ip netns exec "$a" ping -q -c 5 -i 0.01 -s 100 10.81.1.1 >/dev/null
check "screen: a header line per interface, with its traffic" \
	seen 'screen | head -n 6 | grep -q "^ $ra  *up  *in " && screen | head -n 6 | grep -q "^ $rb  *up  *in "'
# (the column is 14 wide: the names, with the run's suffix, are cut there)
check "screen: the IFACE column names both for a routed host" \
	seen 'shows "IFACE" && screen | grep "^10\.81\.2\.2 " | grep -q " $ra+"'
# (its name then a blank, or the line's end: a row whose rates aged to nothing, on a slow
# machine, shows no SHARE or sparkline after it, and the pane keeps no trailing blanks)
check "screen: a host seen on one interface names it alone" \
	seen 'screen | grep "^10\.81\.1\.1 " | grep -qE " $ra( |\$)"'
tm send-keys -t m d C-u
for _ in $(seq 60); do tm send-keys -t m BSpace; done
tm send-keys -t m "$E2E_TMP/dump.json" Enter
check "screen: a dump names the interfaces, and each row's" \
	wait_for 5 jqt ".interface == \"$ra,$rb\" and ([.rows[] | select(.ip == \"10.81.1.2\") | .iface] == [\"$ra+$rb\"])" "$E2E_TMP/dump.json"
tm send-keys -t m i
check "screen: the picker offers any, and marks the interfaces watched" \
	seen 'shows "\[ \] any" && shows "\[x\] $ra .*(now)" && shows "\[x\] $rb .*(now)"'
tm send-keys -t m Space Enter # unmarks the first watched (selected): the other alone
check "screen: space unmarks one, Enter watches the others" wait_for 5 shows "flowtop  $rb (up)"
check "screen: with one interface, no IFACE column and no interface lines" \
	seen '! shows "IFACE" && ! screen | head -n 6 | grep -q "^ $rb  *up  *in "'
tm send-keys -t m i
wait_for 5 shows "watch which interface"
for _ in $(seq 8); do tm send-keys -t m k; done
tm send-keys -t m Enter
check "screen: any from the picker" wait_for 5 shows "flowtop  any (up)"
tm send-keys -t m q
check "screen: q ends it, status 0" wait_for 10 eval '[ "$(cat "$E2E_TMP/screen.rc" 2>/dev/null)" = 0 ]'

# the screen's pings: 10 frames more on each, 10 more on A
ip -n "$r" link del "$rb"
check "one listed interface deleted: said, flowtop goes on" \
	wait_for 5 grep -q "interface $rb disappeared" "$out.err"
check "its counts stay, marked gone" wait_for 5 iface "$rb" '.state == "gone" and .totals.packets == 90'
ip netns exec "$a" ping -q -c 5 -i 0.01 -s 100 10.81.1.1 >/dev/null
check "the other goes on counting" wait_for 5 counted "$out" 180
kill -0 "$pid" 2>/dev/null
check "still running with one of two gone" [ $? = 0 ]
ip -n "$r" link del "$ra"
exited() { ! kill -0 "$pid" 2>/dev/null; }
check "every listed interface gone: flowtop notices" wait_for 5 exited
stop_bg "$pid" KILL
rc=$?
check "every listed interface gone: exit 3, and says which" \
	eval '[ "$rc" = 3 ] && grep -q "interfaces $ra,$rb disappeared" "$out.err"'
check "-o: the snapshot keeps each interface's counts" \
	jqt "[.interfaces[] | .totals.packets] == [90, 90]" "$E2E_TMP/list.json"

# -i any: a veth, a tun device and loopback in one namespace
netns_new mn && n=$NETNS && netns_new mp && p=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$n" "$p"
vn=fmn-$E2E_SFX tn=fmt-$E2E_SFX nx=fmx-$E2E_SFX
veth_pair "$n" "$p" "$vn" pn || { fail "cannot create the veth pair"; summary; exit; }
ip -n "$n" addr add 10.82.1.1/24 dev "$vn"
ip -n "$n" neigh add 10.82.1.99 lladdr "$(mac "$p" pn)" dev "$vn" nud permanent
# a tun device has a carrier (and sends) only while a process holds it open
ip netns exec "$n" python3 - "$tn" <<'PY' &
import fcntl, os, struct, sys, time
TUNSETIFF, IFF_TUN, IFF_NO_PI = 0x400454CA, 0x0001, 0x1000
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", sys.argv[1].encode(), IFF_TUN | IFF_NO_PI))
time.sleep(600)
PY
E2E_PIDS+=("$!")
wait_for 5 ip -n "$n" link show "$tn" >/dev/null 2>&1 || { fail "cannot create the tun device"; summary; exit; }
ip -n "$n" addr add 10.82.9.1/24 dev "$tn"
ip -n "$n" link set "$tn" up

out=$E2E_TMP/any.jsonl
start_bg "$n" "$out" "$FLOWTOP" -i any -b --json -d 0.1
pid=$BG_PID
wait_for 10 grep -q interval "$out" || { fail "flowtop -i any did not start"; summary; exit; }
check "-i any: every interface of the namespace listed" \
	last_is "$out" "[.interfaces[].name] | contains([\"lo\", \"$vn\", \"$tn\"])"
check "-i any: the interface is named any" last_is "$out" '.interface == "any"'

udp() { # NS DST COUNT: COUNT datagrams of 100 bytes (128 bytes of IP)
	ip netns exec "$1" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[2])):
    s.sendto(bytes(100), (sys.argv[1], 9))' "$2" "$3"
}
udp "$n" 10.82.1.99 11 # on the veth: 142 bytes each
udp "$n" 10.82.9.2 13  # on the tun: 128 bytes each, no link header
ip netns exec "$n" ping -q -c 5 -i 0.01 -s 100 127.0.0.1 >/dev/null
# lo: 5 requests and 5 replies, each once (sent and received is one frame)
check "-i any: 34 frames" wait_for 10 counted "$out" 34
# (once, on 6.1 under qemu, the veth's line did not hold its 11 frames when the totals
# held all 34: waited for, and the lines printed when it fails, to tell why)
veth_line() { wait_for 5 iface "$vn" '.totals.packets == 11 and .totals.bytes == 1562' ||
	{ tail -n 1 "$out" | jq -c '[.interfaces[] | [.name, .ifindex, .state, .totals.packets, .totals.bytes]]'; false; }; }
check "-i any: the veth's bytes include its link header" veth_line
check "-i any: the tun's have none" iface "$tn" '.totals.packets == 13 and .totals.bytes == 1664'
check "-i any: lo's frames counted once" iface lo '.totals.packets == 10 and .totals.bytes == 1420'
check "-i any: 127.0.0.1 is both ends of each of the 10" \
	host 127.0.0.1 '.tx_packets == 10 and .rx_packets == 10'

# an interface created while watching: counted from its first frame
ip link add "$nx" netns "$n" type veth peer name px netns "$p"
ip -n "$n" link set "$nx" up && ip -n "$p" link set px up
ip -n "$n" addr add 10.82.2.1/24 dev "$nx"
ip -n "$n" neigh add 10.82.2.99 lladdr "$(mac "$p" px)" dev "$nx" nud permanent
udp "$n" 10.82.2.99 7
check "a new interface: said" wait_for 5 grep -q "interface $nx appeared" "$out.err"
udp "$n" 10.82.2.99 5
check "a new interface: every frame on its host from the first" \
	wait_for 5 host 10.82.2.99 '.rx_packets == 12 and .rx_bytes == 1704'
check "a new interface: its frames on it (or, before flowtop heard of it, on no slot)" \
	last_is "$out" "([.interfaces[] | select(.name == \"$nx\" or .name == null) | .totals.packets] | add) == 12"
check "a new interface: the last 5 on it" iface "$nx" '.totals.packets >= 5'
ip -n "$n" link del "$nx"
check "a deleted interface: said" wait_for 5 grep -q "interface $nx disappeared" "$out.err"
check "a deleted interface: its counts stay, marked gone" \
	wait_for 5 iface "$nx" '.state == "gone" and .totals.packets >= 5'
kill -0 "$pid" 2>/dev/null
check "-i any: flowtop goes on" [ $? = 0 ]
stop_bg "$pid" INT
rc=$?
check "-i any: exit 0 on SIGINT" [ "$rc" = 0 ]

# errors: an unknown name in a list is refused, naming it; "any" alone
ip netns exec "$n" "$FLOWTOP" -i "$vn,nope-$E2E_SFX" -b -n 1 >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "a list with an unknown interface: exit 2, named" \
	eval '[ "$rc" = 2 ] && grep -q "nope-$E2E_SFX" "$E2E_TMP/err"'
ip netns exec "$n" "$FLOWTOP" -i "$vn,,lo" -b -n 1 >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "a list with an empty name: exit 2" eval '[ "$rc" = 2 ] && grep -q "invalid interface name" "$E2E_TMP/err"'
summary
