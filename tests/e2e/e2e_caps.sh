#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_caps.sh -- flowtop as a user other than root, with the smallest set of file
# capabilities that works (cap_bpf,cap_perfmon,cap_net_raw+ep on a copy of the binary):
# batch mode counts known traffic exactly; the screen runs and switches interfaces;
# once attached the process holds CAP_NET_RAW alone (the screen CAP_BPF too, for the
# program of an expression e sets); with one of the three missing it says which. Run as root with -u USER: the same, as that user.
. "$(dirname "$0")/lib.sh"
need_root 20
command -v setcap >/dev/null || { fail "setcap is not installed (libcap2-bin)"; summary; exit; }

bin=$(mktemp -d "/tmp/ft-caps-$E2E_SFX-XXXXXX") && E2E_PATHS+=("$bin")
chmod 755 "$bin"
cp "$FLOWTOP" "$bin/flowtop" && chmod 755 "$bin/flowtop"
setcap cap_bpf,cap_perfmon,cap_net_raw+ep "$bin/flowtop" || { fail "setcap failed"; summary; exit; }
asuser=(setpriv --reuid=65534 --regid=65534 --clear-groups)

netns_new ca && a=$NETNS && netns_new cb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
v1a=fc1a-$E2E_SFX v1b=fc1b-$E2E_SFX v2a=fc2a-$E2E_SFX v2b=fc2b-$E2E_SFX
veth_pair "$a" "$b" "$v1a" "$v1b" && veth_pair "$a" "$b" "$v2a" "$v2b" || { fail "veths"; summary; exit; }
ip -n "$a" addr add 10.66.1.1/24 dev "$v1a"
ip -n "$b" addr add 10.66.1.2/24 dev "$v1b"

# batch mode as uid 65534: 5 echoes and their replies, counted exactly
start_bg "$b" "$E2E_TMP/batch.out" "${asuser[@]}" "$bin/flowtop" -i "$v1b" -b --json -d 0.2
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/batch.out"
ftpid=$(pgrep -P "$pid" -f "$bin/flowtop" || echo "$pid")
check "as uid 65534, once attached: CAP_NET_RAW alone" \
	eval '[ "$(awk "/^CapEff/ { print \$2 }" /proc/$ftpid/status)" = 0000000000002000 ] &&
	      [ "$(awk "/^Uid/ { print \$2 }" /proc/$ftpid/status)" = 65534 ]'
ip netns exec "$a" ping -q -c 5 -i 0.05 10.66.1.2 >/dev/null
wait_for 10 last_is "$E2E_TMP/batch.out" '.hosts[] | select(.ip == "10.66.1.1") | .rx_packets == 5'
stop_bg "$pid" INT
rc=$?
check "as uid 65534, batch mode: exit 0" [ "$rc" = 0 ]
check "as uid 65534, batch mode: the echoes and replies counted exactly" jqt -s \
	'last | .hosts[] | select(.ip == "10.66.1.1") | .tx_packets == 5 and .rx_packets == 5' \
	"$E2E_TMP/batch.out"

# the screen as uid 65534, and an interface switch (a new packet socket: CAP_NET_RAW)
tmux_server caps
tm new-session -d -s c -x 100 -y 25 \
	"ip netns exec $b ${asuser[*]} $bin/flowtop -i $v1b -N -d 0.2; echo \$? >$E2E_TMP/rc"
shows() { tm capture-pane -p -t c | grep -q "$1"; }
wait_for 5 shows "flowtop  $v1b"
scrpid=$(pgrep -f "^$bin/flowtop -i $v1b -N" | head -n 1)
check "as uid 65534, the screen: CAP_NET_RAW, and CAP_BPF for e's programs, alone" \
	eval '[ -n "$scrpid" ] && [ "$(awk "/^CapEff/ { print \$2 }" /proc/$scrpid/status)" = 0000008000002000 ]'
tm send-keys -t c e
tm send-keys -t c "icmp" Enter
check "as uid 65534, the screen's e loads an expression's program" \
	wait_for 5 shows "counting what 'icmp' matches"
tm send-keys -t c i
wait_for 3 shows "watch which interface"
for _ in 1 2 3 4; do tm send-keys -t c j; done # the picker lists lo, the two veths
tm send-keys -t c Enter
check "as uid 65534, the screen switches interfaces" wait_for 5 shows "flowtop  $v2b"
tm send-keys -t c q
check "as uid 65534, the screen quits with status 0" \
	wait_for 5 eval '[ "$(cat "$E2E_TMP/rc" 2>/dev/null)" = 0 ]'

# root with -u: once attached, the user alone with CAP_NET_RAW; counts, snapshot, switch
nobody=$(getent passwd 65534 | cut -d: -f1)
snapdir=$(mktemp -d "/tmp/ft-caps-snap-$E2E_SFX-XXXXXX") && E2E_PATHS+=("$snapdir")
chown 65534 "$snapdir"
start_bg "$b" "$E2E_TMP/user.out" "$FLOWTOP" -i "$v1b" -u "$nobody" -b --json -d 0.2 \
	-o "$snapdir/snap.json"
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/user.out"
ftpid=$(pgrep -P "$pid" -f "$FLOWTOP" || echo "$pid")
status() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$ftpid/status"; }
check "-u $nobody: runs as its uid and gid, no supplementary groups" \
	eval '[ "$(status Uid)" = 65534 ] && [ "$(status Gid)" = 65534 ] &&
	      [ -z "$(awk "/^Groups:/ { print \$2 }" /proc/$ftpid/status)" ]'
