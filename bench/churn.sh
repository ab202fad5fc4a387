#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# churn.sh -- the screen under address churn, as in a flood of spoofed sources: its
# resident memory after 1, 2 and 3 million distinct sources at the default -m, its CPU
# ten seconds after the flood; then with -m 1100000 and a million hosts sending again
# and again, its CPU and how long a key takes to show on the screen.
#
#   bench/churn.sh [MILLIONS [ARG...]]   default 3 (root); ARGs go to flowtop too
#                                        (--group as: the screen by AS)
# flowtop runs on its screen under a private tmux server, 120x40, names off; frames come
# from bench/churn_send in a namespace of its own, across a veth.
set -u
cd "$(dirname "$0")/.." || exit 2
rounds=${1:-3}
[ $# -gt 0 ] && shift
extra=("$@")
out=${OUT:-.output}
flowtop=$(realpath "${FLOWTOP:-flowtop}")
send=$(realpath "$out/bench/churn_send")
sock=ftc-$$ screens=0
. bench/lib.sh
stop_tmux() {
	tmux -L "$sock" kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
}
bench_stop=stop_tmux
bench_pair

rss_mib() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# cpu_pct PID SECONDS: its CPU over the next SECONDS, in % of one CPU
cpu_pct() {
	local t0 t1
	t0=$(cpu_ticks "$1")
	sleep "$2"
	t1=$(cpu_ticks "$1")
	awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$2" 'BEGIN { printf "%.1f", 100 * d / hz / s }'
}
# start_screen ARGS...: flowtop on the receiving end; sets pid
start_screen() {
	stop_tmux
	# a server of its own each time: a new session on the socket of a server still
	# going away fails ("server exited unexpectedly")
	screens=$((screens + 1))
	sock=ftc-$$-$screens
	tmux -L "$sock" new-session -d -s churn -x 120 -y 40 \
		"ip netns exec $nsb $flowtop -i $ifb -N $* ${extra[*]}"
	pid=
	for _ in $(seq 100); do
		pid=$(pgrep -f "^$flowtop -i $ifb" | head -n 1)
		[ -n "$pid" ] && grep -qs '^prog_id' /proc/"$pid"/fdinfo/* && break
		sleep 0.1
	done
	[ -n "$pid" ] || { echo "churn.sh: flowtop did not start" >&2; exit 1; }
	sleep 1
}
# the column titles' line (where the sort arrow moves), wherever the graph puts it
titles() { tmux -L "$sock" capture-pane -p -t churn | grep -m 1 -E '^(ADDRESS|PREFIX|AS|COUNTRY) '; }
# key_ms: time from a '>' (sort one column right) to the screen showing it, in ms
key_ms() {
	local before t0 t1 i
	before=$(titles)
	t0=$(date +%s%N)
	tmux -L "$sock" send-keys -t churn '>'
	for i in $(seq 2000); do
		[ "$(titles)" != "$before" ] && break
		sleep 0.005
	done
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

start_screen -m 65536
echo "| distinct sources sent | frames/s sent | screen RSS MiB | hosts held |"
echo "|---:|---:|---:|---:|"
echo "| 0 | - | $(rss_mib "$pid") | 0 |"
for ((m = 0; m < rounds; m++)); do
	read -r frames secs < <(ip netns exec "$nsa" "$send" "$ifa" $((m * 1000000)) 1000000)
	sleep 2
	held=$(tmux -L "$sock" capture-pane -p -t churn | grep -o 'hosts [0-9]*' | head -n 1)
	echo "| $(((m + 1) * 1000000)) | $(awk -v f="$frames" -v s="$secs" 'BEGIN { printf "%.0f", f / s }') | $(rss_mib "$pid") | ${held#hosts } |"
done
sleep 8
echo
echo "Screen CPU 10 s after the flood (seconds 10 to 20): $(cpu_pct "$pid" 10) % of one CPU."
echo

start_screen -m 1100000
# a million hosts, then the same million again at 1,000,000 frames/s: each host every second
ip netns exec "$nsa" "$send" "$ifa" 0 1000000 >/dev/null
ip netns exec "$nsa" "$send" "$ifa" 0 1000000 40 1000000 >"$tmp/live" &
spid=$!
sleep 3
held=$(tmux -L "$sock" capture-pane -p -t churn | grep -o 'hosts [0-9]*' | head -n 1)
cpu=$(cpu_pct "$pid" 10)
# what arrives, as the screen's header counts it (the sender may fall short of its pace)
rate=$(tmux -L "$sock" capture-pane -p -t churn | awk '$1 == "in" && $3 ~ /p\/s$/ { print $3; exit }')
lat=()
for _ in 1 2 3 4 5; do
	lat+=("$(key_ms)")
	sleep 0.7
done
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
sorted=$(printf '%s\n' "${lat[@]}" | sort -n | tr '\n' ' ')
echo "With -m 1100000 and ${held#hosts } hosts held, the million sending again, paced at"
echo "1,000,000 frames/s (each host once a second; ${rate:-?} arrived, as the header counts):"
echo "screen CPU **$cpu %** of one CPU over 10 s; a key (\`>\`) shows on the screen in"
echo "**${sorted% } ms** (5 tries, sorted)."
