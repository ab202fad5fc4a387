#!/usr/bin/env bash
# run.sh -- runs the test suites: the format check, the C unit and kernel tests, the
# fuzz targets and the shell end-to-end suites. Prints each suite's result as it ends
# and one closing line "N passed, N failed, N skipped".
#
#   tests/run.sh [--fast] [-j N] [--repeat N] [--load] [SUITE...]
#
#   (none)      every suite: format, layers, test_*, fuzz (FUZZ_SECONDS each, default
#               10), e2e_*
#   --fast      format, layers, test_* and the fuzz targets over their committed seeds only
#   SUITE       format, layers, fuzz, fuzz-seeds, test_NAME, e2e_NAME, the path of a script, or
#               a tier: unit (every test_*), e2e (every e2e_*)
#   -j N        end-to-end suites run N at a time (default E2E_JOBS, else 3); each has
#               its own namespaces, so they share nothing
#   --repeat N  the chosen suites N times over (default: once)
#   --load      meanwhile, a busy loop holds one CPU and another process creates and
#               deletes namespaces of its own (named ft… too, on purpose)
#
# Everything a suite creates carries its suffix E2E_SFX (the run's E2E_RUN and the
# suite's number): the leak check after each suite looks for namespaces, links, tmux
# servers and temporary directories with that suffix, and for processes left in the
# suite's own session; what others create at the same time is never its concern.
#
# Environment: FLOWTOP (the binary), TESTBIN (the compiled tests), CI (true: no skips).
set -u
cd "$(dirname "$0")/.." || exit 2
export FLOWTOP=${FLOWTOP:-flowtop} TESTBIN=${TESTBIN:-.output/tests}
export FLOWTOP_ROOT=$PWD
export E2E_RUN=${E2E_RUN:-$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')}

usage() {
	sed -n '/^#   tests/,/^#$/p' "$0" | sed 's/^#//' >&2
	exit 2
}

fast=0 jobs=${E2E_JOBS:-3} repeat=1 load=0 chosen=()
while [ $# -gt 0 ]; do
	case "$1" in
	--fast) fast=1 ;;
	-j) jobs=${2:-}; shift ;;
	--repeat) repeat=${2:-}; shift ;;
	--load) load=1 ;;
	-h | --help) usage ;;
	-*) echo "run.sh: unknown option $1" >&2; usage ;;
	*) chosen+=("$1") ;;
	esac
	shift
done
[[ "$jobs" =~ ^[1-9][0-9]*$ && "$repeat" =~ ^[1-9][0-9]*$ ]] || usage

# the e2e suites, the longest first, so that the pool's tail is short
e2e_all() {
	local first="e2e_soak e2e_signals e2e_exporter e2e_tui e2e_screen e2e_faults e2e_corpus" s
	for s in $first; do [ -f "tests/e2e/$s.sh" ] && echo "$s"; done
	for s in tests/e2e/e2e_*.sh; do
		s=$(basename "$s" .sh)
		[[ " $first " == *" $s "* ]] || echo "$s"
	done
}
unit_all() {
	local t
	for t in "$TESTBIN"/test_*; do [ -x "$t" ] && basename "$t"; done
}

if [ ${#chosen[@]} = 0 ]; then
	if [ "$fast" = 1 ]; then
		chosen=(format layers unit fuzz-seeds)
	else
		chosen=(format layers unit fuzz e2e)
	fi
fi
names=()
for c in "${chosen[@]}"; do
	case "$c" in
	unit) names+=($(unit_all)) ;;
	e2e) names+=($(e2e_all)) ;;
	*) names+=("$c") ;;
	esac
done

RUN_DIR=$(mktemp -d "/tmp/ft-run-$E2E_RUN-XXXXXX")
LOAD_PIDS=() POOL=()
finish() {
	local pid f
	for f in "$RUN_DIR"/*.sid; do # suites still running (interrupted): their cleanup runs
		[ -e "$f" ] && [ ! -e "${f%.sid}.rc" ] && kill -TERM "$(cat "$f")" 2>/dev/null
	done
	for pid in "${POOL[@]}"; do wait "$pid" 2>/dev/null; done
	for pid in "${LOAD_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	rm -rf "$RUN_DIR"
}
trap finish EXIT
trap 'exit 130' INT TERM

format_check() { # the tree follows .clang-format
	if make --no-print-directory -s check-format; then
		echo "ok   clang-format"
		echo "# format: 1 passed, 0 failed, 0 skipped"
	else
		echo "FAIL clang-format: run make format"
		echo "# format: 0 passed, 1 failed, 0 skipped"
	fi
}

# peak_rss LOG: the peak resident memory (MB) libFuzzer's final stats in LOG report
peak_rss() {
	sed -n 's/^stat::peak_rss_mb: *//p' "$1"
}

