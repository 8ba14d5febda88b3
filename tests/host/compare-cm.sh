#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Host side, after tests/guest/cm.sh ran on both stacks:
#   compare-cm.sh STOCK_OUT OURS_OUT
# Lists every check of the CM suite side by side (stock, ours), then one
# check: ours passes every check stock passes.
set -u
stock=$1/cm/results.tsv ours=$2/cm/results.tsv
pass=0 fail=0
check() # DESC OK(0/1) [DETAIL]
{
	if [ "$2" = 1 ]; then
		pass=$((pass + 1)); echo "ok - $1"
	else
		fail=$((fail + 1)); echo "not ok - $1${3:+: $3}"
	fi
}
[ -s "$stock" ] || { echo "compare-cm: $stock missing"; echo "compare-cm: 0 passed, 1 failed"; exit 1; }
[ -s "$ours" ] || ours=/dev/null	# ours died before its first check
printf '# %-7s %-7s %s\n' stock ours check
awk -F'\t' '
	FILENAME == ARGV[1] { o[$1] = $2; next }
	{ w = ($1 in o) ? o[$1] : "absent"; printf "# %-7s %-7s %s\n", $2, w, $1 }' "$ours" "$stock"
# Where ours does more than stock, a stock check is met by a stronger one
# of ours: IPv6 multicast on RoCE v2, which 6.1's rdma_cm refuses.
missing=$(awk -F'\t' '
	BEGIN { sup["mckey ipv6: the join is refused with ENOTSUPP (no IPv6 multicast on RoCE v2 in 6.1)"] = \
		"mckey ipv6: 10 multicast messages received" }
	FILENAME == ARGV[1] { o[$1] = $2; next }
	$2 == "ok" && o[$1] != "ok" && !(($1 in sup) && o[sup[$1]] == "ok") { printf "%s; ", $1 }' "$ours" "$stock")
extra=$(awk -F'\t' 'FILENAME == ARGV[1] { s[$1] = 1; next } !($1 in s) { printf "%s (%s); ", $1, $2 }' "$stock" "$ours")
[ -z "$extra" ] || echo "# only in ours: $extra"
echo "# checks: stock $(grep -c $'\tok$' "$stock")/$(wc -l <"$stock") ok, ours $(grep -c $'\tok$' "$ours")/$(wc -l <"$ours") ok"
check "ours passes every CM check stock passes" \
	"$([ -z "$missing" ] && echo 1 || echo 0)" "${missing:0:1200}"
echo "compare-cm: $pass passed, $fail failed"
[ "$fail" = 0 ]
