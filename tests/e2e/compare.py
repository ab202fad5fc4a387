#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""compare.py -- compare flowtop's JSON sample with expected per-address counts.

    compare.py FLOWTOP_JSON EXPECTED_CSV [--totals packets=N,bytes=N,non_ip=N,...]

FLOWTOP_JSON: a file whose last line is one flowtop JSON sample (batch output or an -o
snapshot). EXPECTED_CSV: ip,dir,packets,bytes rows (dir src or dst), as the corpus has
them. Addresses are compared parsed (IPv4-mapped IPv6 folds into IPv4, as flowtop's key
does). Prints every difference; exit status 1 when there is one.
"""
import csv
import ipaddress
import json
import sys
from collections import defaultdict


def norm(a):
    ip = ipaddress.ip_address(a)
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return str(ip)


def main():
    args = sys.argv[1:]
    totals = {}
    if "--totals" in args:
        i = args.index("--totals")
        totals = {k: int(v) for k, v in (kv.split("=") for kv in args[i + 1].split(",") if kv)}
        del args[i:i + 2]
    sample_path, expected_path = args
    lines = [l for l in open(sample_path) if l.strip()]
    if not lines:
        print("no sample in %s" % sample_path)
        return 1
    sample = json.loads(lines[-1])
    got = defaultdict(lambda: [0, 0, 0, 0])
    for h in sample["hosts"]:
        g = got[norm(h["ip"])]
        for i, k in enumerate(("rx_packets", "rx_bytes", "tx_packets", "tx_bytes")):
            g[i] += h[k]
    want = defaultdict(lambda: [0, 0, 0, 0])
    with open(expected_path) as f:
        for row in csv.DictReader(f):
            w = want[norm(row["ip"])]
            base = 0 if row["dir"] == "dst" else 2
            w[base] += int(row["packets"])
            w[base + 1] += int(row["bytes"])
    bad = 0
    for ip in sorted(set(got) | set(want)):
        g, w = got[ip], want[ip]
        if g != w:
            bad += 1
            if bad <= 20:
                print("  %s: flowtop rx %d/%d tx %d/%d, expected rx %d/%d tx %d/%d"
                      % (ip, *g, *w))
    for k, v in totals.items():
        if sample["totals"].get(k) != v:
            bad += 1
            print("  totals.%s: flowtop %s, expected %d" % (k, sample["totals"].get(k), v))
    if bad > 20:
        print("  ... %d differences in all" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
