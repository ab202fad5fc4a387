# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# lib.sh -- shared by the end-to-end tests: results, root checks, private namespaces.
# Source it; each test script ends with `summary`. Everything a script creates is named
# with its suffix E2E_SFX (given by tests/run.sh, whose leak check looks for it after the
# script; random when run alone) and removed by the EXIT trap, also when the script fails.
set -u

E2E_NAME=$(basename "$0" .sh)
E2E_PASSED=0 E2E_FAILED=0 E2E_SKIPPED=0
E2E_SFX=${E2E_SFX:-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')}
export E2E_SFX # tests/corpus/replay.sh names what it makes with it too
E2E_TMP=$(mktemp -d "/tmp/ft-$E2E_NAME-$E2E_SFX-XXXXXX")
E2E_NS=() E2E_PIDS=() E2E_PATHS=() E2E_TMUXES=() E2E_TMUX=
FLOWTOP=$(cd "${FLOWTOP_ROOT:-.}" && realpath "${FLOWTOP:-flowtop}")
TESTBIN=$(cd "${FLOWTOP_ROOT:-.}" && realpath "${TESTBIN:-.output/tests}")
CORPUS=${FLOWTOP_CORPUS:-$(cd "${FLOWTOP_ROOT:-.}" && realpath tests/corpus)}

e2e_cleanup() {
	local pid ns p
	for pid in "${E2E_PIDS[@]}"; do
		kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	for p in "${E2E_TMUXES[@]}"; do # kill-server leaves the socket file
		tmux -L "$p" kill-server 2>/dev/null
		rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$p"
	done
	for ns in "${E2E_NS[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	for p in "${E2E_PATHS[@]}"; do
		rm -rf "$p"
	done
	rm -rf "$E2E_TMP"
}
trap e2e_cleanup EXIT
trap 'exit 130' INT TERM

pass() { echo "ok   $E2E_NAME: $*"; E2E_PASSED=$((E2E_PASSED + 1)); }
fail() { echo "FAIL $E2E_NAME: $*"; E2E_FAILED=$((E2E_FAILED + 1)); }
# check NAME COMMAND...: pass when the command succeeds; the status is the command's,
# so that `check ... || diagnose` can say more on a failure
# E2E_ON_FAIL: a command run after a failed check, to show what it saw (the screen)
check() {
	local name=$1
	shift
	if "$@"; then
		pass "$name"
	else
		fail "$name"
		[ -z "${E2E_ON_FAIL:-}" ] || $E2E_ON_FAIL 2>&1 | sed 's/^/  | /'
		return 1
	fi
}
# jqt ARGS...: jq -e, quiet: true when the filter's last output is true
jqt() { jq -e "$@" >/dev/null; }
summary() {
	echo "# $E2E_NAME: $E2E_PASSED passed, $E2E_FAILED failed, $E2E_SKIPPED skipped"
	[ "$E2E_FAILED" = 0 ]
}

# skip_or_fail N REASON: end the script, its N checks skipped for REASON, but never
# under CI=true, where a skip would hide a test that must run: there they fail
skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		fail "$2, and CI=true forbids skipping"
		E2E_FAILED=$((E2E_FAILED + $1 - 1))
	else
		echo "skip $E2E_NAME: $2"
		E2E_SKIPPED=$((E2E_SKIPPED + $1))
	fi
	summary
	exit 0
}

# need_root N: the script's N checks need root (netns, veth, BPF)
need_root() {
	[ "$(id -u)" = 0 ] || skip_or_fail "$1" "needs root (netns, veth, BPF)"
}

# need_file PATH N: the checks need PATH (the shared corpus)
need_file() {
	[ -e "$1" ] || skip_or_fail "$2" "$1 is missing"
}

