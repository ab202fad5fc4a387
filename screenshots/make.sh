#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make.sh -- screenshots of the real flowtop on real traffic: two namespaces, a veth
# pair, pings of several sizes from several addresses; flowtop under a private tmux
# server in a UTF-8 locale, tall enough for the traffic graph; capture-pane -e rendered
# to PNG by ansi2png.py. Writes main.png (graph, sparklines), help.png, picker.png,
# conversations.png and groups.png (by AS: the second namespace also holds addresses
# of public resolvers, which the location database places) beside this script. Needs
# root.
set -u
flowtop=$(realpath "${FLOWTOP:-$(dirname "$0")/../flowtop}")
cd "$(dirname "$0")" || exit 2
[ -x "$flowtop" ] || { echo "make.sh: no flowtop binary at $flowtop" >&2; exit 1; }
sfx=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
a=fts-a-$sfx b=fts-b-$sfx ia=fsa-$sfx ib=eth0-$sfx sock=fts-$sfx
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	tmux -L "$sock" kill-server 2>/dev/null || true
	ip netns del "$a" 2>/dev/null
	ip netns del "$b" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$a" && ip netns add "$b" || exit 1
ip link add "$ia" netns "$a" type veth peer name "$ib" netns "$b" || exit 1
ip -n "$a" link set "$ia" up
ip -n "$b" link set "$ib" up
ip -n "$b" link set lo up
ip -n "$b" addr add 192.0.2.10/24 dev "$ib"
ip -n "$b" addr add 2001:db8::10/64 dev "$ib" nodad
n=0
for host in 11 12 13 14 15 16 17; do
	ip -n "$a" addr add "192.0.2.$host/24" dev "$ia"
	ip -n "$a" addr add "2001:db8::$host/64" dev "$ia" nodad
done
sleep 1
for host in 11 12 13 14 15 16 17; do
	n=$((n + 1))
	ip netns exec "$a" ping -q -c 2000 -i "0.0$n" -s $((1400 / n)) -I "192.0.2.$host" 192.0.2.10 \
		>/dev/null 2>&1 &
	pids+=($!)
	[ $((n % 2)) = 0 ] || { ip netns exec "$a" ping -q -6 -c 600 -i 0.1 -s $((900 / n)) \
		-I "2001:db8::$host" 2001:db8::10 >/dev/null 2>&1 & pids+=($!); }
done
W=118 H=42
tm() { tmux -u -L "$sock" "$@"; }
tm new-session -d -s shot -x $W -y $H "env LANG=C.UTF-8 LC_ALL=C.UTF-8 ip netns exec $b $flowtop -i $ib -N"
shot() {
	tm capture-pane -e -N -p -t shot >"$tmp/$1.txt"
	grep -q flowtop "$tmp/$1.txt" || { echo "make.sh: flowtop is not on the screen" >&2; exit 1; }
	/usr/bin/python3 ansi2png.py "$tmp/$1.txt" "$1.png" $W $H && echo "screenshots/$1.png"
}
sleep 12
tm send-keys -t shot j j
sleep 0.5
shot main
tm send-keys -t shot h
sleep 0.5
shot help
tm send-keys -t shot x i
sleep 0.5
shot picker
tm send-keys -t shot Escape Home Enter
sleep 6
shot conversations
tm send-keys -t shot Escape
# public resolvers' addresses in the namespace, pinging too: the screen by AS
ip -n "$b" route add default dev "$ib"
ip -n "$b" -6 route add default dev "$ib"
n=0
for host in 8.8.8.8 8.8.4.4 1.1.1.1 1.0.0.1 9.9.9.9 193.0.6.139 2001:4860:4860::8888 2606:4700:4700::1111; do
	n=$((n + 1))
	case $host in
	*:*) ip -n "$a" addr add "$host/128" dev "$ia" nodad ;;
	*) ip -n "$a" addr add "$host/32" dev "$ia" ;;
	esac
	case $host in
	*:*) dst=2001:db8::10 ;;
	*) dst=192.0.2.10 ;;
	esac
	ip netns exec "$a" ping -q -c 2000 -i "0.0$n" -s $((1200 / n)) -I "$host" "$dst" >/dev/null 2>&1 &
	pids+=($!)
done
sleep 8
tm send-keys -t shot a a
sleep 0.5
shot groups
tm send-keys -t shot q 2>/dev/null
exit 0
