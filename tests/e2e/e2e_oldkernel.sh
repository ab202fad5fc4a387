#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_oldkernel.sh -- flowtop on a kernel that lacks what its program needs, as fault.so
# makes the bpf() system call answer (FAULT_KERNEL): it names the missing feature with
# the Linux version that brought it, and the oldest kernel it runs on, and exits 2,
# live and reading a file alike; a verifier that gives up is said as such. Never
# "Argument list too long" alone.
. "$(dirname "$0")/lib.sh"
need_root 11
[ -e "$TESTBIN/fault.so" ] || { fail "no $TESTBIN/fault.so (make tests)"; summary; exit; }
netns_new old && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
pcap=$CORPUS/pcap/zeek-q-in-q.pcap

# the preloaded library comes before ASan's runtime in a sanitized build: allowed
asan=()
sanitized "$FLOWTOP" && asan=("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")

# run NAME FEATURE ARGS...: flowtop with the feature missing; status in NAME.rc
run() {
	local name=$1 lacks=$2
	shift 2
	ip netns exec "$ns" env "${asan[@]}" LD_PRELOAD="$TESTBIN/fault.so" FAULT_KERNEL="$lacks" \
		"$FLOWTOP" "$@" -b -n 1 >"$E2E_TMP/$name.out" 2>"$E2E_TMP/$name.err" </dev/null
	echo $? >"$E2E_TMP/$name.rc"
}
said() { grep -qF -- "$2" "$E2E_TMP/$1.err"; }

# before 5.12 (Linux 5.10, 5.11) the program is loaded without its fetching atomics and
# no frame joins a record: flowtop runs, and counts as it does with them
run live atomics -i lo
check "no BPF atomics (5.10): -i lo runs, exit 0" [ "$(cat "$E2E_TMP/live.rc")" = 0 ] || cat "$E2E_TMP/live.err"
check "no BPF atomics (5.10): nothing said on stderr" [ ! -s "$E2E_TMP/live.err" ]
gnutella=$CORPUS/pcap/ndpi-gnutella.pcap
ip netns exec "$ns" "$FLOWTOP" -r "$gnutella" -b -d 0 -L 0 >"$E2E_TMP/joined.out" 2>&1
ip netns exec "$ns" env "${asan[@]}" LD_PRELOAD="$TESTBIN/fault.so" FAULT_KERNEL=atomics \
	"$FLOWTOP" -r "$gnutella" -b -d 0 -L 0 >"$E2E_TMP/file.out" 2>"$E2E_TMP/file.err"
echo $? >"$E2E_TMP/file.rc"
check "no BPF atomics (5.10), -r: exit 0, every host's counts those of a kernel with them" \
	eval '[ "$(cat "$E2E_TMP/file.rc")" = 0 ] && [ "$(grep -c . "$E2E_TMP/file.out")" -gt 100 ] &&
	      cmp -s "$E2E_TMP/file.out" "$E2E_TMP/joined.out"' || cat "$E2E_TMP/file.err"

run mmap mmapable -i lo
check "no mmap-able arrays: exit 2" [ "$(cat "$E2E_TMP/mmap.rc")" = 2 ] || cat "$E2E_TMP/mmap.err"
check "no mmap-able arrays: named, with Linux 5.5" said mmap "mmap-able arrays (BPF_F_MMAPABLE) (Linux 5.5)"
check "no mmap-able arrays: and not atomics" eval '! said mmap "atomics"'
check "no mmap-able arrays: the oldest kernel named" said mmap "flowtop runs on Linux 5.10 or later"

# before 5.13 a batch lookup of a per-CPU array fails with the kernel's ENOTSUPP (524):
# the counters are then read a slot at a time, and the counts are the same
run batch batch -r "$pcap"
ip netns exec "$ns" "$FLOWTOP" -r "$pcap" -b -n 1 >"$E2E_TMP/nofault.out" 2>&1
check "no batch lookups of per-CPU arrays: exit 0, the counts of a kernel with them" \
	eval '[ "$(cat "$E2E_TMP/batch.rc")" = 0 ] && grep "^total " "$E2E_TMP/batch.out" >"$E2E_TMP/t1" &&
	      grep "^total " "$E2E_TMP/nofault.out" >"$E2E_TMP/t2" && [ -s "$E2E_TMP/t1" ] && cmp -s "$E2E_TMP/t1" "$E2E_TMP/t2"' ||
	cat "$E2E_TMP/batch.err"

run big verifier -i lo
check "a verifier that gives up: exit 2" [ "$(cat "$E2E_TMP/big.rc")" = 2 ] || cat "$E2E_TMP/big.err"
check "a verifier that gives up: said so, to be reported" \
	eval 'said big "gave up on flowtop'"'"'s program" && said big "please report it"'
check "never Argument list too long alone" \
	eval '! grep -q "^flowtop: cannot load the BPF program: Argument list too long" "$E2E_TMP"/*.err'
summary
