#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""corpus_expect.py -- what flowtop must report for each corpus capture.

    corpus_expect.py [--wire] CORPUS_DIR DIFFERENCES_CSV OUT_DIR

For each capture in CORPUS_DIR/pcap/SUMMARY.replayed.csv, writes OUT_DIR/NAME.csv (the
expected ip,dir,packets,bytes rows) and prints "PCAP TOTALS" where TOTALS are the
expected totals for compare.py. Both start from tshark's verdicts; the frames listed in
DIFFERENCES_CSV, frame classes flowtop treats differently on purpose, are moved to
flowtop's class, so every difference is one that is written down and explained.
With --wire the counts are those of every frame in the file with its length on the
wire (SUMMARY.csv, NAME.expected.csv): what `flowtop -r` reads, where a replay carries
only what a veth does, as long as the file holds it.
"""
import csv
import os
import sys

args = sys.argv[1:]
wire = args[:1] == ["--wire"]
corpus, diffs_path, out_dir = args[1:] if wire else args
summary, suffix = ("SUMMARY.csv", ".expected.csv") if wire else ("SUMMARY.replayed.csv", ".replayed.csv")
diffs = {}
for d in csv.DictReader(open(diffs_path)):
    diffs.setdefault(d["pcap"], []).append(d)

for s in csv.DictReader(open(os.path.join(corpus, "pcap", summary))):
    pcap, name = s["pcap"], s["pcap"].split(".pcap")[0]
    rows = list(csv.reader(open(os.path.join(corpus, "pcap", name + suffix))))
    totals = {"packets": int(s["sent_frames"]), "bytes": int(s["sent_bytes"]),
              "non_ip": int(s["non_ip"]) + int(s["out_scope"]), "truncated": int(s["cut"])}
    if wire:
        totals["packets"], totals["bytes"] = int(s["frames"]), int(s["wire_bytes"])
    for d in diffs.get(pcap, []):
        if d["tshark"] != "cut" or d["flowtop"] != "counted":
            sys.exit("corpus_expect.py: unsupported difference %s -> %s" % (d["tshark"], d["flowtop"]))
        totals["truncated"] -= 1
        rows.append([d["src"], "src", "1", d["bytes"]])
        rows.append([d["dst"], "dst", "1", d["bytes"]])
    with open(os.path.join(out_dir, name + ".csv"), "w", newline="") as f:
        csv.writer(f).writerows(rows)
    print(pcap, ",".join("%s=%d" % kv for kv in totals.items()))
