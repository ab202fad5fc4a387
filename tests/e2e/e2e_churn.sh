#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_churn.sh -- `-i any` where interfaces come and go all day (a container host's
# veths): more interfaces than the filter's 255 slots. One left without a slot counts
# its link header all the same, and takes a slot once a gone one's is free; after
# hundreds have come and gone a new one is counted on its own from its first frame; hosts
# seen on a gone interface never take a new one's name; the interfaces (and "other
# interfaces") always add up to the totals. Counts are exact: no IPv6, static neighbours,
# UDP to an address nobody holds, each datagram seen leaving one end of a veth pair and
# arriving at the other (two frames of 142 bytes).
. "$(dirname "$0")/lib.sh"
need_root 20

netns_new cn && n=$NETNS || { fail "cannot create a namespace"; summary; exit; }
ipv6_off "$n"
out=$E2E_TMP/any.jsonl
start_bg "$n" "$out" "$FLOWTOP" -i any -b --json -d 0.1
pid=$BG_PID
wait_for 10 grep -q interval "$out" || { fail "flowtop -i any did not start"; summary; exit; }

pairs=130 # 260 veths and lo: 6 more than the 255 slots
a() { echo "a$1-$E2E_SFX"; }
b() { echo "b$1-$E2E_SFX"; }
for i in $(seq "$pairs"); do
	echo "link add $(a "$i") type veth peer name $(b "$i")"
	echo "link set $(a "$i") up"
	echo "link set $(b "$i") up"
done >"$E2E_TMP/add"
# made while flowtop is stopped, so that they all appear at once, whatever the pace of
# the machine: more than one message holds
kill -STOP "$pid"
ip -n "$n" -batch "$E2E_TMP/add" || { kill -CONT "$pid"; fail "cannot create $pairs veth pairs"; summary; exit; }
kill -CONT "$pid"
named() { last_is "$out" "[.interfaces[] | select(.name != null)] | length == $1"; }
check "$((2 * pairs + 1)) interfaces: 255 have a slot, and a line each" wait_for 20 named 255
check "more appeared at once than a message holds: it says there were more" \
	grep -q "interface .* appeared; and more$" "$out.err"

# udp PAIR NET COUNT: COUNT datagrams from PAIR's a end (10.83.NET.1) to 10.83.NET.99,
# whose address is the b end's
route() {
	ip -n "$n" addr add "10.83.$2.1/24" dev "$(a "$1")" &&
		ip -n "$n" neigh add "10.83.$2.99" lladdr "$(mac "$n" "$(b "$1")")" dev "$(a "$1")" nud permanent
}
udp() {
	ip netns exec "$n" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[2])):
    s.sendto(bytes(100), (sys.argv[1], 9))' "10.83.$1.99" "$2"
}
iface() { last_is "$out" ".interfaces[] | select(.name == \"$1\") | $2"; }
others() { last_is "$out" ".interfaces[] | select(.name == null) | $1"; }
host() { wait_for 10 last_is "$out" ".hosts[] | select(.ip == \"$1\") | $2"; }
add_up() { last_is "$out" '([.interfaces[].totals.packets] | add) == .totals.packets'; }
samples_later() { # N: wait until N more samples are out
	local from
	from=$(wc -l <"$out")
	wait_for 10 eval "[ \$(wc -l <'$out') -ge $((from + $1)) ]"
}

route 1 1 && route "$pairs" 2 || { fail "cannot address the pairs"; summary; exit; }
udp 1 11
udp 2 13
check "the first pair has slots of its own: 11 frames on each end" \
	wait_for 10 eval "iface $(a 1) '.totals.packets == 11' && iface $(b 1) '.totals.packets == 11'"
check "the last pair has none: its 26 frames are other interfaces', link header included" \
	wait_for 10 others '.totals.packets == 26 and .totals.bytes == 26 * 142'
# (not checked here that the pair still has no line: a slotless interface with frames
# takes a slot as soon as one is free, and on a loaded machine one can be, for a
# moment, while flowtop has yet to hear of every interface; CI saw it once)
check "the interfaces add up to the totals: 48 frames" eval 'counted "$out" 48 && add_up'

# the first three pairs go: their slots are free once a sample has drained them, and the
# six interfaces without one (the last pair among them, whose frames without a slot
# tell flowtop to look) take them
ip -n "$n" -batch - <<<"link del $(a 1)
link del $(a 2)
link del $(a 3)"
check "three pairs deleted: said" wait_for 10 grep -q "interface $(b 3) disappeared" "$out.err"
samples_later 2
check "an interface without a slot takes a gone one's when it is free" \
	wait_for 10 eval "iface $(a "$pairs") '.state == \"up\"' && iface $(b "$pairs") '.state == \"up\"'"
udp 2 4
check "from then on, its frames on its own: 4 each, from zero" \
	wait_for 10 eval "iface $(a "$pairs") '.totals.packets == 4' && iface $(b "$pairs") '.totals.packets == 4'"
check "the gone pair's 22 frames are other interfaces' now, beside the 26 without a slot" \
	others '.totals.packets == 22 + 26'
check "their rows leave the list, as many come" \
	wait_for 10 eval "last_is '$out' '[.interfaces[].name] | index(\"$(a 1)\") == null' && named 255"
check "a host seen on the gone pair alone: seen on other interfaces, not the new ones" \
	host 10.83.1.99 '.interfaces == ["other"]'
check "a host seen without a slot and then on it: both said" \
	host 10.83.2.99 "(.interfaces | sort) == ([\"$(a "$pairs")\", \"$(b "$pairs")\", \"other\"] | sort)"
check "the interfaces still add up to the totals: 56 frames" wait_for 10 eval 'counted "$out" 56 && add_up'

# all go, and a new pair comes: 261 interfaces have come and gone, and it is counted on
# its own from its first frame
for i in $(seq 4 "$pairs"); do echo "link del $(a "$i")"; done >"$E2E_TMP/del"
ip -n "$n" -batch "$E2E_TMP/del" || fail "cannot delete the pairs"
check "every pair deleted: said" wait_for 20 grep -q "interface $(b "$pairs") disappeared" "$out.err"
samples_later 2
ip -n "$n" -batch - <<<"link add $(a new) type veth peer name $(b new)
link set $(a new) up
link set $(b new) up" || fail "cannot create the new pair"
route new 3 || fail "cannot address the new pair"
check "a new interface after $((2 * pairs + 1)) came: said" \
	wait_for 10 grep -q "interface $(b new) appeared" "$out.err"
udp 3 7
check "a new interface after hundreds came and went: a slot of its own, every frame on it" \
	wait_for 10 eval "iface $(a new) '.totals.packets == 7 and .totals.bytes == 7 * 142' && iface $(b new) '.totals.packets == 7'"
check "its host names it" host 10.83.3.99 "(.interfaces | sort) == ([\"$(a new)\", \"$(b new)\"] | sort)"
check "the interfaces add up to the totals: 70 frames" eval 'counted "$out" 70 && add_up'
kill -0 "$pid" 2>/dev/null
check "flowtop goes on" [ $? = 0 ]
stop_bg "$pid" INT
rc=$?
check "exit 0 on SIGINT" [ "$rc" = 0 ]
summary
