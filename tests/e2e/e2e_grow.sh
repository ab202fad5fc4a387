#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_grow.sh -- a host table growing under a flood spills nothing: 400,000 frames from as
# many new sources, 200,000 a second, into -m 1000000 with rings of 32,768 slots a CPU
# (--ring-memory of half a MiB a CPU, 160 ms of the flood), so the table grows from nothing to
# 400,001 hosts while the drains keep up. A table that grew by copying its hosts held a
# drain up for its pages (60 to 240 ms at a few hundred thousand hosts) and the rings
# filled: frames took the spill map. Every frame is in its host, none spilled, no update
# lost, no host evicted.
. "$(dirname "$0")/lib.sh"
need_root 2
churn=$TESTBIN/../bench/churn_send
[ -x "$churn" ] || { fail "no $churn (make builds it with the tests)"; summary; exit; }
frames=400000 pps=200000

netns_new gra && a=$NETNS && netns_new grb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=fgr-a-$E2E_SFX vb=fgr-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }
out=$E2E_TMP/grow.jsonl
ring_mib=$((($(nproc) + 1) / 2)) # 32,768 slots of 16 bytes a CPU
start_bg "$b" "$out" "$FLOWTOP" -i "$vb" -b --json -d 2 --ring-memory "$ring_mib" -m 1000000 -L 1
pid=$BG_PID
wait_for 10 grep -qs interval "$out" || { fail "flowtop did not start"; summary; exit; }

ip netns exec "$a" "$churn" "$va" 0 "$frames" 1 "$pps" >"$E2E_TMP/sent" 2>&1 ||
	{ fail "churn_send failed: $(cat "$E2E_TMP/sent")"; summary; exit; }
echo "  sent: $(cat "$E2E_TMP/sent") (frames, seconds)"
check "all $frames frames counted" wait_for 30 counted "$out" "$frames"
check "none took the spill map, no update lost" \
	last_is "$out" '.totals.spilled == 0 and .totals.lost == 0' ||
	tail -n 1 "$out" | jq -c '.totals | {packets, spilled, lost}'
check "every source is a host of its own, none evicted" last_is "$out" \
	"(.hosts[] | select(.ip == \"10.255.255.254\") | .rx_packets == $frames) and
	 .totals.hosts == $((frames + 1)) and .totals.evicted == 0" ||
	tail -n 1 "$out" | jq -c "{totals, other}"
stop_bg "$pid"
summary
