#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# checkpatch.pl over the kernel sources of the modules (make style).
# Debian's headers packages do not ship checkpatch: it comes from the
# linux-source package of 6.1 (scripts/kernel-source.sh).  Every finding
# is printed; the run fails on any of a type not accepted below.
#
# Accepted, each for a reason that holds tree-wide:
#   LINUX_VERSION_CODE, CONSTANT_COMPARISON  an out-of-tree module builds
#       for several kernels: include/ordma/compat.h names each difference
#   ENOSYS  rdma_ucm answers an unknown command with it, as in-tree does
#       and librdmacm expects
#   COMPLEX_MACRO, MULTISTATEMENT_MACRO_USE_DO_WHILE, TRAILING_SEMICOLON
#       the declarative tables: CM message layouts (cm/cm_msgs.h) and
#       uverbs method specs (uverbs/uverbs.h) are lists of macros that
#       expand into statements or initializers
#   CONST_STRUCT  struct ib_device_ops is embedded in each ib_device and
#       filled at registration
# and, in one file only (FILE:TYPE):
#   cm/cm_msgs.h:SPACING  "const type *r" in CM_LAYOUT(), whose type is a
#       macro argument checkpatch takes for an operand
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
accepted=LINUX_VERSION_CODE,CONSTANT_COMPARISON,ENOSYS,COMPLEX_MACRO
accepted=$accepted,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON
accepted=$accepted,CONST_STRUCT,cm/cm_msgs.h:SPACING
src=$(scripts/kernel-source.sh 6.1 scripts/checkpatch.pl scripts/spelling.txt \
	scripts/const_structs.checkpatch)
mapfile -t files < <(git ls-files 'core/*.[ch]' 'uverbs/*.[ch]' \
	'sw_rxe/*.[ch]' 'cm/*.[ch]' 'cma/*.[ch]' 'ucma/*.[ch]' \
	'include/ordma/*.h' 'hw_mlx5/*.[ch]' 'nvmet_rdma/*.[ch]' \
	'nvme_rdma/*.[ch]')
out=build/style.log
mkdir -p build
perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG \
	-f "${files[@]}" >"$out" 2>&1 || true
# (checkpatch finds spelling.txt and const_structs.checkpatch beside it)
grep -q '^total: ' "$out" || { cat "$out"; echo "style: checkpatch did not run"; exit 1; }
grep -E ': (ERROR|WARNING|CHECK):' "$out" || true
echo "== style: ${#files[@]} files; findings by type (* accepted):"
awk -F: -v acc="$accepted" '
	BEGIN { n = split(acc, a, ","); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
	/: (ERROR|WARNING|CHECK):/ {
		t = $4; c[t]++
		if (!(t in ok) && !(($1 ":" t) in ok)) { bad++; nok[t] = 1 }
	}
	END {
		for (t in c) printf "  %5d %s%s\n", c[t], t, (t in nok) ? "" : " *"
		printf "style: %d findings not accepted\n", bad
		exit bad > 0
	}' "$out"
