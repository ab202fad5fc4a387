#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_netns.sh -- --netns: flowtop runs in the test's own namespace and watches an
# interface inside another, named, by path and by the PID of a process in it; the
# default interface, the picker and a switch stay inside it; privileges are dropped
# after; an unknown namespace or a file that is none is refused; the namespace's name
# deleted and then its interface: said, as for any vanished interface.
. "$(dirname "$0")/lib.sh"
need_root 17
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }

# X holds the watched ends (two veth pairs to Y) and a default route; Y pings X
netns_new nx && x=$NETNS && netns_new ny && y=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$x" "$y"
x1=ftn1x-$E2E_SFX y1=ftn1y-$E2E_SFX x2=ftn2x-$E2E_SFX y2=ftn2y-$E2E_SFX
veth_pair "$x" "$y" "$x1" "$y1" && veth_pair "$x" "$y" "$x2" "$y2" ||
	{ fail "cannot create the veth pairs"; summary; exit; }
ip -n "$x" addr add 10.66.1.1/24 dev "$x1"
ip -n "$y" addr add 10.66.1.2/24 dev "$y1"
ip -n "$x" addr add 10.66.2.1/24 dev "$x2"
ip -n "$y" addr add 10.66.2.2/24 dev "$y2"
ip -n "$x" route add default via 10.66.2.2 dev "$x2" # the default interface is x2
# no ARP on the wire: each side knows the other's address already
ip -n "$x" neigh add 10.66.1.2 lladdr "$(mac "$y" "$y1")" dev "$x1" nud permanent
ip -n "$y" neigh add 10.66.1.1 lladdr "$(mac "$x" "$x1")" dev "$y1" nud permanent
ip -n "$x" neigh add 10.66.2.2 lladdr "$(mac "$y" "$y2")" dev "$x2" nud permanent
ip -n "$y" neigh add 10.66.2.1 lladdr "$(mac "$x" "$x2")" dev "$y2" nud permanent

# flowtop in this script's namespace, watching x; its last JSON line
json_last() { grep '"interval"' "$1" | tail -n 1; }
rx_of() { json_last "$1" | jq -r --arg ip "$2" '.hosts[] | select(.ip == $ip) | .rx_packets'; }

# by name, -i given: 20 echo requests in, 20 replies out, counted exactly
"$FLOWTOP" --netns "$x" -i "$x1" -b --json -d 0.3 >"$E2E_TMP/name.jsonl" 2>"$E2E_TMP/name.err" &
pid=$!
E2E_PIDS+=($pid)
wait_for 5 grep -q interval "$E2E_TMP/name.jsonl"
caps() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
check "by name: attached, CapEff then CAP_NET_RAW alone (CAP_SYS_ADMIN dropped)" \
	[ "$(caps CapEff)" = 0000000000002000 ]
check "by name: flowtop itself moved into the namespace" \
	[ "$(stat -L -c %i /proc/$pid/ns/net)" = "$(stat -L -c %i "/run/netns/$x")" ]
ip netns exec "$y" ping -q -c 20 -i 0.02 10.66.1.1 >/dev/null 2>&1
wait_for 10 eval '[ "$(rx_of "$E2E_TMP/name.jsonl" 10.66.1.2)" = 20 ]' 2>/dev/null
stop_bg "$pid" INT
check "by name: exit 0 on SIGINT" [ $? = 0 ]
check "by name: JSON names the namespace" \
	eval 'json_last "$E2E_TMP/name.jsonl" | jqt --arg ns "$x" ".netns == \$ns and .interface == \"'"$x1"'\""'
check "by name: 20 requests to 10.66.1.1, 20 replies to 10.66.1.2, exactly" \
	eval '[ "$(rx_of "$E2E_TMP/name.jsonl" 10.66.1.1)" = 20 ] && [ "$(rx_of "$E2E_TMP/name.jsonl" 10.66.1.2)" = 20 ]'

