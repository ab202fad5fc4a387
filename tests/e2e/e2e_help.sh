#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_help.sh -- the help screen of the real binary under tmux (a private server), over
# the table of a replayed capture (no namespaces): at 120x35 every key of ui/keys.c's
# table on a line of its own, whole, and nothing of the table through it; at 50x12 and
# 40x10 every key's whole text reached by scrolling, wrapped under its column, a last
# line saying where more is (at 20x6 too), the keys and the wheel that scroll it not
# closing it.
. "$(dirname "$0")/lib.sh"
need_root 17
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }
command -v python3 >/dev/null || { fail "python3 is not installed"; summary; exit; }
capture=$CORPUS/pcap/ndpi-gnutella.pcap
need_file "$capture" 17

# the key table as the source has it: a line "label<TAB>text" a key
python3 - "$FLOWTOP_ROOT/ui/keys.c" >"$E2E_TMP/keys" <<'EOF'
import ast, re, sys
src = open(sys.argv[1]).read()
body = src[src.index("key_bindings[] = {"):]
body = body[:body.index("\n};")]
lit = r'"(?:[^"\\]|\\.)*"'
entry = r"\{\s*\{[^}]*\}\s*,\s*((?:%s\s*)+),\s*((?:%s\s*)+),\s*ACT_\w+\s*\}" % (lit, lit)
for m in re.finditer(entry, body):
    label, text = ("".join(ast.literal_eval(s) for s in re.findall(lit, g)) for g in m.groups())
    print(f"{label}\t{text}")
EOF
[ "$(wc -l <"$E2E_TMP/keys")" -ge 29 ] || { fail "cannot read the key table of ui/keys.c"; summary; exit; }

