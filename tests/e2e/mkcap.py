#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""mkcap.py -- capture files with known contents, for e2e_read.sh.

    mkcap.py KIND OUT [N]

KIND is one of:
  clock     Ethernet, microseconds: 10.0.0.1 sends 100-byte UDP datagrams to 10.0.0.2
            (142 bytes on the wire) at t0 + 0.25 s * i for i in 0..7, then one more at
            t0 + 2.5 s + 10 minutes (a gap), then one stamped 1 s before it (going
            backwards), then one at t0 + 603.75 s
  sll       the same first frame as Linux cooked (SLL), 16-byte header
  sll2      as SLL2, 20-byte header
  raw       as raw IP (LINKTYPE_RAW), no link header
  null      as BSD loopback (DLT_NULL, family in host order)
  nano      the clock capture's first two frames in nanosecond pcap
  pcapng    the clock capture's first two frames in pcapng
  cut       Ethernet, snap length 60: one 1514-byte frame cut to 60
  wifi      one frame of link type IEEE 802.11 (105), which flowtop does not read
  truncated the clock capture with its last record cut in the middle
  world     Ethernet, one frame a second, 100-byte UDP datagrams between addresses whose
            AS and country the packaged location database states (8.8.8.8, 8.8.4.4 and
            2001:4860:4860::8888: AS15169, US; 1.1.1.1: AS13335; 193.0.6.139: AS3333,
            NL) and special ranges (private, documentation, link-local, multicast):
            see WORLD below
  seconds   pcapng in whole seconds (if_tsresol 0): a frame at t0, then one stamped
            9223372036 s, past what any clock of nanoseconds in 64 bits can add to
  many      Ethernet, 300,000 frames 10 ms apart: a read of many samples, to stop
  ascollide Ethernet, 1 frame a second for N seconds (a third argument, 20000 if not
            given) to 192.168.1.10, from each of COLLIDE in turn: eight ASes, all 833
            modulo 1024, that once shared a slot of the AS-name cache
  v6pairs   Ethernet, 30,000 IPv6 UDP frames in one second, each from a source of its
            own: a record each, three ring slots, far more than small rings hold
