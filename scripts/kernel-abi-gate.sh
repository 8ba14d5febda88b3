#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The ABI gate of a module built against a kernel's private header (the
# NVMe transports: drivers/nvme/target/nvmet.h and, later, the host's
# nvme.h/fabrics.h, which no headers package ships).  Such a header is
# read from Debian's linux-source package of exactly the headers' version
# (scripts/kernel-source.sh), and it is only trusted when it describes the
# kernel we build for: the exporting files of the module that owns it are
# compiled out of tree here, in build/kernel-abi/, and the genksyms CRC of
# every symbol they export (CONFIG_MODVERSIONS) must equal KDIR's
# Module.symvers.  A differing CRC means a structure or prototype changed
# under us; loading anyway would corrupt memory, so the consumer is not
# built at all.
#
#   scripts/kernel-abi-gate.sh CONSUMER KDIR OWNER EXPORTING_FILE...
#
#   CONSUMER   the module that needs the header, for the messages
#              (nvmet-rdma)
#   OWNER      the exporting module as Module.symvers names it
#              (drivers/nvme/target/nvmet)
#   EXPORTING_FILE  paths in the source tree (drivers/nvme/target/core.c);
#              the headers they include with "..." are unpacked with them
#
# On success prints the unpacked source tree's top directory on stdout and
# "CONSUMER: ABI of OWNER checked: ..." on stderr; otherwise one line
# "CONSUMER: skipped: REASON" on stderr, nothing on stdout, exit 1.
# KERNEL_SOURCE_VERSION=V takes linux-source V for a KDIR no package owns
# (and lets a test feed the gate a doctored Module.symvers).
# The verdict is kept in build/kernel-abi/ per source version and
# Module.symvers content, so only the first call of a build pays for it.
# ABI_GATE_CACHE=DIR keeps it, and the unpacked source, in DIR/kernel-abi/
# and DIR/kernel-source/ instead of the tree's build/ (dkms.conf: the DKMS
# tree, not /usr/src).  KERNEL_SOURCE_LOCAL=DIR reads linux-source from
# the installed package's tarball in DIR, never from apt
# (scripts/kernel-source.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${ABI_GATE_CACHE:-$top/build}
consumer=${1:?usage: kernel-abi-gate.sh CONSUMER KDIR OWNER FILE...}
kdir=${2:?}
owner=${3:?}
shift 3
exporting=("$@")

skip() { echo "$consumer: skipped: $*" >&2; exit 1; }

symvers=$kdir/Module.symvers
[ -r "$symvers" ] || skip "no $symvers"
grep -q '^CONFIG_MODVERSIONS=y' "$kdir/.config" 2>/dev/null ||
	skip "$kdir is built without CONFIG_MODVERSIONS: no CRCs to check the header against"

# The headers package that holds KDIR gives the version; linux-source of
# the same line and the same Debian version holds the matching tree.
# KERNEL_SOURCE_VERSION names it for a tree no package owns.
hver=${KERNEL_SOURCE_VERSION:-} hpkg=KERNEL_SOURCE_VERSION
if [ -z "$hver" ]; then
	kreal=$(readlink -f "$kdir")
	hpkg=$(dpkg-query -S "$kreal" 2>/dev/null | awk -F': ' 'NR == 1 { print $1 }')
	[ -n "$hpkg" ] || skip "no Debian package owns $kreal, so no linux-source version to match"
	hver=$(dpkg-query -W -f='${Version}' "$hpkg" 2>/dev/null)
fi
line=$(echo "$hver" | sed -n 's/^\([0-9]\+\.[0-9]\+\)\..*/\1/p')
[ -n "$line" ] || skip "cannot read a kernel line from $hpkg $hver"

# The exporting files' directories, whole: their "..." includes live
# beside them (nvmet's core.c needs nvmet.h, trace.h and, on 6.12,
# debugfs.h).
dirs=$(for f in "${exporting[@]}"; do dirname "$f"; done | sort -u)
# shellcheck disable=SC2086 # one path per word
tree=$(KERNEL_SOURCE_VERSION=$hver KERNEL_SOURCE_CACHE=$cache/kernel-source \
	"$top/scripts/kernel-source.sh" "$line" $dirs 2>&1) ||
	skip "linux-source-$line $hver: ${tree##*$'\n'}"
for f in "${exporting[@]}"; do
	[ -f "$tree/$f" ] || skip "linux-source-$line $hver has no $f"
done

stamp=$(sha256sum "$symvers" | cut -c1-16)
work=$cache/kernel-abi/$(basename "$tree")/${owner//\//_}-$stamp
verdict=$work/verdict
if [ ! -f "$verdict" ]; then
	rm -rf "$work"
	mkdir -p "$work"
	# The exporting files and their directories' headers, built as one
	# external module's objects (only the objects: no link, no modpost).
	objs=()
	for f in "${exporting[@]}"; do
		cp "$tree/$f" "$tree/$(dirname "$f")"/*.h "$work/"
		objs+=("$(basename "${f%.c}").o")
	done
	# shellcheck disable=SC2016 # $(src) is make's, not the shell's
	printf 'ccflags-y := -I$(src)\nobj-m := abi_gate.o\nabi_gate-y := %s\n' \
		"${objs[*]}" >"$work/Kbuild"
	if ! make -s -C "$kdir" M="$work" "${objs[@]}" >"$work/build.log" 2>&1; then
		echo "the exporting files do not build against $kdir (see $work/build.log)" >"$verdict.fail"
	else
		# Kbuild records each genksyms CRC in the object's .cmd file.
		cat "$work"/.*.o.cmd | sed -n 's/^#SYMVER \([^ ]*\) \(0x[0-9a-f]*\)$/\1 \2/p' |
			sort >"$work/computed"
		awk -v m="$owner" '$3 == m { print $2, $1 }' "$symvers" | sort >"$work/kernel"
		n=$(wc -l <"$work/computed")
		bad=$(join -a1 -e missing -o 0,1.2,2.2 "$work/computed" "$work/kernel" |
			awk '$2 != $3 { print $1 " (" $2 " here, " $3 " in Module.symvers)" }' | head -3)
		if [ "$n" -eq 0 ]; then
			echo "no exported symbol found in ${exporting[*]}" >"$verdict.fail"
		elif [ -n "$bad" ]; then
			echo "header differs from the kernel's: CRC of $(echo "$bad" | paste -sd, -)" >"$verdict.fail"
		else
			echo "$n CRCs of $(basename "$tree") equal $symvers" >"$verdict.tmp"
			mv "$verdict.tmp" "$verdict"
		fi
	fi
	if [ -f "$verdict.fail" ]; then
		skip "$(cat "$verdict.fail")"
	fi
fi
echo "$consumer: ABI of $owner checked: $(cat "$verdict")" >&2
echo "$tree"
