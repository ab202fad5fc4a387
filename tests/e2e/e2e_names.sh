#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_names.sh -- hostile names: an interface named with a terminal's escape sequences
# (OSC 0, which sets a window's title; 15 bytes carry OSC 52's clipboard write as well)
# and one with a DEL reach no output raw: the text report, its interface lines and
# IFACE column, a text and a CSV snapshot, the error that lists the interfaces. Each is
# checked byte for byte: no control byte but the line ends.
. "$(dirname "$0")/lib.sh"
need_root 9

netns_new nm && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
bad=$'n\e]0;X\a'"$E2E_SFX" peer=$'=p\x7f'"$E2E_SFX"
ip -n "$ns" link add "$bad" type veth peer name "$peer" &&
	ip -n "$ns" link set "$bad" up && ip -n "$ns" link set "$peer" up &&
	ip -n "$ns" addr add 10.81.0.1/24 dev "$bad" &&
	ip -n "$ns" neigh add 10.81.0.2 lladdr 02:00:00:00:00:02 dev "$bad" nud permanent ||
	{ fail "cannot make interfaces with such names"; summary; exit; }
ip netns exec "$ns" ping -q -c 200 -i 0.02 10.81.0.2 >/dev/null 2>&1 &
E2E_PIDS+=($!)

# clean FILE: no byte below 0x20 but a newline, no DEL, no C1 control (0x80-0x9f alone)
clean() {
	python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
bad = [b for b in data if (b < 0x20 and b != 0x0a) or b == 0x7f]
sys.exit(1 if bad or not data else 0)
PY
}

out=$E2E_TMP/one.txt
ip netns exec "$ns" "$FLOWTOP" -i "$bad" -b -n 3 -d 0.1 -o "$E2E_TMP/snap.txt" >"$out" 2>&1
check "text report of the interface: its name made visible, no control byte" \
	eval 'clean "$out" && grep -q "n^\[\]0;X^G$E2E_SFX" "$out"'
check "its text snapshot likewise" eval 'clean "$E2E_TMP/snap.txt" && grep -q "n^\[\]0;X^G" "$E2E_TMP/snap.txt"'
out=$E2E_TMP/any.txt
ip netns exec "$ns" "$FLOWTOP" -i any -b -n 3 -d 0.1 -o "$E2E_TMP/snap.csv" >"$out" 2>&1
check "-i any: the interface lines and IFACE column, no control byte" \
	eval 'clean "$out" && grep -q "^  n^\[\]0;X^G$E2E_SFX (up)" "$out" && grep -q "=p^?$E2E_SFX" "$out"'
check "-i any: the CSV snapshot, no control byte" clean "$E2E_TMP/snap.csv"
ip netns exec "$ns" "$FLOWTOP" -i "nosuch$E2E_SFX" -b -n 1 >"$E2E_TMP/err.out" 2>"$E2E_TMP/err"
rc=$?
check "an unknown interface: exit 2, the list of those there are, no control byte" \
	eval '[ "$rc" = 2 ] && clean "$E2E_TMP/err" && grep -q "there are: .*n^\[\]0;X^G" "$E2E_TMP/err"'
ip netns exec "$ns" "$FLOWTOP" -i "$bad" -b -n 1 'tcp port' >/dev/null 2>"$E2E_TMP/err2"
check "an error about the interface's expression, no control byte" clean "$E2E_TMP/err2"
ip netns exec "$ns" "$FLOWTOP" -i "$bad" -b -n 2 -d 0.1 --json >"$E2E_TMP/out.json" 2>&1
check "JSON: the name whole, escaped as JSON escapes it" \
	eval 'clean "$E2E_TMP/out.json" && tail -n 1 "$E2E_TMP/out.json" | jq -e --arg n "$bad" ".interface == \$n" >/dev/null'

# an interface of 270 alternative names of 128 bytes, whose link message (36 KB) glibc's
# if_nameindex() leaves out (its dump is not sized for it): -i any lists it all the same, and when it goes, what
# rtnetlink says of it is cut at flowtop's 32 KB, and flowtop says so and reads the
# interfaces again, rather than keeping a gone interface
va=va-$E2E_SFX vb=vb-$E2E_SFX
ip -n "$ns" link add "$va" type veth peer name "$vb" && ip -n "$ns" link set "$va" up &&
	for i in $(seq 1 270); do
		printf 'link property add dev %s altname a%03d%0123d\n' "$va" "$i" 0
	done | ip -n "$ns" -batch - || { fail "cannot give $va its names"; summary; exit; }
start_bg "$ns" "$E2E_TMP/alt.jsonl" "$FLOWTOP" -i any -b --json -d 0.1
state() { last_is "$E2E_TMP/alt.jsonl" ".interfaces[] | select(.name == \"$va\") | .state == \"$1\""; }
check "-i any lists an interface of 270 alternative names" wait_for 10 state up
ip -n "$ns" link del "$va"
check "a link message past 32 KB: said, the interfaces read again, the interface gone" \
	wait_for 5 eval 'state gone && grep -q "a link message of [0-9]* bytes was cut at 32768: the interfaces read again" "$E2E_TMP/alt.jsonl.err"'
stop_bg "$BG_PID" INT
summary
