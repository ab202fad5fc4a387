#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_read.sh -- capture files through the filter (-r): every corpus capture must give
# the counts tshark decided for every frame of the file with its length on the wire
# (NAME.expected.csv, SUMMARY.csv), with the same differences as live; crafted captures
# (mkcap.py) check the capture's clock (samples, a gap, time going backwards), each
# link type, the snap length, and every way a file can be wrong.
. "$(dirname "$0")/lib.sh"
need_root 53
need_file "$CORPUS/pcap/SUMMARY.csv" 53

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

# what reading needs: CAP_BPF and CAP_PERFMON, no CAP_NET_RAW (no socket)
setpriv --inh-caps=-net_raw --bounding-set=-net_raw "$FLOWTOP" -r "$clock" -b --json \
	>"$E2E_TMP/noraw.jsonl" 2>"$E2E_TMP/err"
rc=$?
check "without CAP_NET_RAW a capture is read" \
	eval '[ "$rc" = 0 ] && tail -n 1 "$E2E_TMP/noraw.jsonl" | jqt ".totals.packets == 11"'
summary
