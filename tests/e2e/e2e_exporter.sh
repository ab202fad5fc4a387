#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# e2e_exporter.sh -- --listen: flowtop as a headless Prometheus exporter in a namespace
# the test makes, with known traffic on a veth: promtool accepts a scrape, the sum over
# ip is every frame, series never go back, HTTP errors, OpenMetrics, many scrapers and a
# stalled one, an oversized request, connections counted per IPv6 /64 and IPv4 address
# with two kept for new clients, slow clients evicted and past their deadline, a large
# POST refused unread; then a real Prometheus server scrapes it; and the
# exporter beside -b and beside the screen.
. "$(dirname "$0")/lib.sh"
need_root 43
for t in curl promtool prometheus tmux jq; do
	command -v "$t" >/dev/null || { fail "$t is not installed"; summary; exit; }
done

netns_new ea && a=$NETNS && netns_new eb && b=$NETNS || { fail "cannot create namespaces"; summary; exit; }
ipv6_off "$a" "$b"
va=fte-a-$E2E_SFX vb=fte-b-$E2E_SFX
veth_pair "$a" "$b" "$va" "$vb" || { fail "cannot create the veth pair"; summary; exit; }
ip -n "$a" addr add 10.55.0.1/24 dev "$va"
ip -n "$a" addr add 10.55.0.3/24 dev "$va"
ip -n "$b" addr add 10.55.0.2/24 dev "$vb"
ip -n "$a" neigh add 10.55.0.2 lladdr "$(mac "$b" "$vb")" dev "$va" nud permanent
for i in 1 3; do
	ip -n "$b" neigh add "10.55.0.$i" lladdr "$(mac "$a" "$va")" dev "$vb" nud permanent
done

