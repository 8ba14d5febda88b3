#!/usr/bin/env bash
# Record what the stock (in-tree) stack of one kernel ABI does in the data-
# path suite, for test-all.sh to compare ours against without booting the
# stock stack again each run.  The in-tree modules of an ABI never change,
# so neither does this; a new ABI has no reference and test-all.sh runs the
# stock lane live instead.  Writes tests/ref/ABI/datapath-stock/.
#
#   scripts/record-stock-refs.sh [--kernel 6.1|6.12] [--from RUN_DIR]
#
# --from takes a stock data-path run already made (vm-run.sh --out RUN_DIR,
# with its console log in RUN_DIR.log) instead of booting one.
set -euo pipefail
from=
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
cd "$top"
. scripts/lib/target.sh

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) export OOT_KERNEL=$2; shift 2 ;;
	--from) from=$2; shift 2 ;;
	*) echo "record-stock-refs: unknown option $1" >&2; exit 2 ;;
	esac
done
kabi=$(target_kabi)
run=${from:-build/test-logs/datapath-stock-record-$kabi}
if [ -z "$from" ]; then
	rm -rf "$run"
	make -s -C tests/vm
	scripts/vm-run.sh --stack stock --name datapath --mem 3072 \
		--timeout 2400 --out "$run" -- tests/vm/datapath.sh | tee "$run.log"
fi
grep -q "kernel $(target_kver "$kabi"), stack stock" "$run.log" || {
	echo "record-stock-refs: $run.log is not a stock run on $kabi" >&2
	exit 1
}
ref=tests/ref/$kabi/datapath-stock
rm -rf "$ref"
mkdir -p "$ref/datapath"
cp "$run/datapath/pyverbs-ok" "$run/datapath/pyverbs-results" "$ref/datapath/"
{
	echo "kernel $(target_kver "$kabi"), stock in-tree modules"
	echo "rdma-core $(dpkg-query -W -f='${Version}' rdma-core)"
	echo "recorded $(date -u +%Y-%m-%d) by scripts/record-stock-refs.sh"
	grep -E '^(# pyverbs:|datapath-stock:)' "$run.log"
} >"$ref/README"
echo "record-stock-refs: $ref"
cat "$ref/README"
