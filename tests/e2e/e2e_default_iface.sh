#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_default_iface.sh -- without -i, flowtop watches the default route's interface,
# else the first one up that is not loopback, else lo.
. "$(dirname "$0")/lib.sh"
need_root 3

iface_of() { # NS: the interface flowtop picks there
	ip netns exec "$1" "$FLOWTOP" -b --json -n 1 -d 0.05 | jq -r .interface
}
netns_new dflt && ns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
check "only lo: lo" [ "$(iface_of "$ns")" = lo ]
ip -n "$ns" link add "fdx-$E2E_SFX" type veth peer name "fdy-$E2E_SFX"
ip -n "$ns" link add "fdr-$E2E_SFX" type veth peer name "fdz-$E2E_SFX"
ip -n "$ns" link set "fdx-$E2E_SFX" up
check "no default route: the first interface up" [ "$(iface_of "$ns")" = "fdx-$E2E_SFX" ]
ip -n "$ns" link set "fdr-$E2E_SFX" up
ip -n "$ns" addr add 10.78.0.1/24 dev "fdr-$E2E_SFX"
ip -n "$ns" route add default via 10.78.0.2 dev "fdr-$E2E_SFX" onlink
check "default route: its interface" [ "$(iface_of "$ns")" = "fdr-$E2E_SFX" ]
summary
