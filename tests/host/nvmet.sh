#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# NVMe over RDMA between two guests (scripts/vm-pair.sh running
# tests/guest/nvmet.sh): guest a is the target (nvmet with the
# nvmet-transport-1 of its stack: our nvmet_rdma on ours), guest b the host
# (nvme-rdma of its stack: our nvme_rdma on ours, the in-tree one on
# stock).  Run by hand for now (issue 21), after `make` with the ABI gates
# passing for OOT_KERNEL's line:
#
#   OOT_KERNEL=6.1 tests/host/nvmet.sh [ours-stock|stock-ours|stock-stock]
#
# The stock guest of a mixed pair (a otherwise) captures the NVMe traffic
# from discover to the IPv6 disconnect (fio verify included); the capture
# is then dissected on the host as NVMe-oF over RDMA, every frame's ICRC
# checked (tests/host/wire-check.py --nvme).
#
# NVMET_FAULTS=0 leaves out the fault steps (the host's rxe0 deleted under
# 600 writes, port 1 removed and re-created 20 times under connecting
# hosts); NVMET_REMOVAL=0 the last step (the target's rxe0 deleted under a
# connected host); NVMET_FIO_MIB sets fio verify's size per job (MiB, 8).
#
# Logs in build/test-logs/nvmet-PAIR[-LINE]/.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
pair=${1:-ours-stock}
. tests/host/pair_lib.sh
pair_setup nvmet "$pair" 10.0.2.11,fd00::11 10.0.2.12,fd00::12
built() # DIR/NAME: NAME.ko from $OOT_MODULES (as vm-run.sh takes it) or the checkout
{
	local ko=$1.ko
	[ -z "${OOT_MODULES:-}" ] || ko=$OOT_MODULES/${ko##*/}
	[ -e "$ko" ] || [ -e "$ko.xz" ] || {
		echo "nvmet: $ko not built (did the ABI gate skip it?)" >&2
		exit 2
	}
}
[ "$a" != ours ] || built nvmet_rdma/nvmet-rdma
[ "$b" != ours ] || built nvme_rdma/nvme-rdma
env=()
for v in "WIRE_TAG=$pair" "NVMET_FAULTS=${NVMET_FAULTS:-1}" \
	 "NVMET_REMOVAL=${NVMET_REMOVAL:-1}" "NVMET_FIO_MIB=${NVMET_FIO_MIB:-8}"; do
	env+=(--a-env "$v" --b-env "$v")
done
env+=("--$cap-env" WIRE_CAPTURE=1)
t0=$(date +%s)
rc=0
scripts/vm-pair.sh --a-stack "$a" --b-stack "$b" --out "$out" \
	--mem 1536 --smp 1 --timeout 1500 "${env[@]}" \
	-- tests/guest/nvmet.sh || rc=$?
echo "# nvmet $pair: guests done in $(($(date +%s) - t0))s (exit $rc)"

echo "== nvmet $pair: the capture (guest $cap), decoded on the host"
wire_check "$pair" "$out/$cap/nvmet/$pair.pcap" --nvme 4420,4421 || rc=1
echo "# nvmet $pair: done in $(($(date +%s) - t0))s (exit $rc)"
exit "$rc"
