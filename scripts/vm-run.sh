#!/usr/bin/env bash
# Boot the target Debian kernel under QEMU and run one command in it.
#
#   scripts/vm-run.sh [options] -- COMMAND...
#
#   --stack ours|stock   ours: install our modules under
#                        /lib/modules/$KVER/updates/dkms/ and depmod (what
#                        `dkms install` does); stock: leave the in-tree
#                        modules alone.  Ours are the ones in $OOT_MODULES
#                        when it is set (scripts/dkms-build.sh prints such a
#                        directory), else this checkout's `make` output,
#                        which must have been built for the target kernel.
#   --kernel 6.1|6.12|6.12-trixie
#                        the kernel line to boot (default: $OOT_KERNEL, else
#                        6.1; scripts/lib/target.sh).  The bookworm lines
#                        run on the host's own root; 6.12-trixie on the
#                        trixie root in the cache (scripts/lib/trixie-root.sh),
#                        with ours built in it (trixie-root.sh run . make
#                        KDIR=...).
#   --out DIR            where the guest's rc, dmesg and console logs go
#                        (default: a new directory under build/vm/).
#   --name NAME          guest hostname and log prefix (default: vm).
#   --mac MAC            guest eth0 MAC (default 52:54:00:00:00:01).
#   --ipv4 ADDR/LEN      address for eth0 (default 10.0.2.15/24 is NOT used:
#                        no address unless given).
#   --net user|listen:PORT|connect:PORT
#                        user: an isolated NIC (restrict=on, nothing leaves
#                        QEMU).  listen/connect: a QEMU socket network on
#                        127.0.0.1:PORT joining two guests.
#   --mem MB, --smp N, --timeout SECONDS
#                        (--smp defaults to $OOT_VM_SMP, else 2)
#   --slub-debug[=FLAGS] boot with the slab debugging Debian's kernels carry:
#                        sanity checks, red zones, poisoning (FZP), freed
#                        memory and pages poisoned; FLAGS default FZPU (U:
#                        alloc/free traces in a report, which doubles the
#                        guest's time under TCG; long lanes take FZP).  A
#                        use-after-free or an overflow becomes a log line
#                        that fails the run.
#
# OOT_APPEND in the environment adds kernel command-line arguments (the
# benchmark's clocksource=tsc).
#
# COMMAND runs under bash in the guest, as root, in the checkout (/oot-src),
# on the line's root filesystem (read-only, a tmpfs on top),
# with OOT_STACK and OOT_KVER set.  The exit status is COMMAND's; it is
# forced to fail if the guest's kernel log shows a bug, warning or oops.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/target.sh"

stack=ours out= name=vm mac=52:54:00:00:00:01 ipv4= net=user
mem=2048 smp=${OOT_VM_SMP:-2} timeout=1200 slub_debug=
while [ $# -gt 0 ]; do
	case "$1" in
	--stack) stack=$2; shift 2 ;;
	--kernel) export OOT_KERNEL=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--mac) mac=$2; shift 2 ;;
	--ipv4) ipv4=$2; shift 2 ;;
	--net) net=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--slub-debug) slub_debug="slub_debug=FZPU init_on_free=1 page_poison=1"; shift ;;
	--slub-debug=*) slub_debug="slub_debug=${1#*=} init_on_free=1 page_poison=1"; shift ;;
	--) shift; break ;;
	*) echo "vm-run: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: vm-run.sh [options] -- COMMAND..." >&2; exit 2; }
case "$stack" in ours|stock) ;; *) echo "vm-run: --stack ours|stock" >&2; exit 2 ;; esac

kabi=$(target_kabi)
kver=$(target_kver "$kabi")
imgdir=$(target_image_dir "$kabi")
[ -e "$imgdir/.complete" ] || {
	echo "vm-run: no kernel image for $kabi; run scripts/install-deps.sh" >&2
	exit 2
}
# The guest's root: the host's for bookworm, the cached root for trixie
# (whose .complete lists the packages installed in it).
guestroot=$(target_root "${OOT_KERNEL:-$(target_default_line)}")
[ "$guestroot" = / ] || [ -s "$guestroot/.complete" ] || {
	echo "vm-run: $guestroot lacks the suites' packages; run OOT_TRIXIE=1 scripts/install-deps.sh" >&2
	exit 2
}