# fuzz_run SEEDS-ONLY: each libFuzzer target, either over its committed seeds (1) or for
# FUZZ_SECONDS (default 10) from them (0); passes when nothing crashes. Over the seeds,
# each seed runs once and then the seeds run again until the target has run some 50,000
# times, ASan's quarantine at 1 MB: a target that keeps memory from run to run, where
# LeakSanitizer cannot see it (glibc's list of open FILEs, a cache), fails when its peak
# resident memory grows by more than FUZZ_GROWTH_MB (16) between the two
fuzz_run() {
	local seeds_only=$1 t n p=0 f=0 log rc seeds runs one many why
	local asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1
	for t in "$TESTBIN"/../fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		n=$(basename "$t") log=$RUN_DIR/$n.$BASHPID.log why=
		if [ "$seeds_only" = 1 ]; then
			seeds=(tests/fuzz/corpus/"$n"/*)
			runs=$(((50000 + ${#seeds[@]} - 1) / ${#seeds[@]}))
			ASAN_OPTIONS=$asan "$t" -print_final_stats=1 "${seeds[@]}" >"$log" 2>&1 &&
				ASAN_OPTIONS=$asan "$t" -runs="$runs" -print_final_stats=1 "${seeds[@]}" \
					>"$log.many" 2>&1
			rc=$?
			one=$(peak_rss "$log") many=$(peak_rss "$log.many")
			[ -e "$log.many" ] && cat "$log.many" >>"$log"
			if [ $rc = 0 ] && [ $((${many:-0} - ${one:-0})) -gt "${FUZZ_GROWTH_MB:-16}" ]; then
				rc=1 why="resident memory grew from $one MB (each seed once) to $many MB"
				why+=" (each seed $runs times)"
			fi
		else
			# new inputs go to a scratch corpus first; the committed seeds are only read
			mkdir -p "$TESTBIN/corpus-$n"
			"$t" -max_total_time="${FUZZ_SECONDS:-10}" "$TESTBIN/corpus-$n" \
				"tests/fuzz/corpus/$n" >"$log" 2>&1
			rc=$?
		fi
		if [ $rc = 0 ]; then
			if [ "$seeds_only" = 1 ]; then
				echo "ok   $n: ${#seeds[@]} seeds, each $runs times: $one to $many MB resident"
			else
				echo "ok   $n: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$log")"
			fi
			p=$((p + 1))
		else
			echo "FAIL $n: ${why:-$(grep -m1 -E 'ERROR|SUMMARY|deadly' "$log")}"
			f=$((f + 1))
		fi
	done
	[ $((p + f)) -gt 0 ] || { echo "FAIL no fuzz target in $TESTBIN/../fuzz"; f=1; }
	echo "# fuzz: $p passed, $f failed, 0 skipped"
}

# suite_command NAME: the command that runs suite NAME, in SUITE_CMD
suite_command() {
	case "$1" in
	format) SUITE_CMD=(format_check) ;;
	layers) SUITE_CMD=(python3 tests/layers.py) ;;
	fuzz) SUITE_CMD=(fuzz_run 0) ;;
	fuzz-seeds) SUITE_CMD=(fuzz_run 1) ;;
	test_*) SUITE_CMD=("$TESTBIN/$1") ;;
	e2e_*) SUITE_CMD=(bash "tests/e2e/$1.sh") ;;
	*/*) SUITE_CMD=(bash "$1") ;;
	*) return 1 ;;
	esac
	case "$1" in
	test_*) [ -x "${SUITE_CMD[0]}" ] ;;
	e2e_* | */*) [ -f "${SUITE_CMD[1]}" ] ;;
	esac
}

# leftovers SFX SID: what a suite with suffix SFX, run in session SID, left behind
leftovers() {
	local sfx=$1 sid=$2 s
	ip netns list 2>/dev/null | awk -v s="$sfx" 'index($1, s) { print "namespace " $1 }'
	ip -o link show 2>/dev/null | awk -F': ' -v s="$sfx" 'index($2, s) { sub(/@.*/, "", $2); print "link " $2 }'
	for s in "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"/*"$sfx"*; do
		[ -e "$s" ] || continue
		if tmux -S "$s" ls >/dev/null 2>&1; then echo "tmux server ${s##*/}"; else echo "tmux socket ${s##*/}"; fi
	done
	for s in /tmp/*"$sfx"*; do [ -e "$s" ] && echo "file $s"; done
	[ -n "$sid" ] && pgrep -s "$sid" 2>/dev/null | while read -r s; do
		echo "process $s ($(tr '\0' ' ' <"/proc/$s/cmdline" 2>/dev/null | cut -c1-60))"
	done
}

# run_suite NUMBER NAME: runs it in a session of its own with its own suffix, then prints
# its output, how long it took and what it left behind as one block; its counts go to
# RUN_DIR/NUMBER.count
run_suite() {
	local n=$1 name=$2 out=$RUN_DIR/$1.out sfx rc left t0=$SECONDS p=0 f=0 k=0 line
	sfx=$E2E_RUN$(printf '%02x' $((n % 256)))
	if ! suite_command "$name"; then
		echo "FAIL $name: no such suite" >"$out"
		f=1
	else
		{
			echo "== $name"
			if declare -F "${SUITE_CMD[0]}" >/dev/null; then # format, fuzz: made here
				"${SUITE_CMD[@]}" 2>&1 </dev/null
			else
				# setsid: the suite leads a session, where its leftover processes stay
				E2E_SFX=$sfx setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ \
					"$RUN_DIR/$n.sid" "${SUITE_CMD[@]}" 2>&1 </dev/null
			fi
			echo $? >"$RUN_DIR/$n.rc"
		} >"$out"
		rc=$(cat "$RUN_DIR/$n.rc")
		line=$(grep -E '^# .*: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$out" | tail -n 1)
		if [ -n "$line" ]; then
			read -r p f k < <(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/' <<<"$line")
		else
			echo "FAIL $name: ended without a summary (crashed?)" >>"$out"
			f=$((f + 1))
		fi
		if [ "$rc" != 0 ] && ! grep -q '^FAIL' "$out"; then
			echo "FAIL $name: exit status $rc" >>"$out"
			f=$((f + 1))
		fi
		left=$(leftovers "$sfx" "$(cat "$RUN_DIR/$n.sid" 2>/dev/null)" | tr '\n' ' ')
		if [ -n "$left" ]; then
			echo "FAIL $name: left behind: $left" >>"$out"
			f=$((f + 1))
		fi
	fi
	echo "# $name took $((SECONDS - t0)) s" >>"$out"
	echo "$p $f $k" >"$RUN_DIR/$n.count"
	flock "$RUN_DIR/print.lock" cat "$out"
}

# load_start: a busy loop on one CPU, and namespaces of someone else's coming and going;
# both bounded in time, and ended by their PIDs when the run ends
load_start() {
	timeout 3600 bash -c 'while :; do :; done' &
	LOAD_PIDS+=($!)
	timeout 3600 bash -c 'n=
	trap "ip netns del \$n 2>/dev/null; exit 0" TERM
	for ((i = 0; i < 1000000; i++)); do
		n=ftload-$$-$i
		ip netns add "$n" && ip -n "$n" link add ftla type veth peer name ftlb &&
			ip netns del "$n"
		ip netns del "$n" 2>/dev/null
		sleep 0.05 # pacing: a namespace every 50 ms, not a synchronisation
	done' &
	LOAD_PIDS+=($!)
	echo "load: busy loop (PID ${LOAD_PIDS[0]}), namespace churn (PID ${LOAD_PIDS[1]})"
}
[ "$load" = 1 ] && load_start

# pool_slot: wait until fewer than $jobs suites of the pool are running
pool_slot() {
	local p alive
	while :; do
		alive=()
		for p in "${POOL[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
		POOL=("${alive[@]}")
		[ ${#POOL[@]} -lt "$jobs" ] && return
		wait -n "${POOL[@]}"
	done
}

t_start=$SECONDS n=0
for ((r = 1; r <= repeat; r++)); do
	[ "$repeat" -gt 1 ] && echo "=== round $r of $repeat"
	for name in "${names[@]}"; do
		n=$((n + 1))
		case "$name" in
		e2e_* | */* | fuzz)
			# suites that share nothing run side by side, at most $jobs at once
			pool_slot
			run_suite "$n" "$name" &
			POOL+=($!)
			;;
		*)
			wait "${POOL[@]}" # a unit test is quick: alone, in order, after the pool
			run_suite "$n" "$name"
			;;
		esac
	done
	wait "${POOL[@]}"
done

passed=0 failed=0 skipped=0
for c in "$RUN_DIR"/*.count; do
	[ -e "$c" ] || continue
	read -r p f k <"$c"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
done
echo
echo "# run $E2E_RUN took $((SECONDS - t_start)) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
