#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# replay.sh -- send captures across a private veth pair while a command watches the far end.
#
#   tests/corpus/replay.sh [-q] [--samples FILE | --settle S --linger S] [--pps N] \
#       [--cpu N] PCAP... -- COMMAND...
#
# Makes two namespaces ft-ra-SUFFIX and ft-rb-SUFFIX joined by a veth (MTU 9000, IPv6 off
# before the link exists, ARP off, VLAN/GRO/GSO/TSO offloads off when ethtool is there),
# so neither kernel sends a frame of its own. COMMAND runs in the second namespace with
# every "{IF}" replaced by its end of the veth, then tcpreplay sends each PCAP from the
# first, then COMMAND gets SIGINT (SIGTERM and SIGKILL 5 s apart if need be).
# With --samples FILE, COMMAND is flowtop printing JSON samples (-b --json -d 0.1), its
# output goes to FILE, and both steps wait for events: the replay starts once the first
# sample is there (the filter is attached), and COMMAND is stopped once a sample counts
# every frame the veth received (10 s at most each). Otherwise they wait --settle and
# --linger seconds (default 1 each), for commands that say nothing (tcpdump, the bench).
# --cpu N sends from CPU N alone, so that one CPU's ring holds every frame in the order
# sent (the veth takes a frame in on the sender's CPU). Everything is removed on every exit.
# Exit status: COMMAND's (our SIGINT/SIGTERM counts as 0); 1 when tcpreplay did not
# handle every frame of a capture; 2 for bad usage.
set -u

settle=1 linger=1 quiet=0 speed=(--topspeed) pcaps=() cmd=() samples= pin=()
while [ $# -gt 0 ]; do
	case "$1" in
	--samples) samples=$2; shift 2 ;;
	--settle) settle=$2; shift 2 ;;
	--linger) linger=$2; shift 2 ;;
	--pps) speed=(--pps="$2"); shift 2 ;;
	--cpu) pin=(taskset -c "$2"); shift 2 ;;
	-q) quiet=1; shift ;;
	--) shift; cmd=("$@"); break ;;
	-*) echo "replay.sh: unknown option $1" >&2; exit 2 ;;
	*) pcaps+=("$1"); shift ;;
	esac
