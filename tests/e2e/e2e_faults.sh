#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_faults.sh -- faults injected into a running flowtop: signals, the watched interface
# renamed or moved to another namespace, a map too small for the hosts; least privilege;
# valgrind memcheck on a batch run.
. "$(dirname "$0")/lib.sh"
need_root 28

netns_new flt && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
if_=fl-$E2E_SFX
ip -n "$ns" link add "$if_" type veth peer name "flp-$E2E_SFX"
ip -n "$ns" link set "$if_" up
ip -n "$ns" link set "flp-$E2E_SFX" up
ip -n "$ns" addr add 10.79.0.1/24 dev "$if_"
ip -n "$ns" neigh add 10.79.0.2 lladdr 02:00:00:00:00:02 dev "$if_" nud permanent
ip netns exec "$ns" ping -q -c 100 -i 0.05 10.79.0.2 >/dev/null 2>&1 &
E2E_PIDS+=($!)

# least privilege, SIGUSR1 (with -o), SIGHUP
start_bg "$ns" "$E2E_TMP/a.out" "$FLOWTOP" -i "$if_" -b --json -d 0.2 -o "$E2E_TMP/usr1.json"
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/a.out"
caps() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
check "running: CapEff is CAP_NET_RAW only" [ "$(caps CapEff)" = 0000000000002000 ]
check "running: CapPrm and CapBnd likewise, CapInh and CapAmb empty" \
	eval '[ "$(caps CapPrm)$(caps CapBnd)" = 00000000000020000000000000002000 ] && [ "$(caps CapInh)$(caps CapAmb)" = 00000000000000000000000000000000 ]'
check "running: no_new_privs" [ "$(awk '$1 == "NoNewPrivs:" { print $2 }' "/proc/$pid/status")" = 1 ]
kill -USR1 "$pid"
has_host() { jq -e '.hosts | map(.ip) | index("10.79.0.1") != null' "$E2E_TMP/usr1.json" >/dev/null 2>&1; }
check "SIGUSR1 writes the -o snapshot" wait_for 5 has_host
check "SIGUSR1 does not stop flowtop" kill -0 "$pid"
lines=$(wc -l <"$E2E_TMP/a.out")
stop_bg "$pid" HUP
rc=$?
check "SIGHUP: exit 0 after one last sample" \
	eval '[ "$rc" = 0 ] && [ "$(wc -l <"$E2E_TMP/a.out")" -gt "$lines" ] && tail -n 1 "$E2E_TMP/a.out" | jq -e .totals >/dev/null'

# SIGUSR1 without -o: the default name, in the current directory
(cd "$E2E_TMP" && exec ip netns exec "$ns" "$FLOWTOP" -i "$if_" -b -d 0.2 >"$E2E_TMP/b.out" 2>&1) &
sub=$!
E2E_PIDS+=("$sub")
# its first sample: the event loop runs, signals reach its signalfd (before, SIGUSR1's
# default action ends it: an attached filter alone was not enough, as ASan showed)
wait_for 10 grep -q interval "$E2E_TMP/b.out"
kill -USR1 "$sub"
check "SIGUSR1 without -o: flowtop-IFACE-DATE-TIME.txt" \
	wait_for 5 eval 'ls "$E2E_TMP" | grep -q "^flowtop-$if_-20[0-9]\{6\}-[0-9]\{6\}\.txt$"'
stop_bg "$sub" INT

# renamed while watched
start_bg "$ns" "$E2E_TMP/ren.out" "$FLOWTOP" -i "$if_" -b --json -d 0.1
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/ren.out"
ip -n "$ns" link set "$if_" down
ip -n "$ns" link set "$if_" name "flr-$E2E_SFX"
exited() { ! kill -0 "$pid" 2>/dev/null; }
check "renamed: flowtop notices" wait_for 3 exited
stop_bg "$pid" KILL
rc=$?
check "renamed: exit 3 and says so" eval '[ "$rc" = 3 ] && grep -q "interface $if_ disappeared" "$E2E_TMP/ren.out.err"'
check "renamed, --json: the reason is the last line on stdout, as {\"error\": ...}" \
	eval 'tail -n 1 "$E2E_TMP/ren.out" | jq -e ".error | test(\"interface $if_ disappeared\")" >/dev/null'
ip -n "$ns" link set "flr-$E2E_SFX" name "$if_"
ip -n "$ns" link set "$if_" up

