#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark: stock rxe and ours in the same VM boot, same commands
# (tests/vm/bench.sh); prints the figures and ours/stock ratios.
# Separate from the tests: nothing here fails on a slow result.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/lib/target.sh
kabi=$(target_kabi)
make -s modules KDIR="/usr/src/linux-headers-$kabi-amd64"
scripts/vm-run.sh --stack ours --name bench --mem 3072 --timeout 1800 -- \
	tests/vm/bench.sh | grep -E '^(bench|vm)'
