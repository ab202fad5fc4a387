#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# run.sh -- make check-kernels: the kernel tier (tests/kernels/guest.sh) on each older
# kernel flowtop is kept working on, each booted under qemu by tests/kernels/boot.sh.
# Prints each VM's suites as tests/run.sh does, then one closing line
# "N passed, N failed, N skipped" summed over the kernels.
#
#   tests/kernels/run.sh [VER...]   default: the newest Debian 6.1 kernel installed
#                                   (/boot/vmlinuz-6.1.*; .ci/deps.sh kernels installs
#                                   the newest the archive has)
set -u
cd "$(dirname "$0")/../.." || exit 2
kernels=("$@")
if [ ${#kernels[@]} = 0 ]; then
	newest=$(ls /boot/vmlinuz-6.1.* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V | tail -n 1)
	[ -n "$newest" ] && kernels=("$newest")
fi
passed=0 failed=0 skipped=0
if [ ${#kernels[@]} = 0 ]; then
	echo "FAIL check-kernels: no Linux 6.1 in /boot (.ci/deps.sh kernels installs one)"
	failed=1
fi
for ver in "${kernels[@]}"; do
	echo "=== Linux $ver under qemu"
	log=$(mktemp /tmp/ft-kernels-XXXXXX)
	tests/kernels/boot.sh "$ver" tests/kernels/guest.sh 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
	rm -f "$log"
	if [ -z "$line" ]; then
		echo "FAIL Linux $ver: the tier ended without its results (boot.sh: $rc)"
		failed=$((failed + 1))
		continue
	fi
	read -r p f k < <(sed -E 's/([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/' <<<"$line")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL Linux $ver: exit status $rc"
		failed=$((failed + 1))
	fi
done
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
