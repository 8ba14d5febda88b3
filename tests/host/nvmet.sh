#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# NVMe over RDMA between two guests (scripts/vm-pair.sh running
# tests/guest/nvmet.sh): guest a is the target (nvmet with the
# nvmet-transport-1 of its stack: our nvmet_rdma on ours), guest b the host
# (the in-tree nvme-rdma on stock).  Run by hand for now (issue 21), after
# `make` with the nvmet ABI gate passing for OOT_KERNEL's line:
#
#   OOT_KERNEL=6.1 tests/host/nvmet.sh [ours-stock|stock-stock]
#
# NVMET_REMOVAL=0 leaves out the last step (the target's rxe0 deleted
# under a connected host).
#
# Logs in build/test-logs/nvmet-PAIR[-LINE]/.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
pair=${1:-ours-stock}
. tests/host/pair_lib.sh
pair_setup nvmet "$pair" 10.0.2.11 10.0.2.12
if [ "$a" = ours ] && [ ! -e nvmet_rdma/nvmet-rdma.ko ]; then
	echo "nvmet: nvmet_rdma/nvmet-rdma.ko not built (make: did the ABI gate skip it?)" >&2
	exit 2
fi
t0=$(date +%s)
rc=0
scripts/vm-pair.sh --a-stack "$a" --b-stack "$b" --out "$out" \
	--mem 1536 --smp 1 --timeout 1500 \
	--a-env "WIRE_TAG=$pair" --b-env "WIRE_TAG=$pair" \
	--a-env "NVMET_REMOVAL=${NVMET_REMOVAL:-1}" --b-env "NVMET_REMOVAL=${NVMET_REMOVAL:-1}" \
	-- tests/guest/nvmet.sh || rc=$?
echo "# nvmet $pair: done in $(($(date +%s) - t0))s (exit $rc)"
exit "$rc"