modules=()
if [ "$stack" = ours ]; then
	# Every module of the set: dkms.conf (shell syntax) lists them.
	for m in $(kernel_source_dir= && . "$top/dkms.conf"
		   for i in "${!BUILT_MODULE_NAME[@]}"; do
			   echo "${BUILT_MODULE_LOCATION[$i]}${BUILT_MODULE_NAME[$i]}"
		   done); do
		f=$top/$m.ko
		if [ -n "${OOT_MODULES:-}" ]; then
			f=$OOT_MODULES/${m##*/}.ko
			[ -e "$f" ] || f=$f.xz
		fi
		[ -e "$f" ] || { echo "vm-run: ${m##*/} not built (make, or scripts/dkms-build.sh)" >&2; exit 2; }
		magic=$(modinfo -F vermagic "$f" | cut -d' ' -f1)
		[ "$magic" = "$kver" ] || {
			echo "vm-run: $f is built for $magic, not $kver (make KDIR=$(target_kdir "$kabi"))" >&2
			exit 2
		}
		modules+=("$f")
	done
	# Modules built only when their gate passed (dkms.conf's
	# ordma_gated, which lists nothing here, where no kernel is named;
	# issue 21: nvmet-rdma, nvme-rdma): taken when built for this kernel,
	# from $OOT_MODULES when set, else from the checkout.
	for f in "$top/nvmet_rdma/nvmet-rdma.ko" "$top/nvme_rdma/nvme-rdma.ko"; do
		if [ -n "${OOT_MODULES:-}" ]; then
			f=$OOT_MODULES/${f##*/}
			[ -e "$f" ] || f=$f.xz
		fi
		if [ -e "$f" ] &&
		   [ "$(modinfo -F vermagic "$f" | cut -d' ' -f1)" = "$kver" ]; then
			modules+=("$f")
		fi
	done
fi

if [ -z "$out" ]; then
	out=$top/build/vm/$name-$stack-$(date +%s)-$$
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/rc" "$out/dmesg"

# --- initramfs (cached per kernel ABI and init script) ---------------------
initrd=$(OOT_KABI=$kabi "$here/lib/mkinitramfs.sh" "$imgdir" "$kver")

# --- the guest's /lib/modules/$KVER ------------------------------------------
# A tree of links to the unpacked image's modules, plus, for our stack, our
# modules under updates/dkms/ exactly where `dkms install` puts them; then
# depmod, as DKMS runs it.  Done here because depmod over 9p under TCG takes
# most of a minute; the guest sees the result as its /lib/modules/$KVER.
modroot=$out/modroot
rm -rf "$modroot"
mkdir -p "$modroot/lib/modules"
cp -as "$(target_image_modules "$imgdir" "$kver")" "$modroot/lib/modules/"
if [ ${#modules[@]} -gt 0 ]; then
	mkdir -p "$modroot/lib/modules/$kver/updates/dkms"
	cp "${modules[@]}" "$modroot/lib/modules/$kver/updates/dkms/"
fi
depmod -b "$modroot" "$kver"

# --- the job, read by the guest from the output share ------------------------
q() { printf '%q' "$1"; }
{
	echo "OOT_KVER=$(q "$kver")"
	echo "OOT_IMAGE_DIR=$(q "$imgdir")"
	echo "OOT_STACK=$(q "$stack")"
	echo "OOT_HOSTNAME=$(q "$name")"
	echo "OOT_IPV4=$(q "$ipv4")"
	echo "OOT_CMD=$(q "$*")"
	[ "$guestroot" = / ] || echo "OOT_IMAGE_SHARE=1"
} >"$out/job.env"

case "$net" in
user) netdev="user,id=n0,restrict=on" ;;
listen:*) netdev="socket,id=n0,listen=127.0.0.1:${net#listen:}" ;;
connect:*) netdev="socket,id=n0,connect=127.0.0.1:${net#connect:}" ;;
*) echo "vm-run: bad --net $net" >&2; exit 2 ;;
esac

image_share=()
[ "$guestroot" = / ] ||
	image_share=(-virtfs "local,path=$imgdir,mount_tag=oot-image,security_model=none,readonly=on,multidevs=remap")

accel=tcg
if [ "${OOT_KVM:-0}" = 1 ] && [ -w /dev/kvm ]; then
	accel=kvm
fi

start=$(date +%s.%N)
set +e
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 \
	-machine q35,accel=$accel -cpu max -m "$mem" -smp "$smp" \
	-display none -vga none -monitor none -no-reboot \
	-kernel "$imgdir/boot/vmlinuz-$kver" -initrd "$initrd" \
	-append "console=ttyS0 slab_nomerge panic=-1 oops=panic softlockup_panic=0 loglevel=6 rdinit=/init $slub_debug ${OOT_APPEND:-}" \
	-serial "file:$out/kernel-console.log" -serial stdio \
	-virtfs "local,path=$guestroot,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=$top,mount_tag=oot-src,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=$out,mount_tag=oot-out,security_model=none" \
	"${image_share[@]}" \
	-netdev "$netdev" -device "virtio-net-pci,netdev=n0,mac=$mac" \
	</dev/null | tr -d '\r' | tee "$out/job.log"
qrc=${PIPESTATUS[0]}
set -e
elapsed=$(echo "$(date +%s.%N) - $start" | bc)

rc=1
if [ -s "$out/rc" ]; then
	rc=$(cat "$out/rc")
else
	echo "vm-run: guest did not finish (qemu exit $qrc); see $out/kernel-console.log" >&2
	rc=125
fi

# The guest's own dmesg is complete; the serial console log is the fallback
# when the guest died before it could write one.
log=$out/dmesg
[ -s "$log" ] || log=$out/kernel-console.log
if "$here/lib/check-kernel-log.sh" "$log"; then :; else
	echo "vm-run: kernel log of $name shows a problem (above); failing" >&2
	[ "$rc" != 0 ] || rc=124
fi
printf 'vm-run: %s (%s stack) exit %s after %.1fs; logs in %s\n' \
	"$name" "$stack" "$rc" "$elapsed" "$out" >&2
exit "$rc"
