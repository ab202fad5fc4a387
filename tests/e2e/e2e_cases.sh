#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_cases.sh -- the crafted frames of test_dissect, replayed across a veth to a live
# flowtop: the live path (SOCK_DGRAM socket, outer VLAN tag moved into metadata by the
# receiver) must reach exactly the verdicts BPF_PROG_TEST_RUN reached.
. "$(dirname "$0")/lib.sh"
need_root 2
need_file "$CORPUS/replay.sh" 2

"$TESTBIN/test_dissect" --export "$E2E_TMP" || { fail "cannot export the cases"; summary; exit; }
# expected per-address rows and totals, from the cases' own table
totals=$(python3 - "$E2E_TMP/cases.csv" "$E2E_TMP/expected.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = csv.writer(open(sys.argv[2], "w"))
out.writerow(["ip", "dir", "packets", "bytes"])
t = {"packets": 0, "bytes": 0, "non_ip": 0, "truncated": 0}
for r in rows:
    t["packets"] += 1
    t["bytes"] += int(r["bytes"])
    if r["verdict"] == "counted":
        out.writerow([r["src"], "src", 1, r["bytes"]])
        out.writerow([r["dst"], "dst", 1, r["bytes"]])
    else:
        t["non_ip" if r["verdict"] == "non_ip" else "truncated"] += 1
print(",".join("%s=%d" % kv for kv in t.items()))
PY
)
bash "$CORPUS/replay.sh" -q --samples "$E2E_TMP/out.jsonl" "$E2E_TMP/cases.pcap" -- \
	"$FLOWTOP" -i '{IF}' -b --json -d 0.1 -o "$E2E_TMP/out.json" 2>"$E2E_TMP/err"
check "replay and flowtop exit 0" [ $? = 0 ]
check "live verdicts equal BPF_PROG_TEST_RUN's ($totals)" \
	python3 "$(dirname "$0")/compare.py" "$E2E_TMP/out.json" "$E2E_TMP/expected.csv" --totals "$totals"
summary
