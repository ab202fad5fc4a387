#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_soak.sh -- a long run, short by default: maximum-rate traffic across a veth for
# SOAK_SECONDS (10) with flowtop in batch mode; SOAK_MILLIONS (3) million distinct
# sources at the default -m (past the first, SOAK_PPS a second); then SOAK_SWITCHES (200) interface switches on the screen
# under tmux. Memory and open fds must not grow, every switch must land, the counts must
# equal what the receiver saw, and past the warm-up no address update may be lost. `make
# soak`: 60 s, 10 million sources as fast as they are sent, 2,000 switches.
. "$(dirname "$0")/lib.sh"
need_root 13
secs=${SOAK_SECONDS:-10} switches=${SOAK_SWITCHES:-200} millions=${SOAK_MILLIONS:-3}
# the churn's sources a second past its warm-up (0: as fast as churn_send sends); under
# AddressSanitizer a drain making hosts takes some three times as long
pps=${SOAK_PPS:-400000}
sanitized "$FLOWTOP" && pps=${SOAK_PPS:-150000}
send=$TESTBIN/../bench/flood_send churn=$TESTBIN/../bench/churn_send
[ -x "$send" ] && [ -x "$churn" ] || { fail "no $send or $churn (make builds them with the tests)"; summary; exit; }

netns_new sa && a=$NETNS && netns_new sb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
v1a=fs1a-$E2E_SFX v1b=fs1b-$E2E_SFX v2a=fs2a-$E2E_SFX v2b=fs2b-$E2E_SFX
veth_pair "$a" "$b" "$v1a" "$v1b" && veth_pair "$a" "$b" "$v2a" "$v2b" || { fail "veths"; summary; exit; }
ip -n "$a" addr add 10.90.0.1/24 dev "$v1a"
ip -n "$a" neigh add 10.90.0.2 lladdr 02:00:00:00:00:99 dev "$v1a" nud permanent

# under AddressSanitizer, freed memory waits in a quarantine on purpose: off here, so
# resident memory measures flowtop (ASan's leak check still runs at exit)
if sanitized "$FLOWTOP"; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
fi

rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }
rx() { ip -n "$b" -s -j link show "$v1b" | jq '.[0].stats64.rx.packets'; }

