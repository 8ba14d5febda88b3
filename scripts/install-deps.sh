#!/usr/bin/env bash
# Install everything the build, the VM rig and the tests need on a fresh
# Debian 12 machine.  Idempotent: running it again only re-checks.  On a
# Debian 13 machine the same for trixie's own kernel line (the host is
# then its build environment: make, make check and make deb).
#
# For each kernel line the suite covers (scripts/lib/target.sh: Debian
# 12's 6.1 and its 6.12, Debian 13's 6.12), the ABI is resolved from that
# line's headers metapackage (KABI overrides it for a single line,
# OOT_KERNEL picks one).  Bookworm's headers are installed; the matching
# kernel image is only downloaded and unpacked into a cache (it must never
# be installed on the host).  Debian 13 (trixie) gets a debootstrapped root
# in the cache (scripts/lib/trixie-root.sh: once 1.5 to 6 minutes and 1 GB,
# then a no-op); its gcc-14 and headers build our modules for trixie, its
# guests boot on it, and its apt fetches trixie's kernel image into the
# cache (13 s, 116 MB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/target.sh"

export DEBIAN_FRONTEND=noninteractive
APT="apt-get -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"

stamp=/var/lib/apt/periodic/oot-rdma-update-stamp
if [ ! -e "$stamp" ] || [ -n "$(find "$stamp" -mmin +360 2>/dev/null)" ]; then
	apt-get update -q
	mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi

lines=$(target_kernels)
[ -z "${OOT_KERNEL:-}" ] || lines=$OOT_KERNEL
kabis=()
for line in $lines; do
	# Another release's lines are built in its root, from its packages
	# (below): trixie's on a Debian 12 host.
	[ "$(target_root "$line")" = / ] || continue
	kabis+=("$(OOT_KERNEL=$line target_kabi)")
done
echo "install-deps: target kernel ABIs ${kabis[*]}"

pkgs=(
	build-essential bc flex bison libelf-dev
	qemu-system-x86 busybox-static cpio kmod sparse coccinelle dkms
	rdma-core ibverbs-utils ibverbs-providers libibverbs-dev perftest python3-pyverbs
	rdmacm-utils librdmacm-dev qperf libfabric-bin
	iproute2 tshark xz-utils nvme-cli fio
	debhelper dh-dkms dpkg-dev debootstrap
)
for kabi in "${kabis[@]}"; do
	pkgs+=("linux-headers-$kabi-amd64")
done
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}"
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
		debconf-set-selections
	$APT install --no-install-recommends "${missing[@]}"
fi

# Each target kernel image, unpacked (not installed) for the VM rig.
for kabi in "${kabis[@]}"; do
	kdir=$(target_image_dir "$kabi")
	if [ ! -e "$kdir/.complete" ]; then
		rm -rf "$kdir"
		mkdir -p "$kdir"
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		(cd "$tmp" && apt-get download -q "linux-image-$kabi-amd64")
		dpkg -x "$tmp"/linux-image-"$kabi"-amd64_*.deb "$kdir"
		rm -rf "$tmp"
		touch "$kdir/.complete"
	fi
	echo "install-deps: kernel image in $kdir"
done

# Debian 13's root: its compiler, headers and dkms, never the host's; and
# its kernel image, unpacked like the others.  Made when a line asked for
# is trixie's (all of them by default; OOT_KERNEL=6.1 skips it).
want_trixie=${OOT_TRIXIE:-0}
for line in $lines; do
	[ "$(target_root "$line")" = / ] || want_trixie=1
done
if [ "$want_trixie" = 1 ]; then
	echo "install-deps: trixie root in $("$here/lib/trixie-root.sh")"
	echo "install-deps: kernel image in $("$here/lib/trixie-root.sh" image)"
fi
