# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# lib.sh -- shared by the benchmarks: a private pair of network namespaces joined by a
# veth (IPv6 off, MTU 9000, no ARP), a scratch folder, and the kernel's BPF run-time
# statistics on for the run; all undone on exit. Source it, call bench_pair, set
# bench_stop to a function that ends what the script started.
sfx=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
nsa=ftb-a-$sfx nsb=ftb-b-$sfx ifa=fba-$sfx ifb=fbb-$sfx
tmp=$(mktemp -d)
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
bench_stop=:

bench_cleanup() {
	$bench_stop
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled="$old_stats"
	rm -rf "$tmp"
	return 0
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

# bench_flood: the pair addressed for flood_send, 10.88.0.1 to 10.88.0.2, whose MAC is
# not the receiver's (its stack drops the frames after the packet taps, and sends
# nothing back); the monitor a script starts in mon is killed on exit
mon=
stop_monitor() { [ -z "$mon" ] || kill -KILL "$mon" 2>/dev/null; }
bench_flood() {
	bench_stop=stop_monitor
	bench_pair
	ip -n "$nsa" addr add 10.88.0.1/24 dev "$ifa"
	ip -n "$nsb" addr add 10.88.0.2/24 dev "$ifb"
	ip -n "$nsa" neigh add 10.88.0.2 lladdr 02:00:00:00:00:99 dev "$ifa" nud permanent
}

# cpu_ns PID: the CPU time its threads have had, in ns (schedstat: exact, where
# /proc/PID/stat counts 100 Hz ticks)
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }

bench_pair() {
	local ns pair
	ip netns add "$nsa" && ip netns add "$nsb" || exit 1
	for ns in "$nsa" "$nsb"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
	done
	ip link add "$ifa" netns "$nsa" type veth peer name "$ifb" netns "$nsb" || exit 1
	for pair in "$nsa $ifa" "$nsb $ifb"; do
		set -- $pair
		ip -n "$1" link set "$2" mtu 9000 arp off up
	done
	sysctl -qw kernel.bpf_stats_enabled=1
}