# moved to another namespace while watched
netns_new flo && other=$NETNS
start_bg "$ns" "$E2E_TMP/mv.out" "$FLOWTOP" -i "$if_" -b --json -d 0.1
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/mv.out"
ip -n "$ns" link set "$if_" netns "$other"
check "moved to another namespace: flowtop notices" wait_for 3 exited
stop_bg "$pid" KILL
rc=$?
check "moved: exit 3, and the message" eval '[ "$rc" = 3 ] && grep -q "interface $if_ disappeared" "$E2E_TMP/mv.out.err"'
# re-created: flowtop attaches again
ip -n "$other" link set "$if_" netns "$ns"
ip -n "$ns" link set "$if_" up
out=$(ip netns exec "$ns" "$FLOWTOP" -i "$if_" -b --json -n 1 -d 0.1 | jq -r .interface)
check "back: flowtop attaches to it again" [ "$out" = "$if_" ]

# the same faults on the screen (tmux, a private server): down, renamed, moved away
tmux_server main
shows() { tm capture-pane -p -t f | grep -q -- "$1"; }
tm new-session -d -s f -x 100 -y 25 "ip netns exec $ns $FLOWTOP -i $if_ -N -d 0.2 -o $E2E_TMP/tty.json"
wait_for 10 shows "flowtop  $if_ (up)"
ip -n "$ns" link set "$if_" down
check "screen, link down: the header says down" wait_for 5 shows "flowtop  $if_ (down)"
ip -n "$ns" link set "$if_" name "flr-$E2E_SFX"
check "screen, renamed: said, picker offered" \
	wait_for 5 eval 'shows "$if_ disappeared: pick another" && shows "watch which interface"'
ip -n "$ns" link set "flr-$E2E_SFX" name "$if_"
ip -n "$ns" link set "$if_" up
tm send-keys -t f Escape i
wait_for 5 shows "watch which interface"
for _ in 1 2 3 4; do tm send-keys -t f j; done # ours has the highest index: the last
tm send-keys -t f Enter
check "screen, back under its name: the picker attaches again" wait_for 5 shows "flowtop  $if_ (up)"
ip -n "$ns" link set "$if_" netns "$other"
check "screen, moved to another namespace: said" wait_for 5 shows "$if_ disappeared: pick another"
ip -n "$other" link set "$if_" netns "$ns"
ip -n "$ns" link set "$if_" up
# the terminal goes away: flowtop gets SIGHUP, writes -o, exits
pid=$(pgrep -f "^$FLOWTOP -i $if_ -N -d 0.2")
tm kill-server
check "terminal closed: flowtop exits" wait_for 5 gone "$pid"
tty_ok() { jq -e '.interface and (.hosts | type == "array")' "$E2E_TMP/tty.json" >/dev/null; }
check "terminal closed: the -o snapshot is complete" tty_ok

# faults in flowtop's own calls, preloaded (tests/e2e/fault.c) and on while a file
# exists: the counters cannot be read for a while (said on the screen, and the exit
# status says the counts are incomplete), then waiting for events fails (flowtop ends at
# once and says why)
fault="LD_PRELOAD=$TESTBIN/fault.so FAULT_WHEN=$E2E_TMP/fault"
sanitized "$FLOWTOP" &&
	fault="$fault ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
tmux_server calls
tm new-session -d -s f -x 100 -y 25 \
	"ip netns exec $ns env $fault FAULT_BPF_READ=1 $FLOWTOP -i $if_ -N -d 0.2; echo \$? >$E2E_TMP/rc1"
wait_for 10 shows "flowtop  $if_ (up)"
touch "$E2E_TMP/fault"
check "screen, counters unreadable: said on the status line" \
	wait_for 5 shows "cannot read the counters: Operation not permitted"
rm -f "$E2E_TMP/fault"
tm send-keys -t f q
check "then q: exit status 1, the counts are incomplete" \
	wait_for 5 eval '[ "$(cat "$E2E_TMP/rc1" 2>/dev/null)" = 1 ]'
tm kill-session -t f
# an expression set while the counters cannot be emptied: the new sockets take it and
# count (the header names it), rather than standing unhooked under the old one's name
tm new-session -d -s f -x 120 -y 25 \
	"ip netns exec $ns env $fault FAULT_BPF_READ=1 $FLOWTOP -i $if_ -N -d 0.2; echo \$? >$E2E_TMP/rc3"
wait_for 10 shows "flowtop  $if_ (up)"
touch "$E2E_TMP/fault"
tm send-keys -t f e
wait_for 5 shows "Count only"
# (all but the datagrams below: whatever else the veth carries, IPv6's own chatter say,
# is counted, and the filtered count is theirs alone)
tm send-keys -t f "not udp port 9" Enter
check "e while the counters cannot be emptied: the new expression is the one named" \
	wait_for 5 shows "flowtop  $if_ (up)  'not udp port 9'"
rm -f "$E2E_TMP/fault"
# (moved to another namespace and back above, the veth lost its address)
ip -n "$ns" addr replace 10.79.0.1/24 dev "$if_"
ip -n "$ns" neigh replace 10.79.0.2 lladdr 02:00:00:00:00:02 dev "$if_" nud permanent
ip netns exec "$ns" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(3):
    s.sendto(bytes(10), ("10.79.0.2", 9))'
