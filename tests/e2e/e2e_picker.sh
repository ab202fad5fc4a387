#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_picker.sh -- the interface picker with more interfaces than a short terminal has
# lines: 24 veth pairs (48 interfaces) in a namespace the test makes, the screen 100x20
# under tmux. The box scrolls with the selection and says which entries it shows; End
# reaches the last interface, and Enter watches it.
. "$(dirname "$0")/lib.sh"
need_root 6
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }

netns_new pk && ns=$NETNS || { fail "cannot create the namespace"; summary; exit; }
for i in $(seq -w 1 24); do
	ip -n "$ns" link add "ftp$i-$E2E_SFX" type veth peer name "ftq$i-$E2E_SFX" &&
		ip -n "$ns" link set "ftp$i-$E2E_SFX" up && ip -n "$ns" link set "ftq$i-$E2E_SFX" up ||
		{ fail "cannot create veth pair $i"; summary; exit; }
done
first=ftp01-$E2E_SFX
last=$(ip -n "$ns" -o link show | tail -n 1 | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }')

tmux_server picker
S=flowtop
tm new-session -d -s "$S" -x 100 -y 20 \
	"ip netns exec $ns $FLOWTOP -i $first -N -d 0.5; echo \$? >$E2E_TMP/rc"
screen() { tm capture-pane -p -t "$S"; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
shows() { screen | grep -q -- "$1"; }
wait_for 10 shows "flowtop  $first"

tm send-keys -t "$S" i
# 20 lines: 14 entries of 50 (any, lo and the 48) in the box, above the status line and
# the footer, the watched one among them
check "the picker says which of its 50 entries it shows" \
	wait_for 5 eval 'shows "watch which interface? [0-9]*-[0-9]* of 50" && shows "$first .*(now)"'
tm send-keys -t "$S" End
check "End: the box scrolls to the last interface, and says so" \
	wait_for 5 eval 'shows "37-50 of 50" && shows "$last"'
check "the hint stays on the box's bottom line" eval 'shows "Space marks, Enter picks, Esc cancels"'
tm send-keys -t "$S" Home
check "Home: back to the top, any" wait_for 5 eval 'shows "1-14 of 50" && shows "\[ \] any "'
tm send-keys -t "$S" End Enter
check "Enter on the last: it is watched" wait_for 5 eval 'shows "flowtop  $last"'
tm send-keys -t "$S" q
check "q quits, status 0" wait_for 5 eval '[ "$(cat "$E2E_TMP/rc" 2>/dev/null)" = 0 ]'
summary
