#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_screen.sh -- the screen's colour, sparklines, traffic graph and mouse, on the real
# binary under tmux (a private server), with names on: colour escapes read back with
# capture-pane -e, a burst that the graph's peak follows and forgets, a sparkline that
# decays to blank when its host goes quiet, and mouse presses typed as the terminal
# would send them (X10 encoding).
. "$(dirname "$0")/lib.sh"
need_root 34
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }
command -v python3 >/dev/null || { fail "python3 is not installed"; summary; exit; }

netns_new sa && a=$NETNS && netns_new sb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=fts-a-$E2E_SFX vb=fts-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }
for i in 1 3 4 5 6; do
	ip -n "$a" addr add "10.78.0.$i/24" dev "$va"
done
ip -n "$b" addr add 10.78.0.2/24 dev "$vb"
# names on: the resolver answers from the namespace's hosts file
mkdir -p "/etc/netns/$b" && E2E_PATHS+=("/etc/netns/$b")
printf '10.78.0.1 steady.flowtop.test\n' >"/etc/netns/$b/hosts"

# a steady trickle from .1 for the whole script, a little from .4 .5 .6 (rows to click)
ip netns exec "$a" ping -q -c 1200 -i 0.1 -s 100 -I 10.78.0.1 10.78.0.2 >/dev/null 2>&1 &
E2E_PIDS+=($!)
for i in 4 5 6; do
	ip netns exec "$a" ping -q -c 300 -i 0.4 -I "10.78.0.$i" 10.78.0.2 >/dev/null 2>&1 &
	E2E_PIDS+=($!)
done

E2E_TMUX_UTF8=1
S=flowtop
screen() { tm capture-pane -p -t "$S"; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
screen_e() { tm capture-pane -e -p -t "$S"; }
# keys and clicks are read in order; each check waits for its effect on the screen
keys() { tm send-keys -t "$S" "$@"; }
shows() { screen | grep -q -- "$1"; }
# a press and a release of button 1 at column x, line y (0-based), as xterm sends them
click() {
	local x y
	x=$(printf %x $(($1 + 33))) y=$(printf %x $(($2 + 33)))
	tm send-keys -t "$S" -H 1b 5b 4d 20 "$x" "$y" 1b 5b 4d 23 "$x" "$y"
}
wheel_down() { tm send-keys -t "$S" -H 1b 5b 4d 61 21 2a; }
# toggle_graph: 'g', and wait until the graph is gone or back; what was typed before
# it has been read by then
toggle_graph() {
	local had=0
	shows "^ in  peak " && had=1
	keys g
	if [ "$had" = 1 ]; then seen '! shows "^ in  peak "'; else wait_for 5 shows "^ in  peak "; fi
}
title_y() { screen | grep -n '^ADDRESS' | head -n 1 | awk -F: '{print $1 - 1}'; }
# column x of a title on the title line
title_x() { screen | grep '^ADDRESS' | head -n 1 | awk -v t="$1" '{print index($0, t) - 1}'; }
# the graph's peak label for in or out, in bits/s
peak() {
	screen | awk -v d="$1" '$1 == d && $2 == "peak" {
		v = $3; m = 1
		if (v ~ /kb\/s$/) m = 1e3; else if (v ~ /Mb\/s$/) m = 1e6; else if (v ~ /Gb\/s$/) m = 1e9
		sub(/[kMG]?b\/s$/, "", v); print v * m; exit }'
}
# the LAST 40s cell of a host's row (the text from the title's column to the end)
history_of() {
	screen | awk -v h="$1" -v t="LAST 40s" '
		/^ADDRESS/ { x = index($0, t) }
		x && $1 == h { print substr($0, x); exit }'
}
# the first row under the titles drawn with the selection's attributes (reverse video,
# or the cyan background): its address or name
selected() {
	screen_e | python3 -c '
import re, sys
rows = False
for line in sys.stdin:
    m = re.match(r"((?:\x1b\[[0-9;]*m)*)(.*)", line)
    text = re.sub(r"\x1b\[[0-9;]*m", "", line)
    if text.startswith("ADDRESS"):
        rows = True
        continue
    codes = ";".join(re.findall(r"\x1b\[([0-9;]*)m", m.group(1))).split(";")
    if rows and ("46" in codes or "7" in codes):
        print(text.split()[0] if text.split() else "")
        break'
}
# the rows' first fields, top to bottom (rows start in column 0, status and footer not)
rows() { screen | awk '/^ADDRESS/ { on = 1; next } on && /^[0-9a-z]/ { print $1 }'; }
# colour escapes: a foreground or background of the 8 or 256 colours (not the defaults)
has_colour() { screen_e | grep -qP '\x1b\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)(;[0-9;]*)?m'; }

