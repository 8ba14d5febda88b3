#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark: the stock rxe and ours in one VM boot, rounds alternating
# between them (tests/vm/bench.sh); prints a table of medians, ratios
# ours/stock and the noise floor, and keeps the CSV in build/bench/.
# Separate from the tests: nothing here fails on a slow result.
#
#   scripts/bench.sh [--rounds N] [--only REGEX] [--profile]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/lib/target.sh
rounds=3 only=. profile=0
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--profile) profile=1; shift ;;
	*) echo "usage: bench.sh [--rounds N] [--only REGEX] [--profile]" >&2
	   exit 2 ;;
	esac
done
kabi=$(target_kabi)
make -s modules KDIR="/usr/src/linux-headers-$kabi-amd64"
make -s -C tests/vm
stamp=$(date +%Y%m%d-%H%M%S)
out=$top/build/vm/bench-$stamp
mkdir -p build/bench
# The guest runs the command as one shell line: quote what has to be.
scripts/vm-run.sh --stack ours --name bench --out "$out" --mem 3072 \
	--timeout 5400 -- env BENCH_ROUNDS="$rounds" BENCH_ONLY="$(printf %q "$only")" \
	BENCH_PROFILE=$profile BENCH_OUT=/oot-out/bench tests/vm/bench.sh |
	grep -E '^(bench|vm)'
cp "$out/bench/bench.csv" "build/bench/bench-$stamp.csv"
echo "bench: kept build/bench/bench-$stamp.csv"