check "-u $nobody: CAP_NET_RAW alone, the bounding set empty" \
	eval '[ "$(status CapEff)" = 0000000000002000 ] && [ "$(status CapPrm)" = 0000000000002000 ] &&
	      [ "$(status CapBnd)" = 0000000000000000 ] && [ "$(status NoNewPrivs)" = 1 ]'
ip netns exec "$a" ping -q -c 4 -i 0.05 10.66.1.2 >/dev/null
wait_for 10 last_is "$E2E_TMP/user.out" '.hosts[] | select(.ip == "10.66.1.1") | .rx_packets == 4'
stop_bg "$pid" TERM
rc=$?
check "-u $nobody, batch mode: exit 0, counted exactly" eval '[ "$rc" = 0 ] && jqt -s \
	"last | .hosts[] | select(.ip == \"10.66.1.1\") | .tx_packets == 4 and .rx_packets == 4" \
	"$E2E_TMP/user.out"'
check "-u $nobody: the snapshot written, owned by the user" \
	eval '[ "$(stat -c %u "$snapdir/snap.json" 2>/dev/null)" = 65534 ] &&
	      jqt ".hosts | length >= 2" "$snapdir/snap.json"'
out=$("$FLOWTOP" -i lo -u "$nobody" -b -n 1 -o "$E2E_TMP/root-only.json" 2>&1)
rc=$?
check "-u $nobody with a snapshot path it cannot write: exit 2, says why" \
	eval '[ "$rc" = 2 ] && grep -q "root-only.json" <<<"$out"'

tm new-session -d -s u -x 100 -y 25 \
	"ip netns exec $b $FLOWTOP -i $v1b -u $nobody -N -d 0.2; echo \$? >$E2E_TMP/urc"
shows() { tm capture-pane -p -t u | grep -q "$1"; }
wait_for 5 shows "flowtop  $v1b"
tm send-keys -t u i
wait_for 3 shows "watch which interface"
for _ in 1 2 3 4; do tm send-keys -t u j; done
tm send-keys -t u Enter
check "-u $nobody, the screen switches interfaces" wait_for 5 shows "flowtop  $v2b"
tm send-keys -t u q
check "-u $nobody, the screen quits with status 0" \
	wait_for 5 eval '[ "$(cat "$E2E_TMP/urc" 2>/dev/null)" = 0 ]'

out=$(ip netns exec "$b" "${asuser[@]}" "$bin/flowtop" -i "$v1b" -u "$nobody" -b -n 1 2>&1)
rc=$?
check "-u without root: exit 2, says it takes root" \
	eval '[ "$rc" = 2 ] && grep -q "takes root" <<<"$out"'
out=$("$FLOWTOP" -i lo -u no-such-user-$E2E_SFX -b -n 1 2>&1)
rc=$?
check "-u with an unknown user: exit 2, says so" \
	eval '[ "$rc" = 2 ] && grep -q "no such user" <<<"$out"'

# a terminal description the user chose (TERMINFO) is not read while flowtop holds its
# capabilities: the same entry that starts the screen for root, whose process is not
# AT_SECURE, is not found as uid 65534 with file capabilities
tidir=$(mktemp -d "/tmp/ft-caps-ti-$E2E_SFX-XXXXXX") && E2E_PATHS+=("$tidir") && chmod 755 "$tidir"
infocmp -x xterm 2>/dev/null | sed "s/^xterm|/ft-$E2E_SFX|/" >"$tidir/ti.src" &&
	tic -x -o "$tidir" "$tidir/ti.src" 2>/dev/null && chmod -R a+rX "$tidir"
tm new-session -d -s t -x 100 -y 25 \
	"ip netns exec $b env TERM=ft-$E2E_SFX TERMINFO=$tidir $FLOWTOP -i $v1b -N -d 0.2; echo \$? >$E2E_TMP/trc"
tshows() { tm capture-pane -p -t t | grep -q "$1"; }
check "root: the screen starts on a TERMINFO entry of its own" wait_for 5 tshows "flowtop  $v1b"
tm send-keys -t t q
wait_for 5 eval '[ -s "$E2E_TMP/trc" ]'
tm new-session -d -s v -x 100 -y 25 \
	"ip netns exec $b ${asuser[*]} env TERM=ft-$E2E_SFX TERMINFO=$tidir $bin/flowtop -i $v1b -N -d 0.2 2>$E2E_TMP/ti.err; echo \$? >$E2E_TMP/vrc"
check "as uid 65534 with file capabilities: that TERMINFO is not read, the terminal unknown" \
	wait_for 5 eval '[ -s "$E2E_TMP/vrc" ] && [ "$(cat "$E2E_TMP/vrc")" != 0 ] && ! grep -q "flowtop  $v1b" <(tm capture-pane -p -t v 2>/dev/null)'

# one capability short: said by name, exit 2
setcap cap_bpf,cap_net_raw+ep "$bin/flowtop"
out=$(ip netns exec "$b" "${asuser[@]}" "$bin/flowtop" -i "$v1b" -b -n 1 2>&1)
rc=$?
check "without CAP_PERFMON: exit 2, and it is named" \
	eval '[ "$rc" = 2 ] && grep -q "missing CAP_PERFMON" <<<"$out"'
check "and the setcap line names this binary" \
	grep -qF "setcap cap_bpf,cap_perfmon,cap_net_raw+ep $bin/flowtop" <<<"$out"
summary
