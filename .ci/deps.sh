#!/usr/bin/env bash
# deps.sh -- install what flowtop needs to build and test, when it is missing.
#
# Usage: .ci/deps.sh [build|test|bench|kernels|deb]   (bench, kernels and deb include
#        test, test includes build)
# Checks each tool and library; installs the missing Debian packages with apt-get when
# run as root on Debian, prints what it installs; elsewhere it fails with the list.
set -u

want=${1:-build} # build, test, bench (test + the peers make bench compares with, and perf
# for bench/profile.sh), or
# kernels (test + what make check-kernels boots: qemu, a static busybox, Debian 12's 6.1)
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
cmd tshark tshark
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
cmd strace strace
cmd curl curl
cmd systemd-analyze systemd
cmd infocmp ncurses-bin
cmd tic ncurses-bin
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
	static) command -v "$2" >/dev/null 2>&1 && ldd "$(command -v "$2")" 2>&1 | grep -q 'not a dynamic' ;;
	kernel) compgen -G "/boot/vmlinuz-$2.*" >/dev/null ;;
	esac
}

# the package of a kernel series, linux-image-SERIES: the newest Debian build of it the
# archive has now (the archive drops old ABI numbers), after apt-get update
kernel_package() {
	apt-cache search --names-only "^linux-image-${1#linux-image-}\.0-[0-9]+-amd64-unsigned\$" |
		awk '{ print $1 }' | sort -V | tail -n 1
}

bench_deps='
cmd iftop iftop
cmd iptraf-ng iptraf-ng
cmd perf linux-perf
'
deb_deps='
cmd dpkg-buildpackage dpkg-dev
cmd dh debhelper
cmd lintian lintian
cmd fakeroot fakeroot
file /usr/share/perl5/Debian/Debhelper/Sequence/bash_completion.pm bash-completion
'
kernel_deps='
cmd qemu-system-x86_64 qemu-system-x86
static busybox busybox-static
cmd cpio cpio
cmd modprobe kmod
kernel 6.1 linux-image-6.1
'
list=$build_deps
[ "$want" = test ] && list="$build_deps$test_deps$deb_deps" # e2e_deb builds the package
[ "$want" = bench ] && list="$build_deps$test_deps$bench_deps"
[ "$want" = kernels ] && list="$build_deps$test_deps$kernel_deps"
[ "$want" = deb ] && list="$build_deps$test_deps$deb_deps"
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
	if [[ " $missing " == *" linux-image-6.1 "* ]]; then
		pkg=$(kernel_package linux-image-6.1)
		[ -n "$pkg" ] || { echo "deps: the archive has no Linux 6.1 image" >&2; exit 1; }
		missing=${missing/linux-image-6.1/$pkg}
	fi
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ echo "deps: apt-get install $missing failed" >&2; exit 1; }
	echo "deps: installed $missing"
	exit 0
fi
echo "deps: missing packages: $missing" >&2
echo "deps: install them (as root: apt-get install $missing), then run make again" >&2
exit 1
