#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_read.sh -- capture files through the filter (-r): every corpus capture must give
# the counts tshark decided for every frame of the file with its length on the wire
# (NAME.expected.csv, SUMMARY.csv), with the same differences as live; crafted captures
# (mkcap.py) check the capture's clock (samples, a gap, time going backwards), each
# link type, the snap length, and every way a file can be wrong.
. "$(dirname "$0")/lib.sh"
need_root 71
need_file "$CORPUS/pcap/SUMMARY.csv" 70

here=$(dirname "$0")
python3 "$here/corpus_expect.py" --wire "$CORPUS" "$here/corpus-differences.csv" "$E2E_TMP" \
	>"$E2E_TMP/list" || { fail "corpus_expect.py failed"; summary; exit; }
while read -r pcap totals; do
	base=${pcap%.pcap*}
	"$FLOWTOP" -r "$CORPUS/pcap/$pcap" -b --json -L 0 -o "$E2E_TMP/$base.json" \
		>/dev/null 2>"$E2E_TMP/$base.err"
	rc=$?
	check "-r $base ($totals)" eval '{ [ "$rc" = 0 ] || cat "$E2E_TMP/$base.err"; } &&
		python3 "$here/compare.py" "$E2E_TMP/$base.json" "$E2E_TMP/$base.csv" --totals "$totals"'
done <"$E2E_TMP/list"

# one sample, one write(2) (strace counts them): a reader tailing the output never finds
# half a sample at its end; the corpus's capture of most hosts (521), its samples up to
# 100 KB in JSON, each printed whole (-L 0), in JSON and in text
many=$CORPUS/pcap/ndpi-gnutella.pcap
writes() { grep -cE '^[0-9]+ +write\(1, ' "$1"; }
strace -f -e trace=write -o "$E2E_TMP/json.strace" \
	"$FLOWTOP" -r "$many" -b --json -L 0 >"$E2E_TMP/many-hosts.jsonl" 2>"$E2E_TMP/err"
check "-b --json: each sample in one write, the largest of $(wc -L <"$E2E_TMP/many-hosts.jsonl") bytes" \
	eval '[ "$(wc -l <"$E2E_TMP/many-hosts.jsonl")" -gt 100 ] &&
	      [ "$(wc -L <"$E2E_TMP/many-hosts.jsonl")" -gt 65536 ] &&
	      [ "$(writes "$E2E_TMP/json.strace")" = "$(wc -l <"$E2E_TMP/many-hosts.jsonl")" ]'
strace -f -s 32 -e trace=write -o "$E2E_TMP/text.strace" \
	"$FLOWTOP" -r "$many" -b -L 0 >"$E2E_TMP/many-hosts.txt" 2>"$E2E_TMP/err"
check "-b: each sample in one write, from its first line" \
	eval '[ "$(writes "$E2E_TMP/text.strace")" = "$(grep -c "  interval .* s$" "$E2E_TMP/many-hosts.txt")" ] &&
	      ! grep -E "^[0-9]+ +write\(1, " "$E2E_TMP/text.strace" | grep -vqE "write\(1, \"1970-01-01T"'

cap() { python3 "$here/mkcap.py" "$1" "$E2E_TMP/$1.pcap" && echo "$E2E_TMP/$1.pcap"; }
clock=$(cap clock) || { fail "mkcap.py failed"; summary; exit; }
"$FLOWTOP" -r "$clock" -b --json -d 1 >"$E2E_TMP/clock.jsonl" 2>"$E2E_TMP/clock.err"
rc=$?
# the capture's 11 frames of 142 bytes: 0, .25, .5, .75, 1, 1.25, 1.5, 1.75 s, then
# 602.5 s, 601.5 s (backwards), 603.75 s
sample() { sed -n "$1p" "$E2E_TMP/clock.jsonl" | jqt "$2"; }
dst() { echo ".hosts[] | select(.ip == \"10.0.0.2\") | $1"; }
check "clock: exit 0, five samples" eval '[ "$rc" = 0 ] && [ "$(wc -l <"$E2E_TMP/clock.jsonl")" = 5 ]'
check "clock: a sample each second of the capture's time, from its first frame" \
	eval 'sample 1 ".time == \"2025-12-05T12:00:01.000000Z\" and .interval == 1" &&
	      sample 2 ".time == \"2025-12-05T12:00:02.000000Z\" and .interval == 1"'
