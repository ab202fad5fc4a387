#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_groups.sh -- rows by prefix, AS and country (--group): a crafted capture of
# addresses whose AS and country the packaged location database states (mkcap.py
# world) read with -r and replayed live across a veth; every output (JSON, text, CSV,
# -o), the filter on groups, the hosts' AS and country in JSON, a database missing.
. "$(dirname "$0")/lib.sh"
need_root 35

here=$(dirname "$0")
world=$E2E_TMP/world.pcap
python3 "$here/mkcap.py" world "$world" || { fail "mkcap.py failed"; summary; exit; }
# read ARGS...: the capture in one sample, its JSON in $E2E_TMP/out.json
read_json() { "$FLOWTOP" -r "$world" -b --json -d 100 "$@" >"$E2E_TMP/out.json" 2>"$E2E_TMP/err"; }
# grp LABEL JQ: the group LABEL of out.json satisfies JQ
grp() { jqt ".groups[] | select(.group == \"$1\") | $2" "$E2E_TMP/out.json"; }
ip_is() { jqt ".hosts[] | select(.ip == \"$1\") | $2" "$E2E_TMP/out.json"; }

read_json --group as
check "--group as: seven groups, the frames' totals" \
	jqt '.group_by == "as" and (.groups | length) == 7 and .totals.packets == 11 and ([.groups[].tx_packets] | add) == 11' "$E2E_TMP/out.json"
check "--group as: AS15169 is 8.8.8.8, 8.8.4.4 and 2001:4860:4860::8888" \
	grp AS15169 '.as_name == "GOOGLE" and .hosts == 3 and .tx_packets == 6 and .tx_bytes == 892 and .rx_packets == 0'
check "--group as: AS13335 and AS3333, one host each" \
	eval 'grp AS13335 ".hosts == 1 and .tx_bytes == 284" && grp AS3333 ".hosts == 1 and .tx_bytes == 142 and (.as_name | test(\"RIPE\"))"'
check "--group as: private, documentation, link-local and multicast say so" \
	eval 'grp private ".hosts == 3 and .rx_packets == 9 and .rx_bytes == 1318 and .tx_packets == 1" &&
	      grp documentation ".hosts == 1 and .rx_bytes == 142" && grp link-local ".tx_bytes == 142" &&
	      grp multicast ".rx_bytes == 142"'
read_json --group country
check "--group country: US three hosts, NL one" \
	eval 'grp US ".country == \"US\" and .hosts == 3 and .tx_bytes == 892" && grp NL ".hosts == 1 and .tx_bytes == 142"'
read_json --group prefix
check "--group prefix: /24 and /48 by default" \
	eval 'grp 8.8.8.0/24 ".hosts == 1 and .tx_bytes == 426" && grp 8.8.4.0/24 ".hosts == 1" &&
	      grp 2001:4860:4860::/48 ".tx_bytes == 324" && grp 192.168.1.0/24 ".rx_packets == 6"'
read_json --group prefix --prefix 16,32
check "--prefix 16,32: 8.8.0.0/16 holds both Google IPv4 hosts" \
	eval 'grp 8.8.0.0/16 ".hosts == 2 and .tx_packets == 4 and .tx_bytes == 568" && grp 2001:4860::/32 ".hosts == 1" &&
	      jqt "(.groups | length) == 10" "$E2E_TMP/out.json"'
read_json
check "hosts: asn, as_name and country in JSON; a special range in place of a country" \
	eval 'ip_is 8.8.8.8 ".asn == 15169 and .as_name == \"GOOGLE\" and .country == \"US\"" &&
	      ip_is 193.0.6.139 ".asn == 3333 and .country == \"NL\"" &&
	      ip_is 10.0.0.1 ".asn == null and .as_name == null and .country == \"private\"" &&
	      ip_is fd00::1 ".country == \"private\"" && ip_is 224.0.0.251 ".country == \"multicast\""'