# ---- colour always, UTF-8, 45 lines: graph on by default, sparklines in blocks ----
tmux_server colour
tm new-session -d -s "$S" -x 130 -y 45 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 ip netns exec $b $FLOWTOP -i $vb -d 0.1 --color=always; echo \$? >$E2E_TMP/rc1"
check "starts: the steady host on screen, by name" wait_for 10 shows '^steady.flowtop.test '
check "--color=always: colour escapes on screen" has_colour
check "45 lines: the graph is on by default, in and out" \
	eval 'shows "^ in  peak " && shows "^ out peak "'
wait_for 5 eval '[ -n "$(peak in)" ]'
base=$(peak in)
check "the steady host's sparkline is drawn in block elements" \
	wait_for 5 eval 'history_of steady.flowtop.test | grep -q "[▁▂▃▄▅▆▇█]"'
# its first cell is its oldest samples, up to 40 back (0.1 s each): kept apart from a
# host's 8 newest, they are drawn once it has sent for 4 s
check "the steady host's sparkline reaches back 40 samples: its first cell drawn" \
	wait_for 10 eval 'history_of steady.flowtop.test | grep -q "^[▁▂▃▄▅▆▇█]"'

# a burst from .3: 200 pings of 1400 bytes sent at once (-l preloads them), so its size
# does not hang on how often a loaded machine lets ping wake (paced at 5 ms, a make check
# running beside it once stretched it below 20x the trickle)
ip netns exec "$a" ping -q -c 200 -l 200 -w 5 -s 1400 -I 10.78.0.3 10.78.0.2 >/dev/null 2>&1 &
burst=$!
E2E_PIDS+=($burst)
burst_peak() { p=$(peak in) && [ -n "$p" ] && awk -v p="$p" -v b="$base" 'BEGIN { exit !(p > 20 * b) }'; }
check "the graph's peak follows the burst (above 20x the trickle's)" wait_for 10 burst_peak
check "the burst's host has a sparkline while it sends" \
	wait_for 5 eval 'history_of 10.78.0.3 | grep -q "[▁▂▃▄▅▆▇█]"'
wait "$burst"
high=$(peak in)
# 40 samples of 0.1 s after the burst its host's history is empty; 60 and it leaves the graph
check "its sparkline decays to blank once it is quiet" \
	wait_for 10 eval 'h=$(history_of 10.78.0.3) && [ -n "$(screen | grep "^10\.78\.0\.3 ")" ] && ! grep -q "[^ ]" <<<"$h"'
forgot() { p=$(peak in) && [ -n "$p" ] && awk -v p="$p" -v h="$high" 'BEGIN { exit !(p < h / 10) }'; }
check "the graph's peak forgets the burst after 60 samples" wait_for 15 forgot
keys g
check "'g' hides the graph" seen '! shows "^ in  peak "'
keys g
check "'g' shows it again" wait_for 5 shows "^ in  peak "

# the mouse: titles sort, rows select, the wheel scrolls
ty=$(title_y)
click "$(title_x 'TX 2s')" "$ty"
check "a click on a title sorts by it" wait_for 5 shows 'TX 2s v'
click "$(title_x 'TX 2s')" "$ty"
check "a second click reverses the order" wait_for 5 shows 'TX 2s ^'
click 0 "$ty"
check "a click on ADDRESS sorts by address" seen 'shows "^ADDRESS ^" && [ "$(rows | head -n 1)" = steady.flowtop.test ]'
click 2 $((ty + 3))
check "a click on a row selects it" seen '[ "$(selected)" = "$(rows | sed -n 3p)" ]'
tm send-keys -t "$S" -H 1b 5b 4d 60 21 $(printf %x $((ty + 1 + 33))) # wheel up: back to the top
check "the wheel scrolls the selection up" seen '[ "$(selected)" = "$(rows | sed -n 1p)" ]'
wheel_down
check "and 3 rows down" seen '[ "$(selected)" = "$(rows | sed -n 4p)" ]'
keys m
check "'m' turns the mouse off, and says so" wait_for 5 shows 'mouse off: the terminal selects text'
click "$(title_x 'RX 2s')" "$ty"
toggle_graph
check "then a click sorts nothing" shows '^ADDRESS ^'
keys q
check "quits with status 0" wait_for 5 eval '[ "$(cat $E2E_TMP/rc1 2>/dev/null)" = 0 ]'