# sanitized BIN: whether BIN was built with AddressSanitizer (make SAN=1)
sanitized() { grep -qa __asan_init "$1"; }
# the CPUs the kernel may bring up, which the filter's per-CPU maps count (not nproc's:
# a cpuset or an affinity mask has fewer)
possible_cpus() {
	local n=0 r
	for r in $(tr ',' ' ' </sys/devices/system/cpu/possible); do
		n=$((n + ${r#*-} - ${r%-*} + 1))
	done
	echo "$n"
}

# tmux_server NAME: a private tmux server for the script (E2E_TMUX names its socket),
# killed on exit; a new name for each, so a new server never races a dying one. Its
# panes stay after their command ends (remain-on-exit), so the test reads the last
# screen and the status the command wrote, with no sleep to keep them open.
tmux_server() {
	E2E_TMUX=ft-$1-$E2E_SFX
	E2E_TMUXES+=("$E2E_TMUX")
	echo "set -g remain-on-exit on" >"$E2E_TMP/tmux.conf"
	# a session that lasts as long as the server: a server whose last session is killed
	# exits, and a session a suite makes next, while it exits, goes with it (seen under
	# CI's load: "no server running")
	tm new-session -d -s keep
}
# tm ARGS...: tmux on the script's server (E2E_TMUX_UTF8=1: -u, UTF-8 forced)
tm() { tmux ${E2E_TMUX_UTF8:+-u} -f "$E2E_TMP/tmux.conf" -L "$E2E_TMUX" "$@"; }

# netns_new NAME: create a namespace named ft-NAME-<suffix>, with lo up, its name in
# NETNS. Not for $(...): the cleanup list must grow in this shell, not in a subshell.
netns_new() {
	NETNS="ft-$1-$E2E_SFX"
	ip netns add "$NETNS" || return 1
	E2E_NS+=("$NETNS")
	ip -n "$NETNS" link set lo up
}

# ipv6_off NS...: no IPv6 in the namespaces, on links made after it too: no router or
# neighbour solicitations of their own on the wire, so counts are what a test sends
ipv6_off() {
	local ns
	for ns in "$@"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
	done
}

# veth_pair NS_A NS_B IF_A IF_B: a veth between two namespaces, both ends up
veth_pair() {
	ip link add "$3" netns "$1" type veth peer name "$4" netns "$2" || return 1
	ip -n "$1" link set "$3" up && ip -n "$2" link set "$4" up
}

# two_hosts NS_A NS_B IF_A IF_B NET: a veth between two namespaces, NET.1/24 on IF_A and
# NET.2/24 on IF_B, each the other's static neighbour (no ARP: the frames counted are
# the test's alone)
two_hosts() {
	veth_pair "$1" "$2" "$3" "$4" &&
		ip -n "$1" addr add "$5.1/24" dev "$3" && ip -n "$2" addr add "$5.2/24" dev "$4" &&
		ip -n "$1" neigh add "$5.2" lladdr "$(mac "$2" "$4")" dev "$3" nud permanent &&
		ip -n "$2" neigh add "$5.1" lladdr "$(mac "$1" "$3")" dev "$4" nud permanent
}

# mac NS IFACE: the MAC address of IFACE in namespace NS (for static neighbours: no ARP)
mac() { ip -n "$1" -o link show "$2" | grep -o 'link/ether [^ ]*' | cut -d' ' -f2; }

# seen EXPR: wait (5 s at most) until the shell expression holds: a key's effect on a
# pane, say
seen() { wait_for 5 eval "$1"; }

# wait_for SECONDS COMMAND...: poll until the command succeeds (bounded). E2E_WAIT_SCALE
# (default 1) multiplies every deadline: an emulated machine (make check-kernels, qemu
# without KVM) does the same work many times slower
wait_for() {
	local deadline=$((SECONDS + $1 * ${E2E_WAIT_SCALE:-1}))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$deadline" ] && return 1
		sleep 0.1
	done
}

# last_line FILE: the last whole line of FILE: flowtop writes each sample in one write(2),
# but the kernel copies a large write (hundreds of interfaces) into a file a page at a
# time, the file's size growing with each, and a reader in between finds half a line
last_line() {
	if [ -z "$(tail -c 1 "$1")" ]; then tail -n 1 "$1"; else tail -n 2 "$1" | head -n 1; fi
}
# last_is FILE JQ: the last JSON sample flowtop wrote to FILE satisfies JQ
last_is() {
	local line
	line=$(last_line "$1") && [ -n "$line" ] && jqt "$2" <<<"$line" 2>/dev/null
}
# gone PID: the process has ended (a zombie too: it has exited, and whoever started it,
# a tmux server say, has yet to collect its status)
gone() {
	! kill -0 "$1" 2>/dev/null || [ "$(awk '$1 == "State:" { print $2 }' "/proc/$1/status" 2>/dev/null)" = Z ]
}
# counted FILE N: the last JSON sample flowtop wrote to FILE counts N frames (for
# wait_for: the frames a test sent are all in before it looks at the counts)
counted() { [ "$(last_line "$1" | jq -r .totals.packets 2>/dev/null)" = "$2" ]; }

# start_bg NS OUT COMMAND...: run in a namespace, in the background, stdout to OUT;
# the PID is in BG_PID and is killed on exit if still running
start_bg() {
	local ns=$1 out=$2
	shift 2
	ip netns exec "$ns" "$@" >"$out" 2>"$out.err" &
	BG_PID=$!
	E2E_PIDS+=("$BG_PID")
}

# stop_bg PID [SIGNAL]: signal it and wait (bounded: 10 s, then SIGKILL)
stop_bg() {
	local pid=$1 sig=${2:-INT} i
	kill -"$sig" "$pid" 2>/dev/null
	for i in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
}
