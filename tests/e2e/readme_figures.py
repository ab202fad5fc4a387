#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""readme_figures.py README RESULTS -- every figure the README's Performance section
quotes (numbers with a decimal point, and milliseconds) must stand in bench/RESULTS.md,
which `make bench` writes; prints the ones that do not and exits 1."""
import re
import sys

readme, results = (open(p).read() for p in sys.argv[1:3])
section = readme.split("## Performance", 1)[1].split("\n## ", 1)[0]
figures = set(re.findall(r"(?<![\w.,])\d+\.\d+", section))
figures |= set(re.findall(r"(?<![\w.,])(\d+)(?= (?:to \d+ )?ms\b)", section))
figures |= set(re.findall(r"(?<=to )(\d+)(?= ms\b)", section))
missing = sorted(f for f in figures if not re.search(r"(?<![\d.])" + re.escape(f) + r"(?![\d])", results))
for f in missing:
    print("README quotes %s, not in bench/RESULTS.md" % f)
print("%d figures checked" % len(figures))
sys.exit(1 if missing or not figures else 0)
