#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_wake.sh -- new pairs faster than the drain timer, twice: 400,000 frames from as many
# sources (a record each), 200,000 a second, into rings of 32,768 slots a CPU
# (--ring-memory of half a MiB a CPU, 160 ms of the flood).
# - The wake: the filter wakes flowtop when a CPU's ring passes a quarter full, so that
#   it drains long before the ring fills. A drain every 250 ms alone would find 50,000
#   records and let the ring fill (spilled: 18,000 a drain); with the wakes a drain finds
#   some 8,000 and has 24,000 slots (120 ms) to take them. The table keeps 4,096: the rest
#   leave for "other", counted.
# - The growth: into -m 1000000, the table grows from nothing to 400,001 hosts while the
#   drains keep up. A table that grew by copying its hosts held a drain up for its pages
#   (60 to 240 ms at a few hundred thousand hosts) and the rings filled: the build before
#   spilled 25,344 frames and lost 9,088 address updates.
# Each time none spills, no update is lost, and every frame is in its host.
. "$(dirname "$0")/lib.sh"
need_root 2
churn=$TESTBIN/../bench/churn_send
[ -x "$churn" ] || { fail "no $churn (make builds it with the tests)"; summary; exit; }
frames=400000 pps=200000
ring_mib=$((($(possible_cpus) + 1) / 2)) # 32,768 slots of 16 bytes a CPU, whatever the CPUs

netns_new wka && a=$NETNS && netns_new wkb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=fwk-a-$E2E_SFX vb=fwk-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }

# flood NAME MAX_HOSTS RING_MIB: the flood into a flowtop of -m MAX_HOSTS, its JSON Lines
# in $out; checks that every frame was counted without the spill map
flood() {
	out=$E2E_TMP/$1.jsonl
	start_bg "$b" "$out" "$FLOWTOP" -i "$vb" -b --json -d 2 --ring-memory "$3" -m "$2" -L 1
	pid=$BG_PID
	wait_for 10 grep -qs interval "$out" || { fail "$1: flowtop did not start"; stop_bg "$pid"; return 1; }
	ip netns exec "$a" "$churn" "$va" 0 "$frames" 1 "$pps" >"$E2E_TMP/sent" 2>&1 ||
		{ fail "$1: churn_send failed: $(cat "$E2E_TMP/sent")"; stop_bg "$pid"; return 1; }
	echo "  $1: sent $(cat "$E2E_TMP/sent") (frames, seconds)"
	check "$1: all $frames frames counted" wait_for 30 counted "$out" "$frames"
	check "$1: none took the spill map, no update lost" \
		last_is "$out" '.totals.spilled == 0 and .totals.lost == 0' ||
		tail -n 1 "$out" | jq -c '.totals | {packets, spilled, lost}'
}

# The totals are read after the drain: a sample may count frames whose records the next
# drain makes hosts of (under AddressSanitizer 2,433 of 400,000 once), so the hosts are
# waited for.
if flood wake 4096 "$ring_mib"; then
	check "wake: the destination received each frame, each source came once" \
		wait_for 10 last_is "$out" \
		"(.hosts[] | select(.ip == \"10.255.255.254\") | .rx_packets == $frames) and
		 .totals.hosts + .totals.evicted + .totals.waiting == $((frames + 1)) and
		 .other.tx_packets == .totals.evicted + .totals.waiting" ||
		tail -n 1 "$out" | jq -c "{totals, other, top: [.hosts[] | {ip, rx_packets}]}"
	stop_bg "$pid"
fi
# Under AddressSanitizer a drain making new hosts takes some three times as long, and
# beside two other suites on two CPUs the 160 ms of ring ran out (2,259 frames spilled
# once in CI): there the rings hold four times as much. The plain build, in the same
# run, is the one that tells a table that copies to grow (its stall was some 300 ms: 25,344
# frames past a 160 ms ring).
growth_mib=$ring_mib
sanitized "$FLOWTOP" && growth_mib=$((ring_mib * 4))
if flood growth 1000000 "$growth_mib"; then
	check "growth: every source is a host of its own, none evicted" \
		wait_for 10 last_is "$out" \
		"(.hosts[] | select(.ip == \"10.255.255.254\") | .rx_packets == $frames) and
		 .totals.hosts == $((frames + 1)) and .totals.evicted == 0" ||
		tail -n 1 "$out" | jq -c "{totals, other}"
	stop_bg "$pid"
fi
summary
