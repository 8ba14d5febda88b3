#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark: the stock rxe and ours, rounds alternating between them in
# the same boot (tests/bench/guest.sh); prints a table of medians, ratios
# ours/stock and the noise floor, and keeps the CSV in build/bench/.
# Separate from the tests: nothing here fails on a slow result.
#
#   scripts/bench.sh [--rounds N] [--only REGEX] [--profile] [--pair] [--aa]
#                    [--loss [--netem a|b]]
#
# --pair: two guests over a QEMU socket link (stock<->stock against
# ours<->ours), instead of both ends in one guest.
# --aa: an A/A run (stock against stock in the same boot, in the slots
# ours would take): the ratios it prints are the benchmark's own noise.
# --loss: loss recovery between two guests, netem on guest b's (default)
# or a's RoCE packets: a fixed RC workload, guest a alternating stock and
# ours each round against a stock guest b (tests/bench/guest.sh, loss mode);
# times per item and the retransmit, duplicate and sequence-error
# counters of both guests beside them.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib/target.sh
rounds=3 only=. profile=0 pair=0 aa=0 loss=0 netem=b
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--profile) profile=1; shift ;;
	--pair) pair=1; shift ;;
	--aa) aa=1; shift ;;
	--loss) loss=1; shift ;;
	--netem) netem=$2; shift 2 ;;
	*) echo "usage: bench.sh [--rounds N] [--only REGEX] [--profile] [--pair] [--aa] [--loss [--netem a|b]]" >&2
	   exit 2 ;;
	esac
done
# The guest's clock: emulated, the TSC is judged unstable and HPET takes
# over, which makes every gettimeofday() a trap into an emulated device
# (perftest calls it in its loops: over a tenth of the guest's CPU went
# there).  The TSC reads cheaply, through the vDSO, for both stacks alike.
export OOT_APPEND="clocksource=tsc tsc=reliable"
kabi=$(target_kabi)
make -s modules KDIR="/usr/src/linux-headers-$kabi-amd64"
make -s -C tests/bench
stamp=$(date +%Y%m%d-%H%M%S)
mkdir -p build/bench
# The guests run the command as one shell line: quote what has to be.
env=(BENCH_ROUNDS="$rounds" BENCH_ONLY="$(printf %q "$only")"
     BENCH_PROFILE=$profile BENCH_AA=$aa BENCH_OUT=/oot-out/bench)
if [ $loss = 1 ]; then
	out=$top/build/vm/bench-loss-$stamp
	a=() b=()
	env[1]=BENCH_ONLY=$only
	env+=(BENCH_LOSS=1 BENCH_NETEM="$netem"
	      BENCH_CAPTURE="${BENCH_CAPTURE:-0}")
	for e in "${env[@]}"; do a+=(--a-env "$e"); b+=(--b-env "$e"); done
	echo "bench: loss recovery, one boot per guest: a alternates stock" \
		"and ours each round, b stays stock; netem on guest $netem"
	scripts/vm-pair.sh --a-stack ours --b-stack stock --out "$out" \
		--mem 2048 --smp 1 --timeout 5400 "${a[@]}" "${b[@]}" -- \
		tests/bench/guest.sh | grep -E '^(bench|vm)' || true
	tests/bench/loss-table.sh "$out/a/bench/loss.tsv" \
		"$out/b/bench/loss.tsv" | tee "build/bench/loss-$stamp.txt"
	echo "bench: kept build/bench/loss-$stamp.txt"
	exit 0
elif [ $pair = 0 ]; then
	out=$top/build/vm/bench-$stamp
	scripts/vm-run.sh --stack ours --name bench --out "$out" --mem 3072 \
		--timeout 5400 -- env "${env[@]}" tests/bench/guest.sh |
		grep -E '^(bench|vm)'
	csv=$out/bench/bench.csv
else
	out=$top/build/vm/bench-pair-$stamp
	a=() b=()
	# vm-pair.sh quotes the values itself
	env[1]=BENCH_ONLY=$only
	for e in "${env[@]}"; do a+=(--a-env "$e"); b+=(--b-env "$e"); done
	scripts/vm-pair.sh --a-stack ours --b-stack ours --out "$out" \
		--mem 2048 --smp 1 --timeout 5400 "${a[@]}" "${b[@]}" -- \
		tests/bench/guest.sh | grep -E '^(bench|vm)'
	csv=$out/b/bench/bench.csv
	stamp=pair-$stamp
fi
[ $aa = 0 ] || stamp=aa-$stamp
cp "$csv" "build/bench/bench-$stamp.csv"
echo "bench: kept build/bench/bench-$stamp.csv"
