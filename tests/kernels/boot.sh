#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# boot.sh -- runs a command of the project on another kernel: boots /boot/vmlinuz-VER,
# or one unpacked into KERNEL_DIR/VER (.ci/deps.sh kernels: Debian 13's 6.12), under qemu (KVM where there is one, else TCG) with this machine's root mounted
# read-only over virtio-9p, and runs CMD in the project's directory, chrooted into that
# root (the project is shared on its own too, read-only, at its path: under /tmp, which
# is a tmpfs in the VM, the root's share would not show it). What the command prints comes back through a second, writable share, and is
# printed here when it ends; boot.sh exits with the command's status (124: the VM did not
# finish within VM_TIMEOUT seconds, 125: it could not be started).
#
#   tests/kernels/boot.sh VER CMD [ARG...]
#
# The VM boots from an initramfs of static busybox and the modules that reach the
# shares (made here, in a temporary directory, compressed ones unpacked); the chroot then
# loads what else it needs with the root's modprobe (/lib/modules/VER comes with the
# kernel's package; for a kernel of KERNEL_DIR, its modules are mounted there in the VM).
# Environment: VM_TIMEOUT (default 1800), VM_MEM (MiB, 2048), VM_CPUS (2), CI (passed on),
# KERNEL_DIR (default .output/kernels; outside /tmp unless in the project).
set -u
[ $# -ge 2 ] || { sed -n '/^#   tests/p' "$0" | sed 's/^# *//' >&2; exit 125; }
ver=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
kernel=/boot/vmlinuz-$ver
mods=/lib/modules/$ver
base=() # modprobe's root for a kernel of KERNEL_DIR
die() { echo "boot.sh: $*" >&2; exit 125; }
if [ ! -r "$kernel" ]; then
	dir=$(realpath -m "${KERNEL_DIR:-$root/.output/kernels}/$ver")
	[ -r "$dir/boot/vmlinuz-$ver" ] ||
		die "no kernel $kernel or $dir/boot/vmlinuz-$ver (install linux-image-$ver-unsigned)"
	kernel=$dir/boot/vmlinuz-$ver mods=$dir/lib/modules/$ver base=(-d "$dir")
fi
[ -d "$mods" ] || die "no modules in $mods"
mods=$(realpath "$mods")
busybox=$(command -v busybox) || die "no busybox (install busybox-static)"
ldd "$busybox" 2>&1 | grep -q 'not a dynamic' || die "$busybox is not static (install busybox-static)"
command -v qemu-system-x86_64 >/dev/null || die "no qemu-system-x86_64 (install qemu-system-x86)"
command -v cpio >/dev/null || die "no cpio"

work=$(mktemp -d /tmp/ft-vm-XXXXXX)
qemu_pid=
cleanup() {
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null && wait "$qemu_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the initramfs: busybox, the modules for virtio-9p in the order modprobe loads them
mkdir -p "$work"/initrd/{bin,mods,dev,proc,sys,mnt} "$work/out"
cp "$busybox" "$work/initrd/bin/busybox"
for m in virtio_pci 9pnet_virtio 9p; do
	modprobe "${base[@]}" -S "$ver" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' >"$work/modlist"
# busybox's insmod takes a module as it is: 6.12's come compressed (.ko.xz)
while read -r ko; do
	name=$(basename "$ko")
	case "$ko" in
	*.ko.xz) xz -dc "$ko" >"$work/initrd/mods/${name%.xz}" ;;
	*.ko.zst) zstd -q -dc "$ko" >"$work/initrd/mods/${name%.zst}" ;;
	*.ko.gz) gzip -dc "$ko" >"$work/initrd/mods/${name%.gz}" ;;
	*) cp "$ko" "$work/initrd/mods/" ;;
	esac || die "cannot unpack the module $ko"
	echo "${name%.ko*}.ko" >>"$work/initrd/mods/order"