# ---- colour never, ASCII, 30 lines, no mouse ----
tmux_server mono
tm new-session -d -s "$S" -x 120 -y 30 \
	"env LANG=C LC_ALL=C ip netns exec $b $FLOWTOP -i $vb -d 0.1 --color=never --no-mouse"
check "--color=never: drawn, and no colour escape" wait_for 10 eval 'shows "^steady.flowtop.test " && ! has_colour'
check "monochrome: the title bar in reverse video" \
	eval 'screen_e | grep -qP "^\x1b\[[0-9;]*7[;m].*flowtop"'
check "30 lines: no graph by default" eval '! shows "^ in  peak "'
keys g
check "'g' shows it anyway, in ASCII" seen 'shows "^ in  peak " && ! screen | grep -qP "[^\x00-\x7f]"'
check "the C locale's sparkline is ASCII" \
	wait_for 5 eval 'history_of steady.flowtop.test | grep -q "[._:=+*#-]"'
click 0 "$(title_y)"
toggle_graph
check "--no-mouse: a click sorts nothing" eval '! shows "^ADDRESS ^"'

# the prompts edit a line: the old value offered (typing replaces it), Ctrl-U, history;
# Esc on the table clears the filter
only() { [ "$(rows | tr '\n' ' ')" = "$1 " ]; }
prompt_is() { screen | grep -q "^Filter (CIDR, address, text): *$1\$"; } # no trailing blank
keys / 10.78.0.4 Enter
wait_for 5 only 10.78.0.4
keys /
seen 'prompt_is 10.78.0.4'
keys 10.78.0.5 Enter
check "'/' offers the filter, and typing replaces it" seen 'only 10.78.0.5'
keys / End C-u
check "Ctrl-U kills the line before the cursor" seen 'prompt_is ""'
keys 10.78.0.6 Enter
check "then the text typed is the filter" seen 'only 10.78.0.6'
keys / Left Left C-w
check "Ctrl-W kills the word before the cursor, Left kept the old value" seen 'prompt_is "\\.6"'
keys Escape
seen '! shows "^Filter "'
keys / Up Up Enter
check "Up recalls the values entered before" seen 'only 10.78.0.5'
keys Escape
check "Esc on the table clears the filter" \
	seen 'shows "filter cleared" && rows | grep -q "^steady.flowtop.test$" && [ "$(rows | wc -l)" -ge 5 ]'

# ---- NO_COLOR with --color=auto ----
tmux_server nocolor
tm new-session -d -s "$S" -x 120 -y 30 \
	"env NO_COLOR=1 ip netns exec $b $FLOWTOP -i $vb -d 0.1"
check "NO_COLOR=1: auto draws without colour" wait_for 10 eval 'shows "^steady.flowtop.test " && ! has_colour'

# ---- a replay as fast as it goes: rows come and go under the scroll ----
# nothing selected, the table shows its top at the end: the busiest host first, as a 'd'
# dump lists them (the first host seen, once followed down the table, hid the busiest)
mkdir "$E2E_TMP/dumps"
tmux_server replay
tm new-session -d -s "$S" -x 130 -y 40 -c "$E2E_TMP/dumps" \
	"$FLOWTOP -N -r $CORPUS/pcap/ndpi-gnutella.pcap --speed 0"
# dump_first: 'd', Enter on the name offered, and the first row of the file written
dump_first() {
	local f
	rm -f "$E2E_TMP"/dumps/*
	keys d
	seen 'shows "^Dump to "' && keys Enter && seen 'shows "wrote [0-9]* rows to "' &&
		f=$(ls "$E2E_TMP"/dumps/*) && awk '/^ADDRESS/ { on = 1; next } on { print $1; exit }' "$f"
}
wait_for 20 shows 'end of capture'
first=$(dump_first)
check "a replay's end: the first row is the busiest, as a dump's ($first)" \
	eval '[ -n "$first" ] && [ "$(rows | head -n 1)" = "$first" ]'
keys t
seen 'shows "RX BYTES v"'
first=$(dump_first)
check "and in totals the top talker too ($first)" \
	eval '[ "$first" = 10.0.2.15 ] && [ "$(rows | head -n 1)" = "$first" ]'
summary
