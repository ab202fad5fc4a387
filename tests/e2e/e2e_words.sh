#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_words.sh -- what the screen says, read as a first-time user reads it, on the real
# binary under tmux (a private server) watching known traffic on a veth: the header's
# rates in the table's unit; the three filters named apart (the row filter typed with
# '/', the expression's rejects, the BPF program's cost); that cost shown only where it
# means something (a flood, not a trickle), and with an expression too; SHARE in a text
# dump as a percentage, not a bar; nouns that agree with their counts ("1 row"); 'c' at
# 120 columns shows AS and CC (the sparkline and share give way), and where they cannot
# fit, says what they need; the header's lines cut at the width.
. "$(dirname "$0")/lib.sh"
need_root 17
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }

netns_new wa && a=$NETNS && netns_new wb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=ftw-a-$E2E_SFX vb=ftw-b-$E2E_SFX
two_hosts "$a" "$b" "$va" "$vb" 10.79.0 || { fail "cannot set up the veth pair"; summary; exit; }

# a steady trickle from .1 for the whole script
ip netns exec "$a" ping -q -c 600 -i 0.1 -s 100 10.79.0.2 >/dev/null 2>&1 &
E2E_PIDS+=($!)

tmux_server words
S=flowtop
tm new-session -d -s "$S" -x 120 -y 30 \
	"ip netns exec $b $FLOWTOP -i $vb -N -d 0.2; echo \$? >$E2E_TMP/rc"
screen() { tm capture-pane -p -t "$S"; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
# keys are read in order; each check after them waits for its effect on the screen
keys() { tm send-keys -t "$S" "$@"; }
shows() { screen | grep -q -- "$1"; }
line() { screen | sed -n "${1}p"; }
wait_for 10 shows "^10\.79\.0\.1 " || fail "the screen did not start"

# the header's rates: bits/s as the table's, and bytes/s once 'b' switches the table
check "the header's rates in bits/s, as the table's" \
	wait_for 5 eval 'line 2 | grep -q "^ in  .*b/s .*out .*b/s" && ! line 2 | grep -q "B/s"'
keys b
check "'b': the header's rates in bytes/s too, as the table's" \
	wait_for 5 eval 'screen | grep -q "^10\.79\.0\.1 .*B " && line 2 | grep -q "^ in  .*B/s .*out .*B/s" && ! line 2 | grep -q "b/s"'
keys b

# three things were "filter": the row filter, the expression's rejects, the program's cost
check "the counters: the expression's rejects as unmatched, the program's time as BPF cost" \
	eval 'line 3 | grep -q " unmatched 0 .* BPF cost " && ! line 3 | grep -q filter'
keys / 10.79.0.1 Enter
check "'/': the header names the row filter, and only it says filter" \
	wait_for 5 eval 'line 1 | grep -q "  row filter: 10\.79\.0\.1$" && ! screen | sed -n 2,3p | grep -q filter'
check "and the status line says how many rows, the noun agreeing: 1 row" shows "row filter: 10\.79\.0\.1 (1 row)"
# SHARE is a bar on the screen, a number in a text dump: 10.79.0.1 is in every frame
keys d "$E2E_TMP/dump.txt" Enter
check "a text dump writes SHARE as a percentage, not a bar" \
	wait_for 5 eval 'grep -q " SHARE$" "$E2E_TMP/dump.txt" && grep -q "^10\.79\.0\.1 .* 100\.0 %$" "$E2E_TMP/dump.txt" &&
	                 ! grep -q "#" "$E2E_TMP/dump.txt"'
check "the dump says it wrote 1 row" shows "wrote 1 row to $E2E_TMP/dump.txt"
keys / Escape
keys a
check "'a': both hosts in one prefix, 1 group" wait_for 5 shows "rows by prefix: 1 group$"
keys a a a a
wait_for 5 shows "rows by host" || fail "'a' did not come back to hosts (AS, country, port, host)"

# the BPF cost: a trickle's frames each pay for cold caches and the clock reads, several
# times what a busy interface's do: not a figure to show
check "a trickle: no BPF cost figure, and why" \
	eval 'line 3 | grep -q "  BPF cost - (under 1000 frames/s)$"'
ip netns exec "$a" ping -q -f -w 30 -s 100 10.79.0.2 >/dev/null 2>&1 &
flood=$!
E2E_PIDS+=($flood)
check "a flood: the BPF cost a frame" wait_for 10 eval 'line 3 | grep -Eq "  BPF cost [0-9]+ ns/frame$"'
keys e icmp Enter
check "with an expression: the cost of the gate, the expression and the count together" \
	wait_for 10 eval 'line 3 | grep -Eq "  BPF cost [0-9]+ ns/frame with the expression$"'
kill "$flood" 2>/dev/null
wait "$flood" 2>/dev/null
keys e C-u Enter

# 'c' asks for the AS and CC columns: at 120 columns the sparkline and SHARE give way
titles() { screen | grep "^ADDRESS"; }
# the address column's width, which tells a frame drawn at the new width from the old
# one cut by tmux: "ADDRESS", spaces to its width, a space, then "RX 2s v" right-aligned
addr_width() { titles | awk '{ print index($0, "RX 2s") - 3 }'; }
wait_for 5 eval '[ "$(addr_width)" = 23 ]' || fail "120 columns: not drawn"
keys c
check "'c' at 120 columns: AS and CC shown, the sparkline and SHARE gone for them" \
	wait_for 5 eval 'titles | grep -Eq " RX 40s .* PEAK AS +CC$" && ! titles | grep -Eq "SHARE|LAST 40s"'
keys c
check "'c' again: the sparkline and SHARE back" wait_for 5 eval 'titles | grep -q " SHARE .*LAST 40s$"'
tm resize-window -t "$S" -x 60 -y 20
wait_for 5 eval '[ "$(addr_width)" = 15 ]' || fail "60 columns: not drawn"
keys c
check "'c' at 60 columns: CC shown, and why AS is not" \
	wait_for 5 eval 'titles | grep -Eq " CC$" && shows "AS needs 83 columns (60 here)"'
keys c
tm resize-window -t "$S" -x 40 -y 10
wait_for 5 eval '[ "$(addr_width)" = 22 ]' || fail "40 columns: not drawn"
keys c
check "'c' at 40 columns: neither fits, and it says so" \
	wait_for 5 eval 'shows "AS and CC need 83 columns (40 here)" && ! titles | grep -Eq " (AS|CC)"'
keys c
# the header's lines are cut at the width, not wrapped onto the table's (seen with no row)
keys / 192.0.2.1 Enter
check "40 columns: the header's lines are cut, nothing of them under the titles" \
	wait_for 5 eval 'shows "^  no host matches the row filter" && [ -z "$(line 5)" ]'
keys / Escape
tm resize-window -t "$S" -x 120 -y 30

keys q
wait_for 5 eval '[ "$(cat "$E2E_TMP/rc" 2>/dev/null)" = 0 ]' || fail "q did not end it with status 0"

# a capture of one frame
g=$CORPUS/pcap/ndpi-gnutella.pcap
if [ -e "$g" ] && tcpdump -r "$g" -c 1 -w "$E2E_TMP/one.pcap" 2>/dev/null; then
	tm new-session -d -s one -x 120 -y 30 "$FLOWTOP -N -r $E2E_TMP/one.pcap --speed 0"
	check "a replay of 1 frame ends saying 1 frame" \
		wait_for 10 eval 'tm capture-pane -p -t one | grep -q "end of capture: 1 frame; q quits"'
	tm send-keys -t one q
else
	fail "cannot make a capture of one frame from $g"
fi
summary
