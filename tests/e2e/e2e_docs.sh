#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_docs.sh -- the manual page lints clean; make install and make uninstall honour
# PREFIX and DESTDIR and install a page that man renders; the README's quick start names
# the two commands; its figures come from bench/RESULTS.md. Needs no root.
. "$(dirname "$0")/lib.sh"
root=$(realpath "$(dirname "$0")/../..")

out=$(mandoc -Tlint -Wstyle "$root/man/flowtop.8" 2>&1)
rc=$?
check "mandoc -Tlint reports nothing" eval '[ "$rc" = 0 ] && [ -z "$out" ]'
warn=$(man --warnings -l "$root/man/flowtop.8" 2>&1 >/dev/null)
check "man --warnings reports nothing" [ -z "$warn" ]

dest=$E2E_TMP/dest
# the binary under test, as it is: -o, so that make builds nothing here
make -s -C "$root" install BIN="$FLOWTOP" -o "$FLOWTOP" DESTDIR="$dest" PREFIX=/usr \
	>"$E2E_TMP/install.log" 2>&1
rc=$?
check "make install into DESTDIR succeeds" [ "$rc" = 0 ]
check "the binary is installed, mode 755" \
	eval '[ "$(stat -c %a "$dest/usr/sbin/flowtop")" = 755 ]'
check "the man page is installed, mode 644" \
	eval '[ "$(stat -c %a "$dest/usr/share/man/man8/flowtop.8")" = 644 ]'
check "the bash completion is installed, mode 644, and registers flowtop's" \
	eval '[ "$(stat -c %a "$dest/usr/share/bash-completion/completions/flowtop")" = 644 ] &&
	      bash -c ". $dest/usr/share/bash-completion/completions/flowtop && complete -p flowtop" | grep -q _flowtop'
check "the installed binary runs: --version" \
	eval '"$dest/usr/sbin/flowtop" --version | grep -q "eBPF per-IP traffic monitor"'
check "man -l renders the installed page" \
	eval 'MANWIDTH=80 man -l "$dest/usr/share/man/man8/flowtop.8" 2>/dev/null | grep -q "^INTERACTIVE COMMANDS"'
make -s -C "$root" uninstall DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1
check "make uninstall removes all three" \
	eval '[ ! -e "$dest/usr/sbin/flowtop" ] && [ ! -e "$dest/usr/share/man/man8/flowtop.8" ] &&
	      [ ! -e "$dest/usr/share/bash-completion/completions/flowtop" ]'
check "every figure the README quotes stands in bench/RESULTS.md" \
	python3 "$root/tests/e2e/readme_figures.py" "$root/README.md" "$root/bench/RESULTS.md"
check "the README has one Install and one Performance section" \
	eval '[ "$(grep -c "^## Install" "$root/README.md")" = 1 ] && [ "$(grep -c "^## Performance" "$root/README.md")" = 1 ]'
check "the README's quick start names make run and make check" \
	eval 'grep -q "^    make run " "$root/README.md" && grep -q "^    make check " "$root/README.md"'

# the EXAMPLES of the man page and the README's batch lines, on lo in a private
# namespace, with -n where they would run until stopped
need_root 3
netns_new docs && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
ip netns exec "$ns" ping -q -c 40 -i 0.05 127.0.0.1 >/dev/null &
E2E_PIDS+=($!)
first=$(ip netns exec "$ns" "$FLOWTOP" -i lo -b --json -n 10 -d 0.05 -f 127.0.0.0/8 | jq -r '.hosts[0].ip' | tail -n 1)
check "man EXAMPLES: JSON samples of one network, busiest host with jq" [ "$first" = 127.0.0.1 ]
(cd "$E2E_TMP" && ip netns exec "$ns" "$FLOWTOP" -i lo -b -n 2 -d 0.05 -o hosts.csv >/dev/null)
check "man EXAMPLES: -o hosts.csv writes the CSV" \
	eval 'head -n 1 "$E2E_TMP/hosts.csv" | grep -q "^ip,rx_packets,rx_bytes"'
lines=$(ip netns exec "$ns" "$FLOWTOP" -i lo -b -n 3 -d 0.05 | grep -c '^ADDRESS')
check "README: flowtop -i IFACE -b prints a table per sample" [ "$lines" = 3 ]
summary
