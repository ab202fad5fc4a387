#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_fleet.sh -- a fleet as Prometheus sees it: contrib/prometheus's rules pass promtool
# (check and its own unit tests), then two flowtop exporters, each watching a server in
# a namespace of its own, scraped by one real Prometheus with those rules loaded: the
# fleet-wide query names the client that received from both servers, with the sum of
# what both sent it, and the recording rule says the same; FlowtopHostDominates names the
# client, not the servers' own addresses.
. "$(dirname "$0")/lib.sh"
need_root 7
for t in promtool prometheus curl jq; do
	command -v "$t" >/dev/null || { fail "$t is not installed"; summary; exit; }
done
rules=$(cd "$(dirname "$0")/../../contrib/prometheus" && pwd)
check "promtool check rules: the rules are valid" promtool check rules "$rules/flowtop.rules.yml"
check "promtool test rules: each rule and alert as its tests say" \
	eval '(cd "$rules" && promtool test rules flowtop.rules.test.yml)'

# a client with one address on two links, a server behind each, a flowtop on each
# server's end; Prometheus and both exporters' ports in the namespace p
netns_new fc && c=$NETNS && netns_new f1 && s1=$NETNS && netns_new f2 && s2=$NETNS &&
	netns_new fp && p=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$c" "$s1" "$s2"
c1=ffc1-$E2E_SFX c2=ffc2-$E2E_SFX v1=ffs1-$E2E_SFX v2=ffs2-$E2E_SFX
veth_pair "$c" "$s1" "$c1" "$v1" && veth_pair "$c" "$s2" "$c2" "$v2" ||
	{ fail "cannot create the veth pairs"; summary; exit; }
ip -n "$c" addr add 10.61.0.1/32 dev "$c1"
ip -n "$c" addr add 10.61.0.1/32 dev "$c2"
ip -n "$c" route add 10.61.1.2/32 dev "$c1"
ip -n "$c" route add 10.61.2.2/32 dev "$c2"
ip -n "$s1" addr add 10.61.1.2/32 dev "$v1"
ip -n "$s1" route add 10.61.0.1/32 dev "$v1"
ip -n "$s2" addr add 10.61.2.2/32 dev "$v2"
ip -n "$s2" route add 10.61.0.1/32 dev "$v2"
ip -n "$c" neigh add 10.61.1.2 lladdr "$(mac "$s1" "$v1")" dev "$c1" nud permanent
ip -n "$c" neigh add 10.61.2.2 lladdr "$(mac "$s2" "$v2")" dev "$c2" nud permanent
ip -n "$s1" neigh add 10.61.0.1 lladdr "$(mac "$c" "$c1")" dev "$v1" nud permanent
ip -n "$s2" neigh add 10.61.0.1 lladdr "$(mac "$c" "$c2")" dev "$v2" nud permanent

P1=9581 P2=9582 PP=9589
start_bg "$p" "$E2E_TMP/e1.out" "$FLOWTOP" --netns "$s1" -i "$v1" --listen "127.0.0.1:$P1" -d 0.5
start_bg "$p" "$E2E_TMP/e2.out" "$FLOWTOP" --netns "$s2" -i "$v2" --listen "127.0.0.1:$P2" -d 0.5
get() { ip netns exec "$p" curl -s -m 5 "$@"; }
wait_for 10 eval 'get "http://127.0.0.1:$P1/metrics" | grep -q flowtop_frames_total &&
		  get "http://127.0.0.1:$P2/metrics" | grep -q flowtop_frames_total' ||
	{ fail "the exporters did not start: $(cat "$E2E_TMP"/e?.out.err)"; summary; exit; }
cat >"$E2E_TMP/prometheus.yml" <<EOF2
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $rules/flowtop.rules.yml
scrape_configs:
  - job_name: flowtop
    static_configs:
      - targets: ['127.0.0.1:$P1', '127.0.0.1:$P2']
EOF2
ip netns exec "$p" prometheus --config.file="$E2E_TMP/prometheus.yml" \
	--storage.tsdb.path="$E2E_TMP/tsdb" --web.listen-address="127.0.0.1:$PP" \
	>"$E2E_TMP/prom.log" 2>&1 &
