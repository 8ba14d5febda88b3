# shellcheck shell=bash
# Which kernel we build for and test on.  Sourced by the other scripts.
#
# Two kernel lines are supported: Debian 12's own 6.1 and the 6.12 that
# bookworm carries as linux-*-6.12-amd64.  OOT_KERNEL picks the line (6.1
# unless set); the ABI of that line (e.g. 6.1.0-56, 6.12.117+deb12) is the
# one its headers metapackage names, so headers and image always come from
# the same Debian upload.  KABI overrides the ABI outright.

OOT_CACHE=${OOT_CACHE:-/var/cache/oot-rdma}

# The kernel lines the test suite covers, in the order it runs them.
target_kernels() { echo "6.1 6.12"; }

# The headers metapackage of a kernel line.
target_meta()
{
	case "$1" in
	6.1) echo linux-headers-amd64 ;;
	6.12) echo linux-headers-6.12-amd64 ;;
	*)
		echo "target.sh: unknown kernel line '$1' (6.1 or 6.12)" >&2
		return 1
		;;
	esac
}

target_kabi()
{
	if [ -n "${KABI:-}" ]; then
		echo "$KABI"
		return
	fi
	local meta dep
	meta=$(target_meta "${OOT_KERNEL:-6.1}") || return 1
	dep=$(apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\(.*\)-amd64$/\1/p' | head -n1)
	if [ -z "$dep" ]; then
		echo "target.sh: cannot resolve $meta (apt-get update?)" >&2
		return 1
	fi
	echo "$dep"
}

# The kernel release string (uname -r) for an ABI.
target_kver() { echo "$1-amd64"; }

# Where that release's headers are (a kernel build tree).
target_kdir() { echo "/usr/src/linux-headers-$1-amd64"; }

target_image_dir() { echo "$OOT_CACHE/kernel-$1"; }

# The hash of the guest scripts whose checks a recorded stock reference of
# SUITE lists (scripts/record-stock-refs.sh); test-all.sh uses a reference
# only while it matches.
stock_ref_scripts_hash()
{
	case "$1" in
	cm) (cd "$(dirname "${BASH_SOURCE[0]}")/../.." &&
		cat tests/vm/cm.sh tests/vm/cm_robust.sh tests/vm/lib.sh) |
		sha256sum | cut -d' ' -f1 ;;
	esac
}