check "and its sockets judge frames: 3 UDP datagrams unmatched" wait_for 5 shows " unmatched 3[^0-9]"
tm kill-session -t f
tm new-session -d -s f -x 100 -y 25 \
	"ip netns exec $ns env $fault FAULT_POLL=1 $FLOWTOP -i $if_ -N -d 0.2 2>$E2E_TMP/poll.err; echo \$? >$E2E_TMP/rc2"
wait_for 10 shows "flowtop  $if_ (up)"
touch "$E2E_TMP/fault"
check "screen, waiting for events fails: flowtop ends at once, status 1, and says why" \
	wait_for 5 eval '[ "$(cat "$E2E_TMP/rc2" 2>/dev/null)" = 1 ] &&
		grep -q "waiting for events failed: Cannot allocate memory" "$E2E_TMP/poll.err"'
rm -f "$E2E_TMP/fault"

# a map of 64 hosts and 10,000 distinct sources that send once, then one that sends 3
python3 - "$E2E_TMP/many.pcap" <<'PY'
import struct, sys
f = open(sys.argv[1], "wb")
f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
for i in range(10003):
    src = [10, 80, i >> 8, i & 255] if i < 10000 else [10, 82, 0, 1]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 46, 1, 0, 64, 17, 0,
                     bytes(src), bytes([10, 81, 0, 1]))
    frame = bytes.fromhex("020000000002020000000001") + b"\x08\x00" + ip + bytes(26)
    f.write(struct.pack("<IIII", 1, i, len(frame), len(frame)) + frame)
PY
if [ -r "$CORPUS/replay.sh" ]; then
	# sent from one CPU: the table meets a sample's sources in the order one CPU's ring
	# holds them, and across CPUs in the order it drains them (see -m in the manual)
	bash "$CORPUS/replay.sh" -q --cpu 0 --samples "$E2E_TMP/many.jsonl" "$E2E_TMP/many.pcap" -- \
		"$FLOWTOP" -i '{IF}' -b --json -d 0.1 -m 64 -o "$E2E_TMP/many.json" 2>/dev/null
	full_ok() {
		jq -e '.totals.packets == 10003 and .totals.bytes == 600180 and .totals.lost == 0
			and .totals.capacity == 64 and .totals.hosts == 64
			and .totals.evicted + .totals.waiting == 10002 - 64
			and .other.hosts == 10002 - 64' "$E2E_TMP/many.json" >/dev/null
	}
	check "-m 64, 10,000 sources: totals exact, the sources past the bound in other" full_ok
	# the first 63 sources and the destination fill the table; the others send once,
	# wait at its door and leave from it, evicting no host; the last source's second
	# frame lets it in (the host idle the longest leaves), its first moving with it
	door() {
		jq -e '([.hosts[].ip | select(startswith("10.80.0."))] | length) == 62
			and (.hosts | map(.ip) | index("10.80.39.15") == null)
			and .other.tx_packets == 10000 - 62' "$E2E_TMP/many.json" >/dev/null
	}
	check "-m 64: sources that send once take no host's place" door
	newcomer() { jq -e '.hosts[] | select(.ip == "10.82.0.1") | .tx_packets == 3' "$E2E_TMP/many.json" >/dev/null; }
	check "-m 64: a source that sends again is let in with every frame it sent" newcomer
	dst() { jq -e '.hosts[] | select(.ip == "10.81.0.1") | .rx_packets == 10003' "$E2E_TMP/many.json" >/dev/null; }
	check "-m 64: the destination of every frame kept its count" dst
else
	fail "the corpus's replay.sh is missing: the full-map checks need it"
fi

# valgrind memcheck: no error, no leak, in a batch run
# valgrind and ASan cannot share a process: under make SAN=1, memcheck the plain build
vg_bin=$FLOWTOP
if sanitized "$FLOWTOP"; then
	vg_bin=$(realpath "$(dirname "$0")/../../flowtop") # make SAN=1 tests builds it too
fi
if [ ! -x "$vg_bin" ] || sanitized "$vg_bin"; then
	fail "valgrind memcheck: no plain build at $vg_bin (make SAN=1 tests makes one)"
elif command -v valgrind >/dev/null; then
	ip netns exec "$ns" valgrind -q --leak-check=full \
		--suppressions="$(dirname "$0")/../valgrind.supp" --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 "$vg_bin" -i "$if_" -b --json -n 3 -d 0.1 -o "$E2E_TMP/vg.csv" \
		>/dev/null 2>"$E2E_TMP/vg.err"
	rc=$?
	check "valgrind memcheck: no error, no leak" eval '[ "$rc" = 0 ] || { cat "$E2E_TMP/vg.err"; false; }'
else
	fail "valgrind is not installed"
fi
summary