PORT=9560
get() { ip netns exec "$b" curl -s --max-time 5 "$@"; }
code() { ip netns exec "$b" curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$@"; }
scrape() { get "http://127.0.0.1:$PORT/metrics"; }
# the sum of a family's samples in a scrape
sum_of() { awk -v f="$1" 'index($0, f "{") == 1 { s += $NF } END { printf "%d\n", s }' "$2"; }
val() { awk -v f="$1" 'index($0, f "{") == 1 { print $NF; exit }' "$2"; }

# headless: no terminal, no -b; the busiest host alone has series of its own
ip netns exec "$b" "$FLOWTOP" -i "$vb" --listen "127.0.0.1:$PORT" --metrics-top 1 -N -d 0.2 \
	</dev/null >"$E2E_TMP/headless.out" 2>"$E2E_TMP/headless.err" &
pid=$!
E2E_PIDS+=($pid)
check "headless: serves once a sample is taken" wait_for 5 eval '[ "$(code http://127.0.0.1:$PORT/metrics)" = 200 ]'
# a client holding 64 connections open, each in the middle of its headers, from one
# address (it lets go after 30 s at most, or when killed): a scrape from another address
# is answered at once, not after the connections time out
ip netns exec "$b" python3 -c '
import socket, sys, time
held = []
for i in range(64):
    try:
        c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
        c.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        held.append(c)
    except OSError:
        pass
print(len(held), flush=True)
time.sleep(30)' "$PORT" >"$E2E_TMP/held" 2>&1 &
holder=$!
E2E_PIDS+=("$holder")
wait_for 10 test -s "$E2E_TMP/held"
check "64 connections held from one address: a scrape from another is answered" \
	eval '[ "$(ip netns exec "$b" curl -s --max-time 3 --interface 127.0.0.2 -o /dev/null -w "%{http_code}" "http://127.0.0.1:$PORT/metrics")" = 200 ]'
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
ip netns exec "$a" ping -q -c 20 -i 0.02 -I 10.55.0.1 10.55.0.2 >/dev/null 2>&1
ip netns exec "$a" ping -q -c 5 -i 0.02 -I 10.55.0.3 10.55.0.2 >/dev/null 2>&1
# scraped_at FILE N: a scrape, kept in FILE, counts N frames (a sample has taken them in)
scraped_at() { scrape >"$1" && [ "$(val flowtop_frames_total "$1")" = "$2" ]; }
wait_for 10 scraped_at "$E2E_TMP/s1.txt" 50
check "promtool check metrics accepts a scrape" promtool check metrics <"$E2E_TMP/s1.txt"
check "the watched interface's own address has its info series, its peers none" \
	eval '[ "$(grep "^flowtop_interface_address_info{" "$E2E_TMP/s1.txt")" = "flowtop_interface_address_info{interface=\"$vb\",ip=\"10.55.0.2\"} 1" ]'
check "Content-Type is the text format 0.0.4" \
	eval 'ip netns exec "$b" curl -s -I "http://127.0.0.1:$PORT/metrics" | grep -qi "^content-type: text/plain; version=0.0.4"'
check "every frame counted: 50 frames, 2 hosts' series: the busiest and other" \
	eval '[ "$(val flowtop_frames_total "$E2E_TMP/s1.txt")" = 50 ] && [ "$(grep -c "^flowtop_host_receive_packets_total{" "$E2E_TMP/s1.txt")" = 2 ] && grep -q "^flowtop_host_receive_packets_total{interface=\"$vb\",ip=\"other\"}" "$E2E_TMP/s1.txt"'
check "the sum over ip of packets received and sent is every frame" \
	eval '[ "$(sum_of flowtop_host_receive_packets_total "$E2E_TMP/s1.txt")" = 50 ] && [ "$(sum_of flowtop_host_transmit_packets_total "$E2E_TMP/s1.txt")" = 50 ]'
check "and of bytes, every byte" \
	eval '[ "$(sum_of flowtop_host_receive_bytes_total "$E2E_TMP/s1.txt")" = "$(val flowtop_bytes_total "$E2E_TMP/s1.txt")" ]'
# traffic moves the busiest: .3 now; no series goes back, "other" included
ip netns exec "$a" ping -q -c 40 -i 0.02 -I 10.55.0.3 10.55.0.2 >/dev/null 2>&1
wait_for 10 scraped_at "$E2E_TMP/s2.txt" 130
never_back() {
	awk 'FNR == NR && /^flowtop_host/ { v[$1] = $2; next }
	     /^flowtop_host/ && ($1 in v) && $2 < v[$1] { bad = 1; print "went back: " $0 }
	     END { exit bad }' "$E2E_TMP/s1.txt" "$E2E_TMP/s2.txt"
}
check "no series went back while the busiest changed" never_back
check "and the sums still are every frame" \
	eval '[ "$(sum_of flowtop_host_receive_packets_total "$E2E_TMP/s2.txt")" = 130 ]'

check "GET /other: 404" eval '[ "$(code http://127.0.0.1:$PORT/other)" = 404 ]'
check "GET /: a page that links to /metrics" \
	eval '[ "$(code http://127.0.0.1:$PORT/)" = 200 ] && ip netns exec "$b" curl -s "http://127.0.0.1:$PORT/" | grep -q "href=\"/metrics\""'
check "POST /metrics: 405, Allow: GET, HEAD" \
	eval 'get -i -X POST -d x=1 "http://127.0.0.1:$PORT/metrics" | grep -qi "^allow: GET, HEAD" && [ "$(code -X POST http://127.0.0.1:$PORT/metrics)" = 405 ]'
check "HEAD /metrics: 200, no body" \
	eval '[ "$(code -I http://127.0.0.1:$PORT/metrics)" = 200 ] && [ -z "$(get -I http://127.0.0.1:$PORT/metrics | sed "1,/^\r$/d")" ]'
get -H 'Accept: application/openmetrics-text; version=1.0.0' -D "$E2E_TMP/om.h" \
	"http://127.0.0.1:$PORT/metrics" >"$E2E_TMP/om.txt"
check "OpenMetrics when asked: its type, counters named without _total, # EOF last" \
	eval 'grep -qi "^content-type: application/openmetrics-text" "$E2E_TMP/om.h" && grep -q "^# TYPE flowtop_frames counter" "$E2E_TMP/om.txt" && [ "$(tail -n 1 "$E2E_TMP/om.txt")" = "# EOF" ]'
big=$(head -c 40000 /dev/zero | tr '\0' a)
c=$(code -H "X-Big: $big" "http://127.0.0.1:$PORT/metrics")
check "an oversized request is refused ($c), and flowtop serves on" \
	eval '[ "$c" != 200 ] && [ "$(code http://127.0.0.1:$PORT/metrics)" = 200 ]'
# a client that sends half a request and waits, while 7 others scrape at once: 8 from
# one address, the most the exporter serves at once from one (more are closed, by
# design: 20 at once passed only while they did not overlap, so not on a loaded machine)
# (it waits for an answer that never comes, 20 s at most)
ip netns exec "$b" bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT; printf 'GET /metr' >&3; read -t 20 <&3" &
E2E_PIDS+=($!)
wait_for 5 eval 'ip netns exec "$b" ss -Htn state established "( dport = :$PORT )" | grep -q .'
for i in $(seq 7); do
	code "http://127.0.0.1:$PORT/metrics" >"$E2E_TMP/par.$i" &
done
wait_for 10 eval '[ "$(cat "$E2E_TMP"/par.* 2>/dev/null | tr -d "\n")" = "$(printf "200%.0s" $(seq 7))" ]'
check "7 scrapers at once, an 8th from their address stalled: all 7 get 200" \
	eval '[ "$(cat "$E2E_TMP"/par.* | tr -d "\n")" = "$(printf "200%.0s" $(seq 7))" ]'
f1=$(scrape | awk -F' ' '/^flowtop_frames_total/ { print $2 }')
ip netns exec "$a" ping -q -c 5 -i 0.02 -I 10.55.0.1 10.55.0.2 >/dev/null 2>&1
check "while it stalls, sampling goes on" \
	wait_for 3 eval '[ "$(scrape | awk "/^flowtop_frames_total/ { print \$2 }")" -gt "$f1" ]'
check "headless: nothing on stdout" [ ! -s "$E2E_TMP/headless.out" ]

# connections are counted by client, an IPv6 /64 or an IPv4 address: an exporter on
# [::] in a namespace with IPv6, whose loopback has 16 addresses of one /64 and one of
# another, and IPv4 clients as IPv4-mapped addresses
netns_new ec && cns=$NETNS || { fail "cannot create a namespace"; summary; exit; }
for i in $(seq 16); do
	ip -n "$cns" addr add "2001:db8:1::$i/64" dev lo nodad
done
ip -n "$cns" addr add 2001:db8:2::1/64 dev lo nodad
CPORT=9570
start_bg "$cns" "$E2E_TMP/c.out" "$FLOWTOP" -i lo --listen "[::]:$CPORT" -N -d 0.5
cpid=$BG_PID
ccode() { ip netns exec "$cns" curl -g -s --max-time 3 -o /dev/null -w '%{http_code}' "$@"; }
wait_for 5 eval '[ "$(ccode "http://[::1]:$CPORT/metrics")" = 200 ]'
# hold DST SRC/N...: N connections from each SRC to DST, each in the middle of its
# headers; prints how many are still open every 0.2 s (30 s at most, or until killed:
# run in the background, it is the process $! names)
hold() {
	exec ip netns exec "$cns" python3 -c '
import socket, sys, time
port, dst = int(sys.argv[1]), sys.argv[2]
fam = socket.AF_INET6 if ":" in dst else socket.AF_INET
held = []
for spec in sys.argv[3:]:
    src, n = spec.rsplit("/", 1)
    for i in range(int(n)):
        try:
            s = socket.socket(fam, socket.SOCK_STREAM)
            s.settimeout(0.5)
            s.bind((src, 0))
            s.connect((dst, port))
            s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            s.setblocking(False)
            held.append(s)
        except OSError:
            pass
end = time.time() + 30
while time.time() < end:
    n = 0
    for s in held:
        try:
            n += s.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    print(n, flush=True)
    time.sleep(0.2)' "$CPORT" "$@"
}
# none of the exporter's connections left open (the last holder's closed)
no_conns() { [ -z "$(ip netns exec "$cns" ss -Htn state established state close-wait "( sport = :$CPORT )")" ]; }
srcs=()
for i in $(seq 16); do srcs+=("2001:db8:1::$i/8"); done
hold 2001:db8:1::1 "${srcs[@]}" >"$E2E_TMP/held6" 2>&1 &
holder=$!
E2E_PIDS+=("$holder")
# the scrape at once, once every connection is made: held ones would let go after the
# exporter's 10 s timeout
wait_for 10 test -s "$E2E_TMP/held6"
scraped=$(ccode --interface 2001:db8:2::1 "http://[2001:db8:1::1]:$CPORT/metrics")
wait_for 5 eval '[ "$(last_line "$E2E_TMP/held6")" = 8 ]'
check "8 connections from each of 16 addresses of one /64: 8 held, the rest closed ($(last_line "$E2E_TMP/held6"))" \
	eval '[ "$(last_line "$E2E_TMP/held6")" = 8 ]'
check "meanwhile a scrape from another /64 is answered ($scraped)" [ "$scraped" = 200 ]
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
wait_for 10 no_conns
srcs=()
for i in $(seq 8); do srcs+=("127.0.0.$i/8"); done
hold 127.0.0.1 "${srcs[@]}" >"$E2E_TMP/held4" 2>&1 &
holder=$!
E2E_PIDS+=("$holder")
wait_for 10 test -s "$E2E_TMP/held4"
scraped=$(ccode --interface 127.0.0.9 "http://127.0.0.1:$CPORT/metrics")
wait_for 5 eval '[ "$(last_line "$E2E_TMP/held4")" = 62 ]'
check "8 connections from each of 8 IPv4 aliases (IPv4-mapped on [::]): 8 each but the 2 spare ($(last_line "$E2E_TMP/held4") held)" \
	eval '[ "$(last_line "$E2E_TMP/held4")" = 62 ]'
check "meanwhile a scrape from a 9th IPv4 address takes a spare ($scraped)" [ "$scraped" = 200 ]
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
wait_for 10 no_conns

# slow clients: loris DST SRC/N... holds N connections from each SRC, each sending a
# header line every 2 s and never the blank line (libmicrohttpd's idle timeout alone
# kept them for ever); prints how many are still open every 0.2 s, 30 s at most
loris() {
	exec ip netns exec "$cns" python3 -c '
import socket, sys, time
port, dst = int(sys.argv[1]), sys.argv[2]
held = []
for spec in sys.argv[3:]:
    src, n = spec.rsplit("/", 1)
    for i in range(int(n)):
        try:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.settimeout(0.5)
            s.bind((src, 0))
            s.connect((dst, port))
            s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            s.setblocking(False)
            held.append(s)
        except OSError:
            pass
end, line = time.time() + 30, time.time() + 2
while time.time() < end:
    n = 0
    for s in held:
        try:
            n += s.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    if time.time() >= line:
        line += 2
        for s in held:
            try:
                s.send(b"X-Slow: 1\r\n")
            except OSError:
                pass
    print(n, flush=True)
    time.sleep(0.2)' "$CPORT" "$@"
}
srcs=("127.0.0.1/8")
for i in $(seq 2 9); do srcs+=("127.0.0.$i/8"); done
loris 127.0.0.1 "${srcs[@]}" >"$E2E_TMP/loris" 2>&1 &
holder=$!
E2E_PIDS+=("$holder")
wait_for 10 test -s "$E2E_TMP/loris"
held=$(last_line "$E2E_TMP/loris")
t0=$(date +%s%N)
scraped=$(ip netns exec "$cns" curl -s --max-time 2 --interface 127.0.0.1 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$CPORT/metrics")
ms=$((($(date +%s%N) - t0) / 1000000))
check "slow clients, 8 from 127.0.0.1 and 8 from each of 127.0.0.2-9 ($held open): a scrape from 127.0.0.1 answered within 2 s ($scraped, $ms ms)" \
	[ "$scraped" = 200 ]
check "and their requests, a header line every 2 s, are all closed by the 5 s deadline" \
	wait_for 9 eval '[ "$(last_line "$E2E_TMP/loris")" = 0 ]'
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
wait_for 10 no_conns
# a 3 MB chunked POST, 64 KiB a chunk: answered 405 before it is sent, the connection
# closed rather than the upload read; prints the status, the bytes it could send, ms
ip netns exec "$cns" python3 -c '
import select, socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
t0 = time.time()
s.send(b"POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
chunk, sent, status = b"10000\r\n" + b"a" * 65536 + b"\r\n", 0, "none"
try:
    while sent < 3 << 20 and not select.select([s], [], [], 0.02)[0]:
        s.sendall(chunk)
        sent += 65536
    if sent >= 3 << 20:
        s.sendall(b"0\r\n\r\n")
    status = s.recv(64).split(b" ")[1].decode()
except (OSError, IndexError):
    pass
print(status, sent, int((time.time() - t0) * 1000))' "$CPORT" >"$E2E_TMP/post" 2>&1
read -r pstatus psent pms <"$E2E_TMP/post"
check "a 3 MB chunked POST: 405 at once, the upload not read ($pstatus after $psent bytes, $pms ms)" \
	eval '[ "$pstatus" = 405 ] && [ "$psent" -lt $((3 << 20)) ] && [ "$pms" -lt 2000 ]'
check "and flowtop serves on" eval '[ "$(ccode "http://[::1]:$CPORT/metrics")" = 200 ]'
stop_bg "$cpid" TERM

# an interface named with bytes that are not UTF-8, u 0xff 0xfe, as anyone who may name
# one in a watched namespace can: an exporter watching it is the second target
hv=$'u\xff\xfe'-$E2E_SFX hp=fte-h-$E2E_SFX HPORT=9562
ip -n "$b" link add "$hv" type veth peer name "$hp" && ip -n "$b" link set "$hv" up &&
	ip -n "$b" link set "$hp" up || fail "cannot create the veth named u 0xff 0xfe"
ip netns exec "$b" "$FLOWTOP" -i "$hv" --listen "127.0.0.1:$HPORT" -N -d 0.2 \
	</dev/null >/dev/null 2>"$E2E_TMP/names.err" &
E2E_PIDS+=($!)
wait_for 5 eval '[ "$(code http://127.0.0.1:$HPORT/metrics)" = 200 ]'

# a real Prometheus server scrapes it (OpenMetrics, as Prometheus asks for it)
cat >"$E2E_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: flowtop
    static_configs:
      - targets: ['127.0.0.1:$PORT']
  - job_name: names
    static_configs:
      - targets: ['127.0.0.1:$HPORT']
EOF
ip netns exec "$b" prometheus --config.file="$E2E_TMP/prometheus.yml" \
	--storage.tsdb.path="$E2E_TMP/tsdb" --web.listen-address=127.0.0.1:9561 \
	>"$E2E_TMP/prom.log" 2>&1 &
E2E_PIDS+=($!)
# query PROMQL [TIME]: its first value, evaluated now or at TIME (Prometheus's seconds)
query() {
	get --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} \
		http://127.0.0.1:9561/api/v1/query | jq -r '.data.result[0].value[1] // empty'
}
check "Prometheus scrapes it: up is 1" wait_for 40 eval '[ "$(query "up{job=\"flowtop\"}")" = 1 ]'
# the label is the text u\xff\xfe (PromQL escapes the backslashes once more)
hq="flowtop_frames_total{job=\"names\",interface=\"u\\\\xff\\\\xfe-$E2E_SFX\"}"
check "the exporter watching the interface named u 0xff 0xfe: up is 1, its series there" \
	wait_for 20 eval '[ "$(query "up{job=\"names\"}")" = 1 ] && [ -n "$(query "$hq")" ]'
# 30 echo requests from .3 to .2, between two scrapes whose times Prometheus reports:
# t0 the last before them, t2 one over a second after; PromQL is evaluated at t2, over
# a window that starts before t0, so neither the machine's speed nor the test's matters
m='flowtop_host_receive_packets_total{ip="10.55.0.2"}'
wait_for 20 eval '[ -n "$(query "$m")" ] && [ "$(query "count_over_time(up{job=\"flowtop\"}[1h])")" -ge 3 ]'
t0=$(query "timestamp(up{job=\"flowtop\"})")
ip netns exec "$a" ping -q -c 30 -i 0.05 -I 10.55.0.3 10.55.0.2 >/dev/null 2>&1
t1=$(date +%s.%N)
later() { awk -v a="$(query "timestamp(up{job=\"flowtop\"})")" -v b="$t1" 'BEGIN { exit !(a != "" && a > b + 1) }'; }
wait_for 20 later
t2=$(query "timestamp(up{job=\"flowtop\"})")
# a window of w seconds back from t2 holds t0; increase() extrapolates the span of the
# samples in it to the window's edges at most, so by at most w/span (span read from
# the samples Prometheus holds: a loaded machine scrapes late, and spans shrink)
w=$(awk -v a="$t0" -v b="$t2" 'BEGIN { printf "%d\n", b - a + 2.5 }')
span=$(get --data-urlencode "query=$m[${w}s]" --data-urlencode "time=$t2" \
	http://127.0.0.1:9561/api/v1/query | jq '.data.result[0].values | last[0] - first[0]')
near() { awk -v v="$1" -v n="$2" -v w="$w" -v s="$span" 'BEGIN { exit !(v != "" && s > 0 && v >= n && v <= n * w / s + 0.01) }'; }
exact=$(($(query "$m" "$t2") - $(query "$m" "$t0")))
inc=$(query "increase($m[${w}s])" "$t2")
all=$(query "sum(increase(flowtop_host_receive_packets_total{job=\"flowtop\"}[${w}s]))" "$t2")
check "PromQL per ip: the 30 requests to .2 exactly ($exact); increase() $inc, 60 in all ($all), over ${w} s, samples spanning $span s" \
	eval '[ "$exact" = 30 ] && near "$inc" 30 && near "$all" 60'
check "PromQL: the top-1 cap holds, three hosts seen: one series and other" \
	eval '[ "$(query "count(flowtop_host_receive_packets_total{job=\"flowtop\"})")" = 2 ]'
frames=$(scrape | awk '/^flowtop_frames_total/ { print $2 }')
check "and its sum over ip is the frames flowtop saw ($frames)" \
	wait_for 10 eval '[ "$(query "sum(flowtop_host_receive_packets_total{job=\"flowtop\"})")" = "$frames" ]'
stop_bg "$pid" TERM
check "headless: SIGTERM ends it with 0" [ $? = 0 ]

# slow readers: 4 clients, each with a 536-byte segment (so the answer does not fit in
# the kernel's buffers at once) and a 2 KB receive buffer, ask for an answer of 3,000
# hosts' series (~900 KB) and read 8 KB of it every 0.5 s, a minute's reading:
# libmicrohttpd's idle timeout alone kept them as long as they read (the build before held
# them the readers' 30 s); the answer's deadline, 10 s, closes them
churn=$TESTBIN/../bench/churn_send SPORT=9564
ip netns exec "$b" "$FLOWTOP" -i "$vb" --listen "127.0.0.1:$SPORT" --metrics-top 5000 -N -d 0.2 \
	</dev/null >/dev/null 2>"$E2E_TMP/slow.err" &
spid=$!
E2E_PIDS+=($spid)
wait_for 5 eval '[ "$(code http://127.0.0.1:$SPORT/metrics)" = 200 ]'
ip netns exec "$a" "$churn" "$va" 0 3000 1 >/dev/null 2>&1
hosts_in() { get "http://127.0.0.1:$SPORT/metrics" | grep -c "^flowtop_host_receive_packets_total"; }
check "an exporter of 3,000 hosts' series" wait_for 10 eval '[ "$(hosts_in)" -ge 3000 ]'
big=$(get "http://127.0.0.1:$SPORT/metrics" | wc -c)
established() { ip netns exec "$b" ss -Htn state established "( sport = :$SPORT )" | wc -l; }
t0=$(date +%s%N)
ip netns exec "$b" python3 -c '
import socket, sys, time
held = []
for i in range(4):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    held.append(s)
end = time.time() + 30
while time.time() < end:
    for s in held:
        try:
            s.recv(8192, socket.MSG_DONTWAIT)
        except OSError:
            pass
    time.sleep(0.5)' "$SPORT" >/dev/null 2>&1 &
reader=$!
E2E_PIDS+=("$reader")
check "4 slow readers of the $big-byte answer hold their connections" \
	wait_for 5 eval '[ "$(established)" = 4 ]'
wait_for 25 eval '[ "$(established)" = 0 ]'
held_ms=$((($(date +%s%N) - t0) / 1000000))
check "the answer's deadline closes them: after 10 s, not at the request's 5 ($held_ms ms)" \
	eval '[ "$held_ms" -ge 9000 ] && [ "$held_ms" -le 16000 ]'
check "meanwhile and after, scrapes are answered" eval '[ "$(code http://127.0.0.1:$SPORT/metrics)" = 200 ]'
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
stop_bg "$spid" TERM

# beside -b: both
ip netns exec "$b" "$FLOWTOP" -i "$vb" --listen "127.0.0.1:$PORT" -b -n 3 -d 0.2 \
	>"$E2E_TMP/b.out" 2>&1 &
bpid=$!
E2E_PIDS+=($bpid)
wait_for 5 eval '[ "$(code http://127.0.0.1:$PORT/metrics)" = 200 ]'
bcode=$(code "http://127.0.0.1:$PORT/metrics")
wait "$bpid"
check "beside -b: the samples printed and /metrics served" \
	eval '[ "$bcode" = 200 ] && [ "$(grep -c interval "$E2E_TMP/b.out")" = 3 ]'

# beside the screen
tmux_server exp
tm new-session -d -s s -x 120 -y 30 \
	"ip netns exec $b $FLOWTOP -i $vb --listen 127.0.0.1:$PORT -N -d 0.2"
check "beside the screen: the screen draws and /metrics answers" \
	wait_for 5 eval 'tm capture-pane -p -t s | grep -q "flowtop  $vb" && [ "$(code http://127.0.0.1:$PORT/metrics)" = 200 ]'

# the systemd unit's ExecStart, as an unprivileged user with the unit's capabilities
unit=$(dirname "$0")/../../contrib/flowtop-exporter@.service
args=$(sed -n 's/^ExecStart=[^ ]* //p' "$unit")
args=${args//%i/$vb}
listen=$(sed -n 's/^Environment=FLOWTOP_LISTEN=//p' "$unit")
args=${args//'${FLOWTOP_LISTEN}'/$listen}
check "the unit: its exposure under systemd-analyze security at most 2.5" \
	systemd-analyze security --offline=yes --threshold=25 "$unit" >/dev/null 2>&1
capset=$(sed -n 's/^AmbientCapabilities=//p' "$unit" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')
tm kill-session -t s 2>/dev/null
wait_for 5 eval '[ "$(code http://127.0.0.1:$PORT/metrics)" = 000 ]'
# shellcheck disable=SC2086
ip netns exec "$b" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps="$capset" \
	--ambient-caps="$capset" "$FLOWTOP" $args </dev/null >/dev/null 2>"$E2E_TMP/unit.err" &
upid=$!
E2E_PIDS+=($upid)
ucaps() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$upid/status"; }
check "the unit's command, as uid 65534 with its capabilities: serves, CAP_NET_RAW left" \
	wait_for 5 eval '[ "$(code http://127.0.0.1:9560/metrics)" = 200 ] && [ "$(ucaps CapEff)" = 0000000000002000 ] && [ "$(ucaps CapAmb)" = 0000000000000000 ]'
ip netns exec "$b" "$FLOWTOP" -i "$vb" --listen "127.0.0.1:$PORT" -b -n 1 >/dev/null 2>"$E2E_TMP/e2"
rc=$?
check "a port in use: exit 2, said" eval '[ "$rc" = 2 ] && grep -q "Address already in use" "$E2E_TMP/e2"'
stop_bg "$upid" TERM

ip netns exec "$b" "$FLOWTOP" -i "$vb" --listen 99999 -b -n 1 >/dev/null 2>"$E2E_TMP/e1"
rc=$?
check "--listen 99999: exit 2, not a port" eval '[ "$rc" = 2 ] && grep -q "not a port" "$E2E_TMP/e1"'
summary