# by PID of a process inside, no -i: the namespace's default interface
ip netns exec "$x" sleep 60 &
inside=$!
E2E_PIDS+=($inside)
# until ip has entered the namespace and become sleep, its PID names ours
in_x() { [ "$(stat -L -c %i /proc/$inside/ns/net)" = "$(stat -L -c %i "/run/netns/$x")" ]; }
wait_for 5 in_x
"$FLOWTOP" --netns "$inside" -b --json -d 0.3 >"$E2E_TMP/pid.jsonl" 2>"$E2E_TMP/pid.err" &
pid=$!
E2E_PIDS+=($pid)
wait_for 5 grep -q interval "$E2E_TMP/pid.jsonl"
ip netns exec "$y" ping -q -c 10 -i 0.02 10.66.2.1 >/dev/null 2>&1
wait_for 10 eval '[ "$(rx_of "$E2E_TMP/pid.jsonl" 10.66.2.2)" = 10 ]' 2>/dev/null
stop_bg "$pid" INT
check "by PID: the default route's interface inside the namespace" \
	eval 'json_last "$E2E_TMP/pid.jsonl" | jqt ".interface == \"'"$x2"'\""'
check "by PID: its 10 requests counted" [ "$(rx_of "$E2E_TMP/pid.jsonl" 10.66.2.1)" = 10 ]

# by path, text output
"$FLOWTOP" --netns "/run/netns/$x" -i "$x1" -b -n 1 -d 0.2 >"$E2E_TMP/path.txt" 2>&1
check "by path: the text output names the namespace" \
	grep -q "  $x1 (netns /run/netns/$x)  interval" "$E2E_TMP/path.txt"

# refused
out=$("$FLOWTOP" --netns "no-such-ns-$E2E_SFX" -b -n 1 2>&1)
rc=$?
check "an unknown namespace: exit 2, said" \
	eval '[ "$rc" = 2 ] && grep -q "no such network namespace" <<<"$out"'
out=$("$FLOWTOP" --netns /etc/hostname -b -n 1 2>&1)
rc=$?
check "a file that is no namespace: exit 2, said" \
	eval '[ "$rc" = 2 ] && grep -q "is not a network namespace" <<<"$out"'
out=$("$FLOWTOP" --netns "$x" -i "$y1" -b -n 1 2>&1)
rc=$?
check "an interface of another namespace is unknown inside it: exit 2" \
	eval '[ "$rc" = 2 ] && grep -q "$y1" <<<"$out"'

# the screen: header, picker and a switch inside the namespace
tmux_server netns
tm new-session -d -s s -x 120 -y 30 "$FLOWTOP --netns $x -i $x1 -N -d 0.3; echo \$? >$E2E_TMP/rc"
screen() { tm capture-pane -p -t s; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
check "screen: the header names interface and namespace" \
	wait_for 5 eval 'screen | grep -q "flowtop  $x1 (up) in netns $x"'
tm send-keys -t s i
wait_for 5 eval 'screen | grep -q " $x2 "'
# an interface of this script's namespace, which the picker must not list
here=$(ip -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2; exit }')
check "screen: the picker lists the namespace's interfaces, not this one's" \
	eval 'screen | grep -q " $x2 " && { [ -z "$here" ] || ! screen | grep -q " $here "; }'
tm send-keys -t s Down Enter # lo, x1 (now), x2: the next one
check "screen: switched inside it" wait_for 5 eval 'screen | grep -q "now watching $x2"'
ip netns exec "$y" ping -q -c 5 -i 0.05 10.66.2.1 >/dev/null 2>&1
check "screen: counting there" wait_for 5 eval 'screen | grep -q "^10\.66\.2\.1 "'

# batch: the name deleted, then the interface: exit 3, said
"$FLOWTOP" --netns "$x" -i "$x1" -b -d 0.2 >"$E2E_TMP/gone.out" 2>"$E2E_TMP/gone.err" &
pid=$!
E2E_PIDS+=($pid)
wait_for 5 grep -q interval "$E2E_TMP/gone.out"
ip netns del "$x" # the name only: the namespace lives on, held by flowtop
n0=$(grep -c interval "$E2E_TMP/gone.out")
wait_for 5 eval '[ "$(grep -c interval "$E2E_TMP/gone.out")" -ge $((n0 + 2)) ]' # two samples on
check "the namespace's name deleted: flowtop goes on" kill -0 "$pid"
ip -n "$y" link del "$y1" # the pair goes, its end in x with it
wait_for 5 eval '! kill -0 "$pid" 2>/dev/null'
wait "$pid"
rc=$?
check "then its interface: exit 3, and why" \
	eval '[ "$rc" = 3 ] && grep -q "$x1" "$E2E_TMP/gone.err"'
summary
