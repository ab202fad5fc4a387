#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_attach.sh -- counting starts exactly, with traffic flowing: flowtop started again
# and again on a veth in a flood. The counters start over while no socket takes frames
# (bound for no protocol, hooked after), so no frame of before the start reaches a host
# without reaching the totals: on every sample, no host count is above the totals.
. "$(dirname "$0")/lib.sh"
need_root 2
send=$TESTBIN/../bench/flood_send
[ -x "$send" ] || { fail "no $send (make builds it with the tests)"; summary; exit; }
rounds=${ATTACH_ROUNDS:-30}

netns_new ata && a=$NETNS && netns_new atb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=fat-a-$E2E_SFX vb=fat-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }
ip -n "$a" addr add 10.91.0.1/24 dev "$va"
ip -n "$a" neigh add 10.91.0.2 lladdr 02:00:00:00:00:91 dev "$va" nud permanent

# the flood, for as long as the rounds take (bounded: 300 s)
ip netns exec "$a" "$send" 10.91.0.2 300 >/dev/null &
flood=$!
E2E_PIDS+=("$flood")
for ((i = 0; i < rounds; i++)); do
	ip netns exec "$b" "$FLOWTOP" -i "$vb" -b --json -n 2 -d 0.05 >>"$E2E_TMP/samples.jsonl" \
		2>>"$E2E_TMP/err" || echo "round $i: exit $?" >>"$E2E_TMP/err"
done
kill "$flood" 2>/dev/null
wait "$flood" 2>/dev/null
check "$rounds starts in a flood: each ran its two samples" \
	eval '[ ! -s "$E2E_TMP/err" ] && [ "$(jq -s "map(select(.totals)) | length" "$E2E_TMP/samples.jsonl")" = $((rounds * 2)) ]' ||
	head -n 5 "$E2E_TMP/err"
# a sample reads the rings before the totals, so the hosts may lag the totals by the
# frames of that moment, never lead them
check "on every sample, the hosts' frames within the totals (sent and received)" jqt -s \
	'map(select(.totals)) | all(.[];
	 ([.hosts[].tx_packets] | add // 0) + .other.tx_packets <= .totals.packets and
	 ([.hosts[].rx_packets] | add // 0) + .other.rx_packets <= .totals.packets)' \
	"$E2E_TMP/samples.jsonl" ||
	jq -c 'select(.totals) | {totals: .totals.packets, spilled: .totals.spilled,
		tx: (([.hosts[].tx_packets] | add // 0) + .other.tx_packets),
		rx: (([.hosts[].rx_packets] | add // 0) + .other.rx_packets)} |
		select(.tx > .totals or .rx > .totals)' "$E2E_TMP/samples.jsonl" | head -n 5
summary
