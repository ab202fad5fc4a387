#!/usr/bin/env bash
# deps.sh -- install what flowtop needs to build and test, when it is missing.
#
# Usage: .ci/deps.sh [build|test|bench|kernels|deb]   (bench, kernels and deb include
#        test, test includes build)
# Checks each tool and library; installs the missing Debian packages with apt-get when
# run as root on Debian, prints what it installs; elsewhere it fails with the list.
# kernels also fetches Debian 13's 6.12 and 11's 5.10 into KERNEL_DIR (default
# .output/kernels), once:
# unpacked there, not installed (see fetch_kernel).
set -u

want=${1:-build} # build, test, bench (test + the peers make bench compares with, and perf
# for bench/profile.sh), or
# kernels (test + what make check-kernels boots: qemu, a static busybox, Debian 12's 6.1
# installed, Debian 13's 6.12 and 11's 5.10 unpacked)
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
file /etc/services netbase
file /etc/protocols netbase
'
test_deps='
cmd ip iproute2
cmd tcpreplay tcpreplay
cmd editcap wireshark-common
cmd capinfos wireshark-common
cmd mergecap wireshark-common
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

# Debian 13's 6.12 and 11's 5.10, which check-kernels boots as well, are unpacked into
# KERNEL_DIR/VER, not installed: the machine's own kernel packages stay as they are. The
# SUITE (trixie, bullseye) comes from the mirror this machine's sources name for its own
# release, through an apt list of its own (sources, lists and cache under
# KERNEL_DIR/apt); its newest linux-image-SERIES.*-amd64-unsigned is downloaded, unpacked with dpkg -x and given its
# modules.dep with depmod (kmod 30 looks in DIR/lib/modules: lib is made a link to usr/lib
# as on the merged-/usr system the package is built for). Once there, nothing is fetched.
fetch_kernel() { # SERIES SUITE
	local series=$1 suite=$2 dir=${KERNEL_DIR:-$(dirname "$0")/../.output/kernels}
	local have mirror apt pkg ver
	have=$(compgen -G "$dir/$series.*/lib/modules/$series.*/modules.dep" | head -n 1)
	[ -n "$have" ] && return 0
	if ! command -v apt-get >/dev/null || ! command -v depmod >/dev/null; then
		echo "deps: fetching Linux $series needs apt-get and depmod" >&2
		return 1
	fi
	# shellcheck disable=SC2016 # apt's fields, not the shell's
	mirror=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME)' 'Identifier: Packages' \
		2>/dev/null | awk -v c="$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)" \
		'$2 == c { print $1; exit }')
	mirror=${mirror:-http://deb.debian.org/debian/}
	mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/parts" &&
		dir=$(cd "$dir" && pwd) || return 1 # apt takes a relative path as under /etc/apt
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		>"$dir/apt/sources.list"
	apt=(-q -o "Dir::Etc::sourcelist=$dir/apt/sources.list" -o "Dir::Etc::sourceparts=$dir/apt/parts"
		-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
		-o APT::Sandbox::User=root)
	echo "deps: fetching Linux $series from $mirror $suite into $dir"
	apt-get "${apt[@]}" update >/dev/null || { echo "deps: apt-get update ($suite) failed" >&2; return 1; }
	# 6.12.57+deb13-amd64 (trixie) and 5.10.0-32-amd64 (bullseye): each release names its own way
	pkg=$(apt-cache "${apt[@]}" search --names-only "^linux-image-${series//./\\.}\\.([0-9]+\\+[^-]+|0-[0-9]+)-amd64-unsigned\$" |
		awk '{ print $1 }' | sort -V | tail -n 1)
	[ -n "$pkg" ] || { echo "deps: $suite has no Linux $series image" >&2; return 1; }
	ver=${pkg#linux-image-} ver=${ver%-unsigned}
	rm -rf "${dir:?}/$ver" "$dir/.$ver" "$dir/apt/deb"
	if ! mkdir -p "$dir/.$ver" "$dir/apt/deb" ||
		! (cd "$dir/apt/deb" && apt-get "${apt[@]}" download "$pkg" >/dev/null) ||
		! dpkg -x "$dir"/apt/deb/*.deb "$dir/.$ver" || ! ln -s usr/lib "$dir/.$ver/lib" ||
		! depmod -b "$dir/.$ver" "$ver" || ! mv "$dir/.$ver" "$dir/$ver"; then
		echo "deps: cannot unpack $pkg into $dir/$ver" >&2
		rm -rf "$dir/.$ver" "$dir/apt/deb"
		return 1
	fi
	rm -rf "$dir/apt/deb"
	echo "deps: Linux $ver in $dir/$ver"
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
if [ -z "$missing" ]; then
	[ "$want" = kernels ] || exit 0
	fetch_kernel 6.12 trixie && fetch_kernel 5.10 bullseye
	exit
fi

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
	[ "$want" = kernels ] || exit 0
	fetch_kernel 6.12 trixie && fetch_kernel 5.10 bullseye
	exit
fi
echo "deps: missing packages: $missing" >&2
echo "deps: install them (as root: apt-get install $missing), then run make again" >&2
exit 1