"""
import struct
import sys

T0 = 1764936000  # 2025-12-05T12:00:00Z


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    return ~(s + (s >> 16)) & 0xFFFF


def ipv4_udp(payload=100, src=(10, 0, 0, 1), dst=(10, 0, 0, 2)):
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + 8 + payload, 1, 0, 64, 17, 0,
                               bytes(src), bytes(dst)))
    ip[10:12] = struct.pack("!H", csum(bytes(ip)))
    return bytes(ip) + struct.pack("!HHHH", 4000, 9, 8 + payload, 0) + bytes(payload)


def ipv6_udp(src, dst, payload=100):
    return (struct.pack("!IHBB16s16s", 0x60000000, 8 + payload, 17, 64, bytes(src), bytes(dst))
            + struct.pack("!HHHH", 4000, 9, 8 + payload, 0) + bytes(payload))


def eth(ip):
    kind = b"\x86\xdd" if ip[0] >> 4 == 6 else b"\x08\x00"
    return bytes.fromhex("020000000002" "020000000001") + kind + ip


# (source, destination, frames): 142 bytes on the wire for IPv4, 162 for IPv6
WORLD = [
    ("8.8.8.8", "192.168.1.10", 3),
    ("8.8.4.4", "192.168.1.10", 1),
    ("1.1.1.1", "192.168.1.10", 2),
    ("193.0.6.139", "10.0.0.1", 1),
    ("2001:4860:4860::8888", "fd00::1", 2),
    ("10.0.0.1", "192.0.2.7", 1),
    ("169.254.1.1", "224.0.0.251", 1),
]

# one address in each of eight named ASes equal modulo 1024 (AS15169 GOOGLE, AS14145
# REGIONS-ASN-3, ...)
COLLIDE = ["8.8.8.8", "205.255.0.1", "165.140.200.1", "23.188.16.1", "64.21.0.1",
           "153.46.30.1", "46.231.224.1", "193.41.188.1"]


def world_frames():
    import ipaddress
    out, t = [], 0
    for src, dst, n in WORLD:
        a, b = ipaddress.ip_address(src), ipaddress.ip_address(dst)
        if a.version == 6:
            frame = eth(ipv6_udp(a.packed, b.packed))
        else:
            frame = eth(ipv4_udp(src=a.packed, dst=b.packed))
        for _ in range(n):
            out.append(((T0 + t, 0), frame, len(frame)))
            t += 1
    return out


def pcap(linktype, frames, nano=False, snaplen=65535):
    out = struct.pack("<IHHiIII", 0xA1B23C4D if nano else 0xA1B2C3D4, 2, 4, 0, 0, snaplen,
                      linktype)
    for (sec, frac), data, wire in frames:
        out += struct.pack("<IIII", sec, frac, len(data), wire) + data
    return out


def clock_frames():
    f = [((T0 + i // 4, (i % 4) * 250000), eth(ipv4_udp()), 142) for i in range(8)]
    f.append(((T0 + 602, 500000), eth(ipv4_udp()), 142))
    f.append(((T0 + 601, 500000), eth(ipv4_udp()), 142))
    f.append(((T0 + 603, 750000), eth(ipv4_udp()), 142))
    return f


def pcapng_block(kind, body):
    body += bytes(-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", kind, n) + body + struct.pack("<I", n)


# an interface option: if_tsresol 10^0, whole seconds (then the end of the options)
TSRESOL_SECONDS = struct.pack("<HHB3x", 9, 1, 0) + struct.pack("<HH", 0, 0)


def pcapng(stamped, idb_options=b""):
    """Ethernet frames (stamp in the interface's units, microseconds by default, data,
    length on the wire) in a pcapng of one interface."""
    out = pcapng_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += pcapng_block(1, struct.pack("<HHI", 1, 0, 65535) + idb_options)
    for ts, data, wire in stamped:
        out += pcapng_block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, len(data), wire) + data)
    return out


def main():
    kind, path = sys.argv[1:3]
    ip = ipv4_udp()
    first = (T0, 0)
    if kind == "clock":
        data = pcap(1, clock_frames())
    elif kind == "sll":
        data = pcap(113, [(first, struct.pack("!HHH8sH", 0, 1, 6, bytes(8), 0x0800) + ip, 144)])
    elif kind == "sll2":
        data = pcap(276, [(first, struct.pack("!HHIHBB8s", 0x0800, 0, 2, 1, 0, 6, bytes(8)) + ip, 148)])
    elif kind == "raw":
        data = pcap(101, [(first, ip, 128)])
    elif kind == "null":
        data = pcap(0, [(first, struct.pack("=I", 2) + ip, 132)])
    elif kind == "nano":
        data = pcap(1, [((T0, 0), eth(ip), 142), ((T0, 250000001), eth(ip), 142)], nano=True)
    elif kind == "pcapng":
        data = pcapng([(sec * 1000000 + usec, data, wire)
                       for (sec, usec), data, wire in clock_frames()[:2]])
    elif kind == "cut":
        full = eth(ipv4_udp(payload=1472))
        data = pcap(1, [(first, full[:60], len(full))], snaplen=60)
    elif kind == "wifi":
        data = pcap(105, [(first, bytes(40), 40)])
    elif kind == "world":
        data = pcap(1, world_frames())
    elif kind == "seconds":
        data = pcapng([(T0, eth(ip), 142), (9223372036, eth(ip), 142)], TSRESOL_SECONDS)
    elif kind == "many":  # joined once: += on bytes would copy the file each frame
        frame = eth(ip)
        data = pcap(1, [])[:24] + b"".join(
            struct.pack("<IIII", T0 + i // 100, (i % 100) * 10000, len(frame), 142) + frame
            for i in range(300000))
    elif kind == "v6pairs":
        data = pcap(1, [])[:24] + b"".join(
            struct.pack("<IIII", T0, i * 30, 162, 162) +
            eth(ipv6_udp(((0x20010DB8 << 96) | (1 << 64) | i).to_bytes(16, "big"),
                         ((0x20010DB8 << 96) | 2).to_bytes(16, "big")))
            for i in range(30000))
    elif kind == "ascollide":
        import ipaddress
        srcs = [eth(ipv4_udp(src=ipaddress.ip_address(a).packed, dst=(192, 168, 1, 10)))
                for a in COLLIDE]
        n = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
        data = pcap(1, [])[:24] + b"".join(
            struct.pack("<IIII", T0 + i, 0, 142, 142) + srcs[i % len(srcs)]
            for i in range(n))
    elif kind == "truncated":
        data = pcap(1, clock_frames())[:-50]
    else:
        sys.exit("mkcap.py: unknown kind " + kind)
    open(path, "wb").write(data)


main()
