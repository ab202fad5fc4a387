#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_deps.sh -- the deps step: silent when everything is there; elsewhere, when it may
# not install, it fails and names the packages to install.
. "$(dirname "$0")/lib.sh"
deps=$(realpath "$(dirname "$0")/../../.ci/deps.sh")

out=$(bash "$deps" test 2>&1)
rc=$?
check "everything installed: exit 0, nothing printed" eval '[ "$rc" = 0 ] && [ -z "$out" ]'
need_root 2
# as nobody, with pkg-config finding no library: it must not try apt-get. Nobody runs a
# copy, from a directory it may read: the clone may sit where only root can (/root)
pub=$E2E_TMP/pub
mkdir "$pub" && cp "$deps" "$pub/deps.sh" && chmod 755 "$E2E_TMP" "$pub" && chmod 644 "$pub/deps.sh"
out=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups env PKG_CONFIG_LIBDIR=/nonexistent \
	bash "$pub/deps.sh" build 2>&1)
rc=$?
check "libraries missing, not root: exit 1" [ "$rc" = 1 ]
check "names exactly the missing packages" \
	grep -q "missing packages: libbpf-dev libcap-ng-dev libelf-dev libloc-dev libmicrohttpd-dev libncurses-dev libpcap-dev zlib1g-dev$" <<<"$out"
summary
