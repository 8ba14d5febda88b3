#!/usr/bin/env bash
# Build the Debian package ordma-dkms (`make deb`): the module sources for
# DKMS, ordma-coexist and its modprobe.d lines (debian/).  Prints the path
# of build/deb/ordma-dkms_VERSION_all.deb.
#
# One version names everything: dkms.conf's PACKAGE_VERSION (the directory
# /usr/src/ordma-VERSION and `dkms status`), ORDMA_VERSION in
# include/ordma/version.h (MODULE_VERSION, what dkms install compares and
# /sys/module/*/version shows) and debian/changelog (the package).  The
# build stops before anything else if they disagree.
#
# dpkg-buildpackage runs in a scratch copy under build/deb/ holding only
# what the package is built from, so the checkout is never written to
# (debian/ordma-dkms/, debian/files, ... stay out of it).
#
#   scripts/build-deb.sh [--preseed 6.1|6.12|6.12-trixie]
#
# --preseed also leaves the modules built here for that kernel line (by
# scripts/dkms-build.sh: DKMS, the same sources) as a DKMS tarball in
# build/deb/preseed/KVER/, for a TCG guest, where compiling them takes
# longer than a test can wait: the package's postinst loads such a tarball
# (dkms ldtarball) from /usr/share/ordma-dkms/ instead of building.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
preseed=
case "${1:-}" in
--preseed) preseed=${2:?--preseed 6.1|6.12|6.12-trixie} ;;
"") ;;
*) echo "build-deb: unknown option $1" >&2; exit 2 ;;
esac

dkms_ver=$(kernel_source_dir= && . "$top/dkms.conf" && echo "$PACKAGE_VERSION")
header_ver=$(sed -n 's/^#define ORDMA_VERSION "\(.*\)"$/\1/p' "$top/include/ordma/version.h")
deb_ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
if [ "$dkms_ver" != "$header_ver" ] || [ "$dkms_ver" != "$deb_ver" ]; then
	echo "build-deb: versions disagree: dkms.conf $dkms_ver," \
		"include/ordma/version.h ${header_ver:-(none)}," \
		"debian/changelog $deb_ver" >&2
	exit 1
fi
ver=$dkms_ver

out=$top/build/deb
scratch=$out/src/ordma-$ver
# test-all.sh runs two package lanes side by side (6.1, trixie): one build
# at a time in the shared scratch, and none removes what another left for
# its guest (the .deb, replaced by a rename; the other line's preseed).
# Removing build/deb/ whole once let trixie's lane delete 6.1's preseed
# before 6.1's guest copied it, and 6.1's guest compiled the modules itself.
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
rm -rf "$out/src"
mkdir -p "$scratch/scripts"
# The package is built from the DKMS file list plus its own files.
make -s -C "$top" dkms-src DEST="$scratch"
cp -a "$top/debian" "$scratch/"
cp -a "$top/scripts/ordma-coexist" "$scratch/scripts/"

(cd "$scratch" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed; log in $out/build.log" >&2
	exit 1
}
mv "$out/src/"ordma*.deb "$out/src/"ordma*.buildinfo "$out/src/"ordma*.changes "$out/"
rm -rf "$out/src"
deb=$out/ordma-dkms_${ver}_all.deb
[ -e "$deb" ] || { echo "build-deb: $deb not produced" >&2; exit 1; }

if [ -n "$preseed" ]; then
	. "$here/lib/target.sh"
	kver=$(OOT_KERNEL=$preseed target_kver "$(OOT_KERNEL=$preseed target_kabi)")
	"$here/dkms-build.sh" --kernel "$preseed" \
		--tarball "$out/preseed/$kver/ordma-$ver.dkms.tar.gz" >/dev/null
fi
echo "$deb"
