# shellcheck shell=bash
# Which kernel we build for and test on.  Sourced by the other scripts.
#
# KABI overrides the ABI (e.g. KABI=6.1.0-56); otherwise it is the ABI named
# by Debian's linux-headers-amd64 metapackage, so headers and image always
# come from the same Debian upload.

OOT_CACHE=${OOT_CACHE:-/var/cache/oot-rdma}

target_kabi()
{
	if [ -n "${KABI:-}" ]; then
		echo "$KABI"
		return
	fi
	local dep
	dep=$(apt-cache depends linux-headers-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\(.*\)-amd64$/\1/p' | head -n1)
	if [ -z "$dep" ]; then
		echo "target.sh: cannot resolve linux-headers-amd64 (apt-get update?)" >&2
		return 1
	fi
	echo "$dep"
}

# The kernel release string (uname -r) for an ABI.
target_kver() { echo "$1-amd64"; }

target_image_dir() { echo "$OOT_CACHE/kernel-$1"; }
