#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# read.sh -- reading a capture file: `flowtop -r FILE -b` against `tshark -q -z
# endpoints,ip -r FILE` on the same capture of N frames (IPv4 UDP, 64 bytes, from 65,536
# sources to one, 1 microsecond apart), in the same run, R rounds interleaved; wall time
# and frames per second, the median of the rounds.
#
#   bench/read.sh [FRAMES [ROUNDS]]   default 1,000,000 frames, 3 rounds
set -u
cd "$(dirname "$0")/.." || exit 2
frames=${1:-1000000} rounds=${2:-3}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
command -v tshark >/dev/null || { echo "read.sh: no tshark (make bench installs it)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/cap.pcap" "$frames" <<'PY'
import struct, sys
path, n = sys.argv[1], int(sys.argv[2])
head = bytes.fromhex("020000000002020000000001") + b"\x08\x00"
with open(path, "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i in range(n):
        src = bytes((10, 1, (i >> 8) & 255, i & 255))
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 50, 1, 0, 64, 17, 0, src, bytes((10, 0, 0, 1)))
        frame = head + ip + struct.pack("!HHHH", 4000, 53, 30, 0) + bytes(22)
        f.write(struct.pack("<IIII", 1764936000 + i // 1000000, i % 1000000, 64, 64) + frame)
PY
# secs COMMAND...: wall seconds of one run, its output thrown away
secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || { echo "read.sh: $* failed" >&2; exit 1; }
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
: >"$tmp/ft"
: >"$tmp/ts"
for _ in $(seq "$rounds"); do
	secs "$flowtop" -r "$tmp/cap.pcap" -b >>"$tmp/ft"
	secs tshark -q -z endpoints,ip -r "$tmp/cap.pcap" >>"$tmp/ts"
done
med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ft=$(med "$tmp/ft") ts=$(med "$tmp/ts")
echo "| reading $frames frames | seconds, median | frames/s |"
echo "|---|---:|---:|"
awk -v f="$frames" -v a="$ft" -v b="$ts" 'BEGIN {
	printf "| `flowtop -r FILE -b` | %.2f | %.0f |\n", a, f / a
	printf "| `tshark -q -z endpoints,ip -r FILE` | %.2f | %.0f |\n", b, f / b
	printf "\nflowtop reads it **%.1fx** as fast as tshark\n", b / a }'
