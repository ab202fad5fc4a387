#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_convo.sh -- the conversation view on the real binary under tmux: crafted frames
# between four hosts (and a fifth, before the view opens) replayed across a veth; the
# view of a host must list exactly its peers, with the frames and bytes sent each way
# and its traffic by protocol; Enter and a double click open it, Esc returns.
. "$(dirname "$0")/lib.sh"
need_root 17
for t in tmux tcpreplay python3; do
	command -v "$t" >/dev/null || { fail "$t is not installed"; summary; exit; }
done

netns_new ca && a=$NETNS && netns_new cb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b" # nothing of their own on the wire: no IPv6, no addresses, no ARP
va=ftc-a-$E2E_SFX vb=ftc-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }

# A=10.99.0.1 B=.2 C=.3 D=.4, E=.9 (before the view opens). UDP frames are 100 bytes
# on the wire, TCP 200, ICMP 64; A's UDP with B is port 40000 to 53, its TCP with C
# 40001 to 443, C's ICMP to A an echo reply (type 0).
python3 - "$E2E_TMP" <<'PY'
import struct, sys

def frame(src, dst, proto, size, sport=0, dport=0):
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, size - 14, 1, 0, 64, proto, 0,
                     bytes([10, 99, 0, src]), bytes([10, 99, 0, dst]))
    return (bytes.fromhex("020000000002020000000001") + b"\x08\x00" + ip
            + struct.pack("!HH", sport, dport) + bytes(size - 38))

UDP, TCP, ICMP = (17, 100), (6, 200), (1, 64)
def write(name, frames):
    with open(f"{sys.argv[1]}/{name}.pcap", "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, (s, d, (p, n), *ports) in enumerate(frames):
            b = frame(s, d, p, n, *ports)
            f.write(struct.pack("<IIII", 1, i, len(b), len(b)) + b)

write("warmup", [(1, 9, UDP), (9, 1, UDP), (2, 4, UDP), (3, 4, UDP)])
write("talk", [(1, 2, UDP, 40000, 53)] * 3 + [(2, 1, UDP, 53, 40000)] * 2
      + [(1, 3, TCP, 40001, 443)] * 4 + [(3, 1, ICMP)] + [(2, 4, UDP)] * 5 + [(3, 4, TCP)] * 2)
PY
replay() { ip netns exec "$a" tcpreplay -q -i "$va" "$E2E_TMP/$1.pcap" >/dev/null 2>&1; }

S=flowtop
screen() { tm capture-pane -p -t "$S"; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
keys() { tm send-keys -t "$S" "$@"; } # read in order; checks wait for their effect
shows() { screen | grep -q -- "$1"; }
rows() { screen | awk '/^ADDRESS/ { on = 1; next } on && /^[0-9a-z]/ { print $1 }'; }
# a row of the totals view: address rxpkts rxbytes txpkts txbytes
row() { screen | awk -v h="$1" '$1 == h { print $1, $2, $3, $4, $5; exit }'; }
# a double click: button 1 at column x, line y (0-based), pressed and released twice, in
# one write to the terminal (as a terminal sends them, and as they arrive over a slow
# link: curses reports the run as one KEY_MOUSE)
double_click() {
	local x y
	x=$(printf %x $(($1 + 33))) y=$(printf %x $(($2 + 33)))
	tm send-keys -t "$S" -H 1b 5b 4d 20 "$x" "$y" 1b 5b 4d 23 "$x" "$y" \
		1b 5b 4d 20 "$x" "$y" 1b 5b 4d 23 "$x" "$y"
}

tmux_server convo
tm new-session -d -s "$S" -x 120 -y 30 \
	"ip netns exec $b $FLOWTOP -i $vb -N -d 0.2 -s addr; echo \$? >$E2E_TMP/rc"
wait_for 5 shows "flowtop  $vb" || { fail "flowtop did not start"; summary; exit; }
replay warmup
check "before: the hosts of the warm-up frames" \
	wait_for 5 eval '[ "$(rows | tr "\n" " ")" = "10.99.0.1 10.99.0.2 10.99.0.3 10.99.0.4 10.99.0.9 " ]'
keys Home Enter
check "Enter opens the selected host's conversations" \
	wait_for 3 shows "^ conversations of 10.99.0.1, counted for"
check "they count from the moment it opens: no peer yet" wait_for 3 shows "no traffic yet"
replay talk
keys t
check "exactly its peers: B and C, not D, nor E from before" \
	wait_for 5 eval '[ "$(rows | tr "\n" " ")" = "10.99.0.2 10.99.0.3 " ]'
# columns: RX PKTS RX BYTES TX PKTS TX BYTES, the focus's: TX is what A sent to the peer
check "B: 2 frames (200 B) from it, 3 (300 B) to it" \
	wait_for 3 eval '[ "$(row 10.99.0.2)" = "10.99.0.2 2 200B 3 300B" ]'
check "C: 1 ICMP frame (64 B) from it, 4 TCP (800 B) to it" \
	seen '[ "$(row 10.99.0.3)" = "10.99.0.3 1 64B 4 800B" ]'
check "by protocol: TCP 800 B, UDP 500 B, ICMP 64 B, other 0" \
	seen 'shows "TCP [^ ]* (800B)  UDP [^ ]* (500B)  ICMP [^ ]* (64B)  other [^ ]* (0B)"'
check "each peer's ports: B 53/udp, C 443/tcp and the echo reply's type" \
	seen 'shows "^10\.99\.0\.2 .* 53/udp  " && shows "^10\.99\.0\.3 .* 443/tcp 0/icmp  "'
keys d
for _ in $(seq 80); do tm send-keys -t "$S" BSpace; done
keys "$E2E_TMP/conv.json" Enter
check "d in the view: its peers, and whose conversations they are" \
	seen 'jqt ".conversations_of == \"10.99.0.1\" and ([.rows[].ip] == [\"10.99.0.2\", \"10.99.0.3\"])" "$E2E_TMP/conv.json"'
keys / 10.99.0.3 Enter
check "the filter works in the view: C alone" seen '[ "$(rows | tr "\n" " ")" = "10.99.0.3 " ]'
keys / Escape
keys '>'
check "and the sort: by RX PKTS, B first" seen 'shows "RX PKTS v" && [ "$(rows | head -n 1)" = 10.99.0.2 ]'
keys Escape
check "Esc returns to every host" \
	seen '! shows "conversations of" && [ "$(rows | wc -l)" = 5 ] && shows "^ in "'
check "where the sort and view are its own again" shows '^ADDRESS \^'
# a double click on B's row, the second: the titles' line number (1-based) is its y
ty=$(screen | grep -n '^ADDRESS' | head -n 1 | cut -d: -f1)
ty=$((ty + 1))
double_click 2 "$ty"
check "a double click opens the conversations of the row" \
	wait_for 5 shows "^ conversations of 10.99.0.2, counted for"
keys t
wait_for 5 shows "^ADDRESS.*RX PKTS"
replay talk
check "B's view: A (3 from it, 2 to it) and D (5 to it)" \
	wait_for 5 eval '[ "$(row 10.99.0.1)" = "10.99.0.1 3 300B 2 200B" ] && [ "$(row 10.99.0.4)" = "10.99.0.4 0 0B 5 500B" ]'
check "and no one else" eval '[ "$(rows | wc -l)" = 2 ]'
keys Escape q
check "quits with status 0" wait_for 5 eval '[ "$(cat $E2E_TMP/rc 2>/dev/null)" = 0 ]'
summary
