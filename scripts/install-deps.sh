#!/usr/bin/env bash
# Install everything the build, the VM rig and the tests need on a fresh
# Debian 12 machine.  Idempotent: running it again only re-checks.
#
# The target kernel ABI (e.g. 6.1.0-56) is resolved from Debian's
# linux-headers-amd64 metapackage unless KABI is set.  Headers are
# installed; the matching kernel image is only downloaded and unpacked
# into a cache (it must never be installed on the host).
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

kabi=$(target_kabi)
echo "install-deps: target kernel ABI $kabi"

pkgs=(
	build-essential bc flex bison libelf-dev
	"linux-headers-$kabi-amd64"
	qemu-system-x86 busybox-static cpio kmod sparse coccinelle dkms
	rdma-core ibverbs-utils ibverbs-providers libibverbs-dev perftest python3-pyverbs
	rdmacm-utils librdmacm-dev qperf libfabric-bin
	iproute2 tshark xz-utils
)
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

# The target kernel image, unpacked (not installed) for the VM rig.
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