# batch: a flood, sampled every 0.1 s
start_bg "$b" "$E2E_TMP/batch.out" "$FLOWTOP" -i "$v1b" -b --json -d 0.1
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/batch.out"
r0=$(rx)
ip netns exec "$a" "$send" 10.90.0.2 1 >/dev/null # warm-up: the map and buffers settle
rss0=$(rss "$pid") fds0=$(fds "$pid")
ip netns exec "$a" "$send" 10.90.0.2 "$secs" >"$E2E_TMP/sent"
# caught_up FILE: flowtop's last sample counts every frame the veth took in since r0
caught_up() { counted "$1" $(($(rx) - r0)); }
wait_for 20 caught_up "$E2E_TMP/batch.out"
rss1=$(rss "$pid") fds1=$(fds "$pid")
r1=$(rx)
stop_bg "$pid" INT
counted=$(tail -n 1 "$E2E_TMP/batch.out" | jq .totals.packets)
echo "  batch: $(cut -d' ' -f1 "$E2E_TMP/sent") frames sent in $secs s, $((r1 - r0)) received, $counted counted; RSS ${rss0}->${rss1} KiB, fds $fds0->$fds1"
check "batch: every received frame counted" [ "$counted" = $((r1 - r0)) ]
check "batch: on every sample of the flood, no host has more than the totals" jqt -s \
	'all(.[]; ([.hosts[].tx_packets] | add // 0) + .other.tx_packets <= .totals.packets and
	 ([.hosts[].rx_packets] | add // 0) + .other.rx_packets <= .totals.packets)' "$E2E_TMP/batch.out"
check "batch: open fds did not grow" [ "$fds1" = "$fds0" ]
check "batch: resident memory did not grow (under 256 KiB)" [ $((rss1 - rss0)) -lt 256 ]

# address churn, as in a flood of spoofed sources: memory bounded by -m, not by history.
# The first million is the warm-up, sent while flowtop is stopped, so that its rings
# overflow and the spill path's buffers (sized at start, touched on first use) are in
# the baseline on every machine, fast enough to keep up with the flood or not.
start_bg "$b" "$E2E_TMP/churn.out" "$FLOWTOP" -i "$v1b" -b --json -d 0.5 -L 5 -o "$E2E_TMP/churn.json"
pid=$BG_PID
wait_for 10 grep -q interval "$E2E_TMP/churn.out"
r0=$(rx)
kill -STOP "$pid"
ip netns exec "$a" "$churn" "$v1a" 0 1000000 >/dev/null
kill -CONT "$pid"
wait_for 20 caught_up "$E2E_TMP/churn.out"
rss0=$(rss "$pid")
# what the stopped flowtop's warm-up spilled and lost (its spill map's LRU drops entries
# of a million sources), all said by the sample that caught up (it read the map after
# the stats); past it flowtop keeps up with the flood and loses none. Unpaced in `make
# soak`; paced in the short run, which make check runs beside other suites
warm=$(last_line "$E2E_TMP/churn.out" | jq -c '[.totals.spilled, .totals.lost]')
for ((m = 1; m < millions; m++)); do
	ip netns exec "$a" "$churn" "$v1a" $((m * 1000000)) 1000000 1 "$pps" >/dev/null
done
wait_for 20 caught_up "$E2E_TMP/churn.out"
rss1=$(rss "$pid")
r1=$(rx)
stop_bg "$pid" INT
echo "  churn: $millions million sources, $((r1 - r0)) frames received; RSS after the first million ${rss0} KiB, after all ${rss1} KiB"
check "churn: resident memory flat from the first million on (under 10 %)" \
	[ $((rss1 - rss0)) -lt $((rss0 / 10)) ]
check "churn: every frame counted, the table at its bound" jqt --argjson n $((r1 - r0)) \
	'.totals.packets == $n and .totals.hosts == 65536 and .totals.evicted > 0' "$E2E_TMP/churn.json"
# every frame is two address updates, its source's and its destination's: each is on a
# host, in other, or counted lost (frames that took the spill map lose their hosts when
# its own LRU drops them before a read, never the totals)
echo "  churn: $(jq -r --argjson w "$warm" '"\(.totals.spilled) frames spilled, \(.totals.lost) address updates lost; \($w[0]) and \($w[1]) of them in the warm-up"' "$E2E_TMP/churn.json")"
check "churn: past the warm-up, no address update lost" jqt --argjson warm "$warm" \
	'.totals.lost == $warm[1]' "$E2E_TMP/churn.json"
check "churn: the snapshot's hosts, other and lost add up to the totals" jqt \
	'([.hosts[] | .tx_packets + .rx_packets] | add) + .other.tx_packets + .other.rx_packets
	 + .totals.lost == 2 * (.totals.packets - .totals.non_ip - .totals.truncated) and
	 (.hosts | length) == 65536' "$E2E_TMP/churn.json"
check "churn: each sample lists 5 hosts (-L 5)" \
	jqt -s 'map(.hosts | length) | all(. <= 5) and (last == 5)' "$E2E_TMP/churn.out"

# the screen: switches between the two veths
tmux_server main
tm new-session -d -s soak -x 100 -y 20 \
	"ASAN_OPTIONS=${ASAN_OPTIONS:-} ip netns exec $b $FLOWTOP -i $v1b -N -d 0.2; echo \$? >$E2E_TMP/rc"
header() { tm capture-pane -p -t soak | head -n 1; }
wait_for 10 eval 'header | grep -q "flowtop  $v1b"'
pid=$(pgrep -f "^$FLOWTOP -i $v1b -N -d 0.2$")
landed=0
switch() { # KEY IFACE: open the picker, move, pick; wait until the header names IFACE
	want=$2
	tm send-keys -t soak i "$1" Enter
	wait_for 3 eval 'header | grep -q "flowtop  $want "'
}
switch j "$v2b" && switch k "$v1b" && landed=2 # warm-up
rss0=$(rss "$pid") fds0=$(fds "$pid")
for i in $(seq 1 2 "$switches"); do
	switch j "$v2b" || break
	switch k "$v1b" || break
	landed=$((landed + 2))
done
rss1=$(rss "$pid") fds1=$(fds "$pid")
echo "  screen: $((landed - 2)) of $switches switches landed; RSS ${rss0}->${rss1} KiB, fds $fds0->$fds1"
check "screen: every switch landed" [ "$((landed - 2))" -ge "$switches" ]
check "screen: open fds did not grow" [ "$fds1" = "$fds0" ]
check "screen: resident memory did not grow (under 512 KiB)" [ $((rss1 - rss0)) -lt 512 ]
tm send-keys -t soak q
check "screen: quits cleanly after the switches" \
	wait_for 5 eval '[ "$(cat "$E2E_TMP/rc" 2>/dev/null)" = 0 ] && gone "$pid"' || {
	echo "  flowtop $pid: $(grep State "/proc/$pid/status" 2>/dev/null), status $(cat "$E2E_TMP/rc" 2>/dev/null)"
	tm capture-pane -p -t soak | sed 's/^/  | /'
}
summary
