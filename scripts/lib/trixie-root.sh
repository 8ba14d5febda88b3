#!/usr/bin/env bash
# A Debian 13 (trixie) root in the cache, for building our modules with
# trixie's gcc-14 against trixie's kernel headers without installing any of
# trixie on the (bookworm) host.
#   trixie-root.sh                    build it once; prints its path
#   trixie-root.sh run DIR CMD...     run CMD in it as root, with DIR (the
#                                     tree) bind-mounted at the same path
#                                     and as the working directory
#   trixie-root.sh image              unpack (not install) trixie's kernel
#                                     image of the root's headers ABI into
#                                     the cache, as install-deps.sh does
#                                     for bookworm's; prints its directory
#
# The root is debootstrapped (minbase) from the mirror the host's own apt
# sources name for Debian, suite trixie, checked against the keyring the
# host already has; OOT_TRIXIE_MIRROR overrides the mirror.  Then, inside
# it, what building our modules needs (gcc-14, make, sparse, dkms and
# linux-headers-amd64: trixie's 6.12 ABI) and what the guest suites run
# when scripts/vm-run.sh boots trixie's kernel on this root (rdma-core 56's
# tools and pyverbs, perftest, iproute2, ...).  Like the kernel images
# (install-deps.sh) it is complete only when it carries .complete, which
# holds the package list installed: a second call is a no-op, a longer
# list installs what is new without debootstrapping again, and an
# interrupted debootstrap starts over.
#
# `run` mounts proc, /dev and DIR in a private mount namespace (unshare),
# so nothing stays mounted on the host when CMD ends, however it ends.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/target.sh"

root=$(target_root 6.12-trixie)
# Building our modules.
build_pkgs="gcc-14 make sparse dkms linux-headers-amd64"
# The guest suites (tests/guest/lib.sh, foundation.sh, datapath.sh, the
# wire lanes and the guest's init and run-job.sh): rdma-core's tools and
# pyverbs, perftest, qperf and libfabric (the CM suite), dumpcap (the wire
# lanes' captures, in tshark's wireshark-common), the network, module and
# process tools, python3 and the uapi headers (linux-libc-dev) for the
# probes.
guest_pkgs="rdma-core ibverbs-providers ibverbs-utils rdmacm-utils
python3-pyverbs infiniband-diags perftest iproute2 kmod procps python3 bc
iputils-ping ethtool util-linux nvme-cli fio tcpdump gzip linux-libc-dev
qperf libfabric-bin tshark"
pkgs="$build_pkgs $guest_pkgs"

host_mirror()
{
	apt-get indextargets --format '$(CODENAME) $(REPO_URI)' 2>/dev/null |
		awk '$1 == "bookworm" { print $2; exit }'
}

# CMD in the root, with proc, /dev and (if given) a tree mounted.
in_root()
{
	local tree=$1
	shift
	unshare --mount --propagation private -- bash -euc '
		root=$1 tree=$2
		shift 2
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		if [ -n "$tree" ]; then
			mkdir -p "$root$tree"
			mount --bind "$tree" "$root$tree"
		fi
		exec chroot "$root" /usr/bin/env -i HOME=/root \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
			bash -euc "cd \"\${1:-/}\"; shift; exec \"\$@\"" - "$tree" "$@"
	' - "$root" "$tree" "$@"
}

build_root()
{
	local mirror=${OOT_TRIXIE_MIRROR:-$(host_mirror)}
	if [ -z "$mirror" ]; then
		echo "trixie-root.sh: no Debian mirror in the host's apt sources" >&2
		return 1
	fi
	command -v debootstrap >/dev/null || {
		echo "trixie-root.sh: needs debootstrap (scripts/install-deps.sh)" >&2
		return 1
	}
	rm -rf "$root"
	mkdir -p "$OOT_CACHE"
	echo "trixie-root.sh: debootstrap trixie from $mirror into $root" >&2
	debootstrap --variant=minbase \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		trixie "$root" "$mirror" >&2
	# No daemon starts in the root (dkms's postinst may ask for one).
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	: >"$root/.complete"
}

install_pkgs()
{
	echo "trixie-root.sh: installing into $root: $pkgs" >&2
	in_root "" apt-get -q update >&2
	# shellcheck disable=SC2086
	in_root "" env DEBIAN_FRONTEND=noninteractive apt-get -y -q \
		--no-install-recommends install $pkgs >&2
	in_root "" apt-get clean
	echo "$pkgs" >"$root/.complete"
}

# The root, debootstrapped once, with the current package list installed.
ensure_root()
{
	[ -e "$root/.complete" ] || build_root
	[ "$(cat "$root/.complete")" = "$pkgs" ] || install_pkgs
}

case "${1:-}" in
"")
	ensure_root
	echo "$root"
	;;
run)
	shift
	[ $# -ge 2 ] || { echo "usage: trixie-root.sh run DIR CMD..." >&2; exit 2; }
	ensure_root
	tree=$(cd "$1" && pwd)
	shift
	in_root "$tree" "$@"
	;;
image)
	ensure_root
	kabi=$(OOT_KERNEL=6.12-trixie target_kabi)
	kdir=$(target_image_dir "$kabi")
	if [ ! -e "$kdir/.complete" ]; then
		rm -rf "$kdir"
		mkdir -p "$kdir"
		# Fetched by the root's apt (trixie's sources), unpacked by the host.
		tmp=$(mktemp -d "$root/tmp/image.XXXXXX")
		chmod 755 "$tmp"
		in_root "" sh -c 'chown _apt "$1" && cd "$1" &&
			apt-get download -q "$2" >&2' - \
			"${tmp#"$root"}" "linux-image-$kabi-amd64"
		dpkg -x "$tmp"/linux-image-"$kabi"-amd64_*.deb "$kdir"
		rm -rf "$tmp"
		touch "$kdir/.complete"
	fi
	echo "$kdir"
	;;
*)
	echo "usage: trixie-root.sh [run DIR CMD... | image]" >&2
	exit 2
	;;
esac
