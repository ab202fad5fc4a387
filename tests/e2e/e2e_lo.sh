#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_lo.sh -- on loopback a packet socket gets every frame twice (outgoing, then
# incoming): flowtop must count each once, as tcpdump does.
. "$(dirname "$0")/lib.sh"
need_root 4

netns_new lo && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
start_bg "$ns" "$E2E_TMP/flowtop.out" "$FLOWTOP" -i lo -b --json -d 0.2
ft_pid=$BG_PID
start_bg "$ns" "$E2E_TMP/tcpdump.out" tcpdump -i lo -n --immediate-mode -U -w "$E2E_TMP/lo.pcap"
td_pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/flowtop.out"
wait_for 10 grep -q listening "$E2E_TMP/tcpdump.out.err"

# 10 IPv4 echoes of 98 bytes (14 + 20 + 8 + 56) and 5 IPv6 echoes of 118, with replies
ip netns exec "$ns" ping -q -c 10 -i 0.01 127.0.0.1 >/dev/null
ip netns exec "$ns" ping -q -6 -c 5 -i 0.01 ::1 >/dev/null
wait_for 10 counted "$E2E_TMP/flowtop.out" 30
stop_bg "$ft_pid" INT
stop_bg "$td_pid" INT

cat >"$E2E_TMP/expected.csv" <<CSV
ip,dir,packets,bytes
127.0.0.1,src,20,1960
127.0.0.1,dst,20,1960
::1,src,10,1180
::1,dst,10,1180
CSV
check "each frame counted once" python3 "$(dirname "$0")/compare.py" "$E2E_TMP/flowtop.out" \
	"$E2E_TMP/expected.csv" --totals packets=30,bytes=3140
td_count=$(tcpdump -r "$E2E_TMP/lo.pcap" -n 2>/dev/null | wc -l)
check "tcpdump saw the same 30 frames" [ "$td_count" = 30 ]
ft_count=$(tail -n 1 "$E2E_TMP/flowtop.out" | jq .totals.packets)
check "flowtop and tcpdump agree" [ "$ft_count" = "$td_count" ]
check "no error output" [ ! -s "$E2E_TMP/flowtop.out.err" ]
summary
