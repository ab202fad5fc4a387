#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# guest.sh -- the kernel tier, as it runs inside a kernel's VM (tests/kernels/boot.sh):
# the modules its suites need, then the suites through tests/run.sh: the verifier's
# budget and the BPF_PROG_TEST_RUN suites (the translated filter expressions too), every corpus capture through -r against its
# expected counts (e2e_read), exact per-host counts of live traffic on a veth (e2e_veth)
# and on loopback (e2e_lo), -i A,B and -i any (e2e_multi), and the screen starting and
# quitting (e2e_start); or the suites named (tests/kernels/run.sh names fewer for the
# kernels beside 6.1). The waits get E2E_WAIT_SCALE (4) times their room: without KVM
# the VM is emulated.
#
#   tests/kernels/guest.sh [SUITE...]
set -u
cd "$(dirname "$0")/../.." || exit 2
for m in veth tun; do
	modprobe -q "$m" || echo "guest: cannot load the module $m"
done
echo "guest: Linux $(uname -r), $(nproc) CPUs"
export E2E_WAIT_SCALE=${E2E_WAIT_SCALE:-4}
[ $# = 0 ] && set -- test_verifier test_dissect test_rings test_expr e2e_read e2e_multi e2e_veth e2e_lo e2e_start
exec tests/run.sh -j 2 "$@"
