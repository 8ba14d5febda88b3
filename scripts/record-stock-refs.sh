#!/usr/bin/env bash
# Record what the stock (in-tree) stack of one kernel ABI does in a suite,
# for test-all.sh to compare ours against without booting the stock stack
# again each run.  The in-tree modules of an ABI never change, so neither
# does this; a new ABI has none, and test-all.sh takes its line's newest
# (stock_ref_dir in scripts/lib/target.sh) until this records it.
#
#   scripts/record-stock-refs.sh [--kernel 6.1|6.12|6.12-trixie]
#                                [--suite datapath|cm|control]
#                                [--from RUN_DIR]
#
#   datapath (default): its pyverbs results -> tests/ref/ABI/datapath-stock/
#   cm: the check list of tests/guest/cm.sh -> tests/ref/ABI/cm-stock/, with
#       the hash of the scripts that made it (stock_ref_scripts_hash): the
#       checks are the scripts' own, so a changed script runs stock live
#       until the reference is recorded again.
#   control: what the stock tools printed (tests/guest/control.sh's
#       capture/) -> tests/ref/ABI/control-stock/, with the hash likewise.
#
# --from takes a stock run already made (vm-run.sh --out RUN_DIR, with its
# console log in RUN_DIR.log) instead of booting one.
set -euo pipefail
from= suite=datapath
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
cd "$top"
. scripts/lib/target.sh

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) export OOT_KERNEL=$2; shift 2 ;;
	--suite) suite=$2; shift 2 ;;
	--from) from=$2; shift 2 ;;
	*) echo "record-stock-refs: unknown option $1" >&2; exit 2 ;;
	esac
done
case "$suite" in
datapath) vmargs=(--mem 3072 --timeout 2400); script=tests/guest/datapath.sh ;;
cm) vmargs=(--timeout 2400); script=tests/guest/cm.sh ;;
# One vCPU, as test-all.sh runs the lane: ibv_devinfo prints the CPUs
# (num_comp_vectors).
control) vmargs=(--smp 1); script=tests/guest/control.sh ;;
*) echo "record-stock-refs: --suite datapath|cm|control" >&2; exit 2 ;;
esac
kabi=$(target_kabi)
run=${from:-build/test-logs/$suite-stock-record-$kabi}
if [ -z "$from" ]; then
	rm -rf "$run"
	mkdir -p "$(dirname "$run")"
	make -s -C tests/probes
	scripts/vm-run.sh --stack stock --name "$suite" "${vmargs[@]}" \
		--out "$run" -- "$script" | tee "$run.log"
fi
grep -q "kernel $(target_kver "$kabi"), stack stock" "$run.log" || {
	echo "record-stock-refs: $run.log is not a stock run on $kabi" >&2
	exit 1
}
ref=tests/ref/$kabi/$suite-stock
rm -rf "$ref"
mkdir -p "$ref/$suite"
case "$suite" in
datapath)
	cp "$run/datapath/pyverbs-ok" "$run/datapath/pyverbs-results" "$ref/datapath/"
	summary='^(# pyverbs:|datapath-stock:)'
	;;
cm)
	cp "$run/cm/results.tsv" "$ref/cm/"
	stock_ref_scripts_hash cm >"$ref/scripts.sha256"
	summary='^cm-stock:'
	;;
control)
	rmdir "$ref/$suite"
	cp -r "$run/capture" "$ref/capture"
	stock_ref_scripts_hash control >"$ref/scripts.sha256"
	summary='^control-stock:'
	;;
esac
{
	echo "kernel $(target_kver "$kabi"), stock in-tree modules"
	echo "rdma-core $(dpkg-query --admindir="$(target_root "${OOT_KERNEL:-$(target_default_line)}")/var/lib/dpkg" -W -f='${Version}' rdma-core)"
	echo "recorded $(date -u +%Y-%m-%d) by scripts/record-stock-refs.sh --suite $suite"
	grep -E "$summary" "$run.log"
} >"$ref/README"
echo "record-stock-refs: $ref"
cat "$ref/README"
