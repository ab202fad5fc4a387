#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_wake.sh -- new pairs faster than the drain timer: the filter wakes flowtop when a
# CPU's ring passes a quarter full, so that it drains long before the ring fills. 400,000
# frames from as many sources (a record each), 200,000 a second, into rings of 32,768
# slots a CPU (--ring-memory of half a MiB a CPU): a drain every 250 ms alone would find 50,000
# records and let the ring fill (spilled: 18,000 a drain); with the wakes a drain finds
# some 8,000 and has 24,000 slots (120 ms) to take them. None spills, and every frame is
# in its host (the table keeps 4,096; the rest leave for "other", counted). A small table:
# one that grows to hundreds of thousands of hosts in the flood makes a drain wait for
# its pages (60 ms and more, longer under AddressSanitizer), which is not what this
# tests.
. "$(dirname "$0")/lib.sh"
need_root 2
churn=$TESTBIN/../bench/churn_send
[ -x "$churn" ] || { fail "no $churn (make builds it with the tests)"; summary; exit; }
frames=400000 pps=200000

netns_new wka && a=$NETNS && netns_new wkb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=fwk-a-$E2E_SFX vb=fwk-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }
out=$E2E_TMP/wake.jsonl
ring_mib=$((($(nproc) + 1) / 2)) # 32,768 slots of 16 bytes a CPU, whatever the CPUs
start_bg "$b" "$out" "$FLOWTOP" -i "$vb" -b --json -d 2 --ring-memory "$ring_mib" -m 4096 -L 1
pid=$BG_PID
wait_for 10 grep -qs interval "$out" || { fail "flowtop did not start"; summary; exit; }

ip netns exec "$a" "$churn" "$va" 0 "$frames" 1 "$pps" >"$E2E_TMP/sent" 2>&1 ||
	{ fail "churn_send failed: $(cat "$E2E_TMP/sent")"; summary; exit; }
echo "  sent: $(cat "$E2E_TMP/sent") (frames, seconds)"
check "all $frames frames counted" wait_for 30 counted "$out" "$frames"
check "none took the spill map, no update lost" \
	last_is "$out" '.totals.spilled == 0 and .totals.lost == 0' ||
	tail -n 1 "$out" | jq -c '.totals | {packets, spilled, lost}'
check "the destination received each frame, each source came once" last_is "$out" \
	"(.hosts[] | select(.ip == \"10.255.255.254\") | .rx_packets == $frames) and
	 .totals.hosts + .totals.evicted == $((frames + 1)) and .other.tx_packets == .totals.evicted" ||
	tail -n 1 "$out" | jq -c "{totals, other, top: [.hosts[] | {ip, rx_packets}]}"
stop_bg "$pid"
summary
