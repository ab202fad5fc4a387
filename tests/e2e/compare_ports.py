#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""compare_ports.py -- compare flowtop's port rows with tshark's per-port counts.

    compare_ports.py FLOWTOP_JSON EXPECTED_CSV...  [--differences CSV]

FLOWTOP_JSON: a file whose last line is one flowtop JSON sample of --group port.
EXPECTED_CSV: proto,port,dir,packets,bytes rows as tests/corpus/expected.py writes them
(NAME.ports.csv: proto a number, port empty for "no port", dir src or dst), summed over
the files given. --differences: the corpus's frames flowtop counts where tshark calls
them cut (tests/e2e/corpus-differences.csv), each added at its proto, sport and dport,
for the captures among the files. Protocol numbers are named as flowtop names them: the
first name /etc/protocols gives a number, "proto N" for one it does not; 255 (the walk
stopped before the protocol) is null. Also checks that every frame is in one row per
direction: the rows' received and sent frames both equal the frames counted on hosts,
with nothing in "other" and no port update lost. Prints every difference; exit status
1 when there is one.
"""
import csv
import json
import os
import sys
from collections import defaultdict


def proto_names():
    names = {}
    with open("/etc/protocols") as f:
        for line in f:
            fields = line.split("#")[0].split()
            if len(fields) >= 2 and fields[1].isdigit():
                names.setdefault(int(fields[1]), fields[0])
    return names


def main():
    args = sys.argv[1:]
    diffs = None
    if "--differences" in args:
        i = args.index("--differences")
        diffs = args[i + 1]
        del args[i:i + 2]
    sample_path, expected_paths = args[0], args[1:]
    names = proto_names()

    def name(proto):
        return None if proto == 255 else names.get(proto, "proto %d" % proto)

    want = defaultdict(lambda: [0, 0, 0, 0])  # rx packets, rx bytes, tx packets, tx bytes
    pcaps = set()
    for path in expected_paths:
        pcaps.add(os.path.basename(path).split(".ports.csv")[0] + ".pcap")
        for r in csv.DictReader(open(path)):
            key = (name(int(r["proto"])), int(r["port"]) if r["port"] else None)
            at = 0 if r["dir"] == "dst" else 2
            want[key][at] += int(r["packets"])
            want[key][at + 1] += int(r["bytes"])
    for d in csv.DictReader(open(diffs)) if diffs else []:
        if d["pcap"] not in pcaps:
            continue
        for port, at in ((d["dport"], 0), (d["sport"], 2)):
            key = (name(int(d["proto"])), int(port) if port else None)
            want[key][at] += 1
            want[key][at + 1] += int(d["bytes"])

    lines = [l for l in open(sample_path) if l.strip()]
    if not lines:
        print("no sample in %s" % sample_path)
        return 1
    sample = json.loads(lines[-1])
    if sample.get("group_by") != "port":
        print("not a sample of --group port")
        return 1
    got = defaultdict(lambda: [0, 0, 0, 0])
    for g in sample["groups"]:
        got[(g["proto"], g["port"])] = [g["rx_packets"], g["rx_bytes"], g["tx_packets"],
                                        g["tx_bytes"]]
    bad = 0
    for key in sorted(set(want) | set(got), key=lambda k: (str(k[0]), k[1] or -1)):
        if want[key] != got[key]:
            bad += 1
            print("%s/%s: expected rx %d/%d tx %d/%d, flowtop rx %d/%d tx %d/%d"
                  % ((key[1], key[0]) + tuple(want[key]) + tuple(got[key])))
    t = sample["totals"]
    counted = t["packets"] - t["non_ip"] - t["truncated"]
    rx = sum(v[0] for v in got.values())
    tx = sum(v[2] for v in got.values())
    other = sample["other"]
    if rx != counted or tx != counted:
        bad += 1
        print("rows' frames: received %d, sent %d, frames counted on hosts %d" % (rx, tx, counted))
    if sample["ports_lost"] or other["rx_packets"] or other["tx_packets"]:
        bad += 1
        print("ports lost %d, other rx %d tx %d" % (sample["ports_lost"], other["rx_packets"],
                                                    other["tx_packets"]))
    print("%d port rows, %d frames: %s" % (len(got), counted, "same" if not bad else
                                          "%d differences" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
