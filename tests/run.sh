#!/usr/bin/env bash
# run.sh -- run every test: the C unit and kernel tests, then the shell end-to-end tests;
# print each suite's result and one closing line "N passed, N failed, N skipped".
#
# Environment: FLOWTOP (the binary), TESTBIN (the compiled tests), CI (true: no skips).
set -u
cd "$(dirname "$0")/.." || exit 2
export FLOWTOP=${FLOWTOP:-flowtop} TESTBIN=${TESTBIN:-.output/tests}
export FLOWTOP_ROOT=$PWD
passed=0 failed=0 skipped=0

add_summary() { # "# suite: N passed, N failed, N skipped" -> totals
	local line
	line=$(grep -E '^# .*: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "FAIL $2: ended without a summary (crashed?)"
		failed=$((failed + 1))
		return
	fi
	set -- $(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/')
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
}

# what a test leaves behind: namespaces, tmux servers and flowtop processes it made
leftovers() {
	ip netns list 2>/dev/null | awk '$1 ~ /^ft/ { print "namespace " $1 }'
	local s
	for s in $(ls "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)" 2>/dev/null | grep '^ft'); do
		tmux -L "$s" ls >/dev/null 2>&1 && echo "tmux server $s"
	done
	pgrep -f "$(realpath "$FLOWTOP") " 2>/dev/null | sed 's/^/flowtop process /'
}

run_suite() { # name command...
	local name=$1 out rc before left
	shift
	out=$(mktemp)
	echo "== $name"
	before=$(leftovers | sort)
	"$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	add_summary "$out" "$name"
	left=$(comm -13 <(echo "$before") <(leftovers | sort) | tr '\n' ' ')
	if [ -n "$left" ]; then
		echo "FAIL $name: left behind: $left"
		failed=$((failed + 1))
	fi
	if [ "$rc" != 0 ] && ! grep -q '^FAIL' "$out"; then
		echo "FAIL $name: exit status $rc"
		failed=$((failed + 1))
	fi
	rm -f "$out"
}

format_check() { # the tree follows .clang-format
	if make --no-print-directory -s check-format; then
		echo "ok   clang-format"
		echo "# format: 1 passed, 0 failed, 0 skipped"
	else
		echo "FAIL clang-format: run make format"
		echo "# format: 0 passed, 1 failed, 0 skipped"
	fi
}
run_suite format format_check

for t in "$TESTBIN"/test_*; do
	[ -x "$t" ] || continue
	run_suite "${t##*/}" "$t"
done
fuzz_short() { # each libFuzzer target for FUZZ_SECONDS (default 10): no crash
	local t n p=0 f=0
	for t in "$TESTBIN"/../fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		n=$(basename "$t")
		# new inputs go to a scratch corpus first; the committed seeds are only read
		mkdir -p "$TESTBIN/corpus-$n"
		if "$t" -max_total_time="${FUZZ_SECONDS:-10}" "$TESTBIN/corpus-$n" "tests/fuzz/corpus/$n" \
			>"$TESTBIN/$n.log" 2>&1; then
			echo "ok   $n: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$TESTBIN/$n.log")"
			p=$((p + 1))
		else
			echo "FAIL $n: $(grep -m1 -E 'ERROR|SUMMARY|deadly' "$TESTBIN/$n.log")"
			f=$((f + 1))
		fi
	done
	echo "# fuzz: $p passed, $f failed, 0 skipped"
}
run_suite fuzz fuzz_short

for t in tests/e2e/e2e_*.sh; do
	run_suite "$(basename "$t" .sh)" bash "$t"
done

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
