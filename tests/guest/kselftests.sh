#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The in-kernel selftests (tests/kmod, built on the host), bottom up in one
# boot: kernel verbs, the MAD layer, ib_cm, rdma_cm; then device removal
# under steps held at test-only pause points (removal_pause.sh).  Each
# script sets up rxe0, loads its module, checks, and unloads the stack
# again; each prints its own "NAME: N passed, N failed".
set -u
rc=0
for t in kverbs mad cm_selftest cma_selftest removal_pause; do
	echo "# --- $t"
	bash /oot-src/tests/guest/$t.sh || rc=1
done
exit $rc
