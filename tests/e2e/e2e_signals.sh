#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_signals.sh -- the screen as users run it, reverse DNS on (the default; the test's
# namespace has no route, so lookups fail at once): SIGINT, SIGTERM and SIGHUP, each
# SIGNAL_LOOPS (20) times, every other time sent twice, must end it with status 0, the
# terminal restored and the -o snapshot written; SIGUSR1 snapshots and it goes on.
. "$(dirname "$0")/lib.sh"
loops=${SIGNAL_LOOPS:-20}
need_root 5
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }

netns_new sig && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
veth=fsg-$E2E_SFX
ip -n "$ns" link add "$veth" type veth peer name "${veth}p" && ip -n "$ns" link set "$veth" up &&
	ip -n "$ns" link set "${veth}p" up || { fail "cannot create a veth"; summary; exit; }
tmux_server sig
flowtop_pid() { pgrep -f "^$FLOWTOP -i $veth -d 0.2 -o" | head -n 1; }

# run SIGNAL TWICE: one screen session ended by SIGNAL; prints what went wrong, if anything
run() {
	local sig=$1 twice=$2 pid
	rm -f "$E2E_TMP/rc" "$E2E_TMP/stty" "$E2E_TMP/snap.json"
	tm kill-session -t s 2>/dev/null # the last run's, if it ended early (panes remain)
	tm new-session -d -s s -x 100 -y 25 \
		"ip netns exec $ns $FLOWTOP -i $veth -d 0.2 -o $E2E_TMP/snap.json; echo \$? >$E2E_TMP/rc; stty -a >$E2E_TMP/stty"
	wait_for 5 eval 'tm capture-pane -p -t s | grep -q "flowtop  $veth"' || { echo "no screen"; return; }
	pid=$(flowtop_pid)
	# the resolver thread running beside the main one: names are on
	wait_for 5 eval '[ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 2 ]' || { echo "no resolver thread"; return; }
	kill -"$sig" "$pid"
	[ "$twice" = 1 ] && kill -"$sig" "$pid" 2>/dev/null
	wait_for 5 test -s "$E2E_TMP/stty" || { echo "did not end"; return; }
	[ "$(cat "$E2E_TMP/rc")" = 0 ] || echo "exit status $(cat "$E2E_TMP/rc")"
	grep -q " icanon " "$E2E_TMP/stty" && grep -q " echo " "$E2E_TMP/stty" || echo "terminal not restored"
	jq -e '.interface' "$E2E_TMP/snap.json" >/dev/null 2>&1 || echo "no snapshot"
	tm kill-session -t s 2>/dev/null
}

for sig in INT TERM HUP; do
	bad=
	for ((i = 0; i < loops; i++)); do
		why=$(run "$sig" $((i % 2)))
		[ -n "$why" ] && bad="$bad run $i: $why;"
	done
	if [ -z "$bad" ]; then
		pass "SIG$sig with names on, $loops times: status 0, terminal restored, snapshot written"
	else
		fail "SIG$sig with names on:$bad"
	fi
done

# SIGUSR1: a snapshot, and the screen goes on
rm -f "$E2E_TMP/rc" "$E2E_TMP/usr1.json"
tm new-session -d -s u -x 100 -y 25 \
	"ip netns exec $ns $FLOWTOP -i $veth -d 0.2 -o $E2E_TMP/usr1.json; echo \$? >$E2E_TMP/rc"
usr1_pid() { pgrep -f "^$FLOWTOP -i $veth -d 0.2 -o $E2E_TMP/usr1.json"; }
# a loaded machine (ASan, the suites before) can take seconds to load and draw
wait_for 15 eval 'tm capture-pane -p -t u | grep -q "flowtop  $veth" && [ -n "$(usr1_pid)" ]' ||
	echo "# e2e_signals: not drawn after 15 s: $(tm capture-pane -p -t u | head -n 3 | tr '\n' '|')"
kill -USR1 "$(usr1_pid)"
check "SIGUSR1: the snapshot is written" wait_for 5 eval 'jq -e .interface "$E2E_TMP/usr1.json" >/dev/null 2>&1'
check "SIGUSR1: the screen goes on" wait_for 5 eval 'tm capture-pane -p -t u | grep -q "SIGUSR1: wrote"'
tm send-keys -t u q
wait_for 5 test -s "$E2E_TMP/rc"
summary
