#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_completion.sh -- the bash completion (contrib/flowtop.bash) as bash runs it: the
# options flowtop takes, interfaces and lists of them after -i, the column table's names
# after -s, the words of --group, --metrics-group and --color, files after -r and -o.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=/dev/null
. "$here/contrib/flowtop.bash"
# comp WORD...: what completing the last word offers, one a line, sorted
comp() {
	COMP_WORDS=("$FLOWTOP" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_flowtop "$FLOWTOP" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
offers() { comp "${@:2}" | grep -qx -- "$1"; }
words() { comp "${@:2}" | tr '\n' ' ' | sed 's/ $//' | grep -qx -- "$1"; }

check "the complete function is registered for flowtop" eval 'complete -p flowtop | grep -q "_flowtop"'
for o in --interface --read --speed --delay --batch --json --snapshot --sort --filter \
	--group --prefix --geo-db --columns --user --netns --listen --metrics-top \
	--metrics-group --ring-memory --color --no-mouse --verbose --help --version -i -r -s; do
	offers "$o" "-" || fail "'-' does not offer $o"
done
pass "'-' offers every option"
check "'--me' offers the two metrics options" words "--metrics-group --metrics-top" --me
check "-i offers any and the interfaces" eval 'offers any -i "" && offers lo -i ""'
check "-i completes the last name of a list" offers "lo,lo" -i "lo,l"
cols=$("$FLOWTOP" --help | sed -n '/--sort COLUMN/,/(default/p' |
	sed -e 's/.*--sort COLUMN[^:]*://' -e 's/(default.*//' | tr -d ',\n' | tr -s ' ' '\n' |
	grep . | sort | tr '\n' ' ' | sed 's/ $//')
check "-s offers the column table's names (as --help has them: 19)" \
	eval '[ "$(comp -s "" | tr "\n" " " | sed "s/ $//")" = "$cols" ] && [ "$(comp -s "" | wc -l)" = 19 ]'
check "-s completes a prefix" words "rx10 rx2 rx40 rxbytes rxpkts" -s rx
check "--group offers its five words" words "as country host port prefix" --group ""
check "--metrics-group offers as, country and port" words "as country port" --metrics-group ""
check "--color offers auto, always, never" words "always auto never" --color ""
: >"$E2E_TMP/capture-one.pcap"
check "-r completes files" offers "$E2E_TMP/capture-one.pcap" -r "$E2E_TMP/capture-"
check "-o completes files" offers "$E2E_TMP/capture-one.pcap" -o "$E2E_TMP/capt"
check "a word after -d offers nothing" eval '[ -z "$(comp -d "")" ]'
# a namespace anyone with the right may name: offered quoted, never run
if [ "$(id -u)" = 0 ]; then
	ns='ft-'$E2E_SFX'-$(touch${IFS}pwned)'
	ip netns add "$ns" && E2E_NS+=("$ns")
	offered=$(cd "$E2E_TMP" && comp --netns "ft-$E2E_SFX")
	check "--netns offers a namespace named with \$(...) quoted, and runs nothing" \
		eval '[ "$offered" = "$(printf %q "$ns")" ] && [ ! -e "$E2E_TMP/pwned" ]'
else
	skip_or_fail 1 "--netns: making a namespace needs root"
fi
summary
