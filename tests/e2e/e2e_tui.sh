#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_tui.sh -- the real binary on its screen, under tmux (a private server), watching
# known traffic on two veth pairs: every key is typed with send-keys and its effect read
# back with capture-pane.
. "$(dirname "$0")/lib.sh"
need_root 53
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }

netns_new ta && a=$NETNS && netns_new tb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
v1a=ftu1a-$E2E_SFX v1b=ftu1b-$E2E_SFX v2a=ftu2a-$E2E_SFX v2b=ftu2b-$E2E_SFX
veth_pair "$a" "$b" "$v1a" "$v1b" && veth_pair "$a" "$b" "$v2a" "$v2b" ||
	{ fail "cannot create the veth pairs"; summary; exit; }
ip -n "$a" addr add 10.77.1.1/24 dev "$v1a"
ip -n "$a" addr add 10.77.1.3/24 dev "$v1a"
ip -n "$b" addr add 10.77.1.2/24 dev "$v1b"
ip -n "$a" addr add 10.77.2.1/24 dev "$v2a"
ip -n "$b" addr add 10.77.2.2/24 dev "$v2b"
# names for the DNS key, seen only inside ns b (ip netns exec mounts /etc/netns/NS/hosts)
mkdir -p "/etc/netns/$b" && E2E_PATHS+=("/etc/netns/$b")
printf '10.77.1.1 alpha.flowtop.test\n' >"/etc/netns/$b/hosts"

# bounded traffic: 10.77.1.1 busiest, then .3; 10.77.2.1 on the second pair
ip netns exec "$a" ping -q -c 600 -i 0.05 -s 800 -I 10.77.1.1 10.77.1.2 >/dev/null 2>&1 &
E2E_PIDS+=($!)
ip netns exec "$a" ping -q -c 300 -i 0.1 -I 10.77.1.3 10.77.1.2 >/dev/null 2>&1 &
E2E_PIDS+=($!)
ip netns exec "$a" ping -q -c 600 -i 0.05 10.77.2.2 >/dev/null 2>&1 &
E2E_PIDS+=($!)

tmux_server main
S=flowtop
# a fault preloaded: binding to the interface $bad fails, as if it went at that moment
bad=ftbad-$E2E_SFX fault="LD_PRELOAD=$TESTBIN/fault.so FAULT_BIND_IFACE=$bad"
sanitized "$FLOWTOP" && fault="$fault ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
tm new-session -d -s "$S" -x 120 -y 30 \
	"ip netns exec $b env $fault $FLOWTOP -i $v1b -N -d 0.5 -o $E2E_TMP/exit.json; echo \$? >$E2E_TMP/rc"