check "clock: rates from the capture's stamps: 4 frames in the first second" \
	sample 1 "$(dst '.rx_pps == 4 and .rx_bps == 4544')"
check "clock: a 10-minute gap is one sample, its interval the silence" \
	sample 3 '.time == "2025-12-05T12:10:02.000000Z" and .interval == 600 and .totals.packets == 8 and ([.hosts[].rx_pps] | add) == 0'
check "clock: a frame stamped before the last counts in the current sample" \
	sample 4 ".time == \"2025-12-05T12:10:03.000000Z\" and .totals.packets == 10 and ($(dst '.rx_pps')) == 2"
check "clock: the end of the file closes a last, shorter sample, exact to the microsecond" \
	sample 5 ".time == \"2025-12-05T12:10:03.750000Z\" and .interval == 0.75 and .totals.packets == 11 and .totals.bytes == 1562 and ($(dst '.rx_pps')) == 1.333"
"$FLOWTOP" -r "$clock" -b --json -d 1 -n 2 >"$E2E_TMP/n2.jsonl"
check "clock: -n 2 stops after two samples" [ "$(wc -l <"$E2E_TMP/n2.jsonl")" = 2 ]
"$FLOWTOP" -r - -b --json <"$clock" | tail -n 1 >"$E2E_TMP/stdin.json"
check "-r -: standard input" jqt '.totals.packets == 11 and .file == "-"' "$E2E_TMP/stdin.json"
"$FLOWTOP" -r "$clock" -b >"$E2E_TMP/clock.txt"
check "text output: the file, the capture's time, the interval" \
	grep -q "^2025-12-05T12:00:01.000000Z  $clock  interval 1.000000 s$" "$E2E_TMP/clock.txt"

# link types: the same UDP datagram (128 bytes of IP) behind each link header
for kind in sll:144 sll2:148 raw:128 null:132; do
	f=$(cap "${kind%:*}")
	check "link type ${kind%:*}: counted on its addresses, ${kind#*:} bytes on the wire" \
		eval '"$FLOWTOP" -r "$f" -b --json | jqt "$(dst ".rx_packets == 1 and .rx_bytes == ${kind#*:}")"'
done
for kind in nano pcapng; do
	f=$(cap "$kind")
	check "$kind: read, stamps to the microsecond" \
		eval '"$FLOWTOP" -r "$f" -b --json -d 0.25 | head -n 1 | jqt ".time == \"2025-12-05T12:00:00.250000Z\" and .totals.packets == 1"'
done
f=$(cap cut)
check "a frame cut by the snap length: its length on the wire" \
	eval '"$FLOWTOP" -r "$f" -b --json | jqt ".totals.bytes == 1514 and .totals.truncated == 0 and ($(dst ".rx_bytes")) == 1514"'

# files that are wrong
f=$(cap wifi)
"$FLOWTOP" -r "$f" -b >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "a link type flowtop does not read: exit 2, named" \
	eval '[ "$rc" = 2 ] && grep -q "link type IEEE802_11 (105) is not one flowtop reads" "$E2E_TMP/err"'
f=$(cap truncated)
"$FLOWTOP" -r "$f" -b --json >"$E2E_TMP/trunc.jsonl" 2>"$E2E_TMP/err"
rc=$?
check "a truncated file: exit 2, the frame where it broke" \
	eval '[ "$rc" = 2 ] && grep -q "the capture breaks at frame 11: truncated dump file" "$E2E_TMP/err"'
check "a truncated file: the counts up to there printed, then the error as the last line" \
	eval 'tail -n 2 "$E2E_TMP/trunc.jsonl" | head -n 1 | jqt ".totals.packets == 10" &&
	      tail -n 1 "$E2E_TMP/trunc.jsonl" | jqt ".error | test(\"frame 11\")"'
