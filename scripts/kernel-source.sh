#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Files of a kernel's source tree, from Debian's linux-source package of
# that line, for what the headers packages leave out (checkpatch, and the
# private headers of the NVMe modules).  Nothing of it is committed: the
# package (of the version KERNEL_SOURCE_VERSION names, else the candidate)
# is fetched with apt-get download, only the paths asked for are
# unpacked, into build/kernel-source/linux-source-LINE_VERSION/, and kept
# there for the next call.  Prints that directory.
#
#   scripts/kernel-source.sh LINE PATH...     (LINE: 6.1 or 6.12; PATH
#                                             relative to the tree's top)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
line=${1:?usage: scripts/kernel-source.sh LINE PATH...}
shift
pkg=linux-source-$line
ver=${KERNEL_SOURCE_VERSION:-$(apt-cache policy "$pkg" | awk "/Candidate:/ { print \$2 }")}
[ -n "$ver" ] && [ "$ver" != "(none)" ] || {
	echo "kernel-source: no $pkg in the apt sources" >&2; exit 1; }
dir=$top/build/kernel-source/${pkg}_$ver
missing=()
for p in "$@"; do
	[ -e "$dir/$p" ] || missing+=("$pkg/$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	work=$top/build/kernel-source/download
	mkdir -p "$work" "$dir"
	deb=$(ls "$work/${pkg}_${ver//:/%3a}_"*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		(cd "$work" && apt-get download "$pkg=$ver" >/dev/null 2>&1) ||
			{ echo "kernel-source: apt-get download $pkg=$ver failed" >&2; exit 1; }
		deb=$(ls "$work/${pkg}_"*.deb | head -1)
	fi
	# The package holds one tarball of the tree, named after the line.
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$pkg.tar.xz" |
		tar -xJ -C "$dir" --strip-components=1 "${missing[@]}"
fi
echo "$dir"
