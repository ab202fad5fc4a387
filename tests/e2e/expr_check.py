#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""expr_check.py -- `flowtop -r FILE EXPR` keeps the frames `tcpdump -r FILE EXPR` keeps.

    expr_check.py FLOWTOP CORPUS_DIR TMP_DIR EXPR

For every capture of CORPUS_DIR/pcap/SUMMARY.csv: tcpdump writes the frames EXPR keeps
to a file of their own; flowtop reads the capture with EXPR, and the kept file without
one. Their hosts (every address, both ways, packets and bytes) and totals must be the
same, and the capture's other frames (SUMMARY.csv's frames and wire bytes, less the
kept ones) flowtop's `filtered` alone. An expression tcpdump refuses for a capture's
link type flowtop must refuse too (exit 2). Prints every difference; exit status 1 when
there is one.
"""
import csv
import json
import os
import subprocess
import sys

TOTALS = ("packets", "bytes", "out_packets", "out_bytes", "non_ip", "truncated")


def last_json(path):
    with open(path) as f:
        return json.loads(f.read().strip().splitlines()[-1])


def flowtop(binary, pcap, out, expr):
    cmd = [binary, "-r", pcap, "-b", "--json", "-L", "0", "-o", out] + ([expr] if expr else [])
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def hosts(sample):
    return {h["ip"]: (h["rx_packets"], h["rx_bytes"], h["tx_packets"], h["tx_bytes"])
            for h in sample["hosts"]}


def check(binary, corpus, tmp, expr, row):
    pcap, name = row["pcap"], row["pcap"].split(".pcap")[0]
    path = os.path.join(corpus, "pcap", pcap)
    kept, a, b = (os.path.join(tmp, name + s) for s in (".kept.pcap", ".expr.json", ".kept.json"))
    dump = subprocess.run(["tcpdump", "-r", path, "-w", kept, expr],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    run = flowtop(binary, path, a, expr)
    if dump.returncode:
        if run.returncode != 2:
            return ["%s: tcpdump refuses '%s' (%s), flowtop exits %d" %
                    (pcap, expr, dump.stderr.strip(), run.returncode)]
        return []
    if run.returncode:
        return ["%s: flowtop exits %d: %s" % (pcap, run.returncode, run.stderr.strip())]
    plain = flowtop(binary, kept, b, None)
    if plain.returncode:
        return ["%s: flowtop on the kept frames exits %d" % (pcap, plain.returncode)]
    with_expr, without = last_json(a), last_json(b)
    diffs = []
    if with_expr.get("expression") != expr:
        diffs.append("%s: the output says expression %r" % (pcap, with_expr.get("expression")))
    if hosts(with_expr) != hosts(without):
        mine, theirs = hosts(with_expr), hosts(without)
        for ip in sorted(set(mine) | set(theirs)):
            if mine.get(ip) != theirs.get(ip):
                diffs.append("%s: %s %s, tcpdump's frames %s" % (pcap, ip, mine.get(ip), theirs.get(ip)))
    t, k = with_expr["totals"], without["totals"]
    for field in TOTALS:
        if t[field] != k[field]:
            diffs.append("%s: totals.%s %d, tcpdump's frames %d" % (pcap, field, t[field], k[field]))
    if (t["filtered"], t["filtered_bytes"]) != (int(row["frames"]) - k["packets"],
                                                int(row["wire_bytes"]) - k["bytes"]):
        diffs.append("%s: filtered %d frames %d bytes, the capture's others %d and %d" %
                     (pcap, t["filtered"], t["filtered_bytes"], int(row["frames"]) - k["packets"],
                      int(row["wire_bytes"]) - k["bytes"]))
    if k["filtered"] or k["filtered_bytes"]:
        diffs.append("%s: filtered counted with no expression" % pcap)
    return diffs


def main():
    binary, corpus, tmp, expr = sys.argv[1:5]
    diffs, n = [], 0
    for row in csv.DictReader(open(os.path.join(corpus, "pcap", "SUMMARY.csv"))):
        diffs += check(binary, corpus, tmp, expr, row)
        n += 1
    for d in diffs:
        print(d)
    if not n:
        print("no captures")
    return 1 if diffs or not n else 0


if __name__ == "__main__":
    sys.exit(main())