done
[ ${#pcaps[@]} -gt 0 ] && [ ${#cmd[@]} -gt 0 ] ||
	{ echo "usage: replay.sh [-q] [--settle S] [--linger S] PCAP... -- COMMAND..." >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "replay.sh: needs root (netns, veth)" >&2; exit 2; }

# under tests/run.sh, names carry the calling suite's suffix, which its leak check knows
sfx=${E2E_SFX:-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')}$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')
nsa=ft-ra-$sfx nsb=ft-rb-$sfx ifa=fra-$sfx ifb=frb-$sfx
tmpd=$(mktemp -d "/tmp/ft-replay-$sfx-XXXXXX") cpid=

cleanup() {
	trap - EXIT INT TERM
	if [ -n "$cpid" ] && kill -0 "$cpid" 2>/dev/null; then
		kill -KILL "$cpid" 2>/dev/null
		wait "$cpid" 2>/dev/null
	fi
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	rm -rf "$tmpd"
	return 0
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
die() { echo "replay.sh: $*" >&2; exit 1; }

for ns in "$nsa" "$nsb"; do
	ip netns add "$ns" || die "cannot create namespace $ns"
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 || die "cannot turn IPv6 off in $ns"
done
ip link add "$ifa" netns "$nsa" type veth peer name "$ifb" netns "$nsb" || die "no veth"
for end in "$nsa $ifa" "$nsb $ifb"; do
	set -- $end
	command -v ethtool >/dev/null &&
		ip netns exec "$1" ethtool -K "$2" rxvlan off txvlan off rx-vlan-stag-hw-parse off \
			tx-vlan-stag-hw-insert off gro off gso off tso off 2>/dev/null
	ip -n "$1" link set dev "$2" mtu 9000 arp off up || die "cannot bring $2 up"
done
for _ in $(seq 50); do # carrier once both ends are up
	[ "$(ip netns exec "$nsb" cat "/sys/class/net/$ifb/operstate")" = up ] && break
	sleep 0.1
done

args=()
for a in "${cmd[@]}"; do args+=("${a//\{IF\}/$ifb}"); done
# job control gives the command its own process group without SIGINT ignored, as a
# plain background job of a script would have it
# until COMMAND TIMEOUT: poll (every 50 ms) until COMMAND succeeds, or TIMEOUT s pass
until_ok() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		kill -0 "$cpid" 2>/dev/null || return 1
		sleep 0.05
	done
}
sampled() { [ -s "$samples" ]; }
# counted_all: the last sample counts every frame the veth took in
counted_all() {
	[ "$(tail -n 1 "$samples" | jq -r .totals.packets 2>/dev/null)" = "$(received)" ]
}
received() { ip -n "$nsb" -s -j link show "$ifb" | jq '.[0].stats64.rx.packets'; }

set -m
if [ -n "$samples" ]; then
	ip netns exec "$nsb" env --default-signal=INT "${args[@]}" >"$samples" &
else
	ip netns exec "$nsb" env --default-signal=INT "${args[@]}" &
fi
cpid=$!
set +m
if [ -n "$samples" ]; then
	until_ok 10 sampled
else
	sleep "$settle"
fi
kill -0 "$cpid" 2>/dev/null || { wait "$cpid"; die "the command exited before the replay ($?)"; }
[ -z "$samples" ] || sampled || die "no sample from the command in 10 s"

# tcpreplay reads through libpcap, which refuses some pcapng files and then sends nothing
# and exits 0: give it a classic pcap, and check that it handled every frame
rrc=0 j=0
for p in "${pcaps[@]}"; do
	j=$((j + 1))
	editcap -F pcap "$p" "$tmpd/$j.pcap" || die "editcap cannot read $p"
	want=$(capinfos -M -c -T -r "$tmpd/$j.pcap" | cut -f2)
	out=$(ip netns exec "$nsa" "${pin[@]}" tcpreplay --intf1="$ifa" "${speed[@]}" "$tmpd/$j.pcap" 2>&1)
	sent=$(sed -n 's/^[[:space:]]*Actual: \([0-9]*\) packets.*/\1/p' <<<"$out")
	refused=$(sed -n 's/^[[:space:]]*Failed packets: *\([0-9]*\).*/\1/p' <<<"$out")
	# with nothing sent tcpreplay prints no statistics, one warning a frame
	[ -n "$refused" ] || refused=$(grep -c 'Unable to send packet' <<<"$out")
	if [ $((${sent:-0} + ${refused:-0})) != "${want:-x}" ]; then
		echo "replay.sh: ${p##*/}: tcpreplay handled $((${sent:-0} + ${refused:-0})) of ${want:-?} frames" >&2
		rrc=1
	elif [ "$quiet" = 0 ]; then
		echo "replay.sh: ${p##*/}: $sent sent, $refused refused by the kernel" >&2
	fi
done

if [ -n "$samples" ]; then
	until_ok 10 counted_all ||
		echo "replay.sh: after 10 s, the last sample counts $(tail -n 1 "$samples" |
			jq -r .totals.packets 2>/dev/null) of $(received) frames received" >&2
else
	sleep "$linger"
fi
for sig in INT TERM KILL; do
	kill -0 "$cpid" 2>/dev/null || break
	kill -"$sig" "$cpid" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$cpid" 2>/dev/null || break; sleep 0.1; done
done
wait "$cpid"
rc=$?
cpid=
case "$rc" in 130 | 143) rc=0 ;; esac
[ "$rrc" = 0 ] || { [ "$rc" = 0 ] && rc=1; }
exit "$rc"
