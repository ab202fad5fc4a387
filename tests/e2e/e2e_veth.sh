#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_veth.sh -- real traffic between two namespaces joined by a veth; flowtop watching
# the receiving end must account for every frame, packet for packet, byte for byte.
# IPv6 is off and the neighbours are static, so the kernels add no traffic of their own.
. "$(dirname "$0")/lib.sh"
need_root 8

netns_new a && a=$NETNS && netns_new b && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ia=fva-$E2E_SFX ib=fvb-$E2E_SFX
ipv6_off "$a" "$b"
two_hosts "$a" "$b" "$ia" "$ib" 10.77.0 || { fail "cannot set up the veth pair"; summary; exit; }

# two instances on one interface: each loads its own program and maps
start_bg "$b" "$E2E_TMP/json.out" "$FLOWTOP" -i "$ib" -b --json -d 0.2 -o "$E2E_TMP/snap.json"
json_pid=$BG_PID
start_bg "$b" "$E2E_TMP/text.out" "$FLOWTOP" -i "$ib" -b -d 0.2 -o "$E2E_TMP/snap.csv"
text_pid=$BG_PID
# each file on its own: grep with two files holds when either matches, and the traffic
# below must not start before both instances count
check "both instances attach and sample" \
	wait_for 10 eval 'grep -q interval "$E2E_TMP/json.out" && grep -q interval "$E2E_TMP/text.out"'

# 20 echo requests of 142 bytes on the wire (14 + 20 + 8 + 100), 5 of 1042, and replies
ip netns exec "$a" ping -q -c 20 -i 0.01 -s 100 10.77.0.2 >/dev/null
ip netns exec "$a" ping -q -c 5 -i 0.01 -s 1000 10.77.0.2 >/dev/null
check "the JSON instance counts the 50 frames" wait_for 10 counted "$E2E_TMP/json.out" 50
stop_bg "$json_pid" INT
check "SIGINT: exit status 0" [ $? = 0 ]
stop_bg "$text_pid" TERM

cat >"$E2E_TMP/expected.csv" <<CSV
ip,dir,packets,bytes
10.77.0.1,src,25,8050
10.77.0.1,dst,25,8050
10.77.0.2,src,25,8050
10.77.0.2,dst,25,8050
CSV
totals=packets=50,bytes=16100,non_ip=0,truncated=0,evicted=0,lost=0
check "final JSON sample equals the traffic sent" \
	python3 "$(dirname "$0")/compare.py" "$E2E_TMP/json.out" "$E2E_TMP/expected.csv" --totals "$totals"
check "-o snapshot.json equals the traffic sent" \
	python3 "$(dirname "$0")/compare.py" "$E2E_TMP/snap.json" "$E2E_TMP/expected.csv" --totals "$totals"
all_parse() { jq -e -s "length > 1 and all(.interface == \"$ib\")" "$E2E_TMP/json.out" >/dev/null; }
check "JSON lines all parse with jq" all_parse
check "-o snapshot.csv (second instance, SIGTERM) has both hosts" \
	python3 -c 'import csv,sys
rows = {r["ip"]: r for r in csv.DictReader(open(sys.argv[1]))}
sys.exit(not (rows["10.77.0.1"]["tx_packets"] == "25" and rows["10.77.0.2"]["rx_bytes"] == "8050"))' \
	"$E2E_TMP/snap.csv"
check "text output shows the totals line" grep -q '^total 50 packets 16100 bytes' "$E2E_TMP/text.out"
summary