screen() { tm capture-pane -p -t "$S"; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
rows() { screen | sed -n '5,28p' | grep -v '^ *$'; }
# keys are read in order; each check after them waits for its effect on the screen
keys() { tm send-keys -t "$S" "$@"; }
shows() { screen | grep -q -- "$1"; }
shows_not() { ! screen | grep -q -- "$1"; }
first_row() { rows | head -n 1 | awk '{print $1}'; }
wait_shows() { wait_for 5 shows "$1"; }
# in_bytes: the bytes the header says came in since attaching ("(578kB, 3.90kp)")
in_bytes() { screen | sed -n 2p | sed -n 's/^ in [^(]*(\([0-9.]*\)\([kMGTP]\?\)B, .*/\1 \2/p' |
	awk '{ m = $2 == "" ? 0 : index("kMGTP", $2); printf "%.0f\n", $1 * 1000 ^ m }'; }
# uptime: the seconds the header says flowtop has been up
uptime() { screen | head -n 1 | sed -n 's/.* up \([0-9]*\):\([0-9]*\):\([0-9]*\) .*/\1 \2 \3/p' |
	awk '{ print $1 * 3600 + $2 * 60 + $3 }'; }

check "header: interface and host count" wait_shows "flowtop  $v1b (up)  up 00:00:0.  hosts 3/65536"
check "rows: the three hosts of the first pair" \
	wait_for 5 eval '[ "$(rows | grep -c "^10\.77\.1\.")" = 3 ]'
check "rows: nothing of the second pair" eval '! rows | grep -q "^10\.77\.2\."'
check "sorted by RX 2s: busiest receiver first" wait_for 5 eval '[ "$(first_row)" = 10.77.1.2 ]'
keys '<'
check "'<' sorts by address" seen 'shows "^ADDRESS \^" && [ "$(first_row)" = 10.77.1.1 ]'
keys r
check "'r' reverses" seen 'shows "^ADDRESS v" && [ "$(first_row)" = 10.77.1.3 ]'
keys r '>'
check "'>' moves the sort right again" seen 'shows "RX 2s v" && [ "$(first_row)" = 10.77.1.2 ]'
keys F6
check "F6, htop's sort key, moves the sort right too" seen 'shows "TX 2s v"'
keys '<'
wait_shows "RX 2s v"
keys F4
check "F4, htop's filter key, opens the filter prompt" wait_shows "^Filter (CIDR, address, text):"
keys 10.77.1.3 Enter
check "F4's filter applies: one row left" \
	seen '[ "$(rows | wc -l)" = 1 ] && [ "$(first_row)" = 10.77.1.3 ]'
keys F3
check "F3, htop's search key, opens the same prompt, the filter offered" \
	wait_shows "^Filter (CIDR, address, text): 10.77.1.3"
keys Escape
wait_for 5 eval '[ "$(rows | wc -l)" = 3 ]'

keys / 10.77.1.3 Enter
check "'/' filter: one row left" seen '[ "$(rows | wc -l)" = 1 ] && [ "$(first_row)" = 10.77.1.3 ]'
check "the header shows the row filter" wait_shows "  row filter: 10.77.1.3"
keys / Escape
check "Esc clears the filter" seen '[ "$(rows | wc -l)" = 3 ] && ! screen | head -n 1 | grep -q filter'
keys / 10.0.0.0/33 Enter
check "a bad filter: said on the status line, rows kept" \
	seen 'shows "invalid filter .10.0.0.0/33.: prefix length" && [ "$(rows | wc -l)" = 3 ]'

keys / 10.77.1.0/24 Enter d
check "'d' offers the -o file" wait_shows "Dump to (.json, .csv, text): $E2E_TMP/exit.json"
keys C-u
for _ in $(seq 60); do tm send-keys -t "$S" BSpace; done
keys "$E2E_TMP/dump.csv" Enter
check "the dump is written and says so" wait_shows "wrote 3 rows to $E2E_TMP/dump.csv"
check "the dump parses as CSV with the rows shown" python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
sys.exit(not (len(r) == 3 and {x["ip"] for x in r} == {"10.77.1.1", "10.77.1.2", "10.77.1.3"}))' \
	"$E2E_TMP/dump.csv"
check "the dump has the view's columns, rates in bits/s as on screen" python3 -c 'import csv, sys
r = list(csv.reader(open(sys.argv[1])))
cols = ["ip", "name", "rx2", "tx2", "rx10", "tx10", "rx40", "tx40", "peak", "share"]
busy = [x for x in r[1:] if x[0] == "10.77.1.1"][0]
sys.exit(not (r[0] == cols and float(busy[2]) > 8 * 800 and 0 < float(busy[9]) <= 1))' \
	"$E2E_TMP/dump.csv"
keys d
for _ in $(seq 60); do tm send-keys -t "$S" BSpace; done
keys /nonexistent-dir/x.json Enter
check "an unwritable dump path: the error, and flowtop goes on" \
	wait_shows "cannot write snapshot ./nonexistent-dir/x.json.: No such file"
keys / Escape

keys p
check "'p' pauses" wait_shows "PAUSED"
# two seconds by flowtop's own clock: four samples taken meanwhile, none shown
before=$(rows) t0=$(uptime)
wait_for 10 eval '[ "$(uptime)" -ge $((t0 + 2)) ]'
check "paused: the numbers stand still" [ "$before" = "$(rows)" ]
keys p
check "'p' again resumes" seen 'shows_not PAUSED && [ "$before" != "$(rows)" ]'

keys h
check "'h' opens the help" wait_shows "flowtop keys"
keys x
check "any key closes it" seen 'shows_not "flowtop keys"'
keys t
check "'t' shows cumulative totals" wait_shows "RX PKTS"
keys t b
check "'b' shows bytes per second" seen 'shows_not "RX PKTS" && rows | head -n 1 | grep -q "[0-9]kB "'
keys b n
check "'n' shows names" wait_shows "^alpha.flowtop.test"
keys n

keys i
check "'i' lists the interfaces" seen 'shows "watch which interface" && shows "$v2b" && shows "$v1b .*(now)"'
keys j Enter
check "picking one switches to it" wait_shows "flowtop  $v2b (up)"
check "the status line says counters start over" wait_shows "now watching $v2b: counters start over"
check "rows now show only the second pair" \
	wait_for 5 eval 'rows | grep -q "^10\.77\.2\.2" && ! rows | grep -q "^10\.77\.1\."'
keys i k Enter
check "and back to the first" wait_shows "flowtop  $v1b (up)"
keys i End Enter
check "picker: End selects the last interface" wait_shows "flowtop  $v2b (up)" ||
	screen | sed 's/^/  | /'
keys i Home Enter
check "picker: Home selects the first, any" wait_shows "flowtop  any (up)" ||
	screen | sed 's/^/  | /'
keys i End k Enter # the first pair's, just before the second's
wait_shows "flowtop  $v1b (up)"
# Enter on the interface watched: closed, said, and the counts go on (not started over)
wait_for 10 eval '[ "$(uptime)" -ge 2 ] && [ "$(in_bytes)" -gt 0 ]'
t0=$(uptime) b0=$(in_bytes)
keys i
wait_shows "$v1b .*(now)"
keys Enter
check "picker: Enter on the interface watched closes it, saying so" \
	seen 'shows "already watching $v1b: the counters go on" && ! shows "watch which interface"'
check "and its counters go on: the time up and the bytes in did not start over" \
	eval '[ "$(uptime)" -ge "$t0" ] && [ "$(in_bytes)" -ge "$b0" ]'

# an interface that goes away between the listing and the pick
ip -n "$b" link add "ftgone-$E2E_SFX" type dummy 2>/dev/null ||
	ip -n "$b" link add "ftgone-$E2E_SFX" type veth peer name "ftgp-$E2E_SFX"
keys i
check "the picker lists the new interface" wait_shows "ftgone-$E2E_SFX"
ip -n "$b" link del "ftgone-$E2E_SFX"
for _ in 1 2 3 4 5 6; do tm send-keys -t "$S" j; done # it was created last
keys Enter
check "a vanished pick: says why, keeps the current one" \
	eval 'wait_shows "no interface .ftgone-$E2E_SFX.*still watching $v1b" && shows "flowtop  $v1b (up)"'

# a pick whose bind fails: the current interface goes on counting, its counters kept
ip link add "$bad" netns "$b" type veth peer name "${bad}p" netns "$a"
keys i
wait_shows "$bad"
for _ in 1 2 3 4 5 6; do tm send-keys -t "$S" j; done # it was created last
keys Enter
in_total() { screen | sed -n 2p | grep -o '([^)]*)' | head -n 1; }
check "a pick that cannot be bound: says why, keeps the current one" \
	seen 'shows "cannot bind to .$bad.: No such device; still watching $v1b" && shows "flowtop  $v1b (up)"' ||
	screen | sed 's/^/  | /'
t0=$(in_total)
check "and its counters: the hosts still there, their totals still growing" \
	seen 'shows "hosts 3/" && [ "$(in_total)" != "$t0" ]'
ip -n "$b" link del "$bad"

tm resize-window -t "$S" -x 300 -y 100
check "300x100: drawn, the footer at the bottom" seen 'shows "RX 40s" && [ "$(screen | sed -n 100p | grep -c "h Help")" = 1 ]'
tm resize-window -t "$S" -x 40 -y 10
check "40x10: still drawing, columns dropped" seen 'shows "^ADDRESS" && shows_not "RX 40s"'
tm resize-window -t "$S" -x 120 -y 30
check "120x30 again: all rate columns back" wait_shows "RX 40s"

ip -n "$b" link del "$v1b"
check "the watched interface vanishes: said, picker offered" \
	eval 'wait_shows "disappeared: pick another" && shows "watch which interface"'
ip link add "ftnew-$E2E_SFX" netns "$a" type veth peer name "$v1b" netns "$b"
ip -n "$a" link set "ftnew-$E2E_SFX" up
ip -n "$b" link set "$v1b" up
keys Escape i
for _ in 1 2 3 4 5 6; do tm send-keys -t "$S" j; done # the re-created one is the last
keys Enter
check "re-created: the picker attaches to it again" wait_shows "flowtop  $v1b (up)"
keys q
check "'q' quits with status 0" wait_for 5 eval '[ "$(cat "$E2E_TMP/rc" 2>/dev/null)" = 0 ]'
exit_json_ok() { jq -e '.interface and (.hosts | type == "array")' "$E2E_TMP/exit.json" >/dev/null; }
check "-o: the table written on exit" exit_json_ok

# a second session, no -o: the dump's default name; SIGTERM and Ctrl-C restore the terminal
for how in TERM C-c; do
	rm -f "$E2E_TMP/stty" "$E2E_TMP/rc"
	tm kill-server 2>/dev/null
	tmux_server "$how"
	tm new-session -d -s "$S" -x 100 -y 25 -c "$E2E_TMP" \
		"ip netns exec $b $FLOWTOP -i $v2b -N; echo \$? >$E2E_TMP/rc; stty -a >$E2E_TMP/stty"
	wait_shows "flowtop  $v2b"
	if [ "$how" = TERM ]; then
		keys d
		check "no -o: the dump defaults to flowtop-IFACE-DATE-TIME.txt" \
			wait_shows "Dump to (.json, .csv, text): flowtop-$v2b-20[0-9]\{6\}-[0-9]\{6\}\.txt"
		keys Escape
		kill -TERM "$(pgrep -f "^$FLOWTOP -i $v2b -N")" # ours: its interface is unique
	else
		tm send-keys -t "$S" C-c
	fi
	check "$how: exit status 0" wait_for 5 eval '[ "$(cat "$E2E_TMP/rc" 2>/dev/null)" = 0 ]'
	check "$how: the terminal is restored (icanon echo)" \
		wait_for 5 eval 'grep -q " icanon " "$E2E_TMP/stty" && grep -q " echo " "$E2E_TMP/stty"'
done
summary
