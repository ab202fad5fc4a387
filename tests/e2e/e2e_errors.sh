#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_errors.sh -- bad input gets a clear message and a defined exit status: unknown
# interface, bad options, missing privileges, an unwritable snapshot, an interface that
# goes down or disappears while watched, a closed output pipe.
. "$(dirname "$0")/lib.sh"

# runs flowtop, keeping stdout, stderr and the status
run() {
	"$FLOWTOP" "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
	rc=$?
}
has_err() { grep -q -- "$1" "$E2E_TMP/err"; }
jq_true() { jq -e "$2" "$1" >/dev/null; }

run -i nosuch0 -b
check "unknown interface: exit 2" [ "$rc" = 2 ]
check "unknown interface: names it and lists the others" has_err "no interface 'nosuch0' (there are: .*lo"
run -i nosuch0 -b --json
check "JSON mode: the error is a JSON object on stdout" jq_true "$E2E_TMP/out" '.error | test("nosuch0")'
run -d 0
check "bad delay: exit 2 with the reason" [ "$rc" = 2 ]
check "bad delay: message and hint" eval 'has_err "invalid delay .0." && has_err "Try .flowtop --help."'
run --bogus
check "unknown option: exit 2" [ "$rc" = 2 ]
run -b -o /nonexistent-dir/x.json -i lo
check "unwritable snapshot path: refused at start, exit 2" [ "$rc" = 2 ]
check "unwritable snapshot path: says why" has_err "cannot write snapshot '/nonexistent-dir/x.json': No such file"
run --help
check "--help: exit 0, usage on stdout" eval '[ "$rc" = 0 ] && grep -q "^Usage: flowtop" "$E2E_TMP/out"'

need_root 13
run -i lo -b -n 1 -d 0.1
check "-n 1: one sample, exit 0" eval '[ "$rc" = 0 ] && [ "$(grep -c "^ADDRESS" "$E2E_TMP/out")" = 1 ]'
run_as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		"$FLOWTOP" -i lo -b -n 1 >"$E2E_TMP/out" 2>"$E2E_TMP/err"
	rc=$?
}
run_as_nobody
check "no privileges: exit 2" [ "$rc" = 2 ]
check "no privileges: names the three capabilities" has_err "missing CAP_BPF, CAP_PERFMON, CAP_NET_RAW"
setpriv --inh-caps=-net_raw --bounding-set=-net_raw "$FLOWTOP" -i lo -b -n 1 \
	>"$E2E_TMP/out" 2>"$E2E_TMP/err"
rc=$?
check "without CAP_NET_RAW: exit 2, names it alone" eval '[ "$rc" = 2 ] && has_err "missing CAP_NET_RAW:"'

# a closed pipe ends flowtop quietly and at once
timeout 10 bash -c "'$FLOWTOP' -i lo -b -d 0.1 | head -n 1 >/dev/null; exit \${PIPESTATUS[0]}"
rc=$?
check "output pipe closed: exit 0" [ "$rc" = 0 ]

# an interface that goes down, comes back, then disappears
netns_new err && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
ip -n "$ns" link add "fe-$E2E_SFX" type veth peer name "fep-$E2E_SFX"
ip -n "$ns" link set "fe-$E2E_SFX" up
ip -n "$ns" link set "fep-$E2E_SFX" up
start_bg "$ns" "$E2E_TMP/gone.out" "$FLOWTOP" -i "fe-$E2E_SFX" -b --json -d 0.1 -o "$E2E_TMP/gone.json"
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/gone.out"
ip -n "$ns" link set "fe-$E2E_SFX" down
check "link down: reported, flowtop keeps running" \
	wait_for 5 grep -q "interface fe-$E2E_SFX is down" "$E2E_TMP/gone.out.err"
ip -n "$ns" link set "fe-$E2E_SFX" up
ip -n "$ns" link del "fe-$E2E_SFX"
exited() { ! kill -0 "$pid" 2>/dev/null; }
check "interface deleted: flowtop notices within 3 s" wait_for 3 exited
stop_bg "$pid" KILL # reaps it; kills it only if it did not notice
rc=$?
check "interface deleted: exit 3" [ "$rc" = 3 ]
check "interface deleted: says so" grep -q "interface fe-$E2E_SFX disappeared" "$E2E_TMP/gone.out.err"
check "interface deleted: final sample and snapshot written" \
	jq_true "$E2E_TMP/gone.json" ".interface == \"fe-$E2E_SFX\""

# a link type whose header flowtop does not know (a tun device turned 802.11 radiotap
# with TUNSETLINK: the kernel here builds no wireless or CAN devices): refused, clearly
rt=frt-$E2E_SFX
ip netns exec "$ns" python3 - "$rt" <<'PY'
import fcntl, os, struct, sys
TUNSETIFF, TUNSETPERSIST, TUNSETLINK = 0x400454CA, 0x400454CB, 0x400454CD
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", sys.argv[1].encode(), 0x0001 | 0x1000))
fcntl.ioctl(fd, TUNSETLINK, 803)  # ARPHRD_IEEE80211_RADIOTAP
fcntl.ioctl(fd, TUNSETPERSIST, 1)
PY
ip -n "$ns" link set "$rt" up
out=$(ip netns exec "$ns" "$FLOWTOP" -i "$rt" -b -n 1 2>&1)
rc=$?
check "an unknown link type (802.11 radiotap): refused with exit 2, and why" \
	eval '[ "$rc" = 2 ] && grep -q "cannot count on .$rt.: its link type (ARPHRD 803)" <<<"$out"'
# a tun device as it is (no link header) is counted
ip netns exec "$ns" python3 - "ftun-$E2E_SFX" <<'PY'
import fcntl, os, struct, sys
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, 0x400454CA, struct.pack("16sH", sys.argv[1].encode(), 0x0001 | 0x1000))
fcntl.ioctl(fd, 0x400454CB, 1)
PY
ip -n "$ns" link set "ftun-$E2E_SFX" up
out=$(ip netns exec "$ns" "$FLOWTOP" -i "ftun-$E2E_SFX" -b -n 1 -d 0.1 2>&1)
rc=$?
check "a tun device (no link header): accepted" [ "$rc" = 0 ]
# two listed interfaces whose indexes share a place in the filter's table (4096 apart):
# a bad list, exit 2 like any other, not a failure of the system
ip -n "$ns" link add "fc1-$E2E_SFX" index 100 type veth peer name "fc1p-$E2E_SFX" &&
	ip -n "$ns" link add "fc2-$E2E_SFX" index 4196 type veth peer name "fc2p-$E2E_SFX"
out=$(ip netns exec "$ns" "$FLOWTOP" -i "fc1-$E2E_SFX,fc2-$E2E_SFX" -b -n 1 2>&1)
rc=$?
check "two interfaces whose indexes collide: exit 2, both named" \
	eval '[ "$rc" = 2 ] && grep -q "cannot watch .fc1-$E2E_SFX. and .fc2-$E2E_SFX. at once" <<<"$out"'
summary
