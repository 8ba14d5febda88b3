#!/usr/bin/env bash
# Build the module set with DKMS itself, for one target kernel, in a scratch
# DKMS tree under build/dkms/ (never /var/lib/dkms, never the host's own
# modules).  Prints the directory holding the built modules; the VM suites
# load exactly those (vm-run.sh honours OOT_MODULES).
#
#   scripts/dkms-build.sh [--kernel 6.1|6.12]
#
# The source DKMS sees is `make dkms-src`, the same file list the Debian
# package ships as /usr/src/ordma-VERSION.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/target.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) export OOT_KERNEL=$2; shift 2 ;;
	*) echo "dkms-build: unknown option $1" >&2; exit 2 ;;
	esac
done

kabi=$(target_kabi)
kver=$(target_kver "$kabi")
ver=$(kernel_source_dir= && . "$top/dkms.conf" && echo "$PACKAGE_VERSION")
base=$top/build/dkms
src=$base/src
tree=$base/tree
opts=(--sourcetree "$src" --dkmstree "$tree")

# A fresh copy of the sources each time: DKMS builds from its own copy and
# would otherwise keep serving the first one it was given.
rm -rf "$src/ordma-$ver" "$tree/ordma/$ver/build" "$tree/ordma/$ver/$kver"
mkdir -p "$src" "$tree"
make -s -C "$top" dkms-src DEST="$src/ordma-$ver" >&2
[ -e "$tree/ordma/$ver/source" ] ||
	dkms add -m ordma -v "$ver" "${opts[@]}" >&2
if ! dkms build -m ordma -v "$ver" -k "$kver" "${opts[@]}" \
	--kernelsourcedir "$(target_kdir "$kabi")" >&2; then
	cat "$tree/ordma/$ver/build/make.log" >&2 2>/dev/null || true
	exit 1
fi
echo "$tree/ordma/$ver/$kver/x86_64/module"
