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
while read -r pcap totals; do
	name=${pcap%.pcap*}
	out=$E2E_TMP/$name.json
	bash "$CORPUS/replay.sh" -q --settle 0.5 --linger 0.5 "$CORPUS/pcap/$pcap" -- \
		"$FLOWTOP" -i '{IF}' -b --json -d 60 -o "$out" >/dev/null 2>"$E2E_TMP/$name.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$name: replay exit status $rc: $(tail -n 2 "$E2E_TMP/$name.err")"
	else
		check "$name ($totals)" python3 "$here/compare.py" "$out" "$E2E_TMP/$name.csv" \
			--totals "$totals"
	fi
done < <(python3 "$here/corpus_expect.py" "$CORPUS" "$here/corpus-differences.csv" "$E2E_TMP")
summary
