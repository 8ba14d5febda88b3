#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Files of a kernel's source tree, from Debian's linux-source package of
# that line, for what the headers packages leave out (checkpatch, and the
# private headers of the NVMe modules).  Nothing of it is committed: only
# the paths asked for are unpacked, into
# CACHE/linux-source-LINE_VERSION/, and kept there for the next call.
# Prints that directory.
#
#   scripts/kernel-source.sh LINE PATH...     (LINE: 6.1 or 6.12; PATH
#                                             relative to the tree's top)
#   scripts/kernel-source.sh --tarball LINE   (a development machine: the
#                                             package's tarball, unpacked
#                                             from its .deb; prints the
#                                             directory holding
#                                             linux-source-LINE.tar.xz)
#
# Where the tree comes from:
#   KERNEL_SOURCE_LOCAL=DIR  DIR/linux-source-LINE.tar.xz, where the
#       installed package puts it (/usr/src), and never apt: what a DKMS
#       build on a user's machine uses (dkms.conf), which must not download
#       anything.  Its version is that of the package owning the file
#       (dpkg-query -S), else KERNEL_SOURCE_VERSION, else "local"; whether
#       it fits the kernel is for the caller to check (the ABI gate
#       compares CRCs, not version strings).
#   otherwise  the package of the version KERNEL_SOURCE_VERSION names (else
#       apt's candidate), fetched with apt-get download into CACHE/download.
# KERNEL_SOURCE_CACHE=DIR replaces CACHE, build/kernel-source of the tree.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${KERNEL_SOURCE_CACHE:-$top/build/kernel-source}
tarball_only=
if [ "${1:-}" = --tarball ]; then
	tarball_only=1
	shift
fi
line=${1:?usage: scripts/kernel-source.sh [--tarball] LINE PATH...}
shift
pkg=linux-source-$line
local_dir=${KERNEL_SOURCE_LOCAL:-}

if [ -n "$local_dir" ]; then
	tarball=$local_dir/$pkg.tar.xz
	[ -r "$tarball" ] || {
		echo "kernel-source: no $tarball (apt install $pkg)" >&2; exit 1; }
	owner=$(dpkg-query -S "$tarball" 2>/dev/null | awk -F': ' 'NR == 1 { print $1 }' || true)
	ver=
	[ -z "$owner" ] || ver=$(dpkg-query -W -f='${Version}' "$owner" 2>/dev/null)
	ver=${ver:-${KERNEL_SOURCE_VERSION:-local}}
else
	ver=${KERNEL_SOURCE_VERSION:-$(apt-cache policy "$pkg" | awk "/Candidate:/ { print \$2 }")}
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || {
		echo "kernel-source: no $pkg in the apt sources" >&2; exit 1; }
fi

# The .deb of $pkg=$ver, downloaded once into CACHE/download.
fetch_deb()
{
	local work=$cache/download deb
	mkdir -p "$work"
	deb=$(ls "$work/${pkg}_${ver//:/%3a}_"*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		(cd "$work" && apt-get download "$pkg=$ver" >/dev/null 2>&1) ||
			{ echo "kernel-source: apt-get download $pkg=$ver failed" >&2; exit 1; }
		deb=$(ls "$work/${pkg}_${ver//:/%3a}_"*.deb | head -1)
	fi
	echo "$deb"
}

if [ -n "$tarball_only" ]; then
	[ -z "$local_dir" ] || { echo "$local_dir"; exit 0; }
	dir=$cache/usr-src_$ver
	if [ ! -f "$dir/$pkg.tar.xz" ]; then
		deb=$(fetch_deb)
		mkdir -p "$dir"
		# The package holds one tarball of the tree, named after the line.
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" >"$dir/$pkg.tar.xz.tmp"
		mv "$dir/$pkg.tar.xz.tmp" "$dir/$pkg.tar.xz"
	fi
	echo "$dir"
	exit 0
fi

dir=$cache/${pkg}_$ver
missing=()
for p in "$@"; do
	[ -e "$dir/$p" ] || missing+=("$pkg/$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	mkdir -p "$dir"
	if [ -n "$local_dir" ]; then
		tar -xJ -f "$tarball" -C "$dir" --strip-components=1 "${missing[@]}"
	else
		deb=$(fetch_deb)
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/src/$pkg.tar.xz" |
			tar -xJ -C "$dir" --strip-components=1 "${missing[@]}"
	fi
fi
echo "$dir"
