# shellcheck shell=bash
# Which kernel we build for and test on.  Sourced by the other scripts.
#
# Three kernel lines are tested: Debian 12's own 6.1, the 6.12 that
# bookworm carries as linux-*-6.12-amd64, and 6.12-trixie, Debian 13's
# 6.12 built with its gcc-14, whose headers, compiler and dkms live in a
# debootstrapped root (scripts/lib/trixie-root.sh), never on the host; its
# guests boot on that root (rdma-core 56).  OOT_KERNEL picks the
# line (6.1 unless set; on a trixie host its own); the ABI of that line (e.g. 6.1.0-56,
# 6.12.117+deb12, 6.12.117+deb13) is the one its headers metapackage names
# (for trixie: the one installed in the root), so headers and image always
# come from the same Debian upload.  KABI overrides the ABI outright.

OOT_CACHE=${OOT_CACHE:-/var/cache/oot-rdma}

# The Debian release this machine runs: bookworm (Debian 12, where the
# whole suite runs) or trixie (Debian 13, where install-deps.sh, make, make
# check and make deb build for trixie's own kernel line).
host_distro()
{
	local codename
	codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") )
	case "$codename" in
	trixie) echo trixie ;;
	*) echo bookworm ;;
	esac
}

# The kernel lines the test suite covers, in the order it runs them; on a
# trixie host only its own line (bookworm's headers are not in trixie's
# archive).
target_kernels()
{
	case "$(host_distro)" in
	trixie) echo 6.12-trixie ;;
	*) echo "6.1 6.12 6.12-trixie" ;;
	esac
}

# The line a command builds for when OOT_KERNEL does not say: the first.
target_default_line() { local l; l=$(target_kernels); echo "${l%% *}"; }

# The Debian release a kernel line belongs to, and where that release's
# build environment is: / for bookworm (the host), the cached root for
# trixie (paths such as target_kdir's are then inside it).
target_distro()
{
	case "$1" in
	*-trixie) echo trixie ;;
	*) echo bookworm ;;
	esac
}

target_root()
{
	local distro
	distro=$(target_distro "$1")
	if [ "$distro" = "$(host_distro)" ]; then
		echo /
	elif [ "$distro" = trixie ]; then
		echo "$OOT_CACHE/trixie-root"
	else
		echo "target.sh: line $1 is built on a Debian 12 host only" >&2
		return 1
	fi
}

# The headers metapackage of a kernel line.
target_meta()
{
	case "$1" in
	6.1) echo linux-headers-amd64 ;;
	6.12) echo linux-headers-6.12-amd64 ;;
	6.12-trixie) echo linux-headers-amd64 ;;
	*)
		echo "target.sh: unknown kernel line '$1' (6.1, 6.12 or 6.12-trixie)" >&2
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
	local line=${OOT_KERNEL:-$(target_default_line)} meta dep root
	meta=$(target_meta "$line") || return 1
	root=$(target_root "$line") || return 1
	if [ "$root" != / ]; then
		# The metapackage installed in the root names the ABI.
		dep=$(dpkg-query --admindir="$root/var/lib/dpkg" -W \
			-f='${Depends}\n' "$meta" 2>/dev/null |
			sed -n 's/^linux-headers-\([^ ,]*\)-amd64.*/\1/p' | head -n1)
		if [ -z "$dep" ]; then
			echo "target.sh: no $meta in $root (scripts/lib/trixie-root.sh)" >&2
			return 1
		fi
		echo "$dep"
		return
	fi
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

# Where that release's headers are (a kernel build tree), as seen from its
# build environment (target_root).
target_kdir() { echo "/usr/src/linux-headers-$1-amd64"; }

target_image_dir() { echo "$OOT_CACHE/kernel-$1"; }

# Run CMD in LINE's build environment with DIR (a tree) as the working
# directory: on the host for bookworm, in the release's root otherwise
# (DIR mounted there at the same path).
target_run() # LINE DIR CMD...
{
	local line=$1 dir=$2
	shift 2
	if [ "$(target_root "$line")" = / ]; then
		(cd "$dir" && "$@")
	else
		"$(dirname "${BASH_SOURCE[0]}")/trixie-root.sh" run "$dir" "$@"
	fi
}

# The modules tree of an unpacked image (IMAGE_DIR KVER): bookworm's
# packages put it under /lib, trixie's (merged /usr) under /usr/lib.
target_image_modules()
{
	if [ -d "$1/usr/lib/modules/$2" ]; then
		echo "$1/usr/lib/modules/$2"
	else
		echo "$1/lib/modules/$2"
	fi
}

# The hash of the guest scripts whose checks a recorded stock reference of
# SUITE lists (scripts/record-stock-refs.sh); test-all.sh uses a reference
# only while it matches.
stock_ref_scripts_hash()
{
	case "$1" in
	cm) (cd "$(dirname "${BASH_SOURCE[0]}")/../.." &&
		cat tests/guest/cm.sh tests/guest/cm_robust.sh tests/guest/lib.sh) |
		sha256sum | cut -d' ' -f1 ;;
	# The probes whose output control.sh captures, with it.
	control) (cd "$(dirname "${BASH_SOURCE[0]}")/../.." &&
		cat tests/guest/control.sh tests/guest/lib.sh tests/probes/qkey_probe.c \
			tests/probes/async_events.c tests/probes/uverbs_abuse.c) |
		sha256sum | cut -d' ' -f1 ;;
	esac
}

# The recorded stock reference of SUITE (tests/ref/ABI/SUITE-stock) for ABI;
# when that ABI has none, the newest recorded one of the same kernel line
# and distribution (6.1.0-N, 6.12.X+debN), with a "# " line on stderr that
# says so.  Debian's security suite replaces a line's kernel every few
# weeks, and a fresh machine then boots an ABI recorded by no one; running
# the stock lanes live for it would cost the test command a quarter hour.
# The in-tree rxe and CM of two ABIs of one line differ by stable fixes at
# most; scripts/record-stock-refs.sh records the new one.
stock_ref_dir()
{
	local top ref glob
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	if [ -d "$top/tests/ref/$2/$1-stock" ]; then
		echo "tests/ref/$2/$1-stock"
		return
	fi
	case "$2" in
	*+deb*) glob="${2%%.*}.$(echo "$2" | cut -d. -f2).*+${2##*+}" ;;
	*-*) glob="${2%-*}-*" ;;
	*) return 1 ;;
	esac
	ref=$(cd "$top/tests/ref" && for d in $glob; do
		[ -d "$d/$1-stock" ] && echo "$d"; done | sort -V | tail -n 1)
	[ -n "$ref" ] || return 1
	echo "# stock $1 reference: none recorded for $2; using $ref's (same line)" >&2
	echo "tests/ref/$ref/$1-stock"
}

# The directory of SUITE's recorded stock reference for ABI (stock_ref_dir)
# when it holds FILE and, for a suite whose checks are its scripts' own
# (stock_ref_scripts_hash prints a hash for it), was made by the same
# scripts; its README on stderr under "== stock SUITE on ABI: ...".
stock_ref_usable() # SUITE ABI FILE
{
	local ref want
	ref=$(stock_ref_dir "$1" "$2") && [ -s "$ref/$3" ] || return 1
	want=$(stock_ref_scripts_hash "$1")
	[ -z "$want" ] || [ "$(cat "$ref/scripts.sha256" 2>/dev/null)" = "$want" ] ||
		return 1
	{
		echo "== stock $1 on $2: the recorded reference $ref"
		sed "s/^/#   /" "$ref/README"
	} >&2
	echo "$ref"
}
