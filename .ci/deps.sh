#!/usr/bin/env bash
# deps.sh -- install what flowtop needs to build and test, when it is missing.
#
# Usage: .ci/deps.sh [build|test|bench]   (each includes the one before)
# Checks each tool and library; installs the missing Debian packages with apt-get when
# run as root on Debian, prints what it installs; elsewhere it fails with the list.
set -u

want=${1:-build} # build, test, or bench (test + the peers make bench compares with)
# each line: how to check it, the Debian package that provides it
build_deps='
cmd clang clang
cmd llvm-strip llvm
cmd bpftool bpftool
cmd pkg-config pkg-config
cmd cc gcc
cmd make make
pc libbpf libbpf-dev
pc libelf libelf-dev
pc zlib zlib1g-dev
pc ncursesw libncurses-dev
pc libcap-ng libcap-ng-dev
pc libmicrohttpd libmicrohttpd-dev
pc libpcap libpcap-dev
pc libloc libloc-dev
file /usr/share/libloc-location/location.db libloc-database
hdr linux/if_packet.h linux-libc-dev
'
test_deps='
cmd ip iproute2
cmd tcpreplay tcpreplay
cmd editcap wireshark-common
cmd capinfos wireshark-common
cmd tcpdump tcpdump
cmd ethtool ethtool
cmd jq jq
cmd tmux tmux
cmd python3 python3
cmd mandoc mandoc
cmd ping iputils-ping
cmd setpriv util-linux
cmd setcap libcap2-bin
cmd clang-format clang-format
cmd valgrind valgrind
cmd curl curl
cmd promtool prometheus
cmd prometheus prometheus
file /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
py3pil /usr/bin/python3 python3-pil
'

have() {
	case "$1" in
	cmd) command -v "$2" >/dev/null 2>&1 || [ -x "/usr/sbin/$2" ] || [ -x "/sbin/$2" ] ;;
	pc) pkg-config --exists "$2" 2>/dev/null ;;
	hdr) [ -f "/usr/include/$2" ] ;;
	file) [ -f "$2" ] ;;
	py3pil) "$2" -c 'import PIL' 2>/dev/null ;; # Debian's python, for make screenshots
	esac
}

bench_deps='
cmd iftop iftop
cmd iptraf-ng iptraf-ng
cmd tshark tshark
'
list=$build_deps
[ "$want" = test ] && list="$build_deps$test_deps"
[ "$want" = bench ] && list="$build_deps$test_deps$bench_deps"
missing=$(printf '%s\n' "$list" | while read -r kind what pkg; do
	[ -n "${kind:-}" ] || continue
	have "$kind" "$what" || echo "$pkg"
done | sort -u | tr '\n' ' ')
missing=${missing% }
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || { echo "deps: apt-get update failed" >&2; exit 1; }
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ echo "deps: apt-get install $missing failed" >&2; exit 1; }
	echo "deps: installed $missing"
	exit 0
fi
echo "deps: missing packages: $missing" >&2
echo "deps: install them (as root: apt-get install $missing), then run make again" >&2
exit 1
