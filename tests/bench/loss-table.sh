#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The loss-recovery table of scripts/bench.sh --loss from the two guests'
# loss.tsv files (tests/bench/guest.sh, loss mode): per round and item the
# client's wall time and both guests' counter deltas, then per stack of
# guest a the median (min-max) of each item and of a round's total, the
# ratio ours/stock and the spread of stock's rounds.
#
#   tests/bench/loss-table.sh A/loss.tsv B/loss.tsv
set -euo pipefail
[ $# = 2 ] || { echo "usage: loss-table.sh A.tsv B.tsv" >&2; exit 2; }
awk -F'\t' '
FNR == 1 { for (i = 8; i <= NF; i++) cname[i] = $i; ncol = NF; next }
{
	k = $1 SUBSEP $2 SUBSEP $3
	if ($5 == "client") { secs[k] = $7; rc[k] = $6 }
	# retransmits: completer_retry_err + rcvd_seq_err (the requester
	# went back); the responder: duplicate_request, out_of_seq_request
	c[k, $4] = sprintf("retry %d seqnak %d dup %d oos %d", $8, $9, $10, $11)
	if ($12 + 0) c[k, $4] = c[k, $4] " EXCEEDED " $12
	if ($13 + $14) c[k, $4] = c[k, $4] " rnr " $13 "/" $14
	if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	items[$3] = 1; stacks[$2] = 1; rounds[$1] = 1
}
function med(list,   n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	lo = v[1]; hi = v[n]
	return v[int((n + 1) / 2)]
}
END {
	printf "loss: %-5s %-6s %-11s %7s  %-38s %s\n", "round", "a", "item",
		"secs", "guest a (counter deltas)", "guest b (stock)"
	for (i = 1; i <= nk; i++) {
		split(keys[i], p, SUBSEP)
		# no client row: the run was cut short; rc != 0: it failed
		ok = (keys[i] in secs) && rc[keys[i]] == 0
		printf "loss: %-5s %-6s %-11s %7s%s  %-38s %s\n", p[1], p[2], p[3],
			((keys[i] in secs) ? secs[keys[i]] : "-"), (ok ? "" : "!"),
			c[keys[i], "a"], c[keys[i], "b"]
		if (ok) {
			all[p[2], p[3]] = all[p[2], p[3]] " " secs[keys[i]]
			tot[p[2], p[1]] += secs[keys[i]]
			done[p[2], p[1]]++
		} else
			bad[p[2], p[1]] = 1
	}
	nitems = 0
	for (it in items) nitems++
	# a round counts in the total only with every item finished
	for (st in stacks) for (r in rounds)
		if (done[st, r] == nitems)
			all[st, "total"] = all[st, "total"] " " tot[st, r]
	printf "loss: (! = failed or cut short; left out of the medians)\n"
	printf "loss:\nloss: %-11s %22s %22s %6s %6s\n", "item (secs)",
		"stock<->stock", "ours(a)<->stock", "ratio", "noise"
	nitems = 0
	for (it in items) names[++nitems] = it
	names[++nitems] = "total"
	for (i = 1; i <= nitems; i++) {
		it = names[i]
		if (all["stock", it] == "" || all["ours", it] == "") {
			printf "loss: %-11s %s\n", it, "no round finished on " \
				(all["stock", it] == "" ? "stock" : "ours")
			continue
		}
		sm = med(all["stock", it]); slo = lo; shi = hi
		om = med(all["ours", it]); olo = lo; ohi = hi
		printf "loss: %-11s %8.2f (%5.2f-%5.2f) %8.2f (%5.2f-%5.2f) %6.2f %5.0f%%\n",
			it, sm, slo, shi, om, olo, ohi, (sm > 0 ? om / sm : 0),
			(sm > 0 ? (shi - slo) / sm * 100 : 0)
	}
}' "$1" "$2"
