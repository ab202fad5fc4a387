#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_start.sh -- the screen as a user first meets it, on whatever kernel runs the test
# (make check-kernels runs it on Debian 12's 6.1 too): flowtop -i on a veth under tmux
# starts, loads its program, shows the host that pings across the veth with the exact
# count of its frames, and q ends it with status 0. The shortest path through the
# program, the sampler and the screen together.
. "$(dirname "$0")/lib.sh"
need_root 6
command -v tmux >/dev/null || { fail "tmux is not installed"; summary; exit; }

netns_new sta && a=$NETNS && netns_new stb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=ftst-a-$E2E_SFX vb=ftst-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }
ip -n "$a" addr add 10.79.0.1/24 dev "$va"
ip -n "$b" addr add 10.79.0.2/24 dev "$vb"
# static neighbours: no ARP, so the frames on the veth are the pings alone
ip -n "$a" neigh add 10.79.0.2 lladdr "$(mac "$b" "$vb")" dev "$va" nud permanent
ip -n "$b" neigh add 10.79.0.1 lladdr "$(mac "$a" "$va")" dev "$vb" nud permanent

S=start
screen() { tm capture-pane -p -t "$S"; }
E2E_ON_FAIL=screen # a failed check shows the screen it saw
shows() { screen | grep -q -- "$1"; }
tmux_server start
tm new-session -d -s "$S" -x 120 -y 30 \
	"ip netns exec $b $FLOWTOP -i $vb -N -d 0.2 2>$E2E_TMP/err; echo \$? >$E2E_TMP/rc"
check "starts: the titles are drawn" wait_for 30 shows '^ADDRESS' ||
	{ screen; cat "$E2E_TMP/err"; }
check "no error from the load" [ ! -s "$E2E_TMP/err" ]
# 10 echoes and 10 replies of 98 bytes on the wire (14 + 20 + 8 + 56)
ip netns exec "$a" ping -q -c 10 -i 0.05 10.79.0.2 >/dev/null
check "all 20 frames in the totals: 10 in and 10 out of 98 bytes each" \
	wait_for 30 eval "shows '^ in .*(980B, 10p)   out .*(980B, 10p)'" || screen
check "both hosts on the rows" eval "shows '^10\.79\.0\.1 ' && shows '^10\.79\.0\.2 '"
tm send-keys -t "$S" q
check "q ends it" wait_for 30 eval '[ -s "$E2E_TMP/rc" ]'
check "with status 0" [ "$(cat "$E2E_TMP/rc" 2>/dev/null)" = 0 ]
summary