E2E_PIDS+=($!)
query() {
	get --data-urlencode "query=$1" "http://127.0.0.1:$PP/api/v1/query" | jq -r "$2"
}
check "Prometheus scrapes both exporters" \
	wait_for 60 eval '[ "$(query "sum(up{job=\"flowtop\"})" ".data.result[0].value[1] // empty")" = 2 ]'
# a host's series starts with the sample it enters the exporter's top (what it had
# before is in ip="other"): two echoes to each server first, until Prometheus holds the
# client's series from both, then 12 echoes to the first and 30 to the second
ping_c() { ip netns exec "$c" ping -q -c "$1" -i 0.02 -I 10.61.0.1 "$2" >/dev/null 2>&1; }
ping_c 2 10.61.1.2 && ping_c 2 10.61.2.2
client='flowtop_host_receive_packets_total{ip="10.61.0.1"}'
t1=$(date +%s.%N)
# both exporters scraped a second after the warm-up (each samples every 0.5 s): its
# replies are all in what Prometheus holds
settled() { awk -v a="$(query "min(timestamp(up))" ".data.result[0].value[1] // empty")" -v b="$t1" 'BEGIN { exit !(a != "" && a > b + 1) }'; }
wait_for 30 eval 'settled && [ "$(query "count($client)" ".data.result[0].value[1] // empty")" = 2 ]' ||
	fail "the client's series did not come from both exporters"
before=$(query "sum($client)" '.data.result[0].value[1]')
b1=$(query "$client and on (instance) up{instance=\"127.0.0.1:$P1\"}" '.data.result[0].value[1]')
b2=$(query "$client and on (instance) up{instance=\"127.0.0.1:$P2\"}" '.data.result[0].value[1]')
ping_c 12 10.61.1.2 && ping_c 30 10.61.2.2
fleet='topk(1, sum by (ip) (flowtop_host_receive_packets_total{ip!="other"}))'
check "the fleet's busiest receiver: the client, with both servers' 42 replies more" \
	wait_for 30 eval '[ "$(query "$fleet" ".data.result[0] | \"\(.metric.ip) \(.value[1])\"")" = "10.61.0.1 $((before + 42))" ]'
check "each exporter saw its own share: 12 and 30 more" \
	eval '[ "$(query "$client and on (instance) up{instance=\"127.0.0.1:$P1\"}" ".data.result[0].value[1]")" = $((b1 + 12)) ] &&
	      [ "$(query "$client and on (instance) up{instance=\"127.0.0.1:$P2\"}" ".data.result[0].value[1]")" = $((b2 + 30)) ]'
check "the recording rule: one fleet-wide series for the client, over both exporters" \
	wait_for 30 eval '[ "$(query "ip:flowtop_receive_bytes:rate5m{ip=\"10.61.0.1\"} > 0" ".data.result | \"\(length) \(.[0].metric | keys | join(\",\"))\"")" = "1 __name__,ip" ]'
# FlowtopHostDominates' expression (its 15 minutes aside), as Prometheus loaded it, its
# 0.9 lowered to 0.5 (a host's series starts with the sample it enters the top, so a
# short run's share reads from 0.85 up; promtool's tests hold the 0.9): each server's
# interface is all the client's and all the server's own address, four shares of about
# 1; the alert is the client's on both servers, never a server's own address
dominates=$(get "http://127.0.0.1:$PP/api/v1/rules" |
	jq -r '.data.groups[].rules[] | select(.name == "FlowtopHostDominates") | .query')
half=${dominates/> 0.9/> 0.5}
n_shares() { query "count(instance_interface_ip:flowtop_share:ratio5m > 0.5)" ".data.result[0].value[1] // empty"; }
alerted() { query "$half" "[.data.result[].metric.ip] | sort | join(\",\")"; }
wait_for 30 eval '[ "$(n_shares)" = 4 ] && [ "$(alerted)" = 10.61.0.1,10.61.0.1 ]'
check "each server's own address and the client hold its interface ($(n_shares) shares); FlowtopHostDominates is the client's alone ($(alerted))" \
	eval '[ "$half" != "$dominates" ] && [ "$(n_shares)" = 4 ] && [ "$(alerted)" = 10.61.0.1,10.61.0.1 ]'
summary