done <"$work/modlist"
# the guest's first process: mount the shares, then the command in the chroot
cat >"$work/initrd/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
[ -f /mods/order ] && while read -r m; do insmod "/mods/$m"; done </mods/order
p9='-t 9p -o trans=virtio,version=9p2000.L,msize=262144'
if mount $p9,ro hostroot /mnt; then
	r=/mnt
	mount -t tmpfs tmp $r/tmp && mount -t tmpfs run $r/run && mkdir -p $r/tmp/vm-out &&
		mount $p9 out $r/tmp/vm-out && mount -t proc proc $r/proc && mount -t sysfs sys $r/sys &&
		mount -t devtmpfs dev $r/dev && mkdir -p $r/dev/pts $r/dev/shm &&
		ln -sf /proc/self/fd $r/dev/fd && ln -sf /proc/self/fd/0 $r/dev/stdin &&
		ln -sf /proc/self/fd/1 $r/dev/stdout && ln -sf /proc/self/fd/2 $r/dev/stderr &&
		mount -t devpts -o newinstance,ptmxmode=0666 devpts $r/dev/pts &&
		rm -f $r/dev/ptmx && ln -s pts/ptmx $r/dev/ptmx &&
		mount -t tmpfs shm $r/dev/shm && mount -t bpf bpf $r/sys/fs/bpf &&
		mount -t cgroup2 cgroup2 $r/sys/fs/cgroup && mount -t debugfs debugfs $r/sys/kernel/debug
	# the project at its own path, which may lie under /tmp (a tmpfs here)
	project=$(cat $r/tmp/vm-out/project)
	mkdir -p "$r$project" && mount $p9,ro project "$r$project"
	# a kernel of KERNEL_DIR: its modules where the chroot's modprobe looks
	if [ -s $r/tmp/vm-out/modules ]; then
		mods=$(cat $r/tmp/vm-out/modules)
		mount -t tmpfs modules $r/lib/modules && mkdir -p "$r/lib/modules/$(uname -r)" &&
			mount -o bind "$r$mods" "$r/lib/modules/$(uname -r)"
	fi
	chroot $r /bin/sh /tmp/vm-out/guest >/dev/console 2>&1
else
	echo "init: cannot mount the host's root" >/dev/console
fi
poweroff -f
EOF
chmod +x "$work/initrd/init"
(cd "$work/initrd" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz" ||
	die "cannot make the initramfs"

# what the chroot runs: the command, its output into the share, its status last
{
	echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
	echo 'export HOME=/tmp TERM=xterm-256color LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1'
	printf 'export CI=%q\n' "${CI:-}"
	for v in FLOWTOP TESTBIN; do # the build under test (make SAN=1: another)
		[ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}"
	done
	echo 'ip link set lo up'
	printf 'cd %q || exit\n' "$root"
	printf '%q ' "$@"
	echo '>/tmp/vm-out/log 2>&1 </dev/null'
	echo 'echo $? >/tmp/vm-out/rc'
} >"$work/out/guest"
: >"$work/out/log"
printf '%s\n' "$root" >"$work/out/project"
[ ${#base[@]} = 0 ] || printf '%s\n' "$mods" >"$work/out/modules"

# boot ACCEL CPU: the guest, its status in $status
boot() {
	timeout "${VM_TIMEOUT:-1800}" qemu-system-x86_64 -accel "$1" -cpu "$2" -machine q35 \
		-m "${VM_MEM:-2048}" -smp "${VM_CPUS:-2}" -nographic -no-reboot -nic none \
		-kernel "$kernel" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 quiet panic=-1 oops=panic" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$work/out,mount_tag=out,security_model=none,multidevs=remap" \
		-virtfs "local,path=$root,mount_tag=project,security_model=none,readonly=on,multidevs=remap" \
		</dev/null >"$work/console" 2>&1 &
	qemu_pid=$!
	{ wait "$qemu_pid"; } 2>/dev/null # qemu's abort is said below, not by bash
	status=$?
	qemu_pid=
}
# KVM where /dev/kvm is there and works: in a VM without nested virtualization done
# right it can be there and refuse the vCPU (qemu aborts before the guest runs, seen:
# "failed to set MSR 0x10a"); TCG then
status=
if [ -w /dev/kvm ]; then
	boot kvm host
	if [ ! -s "$work/out/rc" ] && [ ! -s "$work/out/log" ] && grep -q -i kvm "$work/console"; then
		echo "boot.sh: KVM refused the guest ($(grep -i -m 1 kvm "$work/console")): under TCG" >&2
		status=
	fi
fi
[ -n "$status" ] || boot "tcg,thread=multi" max
cat "$work/out/log"
if [ -s "$work/out/rc" ]; then
	exit "$(cat "$work/out/rc")"
fi
if [ "$status" = 124 ]; then
	echo "boot.sh: Linux $ver did not finish within ${VM_TIMEOUT:-1800} s" >&2
else
	echo "boot.sh: Linux $ver ended without the command's status (qemu: $status); its console:" >&2
fi
tail -n 30 "$work/console" >&2
exit 124
