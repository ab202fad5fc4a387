#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_corpus.sh -- every real capture of the shared corpus replayed across a veth to
# flowtop; its final sample must equal the counts tshark decided (NAME.replayed.csv),
# and its non-IP and truncated totals the capture's classes (SUMMARY.replayed.csv),
# but for the frames listed in corpus-differences.csv, which flowtop classes otherwise
# on purpose (each with its reason and a BPF_PROG_TEST_RUN case).
. "$(dirname "$0")/lib.sh"
need_root 28
need_file "$CORPUS/pcap/SUMMARY.replayed.csv" 28

here=$(dirname "$0")
# replay NAME PCAP: one capture through its own pair of namespaces; its status in NAME.rc
replay() {
	bash "$CORPUS/replay.sh" -q --samples "$E2E_TMP/$1.jsonl" "$CORPUS/pcap/$2" -- \
		"$FLOWTOP" -i '{IF}' -b --json -d 0.1 -o "$E2E_TMP/$1.json" 2>"$E2E_TMP/$1.err"
	echo $? >"$E2E_TMP/$1.rc"
}
python3 "$here/corpus_expect.py" "$CORPUS" "$here/corpus-differences.csv" "$E2E_TMP" \
	>"$E2E_TMP/list" || { fail "corpus_expect.py failed"; summary; exit; }
# the captures share nothing: four replays at a time
while read -r pcap _; do
	while [ "$(jobs -rp | wc -l)" -ge 4 ]; do wait -n; done
	replay "${pcap%.pcap*}" "$pcap" &
	E2E_PIDS+=($!)
done <"$E2E_TMP/list"
wait
while read -r pcap totals; do
	name=${pcap%.pcap*}
	rc=$(cat "$E2E_TMP/$name.rc" 2>/dev/null)
	if [ "$rc" != 0 ]; then
		fail "$name: replay exit status ${rc:-none}: $(tail -n 2 "$E2E_TMP/$name.err")"
	else
		check "$name ($totals)" python3 "$here/compare.py" "$E2E_TMP/$name.json" \
			"$E2E_TMP/$name.csv" --totals "$totals"
	fi
done <"$E2E_TMP/list"
summary