head -c 3000 /dev/urandom >"$E2E_TMP/garbage.pcap"
"$FLOWTOP" -r "$E2E_TMP/garbage.pcap" -b >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "garbage: exit 2, not a capture" eval '[ "$rc" = 2 ] && grep -q "unknown file format" "$E2E_TMP/err"'
"$FLOWTOP" -r "$E2E_TMP/none.pcap" -b >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "a missing file: exit 2, said" eval '[ "$rc" = 2 ] && grep -q "No such file" "$E2E_TMP/err"'
: >"$E2E_TMP/empty.pcap"
"$FLOWTOP" -r "$E2E_TMP/empty.pcap" -b >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "an empty file: exit 2" [ "$rc" = 2 ]
"$FLOWTOP" -r "$clock" -i lo -b >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "-r with -i: exit 2, one or the other" eval '[ "$rc" = 2 ] && grep -q "one or the other" "$E2E_TMP/err"'
"$FLOWTOP" -r "$clock" -b -o /nonexistent-dir/x.json >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "-o in a missing directory: exit 2 before reading" [ "$rc" = 2 ]
# -o writes to what is at its path as it is (#46): a character device stays one (as
# root a rename made /dev/full a text file), - is standard output (it was a file named -),
# and a directory that cannot take a new file is refused at start (it failed at exit)
mknod "$E2E_TMP/full" c 1 7
"$FLOWTOP" -r "$clock" -b -o "$E2E_TMP/full" >/dev/null 2>"$E2E_TMP/err"
rc=$?
check "-o a full device: exit 1, ENOSPC said, still a character device" \
	eval '[ "$rc" = 1 ] && grep -q "cannot write snapshot .*/full.: No space left on device" "$E2E_TMP/err" &&
	      [ -c "$E2E_TMP/full" ] && [ ! -L "$E2E_TMP/full" ]'
mkdir -p "$E2E_TMP/cwd"
(cd "$E2E_TMP/cwd" && "$FLOWTOP" -r "$clock" -b -o - >"$E2E_TMP/dash.txt" 2>"$E2E_TMP/err")
rc=$?
check "-o -: the snapshot on standard output after the five samples, no file named -" \
	eval '[ "$rc" = 0 ] && [ "$(grep -c "^ADDRESS " "$E2E_TMP/dash.txt")" = 6 ] &&
	      [ "$(tail -n 3 "$E2E_TMP/dash.txt" | grep -c "^10\.0\.0\.[12] ")" = 2 ] &&
	      [ -z "$(ls -A "$E2E_TMP/cwd")" ]'
"$FLOWTOP" -r "$clock" -b --json -o - >"$E2E_TMP/dash.jsonl" 2>"$E2E_TMP/err"
rc=$?
check "-o - with --json: exit 2, the error alone on standard output" \
	eval '[ "$rc" = 2 ] && [ "$(wc -l <"$E2E_TMP/dash.jsonl")" = 1 ] &&
	      jqt ".error | test(\"one JSON object per line\")" "$E2E_TMP/dash.jsonl"'
for d in /proc /sys; do
	"$FLOWTOP" -r "$clock" -b -o "$d/x.csv" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
	rc=$?
	check "-o $d/x.csv: exit 2 at start, nothing read" \
		eval '[ "$rc" = 2 ] && [ ! -s "$E2E_TMP/out" ] && grep -q "cannot create a file in $d" "$E2E_TMP/err"'
done
# a stamp no clock of 64-bit nanoseconds can add a delay to (pcapng in whole seconds):
# said, exit 2, and never a read without end (its output bounded by head, its time by
# timeout: a hang is killed, and fails)
f=$(cap seconds)
timeout -s KILL 60 "$FLOWTOP" -r "$f" -b --json 2>"$E2E_TMP/err" | head -c 100000 >"$E2E_TMP/sec.jsonl"
rc=${PIPESTATUS[0]}
check "a stamp past 2106: exit 2, the frame named" \
	eval '[ "$rc" = 2 ] && grep -q "frame 2 is stamped 9223372036.000000000 s from 1970" "$E2E_TMP/err"'