E2E_TMUX_UTF8=1
tmux_server help
S=flowtop
tm new-session -d -s "$S" -x 120 -y 35 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 $FLOWTOP -N -r $capture --speed 0; echo \$? >$E2E_TMP/rc"
screen() { tm capture-pane -p -t "$S"; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
keys() { tm send-keys -t "$S" "$@"; }
shows() { screen | grep -q -- "$1"; }
wait_shows() { wait_for 5 shows "$1"; }
help_open() { screen | head -n 1 | grep -q "flowtop keys"; }
# the table's own glyphs: SHARE's bar, the sparklines' blocks
table_glyphs() { screen | grep -q '[#▁▂▃▄▅▆▇█]'; }
# the help's last line: where more is
hint() { screen | tail -n 1; }
more_below() { hint | grep -q '↓ more'; }

wait_for 20 shows "end of capture" && table_glyphs ||
	{ fail "the replay's table, with its SHARE bars, never showed"; summary; exit; }

# every_key_whole FILE: each key of the table has a line of FILE of its own: the label,
# then the whole text
every_key_whole() {
	python3 - "$E2E_TMP/keys" "$1" <<'EOF'
import sys
keys = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
lines = [l.strip() for l in open(sys.argv[2])]
bad = [label for label, text in keys
       if not any(l.startswith(label + " ") and l[len(label):].strip() == text for l in lines)]
for label in bad:
    print(f"  not whole on a line: {label}")
sys.exit(1 if bad else 0)
EOF
}

keys h
check "120x35: 'h' shows the help over the whole screen, its title on the first line" \
	wait_for 5 help_open
screen >"$E2E_TMP/help120"
check "120x35: every key's text whole, on a line of its own" every_key_whole "$E2E_TMP/help120"
check "120x35: nothing of the table shows through (no SHARE bar, no sparkline)" \
	eval '! table_glyphs' || screen | sed 's/^/  | /'
check "120x35: the last line says every key is shown" eval 'hint | grep -q "every key shown"'

# walk_help: from the top, Down a line at a time to the end; each screen's help lines
# (between the title and the last line) in $E2E_TMP/walk, a screen after another
walk_help() {
	local before i
	: >"$E2E_TMP/walk"
	keys Home
	wait_for 5 eval '! hint | grep -q "↑"' || return 1
	for i in $(seq 300); do
		before=$(screen)
		sed '1d;$d' <<<"$before" >>"$E2E_TMP/walk"
		echo "--" >>"$E2E_TMP/walk"
		more_below || return 0
		keys Down
		wait_for 5 eval '[ "$(screen)" != "$before" ]' || return 1
	done
	return 1
}

# reached FILE WIDTH: the screens of FILE, each one line further on, hold every key's
# label and whole text (the lines joined); no line is wider than WIDTH, and a line
# that starts no key starts blank as far as the text's column
reached() {
	python3 - "$E2E_TMP/keys" "$1" "$2" <<'EOF'
import sys
keys = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
width = int(sys.argv[3])
screens = open(sys.argv[2]).read().split("--\n")[:-1]
lines = screens[0].splitlines() + [s.splitlines()[-1] for s in screens[1:]]
ok = True
if any(len(l.rstrip()) > width for l in lines):
    print("  a line wider than the screen"); ok = False
column = max(len(label) for label, _ in keys) + 1
for l in lines:
    if l.strip() and not any(l.strip().startswith(label + " ") or l.strip() == label
                             for label, _ in keys) and l[:column].strip():
        print(f"  a line that starts no key, not under the text: {l!r}"); ok = False
joined = " ".join(" ".join(l.split()) for l in lines)
for label, text in keys:
    if f"{label} {' '.join(text.split())}" not in joined:
        print(f"  never shown whole: {label}"); ok = False
sys.exit(0 if ok else 1)
EOF
}

for size in 50x12 40x10; do
	tm resize-window -t "$S" -x "${size%x*}" -y "${size#*x}"
	check "$size: the help still open, its last line saying there is more below" \
		wait_for 5 eval 'help_open && more_below' || screen | sed 's/^/  | /'
	check "$size: scrolled line by line, every key's whole text, wrapped under its column" \
		eval 'walk_help && reached "$E2E_TMP/walk" "${size%x*}"' || screen | sed 's/^/  | /'
done
check "40x10: nothing of the table shows through" eval 'help_open && ! table_glyphs'
tm resize-window -t "$S" -x 20 -y 6
check "20x6, the smallest screen drawn: the last line still says where more is" \
	seen 'help_open && hint | grep -q "^ [↑↓]* more$"' || screen | sed 's/^/  | /'
tm resize-window -t "$S" -x 40 -y 10
wait_for 5 eval 'hint | grep -q "more: keys"'

# the other scrolling keys, at 40x10: End shows the last key, Home the first, PgDn
# and Space a page further; the last line counts the keys shown
last_label=$(tail -n 1 "$E2E_TMP/keys" | cut -f1) first_label=$(head -n 1 "$E2E_TMP/keys" | cut -f1)
nkeys=$(wc -l <"$E2E_TMP/keys")
keys End
check "End: the last key shown, more above only" \
	seen 'help_open && shows "^ $last_label " && hint | grep -q "↑ more: keys [0-9]*-$nkeys of $nkeys"'
keys Home
check "Home: the first key shown, more below only" \
	seen 'help_open && shows "^ $first_label " && hint | grep -q "↓ more: keys 1-[0-9]* of $nkeys"'
keys PgDn
check "PgDn: a page further" seen 'help_open && hint | grep -q "↑↓ more" && ! shows "^ $first_label "'
page2=$(screen)
keys Space
check "Space: a page further again" seen 'help_open && [ "$(screen)" != "$page2" ]'
keys PgUp PgUp
check "PgUp: back to the top" seen 'help_open && shows "^ $first_label "'
# a turn of the wheel down, as xterm sends it (X10 encoding: button 5 at column 0, line 4)
keys Home
wait_for 5 eval 'help_open && shows "^ $first_label "'
before=$(screen)
tm send-keys -t "$S" -H 1b 5b 4d 61 21 25
check "the wheel scrolls it 3 lines" \
	seen 'help_open && [ "$(screen | sed -n 2p)" = "$(sed -n 5p <<<"$before")" ]'
keys End
scrolled() { help_open && hint | grep -q "↑ more"; }
check "scrolled to the end, any other key closes it: the table is back" \
	eval 'wait_for 5 scrolled && keys x && seen "! help_open && shows ^ADDRESS"'
summary
