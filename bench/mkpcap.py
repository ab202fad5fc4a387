#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""mkpcap.py -- write the benchmark's traffic kinds as pcap files, 64 distinct flows each.

    mkpcap.py DIR     writes DIR/{ipv4-udp-64,ipv4-tcp-1500,ipv6-udp,qinq-ipv4,gre-key-ipv4}.pcap
"""
import os
import struct
import sys


def eth(proto):
    return bytes.fromhex("020000000002020000000001") + struct.pack("!H", proto)


def ipv4(src, dst, proto, payload_len):
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + payload_len, 1, 0, 64, proto, 0,
                       bytes(src), bytes(dst))


def ipv6(src, dst, nxt, payload_len):
    return struct.pack("!IHBB16s16s", 6 << 28, payload_len, nxt, 64, bytes(src), bytes(dst))


def udp(n):
    return struct.pack("!HHHH", 12345, 53, 8 + n, 0) + bytes(n)


def tcp(n):
    return struct.pack("!HHIIBBHHH", 12345, 80, 1, 0, 0x50, 0x10, 65535, 0, 0) + bytes(n)


def v4(i, j):
    return [10, 1, i, j]


def v6(i, j):
    return [0x20, 0x01, 0x0d, 0xb8] + [0] * 10 + [i, j]


def kinds(i):
    yield "ipv4-udp-64", eth(0x0800) + ipv4(v4(1, i), v4(2, i), 17, 30) + udp(22)
    yield "ipv4-tcp-1500", eth(0x0800) + ipv4(v4(1, i), v4(2, i), 6, 1466) + tcp(1446)
    yield "ipv6-udp", eth(0x86DD) + ipv6(v6(1, i), v6(2, i), 17, 30) + udp(22)
    yield "qinq-ipv4", (eth(0x88A8) + struct.pack("!HH", 10, 0x8100) + struct.pack("!HH", 20, 0x0800)
                        + ipv4(v4(1, i), v4(2, i), 17, 30) + udp(22))
    inner = ipv4(v4(3, i), v4(4, i), 17, 30) + udp(22)
    yield "gre-key-ipv4", (eth(0x0800) + ipv4(v4(1, i), v4(2, i), 47, 8 + len(inner))
                           + struct.pack("!HHI", 0x2000, 0x0800, i) + inner)


def main():
    out = sys.argv[1]
    files = {}
    for i in range(1, 65):
        for name, frame in kinds(i):
            if name not in files:
                files[name] = open(os.path.join(out, name + ".pcap"), "wb")
                files[name].write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
            files[name].write(struct.pack("<IIII", 1, i, len(frame), len(frame)) + frame)
    for f in files.values():
        f.close()


if __name__ == "__main__":
    main()
