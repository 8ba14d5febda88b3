#!/usr/bin/env bash
# The main job: what a user sees.  Builds the Debian package, boots a stock
# Debian kernel in a VM (the in-tree RDMA stack, as on any machine), installs
# the package there with apt, then uses the stack the way a user does
# (tests/guest/demo.sh): rxe0 on the NIC, an RC pingpong and ib_write_bw with
# `rdma res` and `rdma statistic` during traffic, rping through the CM.
#
#   scripts/demo.sh [--kernel 6.1|6.12|6.12-trixie] [--distro bookworm|trixie]
#
# Default 6.1 (on a Debian 13 host, trixie's 6.12); --distro trixie is
# Debian 13 (its kernel 6.12 and root: scripts/lib/trixie-root.sh),
# --distro bookworm its default line, 6.1.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/lib/target.sh

line=${OOT_KERNEL:-$(target_default_line)}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) line=$2; shift 2 ;;
	--distro)
		case "$2" in
		bookworm) line=6.1 ;;
		trixie) line=6.12-trixie ;;
		*) echo "demo: unknown distro $2 (bookworm, trixie)" >&2; exit 2 ;;
		esac
		shift 2 ;;
	*) echo "demo: unknown option $1" >&2; exit 2 ;;
	esac
done
export OOT_KERNEL=$line

scripts/install-deps.sh
# The package, and the modules DKMS builds from it for the guest's kernel,
# made here: compiling them inside a TCG guest takes too long for a demo
# (tests/guest/pkg_lib.sh).
scripts/build-deb.sh --preseed "$line"
exec scripts/vm-run.sh --kernel "$line" --stack stock --name demo \
	-- tests/guest/demo.sh
