#!/usr/bin/env bash
# Build the module set with DKMS itself, for one target kernel, in a scratch
# DKMS tree under build/dkms/ (never /var/lib/dkms, never the host's own
# modules).  Prints the directory holding the built modules; the VM suites
# load exactly those (vm-run.sh honours OOT_MODULES).
#
#   scripts/dkms-build.sh [--kernel 6.1|6.12|6.12-trixie] [--tarball FILE]
#
# The source DKMS sees is `make dkms-src`, the same file list the Debian
# package ships as /usr/src/ordma-VERSION.  A kernel line of another Debian
# release (6.12-trixie) is built by that release's dkms and compiler, in its
# root (scripts/lib/trixie-root.sh), with a DKMS tree of its own
# (build/dkms-trixie/).  --tarball also writes the built modules as a
# `dkms mktarball` archive, made by the same dkms (the package lane's
# preseed, scripts/build-deb.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/target.sh"

tarball=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) export OOT_KERNEL=$2; shift 2 ;;
	--tarball) tarball=$2; shift 2 ;;
	*) echo "dkms-build: unknown option $1" >&2; exit 2 ;;
	esac
done

kabi=$(target_kabi)
kver=$(target_kver "$kabi")
ver=$(kernel_source_dir= && . "$top/dkms.conf" && echo "$PACKAGE_VERSION")
distro=$(target_distro "${OOT_KERNEL:-$(target_default_line)}")
base=$top/build/dkms
[ "$distro" = bookworm ] || base=$top/build/dkms-$distro
# dkms of the line's release: the host's for bookworm, else in its root
# (which sees build/ at the same path).
# It sees linux-source as a user's machine has it after installing the
# package (dkms.conf's ABI gates for nvmet-rdma and nvme-rdma): the
# package's tarball, of exactly the headers' version, in a directory
# standing in for /usr/src (scripts/kernel-source.sh --tarball, downloaded
# once into build/kernel-source/); without it (no apt source reachable)
# the gates skip both, as on a machine without linux-source.  The gates'
# cache goes to build/, not /var/cache.
run_dkms()
{
	target_run "${OOT_KERNEL:-$(target_default_line)}" "$top" env \
		ORDMA_LINUX_SOURCE_DIR="$linux_source_dir" \
		ORDMA_ABI_CACHE="$base/abi-gate" dkms "$@"
}
# The directory holding linux-source-LINE.tar.xz of the headers' version.
linux_source_tarball_dir()
{
	# shellcheck disable=SC2016 # expanded by the inner bash
	target_run "${OOT_KERNEL:-$(target_default_line)}" "$top" bash -c '
		p=$(dpkg-query -S "$(readlink -f "$1")" | awk -F": " "NR == 1 { print \$1 }")
		v=$(dpkg-query -W -f="\${Version}" "$p")
		KERNEL_SOURCE_VERSION=$v scripts/kernel-source.sh --tarball "${v%%.*}.$(echo "$v" | cut -d. -f2)"
	' - "$(target_kdir "$kabi")"
}
linux_source_dir=$(linux_source_tarball_dir) || {
	echo "dkms-build: no linux-source for $kver: nvmet-rdma and nvme-rdma will be skipped" >&2
	linux_source_dir=$base/no-linux-source
}
mktarball()
{
	[ -n "$tarball" ] || return 0
	mkdir -p "$(dirname "$tarball")"
	tarball=$(cd "$(dirname "$tarball")" && pwd)/${tarball##*/}
	run_dkms mktarball -m ordma -v "$ver" -k "$kver" "${opts[@]}" \
		--archive "$tarball" >&2
}
src=$base/src
tree=$base/tree
opts=(--sourcetree "$src" --dkmstree "$tree")

mods=$tree/ordma/$ver/$kver/x86_64/module
stamp=$base/sources-$kver.sha256	# outside the tree dkms reads

# The sources as DKMS would get them, and their digest: modules already
# built from the very same sources for this kernel are served as they are
# (test-all.sh builds each kernel's once, the package lane asks again).
stage=$base/stage
rm -rf "$stage"
mkdir -p "$src" "$tree"
make -s -C "$top" dkms-src DEST="$stage" >&2
digest=$(cd "$stage" && find . -type f | LC_ALL=C sort |
	xargs sha256sum | sha256sum | cut -d' ' -f1)
# (A `make clean` of the checkout deletes every .ko under it, build/
# included: then the modules are built again.)
if compgen -G "$mods/ib_core.ko*" >/dev/null &&
	[ "$(cat "$stamp" 2>/dev/null)" = "$digest" ]; then
	rm -rf "$stage"
	echo "dkms-build: ordma $ver for $kver already built from these sources" >&2
	mktarball
	echo "$mods"
	exit 0
fi

# Otherwise a fresh copy: DKMS builds from its own copy and would keep
# serving the first one it was given.
rm -rf "$src/ordma-$ver" "$tree/ordma/$ver/build" "$tree/ordma/$ver/$kver"
mv "$stage" "$src/ordma-$ver"
[ -e "$tree/ordma/$ver/source" ] ||
	run_dkms add -m ordma -v "$ver" "${opts[@]}" >&2
if ! run_dkms build -m ordma -v "$ver" -k "$kver" "${opts[@]}" \
	--kernelsourcedir "$(target_kdir "$kabi")" >&2; then
	cat "$tree/ordma/$ver/build/make.log" >&2 2>/dev/null || true
	exit 1
fi
echo "$digest" >"$stamp"
mktarball
echo "$mods"
