#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_corpus_read.sh -- the whole corpus through -r in one capture: every corpus capture (each
# of them Ethernet) concatenated by mergecap and read as one sample (-d 0) gives the sum
# of tshark's counts of each frame with its length on the wire, host by host, and the
# sum of their totals. One program load, where e2e_read makes one a file: the kernel
# tier runs this on the kernels beside 6.1, whose emulated verifiers take seconds a load.
. "$(dirname "$0")/lib.sh"
need_root 2
need_file "$CORPUS/pcap/SUMMARY.csv" 2

here=$(dirname "$0")
python3 "$here/corpus_expect.py" --wire "$CORPUS" "$here/corpus-differences.csv" "$E2E_TMP" \
	>"$E2E_TMP/list" || { fail "corpus_expect.py failed"; summary; exit; }
# the files, their expected rows in one list (compare.py sums an address's rows), and
# their totals summed key by key (in the shell: a Python start a file is seconds under
# the tier's emulation)
files=() keys=() ports=()
declare -A sums=()
echo "ip,dir,packets,bytes" >"$E2E_TMP/all.csv"
while read -r pcap totals; do
	files+=("$CORPUS/pcap/$pcap")
	ports+=("$CORPUS/pcap/${pcap%.pcap*}.ports.csv")
	tail -n +2 "$E2E_TMP/${pcap%.pcap*}.csv" >>"$E2E_TMP/all.csv"
	IFS=, read -ra kvs <<<"$totals"
	for kv in "${kvs[@]}"; do
		[ -n "${sums[${kv%%=*}]+set}" ] || keys+=("${kv%%=*}")
		sums[${kv%%=*}]=$((${sums[${kv%%=*}]:-0} + ${kv#*=}))
	done
done <"$E2E_TMP/list"
sum=
for k in "${keys[@]}"; do sum+=${sum:+,}$k=${sums[$k]}; done
check "mergecap puts the ${#files[@]} captures in one" \
	mergecap -a -F pcap -w "$E2E_TMP/all.pcap" "${files[@]}"
"$FLOWTOP" -r "$E2E_TMP/all.pcap" -b -d 0 --json -L 0 -o "$E2E_TMP/all.json" \
	>/dev/null 2>"$E2E_TMP/all.err"
rc=$?
check "-r the corpus in one capture: every host's counts and the totals ($sum)" \
	eval '{ [ "$rc" = 0 ] || cat "$E2E_TMP/all.err"; } &&
		python3 "$here/compare.py" "$E2E_TMP/all.json" "$E2E_TMP/all.csv" --totals "$sum"'
"$FLOWTOP" -r "$E2E_TMP/all.pcap" -b -d 0 --json -L 0 --group port -o "$E2E_TMP/ports.json" \
	>/dev/null 2>"$E2E_TMP/ports.err"
rc=$?
check "-r the corpus in one capture, --group port: every port's counts, each frame once a direction" \
	eval '{ [ "$rc" = 0 ] || cat "$E2E_TMP/ports.err"; } &&
		python3 "$here/compare_ports.py" "$E2E_TMP/ports.json" "${ports[@]}" \
			--differences "$here/corpus-differences.csv"'
summary
