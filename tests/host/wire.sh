#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Wire interoperability of two rxe stacks: one pair of guests on a QEMU
# socket network (scripts/vm-pair.sh), running tests/guest/wire.sh, then the
# captures checked on the host (tests/host/wire-check.py).
#
#   tests/host/wire.sh A-B [--no-loss] [--fuzz|--no-fuzz] [--only REGEX]
#
# A-B: the stacks of the server guest a and the client guest b, each
# "ours" or "stock" (ours-stock, stock-ours, ours-ours, stock-stock).
# Traffic is captured in the stock guest (the receiving end of what ours
# sends), in a when both run the same stack.  When the stacks differ, the
# loss phase runs with netem on a's eth0 (so ours-stock loses packets ours
# sends, stock-ours packets ours receives), and the retry counters of ours
# are checked.  When a is ours and b stock (by default; --fuzz for any
# pair), the fuzz phase runs too: b sprays malformed RoCEv2 at a's QPs of
# live pingpongs (tests/guest/wire_fuzz_client.sh), a checks its drop
# counters.  Logs and captures in build/test-logs/wire-A-B/.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

pair=${1:?usage: tests/host/wire.sh ours-stock|stock-ours|ours-ours|stock-stock [--no-loss] [--only REGEX]}
shift
loss=auto only= fuzz=auto
while [ $# -gt 0 ]; do
	case "$1" in
	--no-loss) loss=0; shift ;;
	--loss) loss=1; shift ;;
	--fuzz) fuzz=1; shift ;;
	--no-fuzz) fuzz=0; shift ;;
	--only) only=$2; shift 2 ;;
	*) echo "wire: unknown option $1" >&2; exit 2 ;;
	esac
done
# The addresses scripts/vm-pair.sh gives the guests.
. tests/host/pair_lib.sh
pair_setup wire "$pair" 10.0.2.11,fe80::5054:ff:fe00:11 10.0.2.12,fe80::5054:ff:fe00:12
[ "$loss" != auto ] || { loss=0; [ "$a" = "$b" ] || loss=1; }
[ "$fuzz" != auto ] || { fuzz=0; [ "$pair" != ours-stock ] || fuzz=1; }
common=(--a-env "WIRE_TAG=$pair" --b-env "WIRE_TAG=$pair"
	--a-env "WIRE_LOSS=$loss" --b-env "WIRE_LOSS=$loss")
[ "$cap" = a ] && common+=(--a-env WIRE_CAPTURE=1) || common+=(--b-env WIRE_CAPTURE=1)
[ "$loss" = 1 ] && common+=(--a-env WIRE_NETEM=1)
[ "$fuzz" = 1 ] && common+=(--a-env WIRE_FUZZ=1 --b-env WIRE_FUZZ=1)
[ -z "$only" ] || common+=(--a-env "WIRE_ONLY=$only" --b-env "WIRE_ONLY=$only")

t0=$(date +%s)
rc=0
scripts/vm-pair.sh --a-stack "$a" --b-stack "$b" --out "$out" \
	--mem 1536 --smp 1 --timeout 2400 --rerun-after-stock-panic "${common[@]}" \
	-- tests/guest/wire.sh || rc=$?
echo "# wire $pair: guests done in $(($(date +%s) - t0))s (exit $rc)"

echo "== wire $pair: the capture (guest $cap), decoded on the host"
wire_check "$pair" "$out/$cap/wire/$pair.pcap" --tests "$out/$cap/wire/tests.tsv" || rc=1
echo "# wire $pair: done in $(($(date +%s) - t0))s"
exit "$rc"