read_json --group as -f GOOGLE
check "-f on groups: text in the AS name" jqt '(.groups | length) == 1 and .groups[0].group == "AS15169"' "$E2E_TMP/out.json"
read_json --group country -f NL
check "-f on groups: a country code" jqt '(.groups | length) == 1 and .groups[0].hosts == 1' "$E2E_TMP/out.json"
read_json --group prefix -f 8.0.0.0/8
check "-f on groups: a CIDR" jqt '[.groups[].group] == ["8.8.8.0/24", "8.8.4.0/24"]' "$E2E_TMP/out.json"

"$FLOWTOP" -r "$world" -b -d 100 --group as >"$E2E_TMP/out.txt"
check "text: GROUP and HOSTS columns, the AS with its name" \
	eval 'grep -q "^GROUP  *HOSTS  *RX PKTS" "$E2E_TMP/out.txt" &&
	      grep -Eq "^AS15169 GOOGLE +3 +0 +0 +6 +892 " "$E2E_TMP/out.txt"'
"$FLOWTOP" -r "$world" -b -d 100 --group country -o "$E2E_TMP/snap.csv" >/dev/null
check "-o CSV: a line a group, with its hosts" \
	eval 'head -n 1 "$E2E_TMP/snap.csv" | grep -q "^group,hosts,rx_packets," &&
	      grep -q "^US,3,0,0,6,892," "$E2E_TMP/snap.csv" && [ "$(wc -l <"$E2E_TMP/snap.csv")" = 8 ]'

read_json --group as --geo-db "$E2E_TMP/none.db"
rc=$?
check "no database: said once, AS and country '-', the ranges still named" \
	eval '[ "$rc" = 0 ] && [ "$(grep -c "cannot open the location database $E2E_TMP/none.db" "$E2E_TMP/err")" = 1 ] &&
	      grep -q "AS and country show as -" "$E2E_TMP/err" &&
	      grp - ".hosts == 5 and .tx_packets == 9" && grp private ".hosts == 3"'
"$FLOWTOP" -r "$world" -b --json -d 100 --geo-db /etc/hostname >"$E2E_TMP/out.json" 2>"$E2E_TMP/err"
check "a file that is no database: said, and the hosts have no AS" \
	eval 'grep -q "/etc/hostname is not a location database" "$E2E_TMP/err" && ip_is 8.8.8.8 ".asn == null and .country == null"'

# collide_peak N: into $peak, the peak RSS in KB of a -r run of N samples (a second
# each) of 8 ASes that once shared a slot of the AS-name cache, each named every sample
# (the capture made apart: a child's peak stays with a shell that execs the next). Under
# AddressSanitizer without its quarantine, which else keeps every freed block a while
# (256 MB) and makes the peak the run's churn, not what it holds
collide_peak() {
	python3 "$here/mkcap.py" ascollide "$E2E_TMP/collide.pcap" "$1" || return
	peak=$(ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0 python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
		"$FLOWTOP" -r "$E2E_TMP/collide.pcap" -b --json -d 1 --group as)
}
# 2,000 and 60,000 samples peak alike (before: every name kept again each sample, 20.9
# and 38.4 MB)
collide_peak 2000 && short=$peak && collide_peak 60000 && long=$peak
check "AS names of colliding ASes: peak RSS over 60,000 samples within 1 MB of 2,000's ($short and $long KB)" \
	eval '[ -n "$short" ] && [ -n "$long" ] && [ "$long" -lt $((short + 1024)) ]'
"$FLOWTOP" -r "$E2E_TMP/collide.pcap" -b --json -d 1 --group as | tail -n 1 >"$E2E_TMP/out.json"
check "AS names of colliding ASes: still right after 60,000 samples" \
	eval 'grp AS15169 ".as_name == \"GOOGLE\" and .tx_packets == 7500" &&
	      grp AS14145 ".as_name == \"REGIONS-ASN-3\"" && grp AS16193 ".as_name == \"BORICA AD\""'

# live: the same frames across a veth to flowtop watching with --group as
bash "$CORPUS/replay.sh" -q --samples "$E2E_TMP/live.jsonl" "$world" -- \
	"$FLOWTOP" -i '{IF}' -b --json -d 0.1 --group as -o "$E2E_TMP/live.json" 2>"$E2E_TMP/live.err"