check "a stamp past 2106: the frame before it counted, in one sample" \
	eval '[ "$(jq -s "map(select(.totals)) | length" "$E2E_TMP/sec.jsonl")" = 1 ] &&
	      head -n 1 "$E2E_TMP/sec.jsonl" | jqt ".totals.packets == 1"'
# a signal ends a read between any two samples: 300,000 frames 10 ms apart, a sample
# each, and SIGTERM once the first is out
f=$(cap many)
"$FLOWTOP" -r "$f" -b --json -d 0.01 >"$E2E_TMP/many.jsonl" 2>"$E2E_TMP/err" &
pid=$!
E2E_PIDS+=("$pid")
wait_for 20 test -s "$E2E_TMP/many.jsonl"
kill -TERM "$pid"
check "SIGTERM in a read of many samples: it ends" wait_for 10 gone "$pid"
wait "$pid"
rc=$?
check "SIGTERM in a read of many samples: status 0, long before the file's end" \
	eval '[ "$rc" = 0 ] && [ "$(wc -l <"$E2E_TMP/many.jsonl")" -lt 300000 ]'

# the screen replays a capture (tmux): at its pace, paused, stepped, as fast as it goes
tmux_server read
screen() { tm capture-pane -p -t r; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
header() { screen | head -n 1; }
tm new-session -d -s r -x 140 -y 30 "$FLOWTOP -r $clock -N -d 1; echo \$? >$E2E_TMP/tui.rc"
check "screen: the capture's clock in the header, at its pace" \
	wait_for 5 eval 'header | grep -q "capture 2025-12-05 12:00:0[0-9]\.[0-9]*  x1  hosts"'
check "screen: the first second's 4 frames on the hosts" \
	wait_for 5 eval 'screen | grep -q "^ in .*(568B, 4p)"'
tm send-keys -t r p
check "screen: p stops the capture's clock" wait_for 5 eval 'header | grep -q "  x1  paused"'
before=$(header)
tm send-keys -t r .
check "screen: '.' steps to the next sample, exactly" \
	wait_for 5 eval '[ "$(header)" != "$before" ] && header | grep -q "capture 2025-12-05 12:00:0[2-9]\.000  x1  paused"'
tm send-keys -t r + + p
check "screen: + doubles the pace" wait_for 5 eval 'header | grep -q "  x4  hosts"'
tm send-keys -t r q
check "screen: q ends it, status 0" wait_for 10 eval '[ "$(cat "$E2E_TMP/tui.rc" 2>/dev/null)" = 0 ]'
tm new-session -d -s f -x 140 -y 30 "$FLOWTOP -r $clock -N --speed 0; echo \$? >$E2E_TMP/fast.rc"
check "screen: --speed 0 replays at once, and says end of capture" \
	wait_for 10 eval 'tm capture-pane -p -t f | grep -q "end of capture: 11 frames" &&
			   tm capture-pane -p -t f | head -n 1 | grep -q "12:10:03.750  max  end of capture"'
tm send-keys -t f q
check "screen: the end of the capture stays until q" wait_for 10 eval '[ "$(cat "$E2E_TMP/fast.rc" 2>/dev/null)" = 0 ]'
# a capture with ten years between two frames, sped up from its pace to as fast as it
# goes: the silence is one sample then, not three hundred million
years=$CORPUS/pcap/pcapplusplus-ipv4-options.pcap
tm new-session -d -s y -x 140 -y 30 "$FLOWTOP -r $years -N; echo \$? >$E2E_TMP/years.rc"
wait_for 5 eval 'tm capture-pane -p -t y | head -n 1 | grep -q "  x1  "'
for _ in $(seq 11); do tm send-keys -t y +; done
check "screen: sped up past x1024 to as fast as it goes, across a ten-year silence" \
	wait_for 10 eval 'tm capture-pane -p -t y | head -n 1 | grep -q "2017-02-21 19:28:05.770  max  end of capture"'
tm send-keys -t y q
wait_for 10 eval '[ -s "$E2E_TMP/years.rc" ]'
f=$E2E_TMP/truncated.pcap
tm new-session -d -s t -x 140 -y 30 "$FLOWTOP -r $f -N --speed 0; echo \$? >$E2E_TMP/trunc.rc"
check "screen: a file that breaks is said" \
	wait_for 10 eval 'tm capture-pane -p -t t | grep -q "the capture breaks at frame 11"'
tm send-keys -t t q
check "screen: and the exit status is 2" wait_for 10 eval '[ "$(cat "$E2E_TMP/trunc.rc" 2>/dev/null)" = 2 ]'
# as fast as it goes, a frame an IPv6 record of three slots, through rings of 1 MiB: the
# feed keeps to what a ring holds between two drains (20,000 frames at once spilled)
f=$(cap v6pairs)
tm new-session -d -s v -x 140 -y 30 "$FLOWTOP -r $f --ring-memory 1 --speed 0 -N; echo \$? >$E2E_TMP/v6.rc"
check "screen: 30,000 IPv6 pairs through small rings, read to the end" \
	wait_for 30 eval 'tm capture-pane -p -t v | grep -q "end of capture: 30000 frames"'
check "screen: and none of them spilled" eval 'tm capture-pane -p -t v | grep -q "lost 0  spilled 0 "'
tm send-keys -t v q
wait_for 10 eval '[ -s "$E2E_TMP/v6.rc" ]'

# what reading needs: CAP_BPF and CAP_PERFMON, no CAP_NET_RAW (no socket)
setpriv --inh-caps=-net_raw --bounding-set=-net_raw "$FLOWTOP" -r "$clock" -b --json \
	>"$E2E_TMP/noraw.jsonl" 2>"$E2E_TMP/err"
rc=$?
check "without CAP_NET_RAW a capture is read" \
	eval '[ "$rc" = 0 ] && tail -n 1 "$E2E_TMP/noraw.jsonl" | jqt ".totals.packets == 11"'
# the file (anyone may have made it) is opened and parsed, and the expression compiled,
# with no capability left: the program is loaded first, then every capability dropped
strace -f -e trace=capset,openat -o "$E2E_TMP/order.strace" "$FLOWTOP" -r "$CORPUS/pcap/ndpi-gnutella.pcap" \
	-b -n 1 -d 100 tcp >/dev/null 2>&1
check "-r: the file opened after every capability is dropped" \
	eval 'grep -n "capset(.*effective=0, permitted=0" "$E2E_TMP/order.strace" | head -n 1 | cut -d: -f1 >"$E2E_TMP/drop" &&
	      grep -n "openat(.*ndpi-gnutella.pcap" "$E2E_TMP/order.strace" | head -n 1 | cut -d: -f1 >"$E2E_TMP/open" &&
	      [ -s "$E2E_TMP/drop" ] && [ -s "$E2E_TMP/open" ] && [ "$(cat "$E2E_TMP/drop")" -lt "$(cat "$E2E_TMP/open")" ]'
# -d 0: the whole capture as one sample: one line, the totals of the last of -d 1's
"$FLOWTOP" -r "$CORPUS/pcap/ndpi-gnutella.pcap" -b -d 0 --json >"$E2E_TMP/whole.jsonl" 2>&1
"$FLOWTOP" -r "$CORPUS/pcap/ndpi-gnutella.pcap" -b --json >"$E2E_TMP/each.jsonl" 2>&1
check "-r -b -d 0: one sample, the whole capture's totals" \
	eval '[ "$(wc -l <"$E2E_TMP/whole.jsonl")" = 1 ] && [ "$(wc -l <"$E2E_TMP/each.jsonl")" -gt 100 ] &&
	      [ "$(jq -c .totals "$E2E_TMP/whole.jsonl")" = "$(tail -n 1 "$E2E_TMP/each.jsonl" | jq -c .totals)" ]'
summary
