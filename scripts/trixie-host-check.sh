#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Debian 13 as the host, in a chroot: what a developer on trixie runs —
# scripts/install-deps.sh, make, make check, make unit, make deb — in a
# scratch copy of the cached trixie root (scripts/lib/trixie-root.sh), on a
# clone of this checkout's HEAD, so neither the cached root nor the
# checkout is touched.  By hand (about 8 minutes on 2 cores; not a CI
# lane: the build gate already runs `make check` in the root).
#
#   scripts/trixie-host-check.sh [SCRATCH]     (default /var/tmp/ordma-trixie-host)
#
# Prints each step's time and exits non-zero on the first that fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib/target.sh"
scratch=${1:-/var/tmp/ordma-trixie-host}
src=$("$top/scripts/lib/trixie-root.sh")

rm -rf "$scratch"
mkdir -p "$scratch"
cp -a "$src" "$scratch/trixie-root"
git clone -q "$top" "$scratch/tree"
cat >"$scratch/tree/.trixie-host-steps" <<'EOF'
set -euo pipefail
. /etc/os-release
echo "trixie-host: $PRETTY_NAME"
for step in "scripts/install-deps.sh" "make -j2" "make -s check" "make -s unit" "make deb"; do
	t0=$SECONDS
	echo "trixie-host: == $step"
	$step
	echo "trixie-host: $step: ok in $((SECONDS - t0)) s"
done
EOF
# The copy is the root trixie-root.sh mounts (its cache is OOT_CACHE's).
OOT_CACHE=$scratch "$top/scripts/lib/trixie-root.sh" run "$scratch/tree" \
	bash .trixie-host-steps