rc=$?
cp "$E2E_TMP/live.json" "$E2E_TMP/out.json" 2>/dev/null
check "live --group as: the replayed frames in the right groups" \
	eval '[ "$rc" = 0 ] && grp AS15169 ".hosts == 3 and .tx_packets == 6 and .tx_bytes == 892" &&
	      grp private ".hosts == 3 and .rx_packets == 9" && jqt ".totals.packets == 11" "$E2E_TMP/out.json"'
check "live --group as: every sample printed groups" \
	eval 'jq -e -s "all(.[]; .group_by == \"as\" and has(\"groups\"))" "$E2E_TMP/live.jsonl" >/dev/null'
# Prometheus: --metrics-group as, the capture sent twice across a veth: each AS a series
# (they start at 0 when they enter, so what a second sending adds is exact), and the sum
# over as is every frame (the bound on series and "other": test_metrics)
netns_new ga && na=$NETNS && netns_new gb && nb=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$na" "$nb"
va=ftg-a-$E2E_SFX vb=ftg-b-$E2E_SFX
veth_pair "$na" "$nb" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }
PORT=9571
scrape() { ip netns exec "$nb" curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics"; }
val() { awk -v f="$1" 'index($0, f "{") == 1 { print $NF; exit }' "$2"; }
# as_val FAMILY AS FILE: the value of AS's series
as_val() { awk -v f="$1" -v a="as=\"$2\"" 'index($0, f "{") == 1 && index($0, a) { print $NF; exit }' "$3"; }
sum_of() { awk -v f="$1" 'index($0, f "{") == 1 { s += $NF } END { printf "%d\n", s }' "$2"; }
# grew FAMILY AS N: AS's series grew by N from the first scrape to the second
grew() { [ $(($(as_val "$1" "$2" "$E2E_TMP/m2.txt") - $(as_val "$1" "$2" "$E2E_TMP/m1.txt"))) = "$3" ]; }
# scraped FILE FRAMES SERIES: a scrape, kept in FILE, counts FRAMES frames, has SERIES
# series of AS transmit packets (the ASes and other), and every host placed (a host the
# worker has not placed yet is held from the sum over as)
scraped() {
	scrape >"$1" && [ "$(val flowtop_frames_total "$1")" = "$2" ] &&
		[ "$(grep -c "^flowtop_as_transmit_packets_total{" "$1")" = "$3" ] &&
		[ "$(sum_of flowtop_as_transmit_packets_total "$1")" = "$2" ]
}
ip netns exec "$nb" "$FLOWTOP" -i "$vb" --listen "127.0.0.1:$PORT" --metrics-group as -N -d 0.1 \
	</dev/null >"$E2E_TMP/exp.out" 2>"$E2E_TMP/exp.err" &
E2E_PIDS+=($!)
wait_for 5 scraped "$E2E_TMP/m0.txt" 0 1
ip netns exec "$na" tcpreplay -q -t -i "$va" "$world" >/dev/null 2>&1
check "--metrics-group as: a series per AS and kind of range, and other" \
	wait_for 10 scraped "$E2E_TMP/m1.txt" 11 8
ip netns exec "$na" tcpreplay -q -t -i "$va" "$world" >/dev/null 2>&1
wait_for 10 scraped "$E2E_TMP/m2.txt" 22 8
check "--metrics-group as: promtool accepts it, AS15169 named" \
	eval 'promtool check metrics <"$E2E_TMP/m2.txt" && grep -q "as=\"15169\",as_name=\"GOOGLE\"" "$E2E_TMP/m2.txt"'
check "--metrics-group as: each AS's series grew by the second sending's frames, exact" \
	eval 'grew flowtop_as_transmit_packets_total 15169 6 && grew flowtop_as_transmit_bytes_total 15169 892 &&
	      grew flowtop_as_receive_packets_total private 9 && grew flowtop_as_transmit_packets_total 3333 1'
check "--metrics-group as: the sum over as is every frame, both ways" \
	eval '[ "$(sum_of flowtop_as_transmit_packets_total "$E2E_TMP/m2.txt")" = 22 ] &&
	      [ "$(sum_of flowtop_as_receive_bytes_total "$E2E_TMP/m2.txt")" = "$(val flowtop_bytes_total "$E2E_TMP/m2.txt")" ]'

# the screen: 'a' through the groupings, a filter on an AS, a group opened and closed,
# the AS and CC columns, a dump of groups
tmux_server groups
tm new-session -d -s g -x 170 -y 30 "$FLOWTOP -r $world -N --speed 0; echo \$? >$E2E_TMP/screen.rc"
pane() { tm capture-pane -p -t g; }
shows() {
	local re=$1
	wait_for 5 eval 'pane | grep -Eq "$re"'
}
check "screen: the capture replayed, rows by host" shows "end of capture"
tm send-keys -t g a
check "screen: a, rows by prefix" eval 'shows "hosts 11/65536  by prefix" && shows "^PREFIX " && shows "^8\.8\.8\.0/24 "'
tm send-keys -t g a
check "screen: a again, rows by AS with their hosts" \
	eval 'shows "by AS" && shows "^AS  .* HOSTS " && shows "^AS15169 GOOGLE  .* 3 " && shows "^private  .* 3 "'
tm send-keys -t g / AS15169 Enter
check "screen: a filter on an AS number leaves its group alone" \
	eval 'shows "  row filter: AS15169" && ! pane | grep -q "^private" && [ "$(pane | grep -c "^AS1")" = 1 ]'
tm send-keys -t g Enter
check "screen: Enter opens the group: its three hosts" \
	eval 'shows "hosts of AS15169 GOOGLE" && shows "^8\.8\.4\.4 " && shows "^2001:4860:4860::8888 " &&
	      ! pane | grep -q "^192\.168\.1\.10 " && [ "$(pane | grep -Ec "^(8\.8|2001:4860)")" = 3 ]'
tm send-keys -t g Escape
check "screen: Esc back to the groups" eval 'shows "by AS  row filter: AS15169" && ! pane | grep -q "hosts of"'
tm send-keys -t g / Escape
check "screen: the filter cleared, every group again" shows "^multicast "
tm send-keys -t g d
for _ in $(seq 60); do tm send-keys -t g BSpace; done
tm send-keys -t g "$E2E_TMP/groups.json" Enter
check "screen: a dump of the groups" \
	eval 'wait_for 5 test -s "$E2E_TMP/groups.json" &&
	      jqt ".group_by == \"as\" and (.rows[] | select(.group == \"AS15169 GOOGLE\") | .hosts == 3)" "$E2E_TMP/groups.json"'
tm send-keys -t g a a a c
check "screen: back to hosts (country, port, host), c shows their AS and country" \
	eval 'shows "^ADDRESS .* AS  .* CC " && shows "^8\.8\.8\.8 .* AS15169 GOOGLE +US " && shows "^10\.0\.0\.1 .* private +private "'
tm send-keys -t g / GOOGLE Enter
check "screen: with the AS column, a filter on an AS's name keeps its hosts" \
	eval 'shows "  row filter: GOOGLE" && [ "$(pane | grep -Ec "^(8\.8\.8\.8|8\.8\.4\.4|2001:4860:4860::8888) ")" = 3 ] &&
	      ! pane | grep -Eq "^(1\.1\.1\.1|10\.0\.0\.1|192\.168\.1\.10) "'
tm send-keys -t g q
check "screen: q, exit 0" wait_for 5 eval '[ "$(cat "$E2E_TMP/screen.rc" 2>/dev/null)" = 0 ]'
tm new-session -d -s cc -x 150 -y 30 "$FLOWTOP -r $world -N --speed 0 --columns cc"
check "screen: --columns cc, the country alone from the start" \
	wait_for 5 eval 'tm capture-pane -p -t cc | grep -Eq "^8\.8\.8\.8 .* US  " &&
			 tm capture-pane -p -t cc | grep -q "^ADDRESS .* CC " &&
			 ! tm capture-pane -p -t cc | grep -q "AS15169"'
tm send-keys -t cc q
summary
