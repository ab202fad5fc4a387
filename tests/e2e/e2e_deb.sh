#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_deb.sh -- the Debian package: make deb builds it from the tree's files and lintian
# passes it with no error and no warning; apt installs it on this machine beside
# netsniff-ng (whose different flowtop is diverted, not overwritten: both run, and the
# user gets this one); it runs; purging it removes every file it installed and gives
# netsniff-ng its flowtop back. netsniff-ng is removed again when the test installed it.
. "$(dirname "$0")/lib.sh"
need_root 12
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v apt-get >/dev/null || { fail "not Debian: no apt-get"; summary; exit; }
if dpkg -s flowtop >/dev/null 2>&1; then
	fail "a flowtop package is installed already: the test would replace it"
	summary
	exit
fi
out=$E2E_TMP/out
env -u MAKEFLAGS -u MAKELEVEL -u SAN make -s -C "$root" deb OUT="$out" >"$E2E_TMP/deb.log" 2>&1
rc=$?
deb=$(ls "$out"/deb/flowtop_*_*.deb 2>/dev/null | head -n 1)
check "make deb builds the package, lintian passing it (no error, no warning)" \
	eval '[ "$rc" = 0 ] && [ -n "$deb" ] || { tail -n 20 "$E2E_TMP/deb.log"; false; }'
[ -n "$deb" ] || { summary; exit; }

installed_netsniff=0
if ! dpkg -s netsniff-ng >/dev/null 2>&1; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q netsniff-ng >"$E2E_TMP/ns.log" 2>&1 &&
		installed_netsniff=1
fi
cleanup_pkgs() {
	dpkg -s flowtop >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get purge -y -q flowtop >/dev/null 2>&1
	[ "$installed_netsniff" = 1 ] && DEBIAN_FRONTEND=noninteractive apt-get purge -y -q netsniff-ng >/dev/null 2>&1
}
trap 'cleanup_pkgs; e2e_cleanup' EXIT
check "netsniff-ng is installed, its flowtop at /usr/sbin/flowtop" \
	eval '[ -x /usr/sbin/flowtop ] && ! /usr/sbin/flowtop --version 2>&1 | grep -q "eBPF per-IP"'

DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >"$E2E_TMP/apt.log" 2>&1
check "apt installs the package beside netsniff-ng" eval 'dpkg -s flowtop >/dev/null 2>&1 || { tail -n 5 "$E2E_TMP/apt.log"; false; }'
check "flowtop is this one; netsniff-ng's is diverted to flowtop.netsniff-ng, and runs" \
	eval '/usr/sbin/flowtop --version | grep -q "eBPF per-IP traffic monitor" &&
	      [ -x /usr/sbin/flowtop.netsniff-ng ] && /usr/sbin/flowtop.netsniff-ng --version 2>&1 | grep -qi netsniff &&
	      dpkg-divert --list /usr/sbin/flowtop | grep -q "by flowtop"'
check "the man pages: this one's flowtop(8), netsniff-ng's beside it" \
	eval '[ -f /usr/share/man/man8/flowtop.8.gz ] && [ -f /usr/share/man/man8/flowtop.netsniff-ng.8.gz ] &&
	      zcat /usr/share/man/man8/flowtop.8.gz | grep -q "eBPF socket"'
check "the completion, the unit (its ExecStart the packaged binary), the docs" \
	eval '[ -f /usr/share/bash-completion/completions/flowtop ] &&
	      grep -q "^ExecStart=/usr/sbin/flowtop " /lib/systemd/system/flowtop-exporter@.service &&
	      [ -f /usr/share/doc/flowtop/README.Debian ] && [ -f /usr/share/doc/flowtop/copyright ] &&
	      [ -f /usr/share/doc/flowtop/prometheus/flowtop.rules.yml ]'
check "no file capabilities granted on its own" eval '[ -z "$(getcap /usr/sbin/flowtop)" ]'
netns_new deb && ns=$NETNS || fail "cannot create a namespace"
check "the installed binary runs: a sample of lo" \
	eval 'ip netns exec "$ns" /usr/sbin/flowtop -i lo -b --json -n 1 -d 0.1 | jq -e ".interface == \"lo\"" >/dev/null'
files=$(dpkg -L flowtop | while read -r f; do [ -f "$f" ] && echo "$f"; done)
DEBIAN_FRONTEND=noninteractive apt-get purge -y -q flowtop >"$E2E_TMP/purge.log" 2>&1
# what stays at one of its paths is netsniff-ng's own file, back from the diversion
left=$(for f in $files; do
	[ -e "$f" ] && ! dpkg -S "$f" 2>/dev/null | grep -q "^netsniff-ng:" && echo "$f"
done)
check "purge removes every file it installed" eval '! dpkg -s flowtop >/dev/null 2>&1 && [ -z "$left" ] || { echo "left: $left"; false; }'
check "and netsniff-ng has its flowtop back" \
	eval '[ -x /usr/sbin/flowtop ] && ! /usr/sbin/flowtop --version 2>&1 | grep -q "eBPF per-IP" &&
	      [ ! -e /usr/sbin/flowtop.netsniff-ng ] && [ -f /usr/share/man/man8/flowtop.8.gz ] &&
	      ! dpkg-divert --list | grep -q "by flowtop"'
summary
