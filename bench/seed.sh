#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# seed.sh -- builds the seed program, samples/bpf/sockex2_kern.c of the 2014 patch in
# ../shared/seeds/, into OUT/bench/sockex2.bpf.o, as a benchmark contestant only (it is
# never part of flowtop). Changed only as today's toolchain needs: includes, the legacy
# map definition turned into a BTF one of the same type and size, SEC("socket").
#   bench/seed.sh OUT_DIR      exit 1 when the seed is not there
set -u
cd "$(dirname "$0")/.." || exit 2
out=$1
patch=../shared/seeds/001-patch-samples-bpf-large-ebpf-program-in-c.patch
[ -r "$patch" ] || { echo "seed.sh: $patch not found (the seed lives beside the project)" >&2; exit 1; }
mkdir -p "$out/bench"
src=$out/bench/sockex2_kern.c
awk '/^\+\+\+ b\/samples\/bpf\/sockex2_kern.c/ { f = 1; next } f && /^diff/ { f = 0 }
	f && /^\+/ { print substr($0, 2) }' "$patch" |
	sed -e 's|#include <uapi/linux/bpf.h>|#include "seed_compat.h"|' \
		-e 's|#include "bpf_helpers.h"||' -e 's|<uapi/linux/|<linux/|' \
		-e 's|^struct bpf_map_def SEC("maps") hash_map = {|struct {|' \
		-e 's|^\t.type = BPF_MAP_TYPE_HASH,|\t__uint(type, BPF_MAP_TYPE_HASH);|' \
		-e 's|^\t.key_size = sizeof(__be32),|\t__type(key, __be32);|' \
		-e 's|^\t.value_size = sizeof(long),|\t__type(value, long);|' \
		-e 's|^\t.max_entries = 1024,|\t__uint(max_entries, 1024);\n} hash_map SEC(".maps");|' \
		-e '/#include <linux\/if.h>/d' -e '/#include <linux\/if_tunnel.h>/d' \
		-e 's|SEC("socket2")|SEC("socket")|' >"$src"
# the map's closing "};" follows max_entries: drop it
python3 - "$src" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read().replace('} hash_map SEC(".maps");\n};', '} hash_map SEC(".maps");')
open(p, "w").write(s)
PY
clang -g -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" -Ibench -c "$src" \
	-o "$out/bench/sockex2.bpf.o"
