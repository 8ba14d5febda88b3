#!/usr/bin/env bash
# Run every test: dependencies, the sparse/W=1 build gate, userspace unit
# tests, then the VM suites on our modules and, with the same script, on
# the stock in-kernel modules.  Ends with "total: N passed, N failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/lib/target.sh

t0=$(date +%s)
scripts/install-deps.sh
kabi=$(target_kabi)
kdir=/usr/src/linux-headers-$kabi-amd64
echo "== target kernel ABI $kabi (headers $kdir)"

passed=0 failed=0
count() # "NAME: N passed, N failed" lines of a log -> totals
{
	local p f
	p=$(sed -n 's/^[A-Za-z0-9_-]*: \([0-9]*\) passed, [0-9]* failed$/\1/p' "$1" | awk '{n += $1} END {print n + 0}')
	f=$(sed -n 's/^[A-Za-z0-9_-]*: [0-9]* passed, \([0-9]*\) failed$/\1/p' "$1" | awk '{n += $1} END {print n + 0}')
	passed=$((passed + p))
	failed=$((failed + f))
}
suite() # NAME CMD...: run one suite; a suite that dies without a summary counts as a failure
{
	local name=$1 log=build/test-logs/$1.log rc=0
	shift
	echo "== $name"
	"$@" 2>&1 | tee "$log" || rc=$?
	count "$log"
	if [ "$rc" != 0 ] && ! grep -q "^[A-Za-z0-9_-]*: [0-9]* passed, [1-9][0-9]* failed$" "$log"; then
		echo "$name: 0 passed, 1 failed"
		failed=$((failed + 1))
	fi
}
mkdir -p build/test-logs

gate()
{
	if make -s check KDIR="$kdir"; then
		echo "build-gate: 1 passed, 0 failed"
	else
		echo "build-gate: 0 passed, 1 failed"
		return 1
	fi
}
suite build-gate gate
suite unit make -s unit
make -s -C tests/vm
for stack in ours stock; do
	suite "vm-foundation-$stack" scripts/vm-run.sh --stack "$stack" \
		--name "foundation" -- tests/vm/foundation.sh
done
# The control path on both stacks, then their outputs diffed.
for stack in stock ours; do
	rm -rf "build/test-logs/control-$stack"
	suite "vm-control-$stack" scripts/vm-run.sh --stack "$stack" \
		--name control --out "build/test-logs/control-$stack" -- \
		tests/vm/control.sh
done
suite compare-control tests/compare-control.sh \
	build/test-logs/control-stock/capture build/test-logs/control-ours/capture
# CQs, completion channels, MRs, MWs and pinned memory, on both stacks.
for stack in stock ours; do
	suite "vm-cq-mr-$stack" scripts/vm-run.sh --stack "$stack" \
		--name cq-mr -- tests/vm/cq_mr.sh
done

# The data path (pingpongs, perftest, the whole pyverbs suite, kill -9),
# on both stacks; then the pyverbs results compared.
for stack in stock ours; do
	rm -rf "build/test-logs/datapath-$stack"
	suite "vm-datapath-$stack" scripts/vm-run.sh --stack "$stack" \
		--name datapath --mem 3072 --timeout 2400 \
		--out "build/test-logs/datapath-$stack" -- tests/vm/datapath.sh
done
suite compare-datapath tests/compare-datapath.sh \
	build/test-logs/datapath-stock build/test-logs/datapath-ours

# The in-kernel selftests of the kernel verbs, the MAD layer, ib_cm and
# rdma_cm, in one boot of ours.
kselftests()
{
	make -s -C tests/kmod KDIR="$kdir" &&
		scripts/vm-run.sh --stack ours --name kselftests \
			--out build/test-logs/kselftests -- tests/vm/kselftests.sh
}
suite vm-kselftests-ours kselftests

# The connection manager: the rdma-core tools on one guest on both stacks,
# then their checks side by side; then the CM between two guests, ours
# with stock both ways.
for stack in stock ours; do
	rm -rf "build/test-logs/cm-$stack"
	suite "vm-cm-$stack" scripts/vm-run.sh --stack "$stack" \
		--name cm --timeout 2400 --out "build/test-logs/cm-$stack" -- \
		tests/vm/cm.sh
done
suite compare-cm tests/compare-cm.sh \
	build/test-logs/cm-stock build/test-logs/cm-ours
for pair in ours-stock stock-ours; do
	suite "cm-wire-$pair" tests/cm_wire.sh "$pair"
done

# Wire interoperability: two guests on a QEMU socket network, each with its
# own stack: ours serving stock clients, stock serving ours, ours with ours;
# each pair's RoCEv2 capture decoded (tshark) and ICRC-checked on the host;
# the mixed pairs also run RC traffic under netem loss/reorder/duplication.
for pair in ours-stock stock-ours ours-ours; do
	suite "wire-$pair" tests/wire.sh "$pair"
done

echo "== done in $(($(date +%s) - t0))s on kernel $kabi"
echo "total: $passed passed, $failed failed"
[ "$failed" = 0 ]
