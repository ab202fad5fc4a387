#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# run.sh -- make check-kernels: the kernel tier (tests/kernels/guest.sh) on each older
# kernel flowtop is kept working on, each booted under qemu by tests/kernels/boot.sh.
# Prints each VM's suites as tests/run.sh does, then one closing line
# "N passed, N failed, N skipped" summed over the kernels.
#
#   tests/kernels/run.sh [KERNEL...]   default: $KERNELS, else "5.10 6.1 6.12"
#
# A KERNEL is a version (6.1.0-57-amd64) or a series (6.1): its newest version in /boot
# (Debian 12's 6.1, which .ci/deps.sh kernels installs) or in KERNEL_DIR (default
# .output/kernels: Debian 11's 5.10 and 13's 6.12, which .ci/deps.sh kernels unpacks
# there). 6.1 runs
# the whole tier; the others, each a VM of minutes more without KVM, the suites of
# short_suites below.
set -u
cd "$(dirname "$0")/../.." || exit 2
# the suites of a kernel beside 6.1: the verifier's budget and the BPF_PROG_TEST_RUN
# suites (test_dissect runs the capture file's program too; test_ports the program that
# counts ports), the corpus through -r in one capture (e2e_corpus_read: one program
# load, where e2e_read, left to 6.1, makes some 70 and took 662 of 6.12's 760 s under
# TCG; CI's time is bounded; its second read counts ports), live counts on a veth,
# -i A,B and -i any, the screen
short_suites=(test_verifier test_dissect test_ports test_rings test_expr e2e_corpus_read e2e_veth e2e_multi e2e_start)
kdir=${KERNEL_DIR:-.output/kernels}
# shellcheck disable=SC2086 # a list of words
[ $# = 0 ] && set -- ${KERNELS:-5.10 6.1 6.12}
kernels=()
passed=0 failed=0 skipped=0
for k in "$@"; do
	if [[ "$k" =~ ^[0-9]+\.[0-9]+$ ]]; then
		ver=$( (ls -d /boot/vmlinuz-"$k".* "$kdir"/"$k".*/boot/vmlinuz-"$k".*) 2>/dev/null |
			sed 's|.*/vmlinuz-||' | sort -V | tail -n 1)
		if [ -z "$ver" ]; then
			echo "FAIL check-kernels: no Linux $k in /boot or $kdir (.ci/deps.sh kernels fetches it)"
			failed=$((failed + 1))
			continue
		fi
		k=$ver
	fi
	kernels+=("$k")
done
for ver in "${kernels[@]}"; do
	echo "=== Linux $ver under qemu"
	log=$(mktemp /tmp/ft-kernels-XXXXXX)
	suites=()
	[[ "$ver" == 6.1.* ]] || suites=("${short_suites[@]}")
	start=$SECONDS
	KERNEL_DIR=$kdir tests/kernels/boot.sh "$ver" tests/kernels/guest.sh "${suites[@]}" 2>&1 |
		tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
	rm -f "$log"
	echo "Linux $ver: $((SECONDS - start)) s under qemu"
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
