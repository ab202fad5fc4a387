#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_runner.sh -- the test runner's leak check, on two suites of its own: one that
# leaves a namespace and a process behind fails for it; one that runs while another
# program creates a namespace named like ours (ft-…) does not.
. "$(dirname "$0")/lib.sh"
need_root 5
lib=$(realpath "$(dirname "$0")/lib.sh")
run=$(realpath "$(dirname "$0")/../run.sh")
nested=$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n') # the nested run's own prefix

# leaks.sh: a namespace with its suffix, and a process started in its session
cat >"$E2E_TMP/leaks.sh" <<EOF
. "$lib"
ip netns add "ft-leak-\$E2E_SFX" && pass "made a namespace"
sleep 30 & # bounded: ends by itself if nothing ends it first
echo \$! >"$E2E_TMP/leaked.pid"
summary
EOF
# quiet.sh: clean, but waits until someone else's namespace exists during its run
cat >"$E2E_TMP/quiet.sh" <<EOF
. "$lib"
netns_new quiet && pass "made a namespace"
touch "$E2E_TMP/quiet.started"
check "another program's namespace appeared meanwhile" wait_for 10 \
	eval 'ip netns list | grep -q "^ft-other-$E2E_SFX"'
summary
EOF

# tidy: what the nested run's leaky suite left, removed by name and PID
tidy() {
	local ns
	for ns in $(ip netns list | awk -v s="ft-leak-$nested" 'index($1, s) == 1 { print $1 }'); do
		ip netns del "$ns"
	done
	[ -s "$E2E_TMP/leaked.pid" ] && kill "$(cat "$E2E_TMP/leaked.pid")" 2>/dev/null
	ip netns del "ft-other-$E2E_SFX" 2>/dev/null
}

E2E_RUN=$nested bash "$run" "$E2E_TMP/leaks.sh" >"$E2E_TMP/leaks.out" 2>&1
rc=$?
tidy
check "a suite that leaks fails the run" eval '[ "$rc" != 0 ] && tail -n 1 "$E2E_TMP/leaks.out" | grep -q "^1 passed, 1 failed, 0 skipped$"'
check "the leak check names its namespace" grep -q "left behind: .*namespace ft-leak-$nested" "$E2E_TMP/leaks.out"
check "and the process it left, by PID" grep -q "left behind: .*process $(cat "$E2E_TMP/leaked.pid") (sleep 30" "$E2E_TMP/leaks.out"

# someone else's namespace, named ft- like ours, made while the quiet suite runs
E2E_RUN=$nested bash "$run" "$E2E_TMP/quiet.sh" >"$E2E_TMP/quiet.out" 2>&1 &
runner=$!
E2E_PIDS+=("$runner")
wait_for 10 test -e "$E2E_TMP/quiet.started" && ip netns add "ft-other-$E2E_SFX"
wait "$runner"
rc=$?
tidy
check "someone else's namespace fails no suite" eval '[ "$rc" = 0 ] && tail -n 1 "$E2E_TMP/quiet.out" | grep -q "^2 passed, 0 failed, 0 skipped$"' ||
	sed 's/^/  | /' "$E2E_TMP/quiet.out"
check "the quiet suite's own namespace was removed" eval '! ip netns list | grep -q "^ft-quiet-$nested"'
summary
