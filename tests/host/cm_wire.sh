#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The connection manager between two guests, each with its own stack, on a
# QEMU socket network (scripts/vm-pair.sh running tests/guest/cm_wire.sh):
# rping, ucmatose, udaddy and ib_send_bw -R over IPv4 and IPv6, then the
# capture checked on the host: every frame dissected and its RoCEv2 ICRC
# good (tests/host/wire-check.py), every CM MAD dissected and each test's CM
# exchange present (tests/host/cm_wire_check.py).
#
#   tests/host/cm_wire.sh A-B
#
# A-B: the stacks of the server guest a and the client guest b, each "ours"
# or "stock".  The capture runs in the stock guest (in a when both run the
# same stack).  Then, when a runs ours, it takes a flood of crafted CM
# messages from b (tests/guest/cm_wire_flood.sh); CM_WIRE_FLOOD=a|b|no names
# the target instead (a stock target, to
# compare, asserts only what stock must do), FLOOD_N and FLOOD_SLAB_KB pass
# to the guests.  Logs and captures in build/test-logs/cm-wire-A-B/.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

pair=${1:?usage: tests/host/cm_wire.sh ours-stock|stock-ours|ours-ours|stock-stock}
# The addresses the guests have (scripts/vm-pair.sh, tests/guest/cm_wire.sh).
. tests/host/pair_lib.sh
pair_setup cm-wire "$pair" 10.0.2.11,fd00::11,fe80::5054:ff:fe00:11 \
	10.0.2.12,fd00::12,fe80::5054:ff:fe00:12

# One direction is enough for the suite: the target is ours either way,
# and the flood costs a lane about a minute under TCG.
flood=${CM_WIRE_FLOOD:-}
if [ -z "$flood" ]; then
	flood=no
	[ "$a" = ours ] && flood=a
fi
case "$flood" in
a) fenv=(--a-env WIRE_FLOOD=target --b-env WIRE_FLOOD=inject) ;;
b) fenv=(--a-env WIRE_FLOOD=inject --b-env WIRE_FLOOD=target) ;;
no) fenv=() ;;
*) echo "cm_wire: CM_WIRE_FLOOD=$flood: a, b or no" >&2; exit 2 ;;
esac
for v in FLOOD_N FLOOD_SLAB_KB; do
	[ -z "${!v:-}" ] || fenv+=(--a-env "$v=${!v}" --b-env "$v=${!v}")
done

t0=$(date +%s)
rc=0
scripts/vm-pair.sh --a-stack "$a" --b-stack "$b" --out "$out" \
	--mem 1536 --smp 1 --timeout 2400 --rerun-after-stock-panic \
	--a-env "WIRE_TAG=$pair" --b-env "WIRE_TAG=$pair" \
	--"$cap"-env WIRE_CAPTURE=1 ${fenv[@]+"${fenv[@]}"} -- tests/guest/cm_wire.sh || rc=$?
echo "# cm wire $pair: guests done in $(($(date +%s) - t0))s (exit $rc)"

capdir=$out/$cap/cmwire
echo "== cm wire $pair: the capture (guest $cap), decoded on the host"
# Every frame of the capture dissected and ICRC-checked, as one (the RC
# traffic of a test is not told apart by clock: frames near a test's edges
# went to its neighbour in a fresh-clone CI run); then the CM MADs, each
# given to its test by service ID, communication ID or SIDR request ID
# (tests/host/cm_wire_check.py), the exchange of each test asserted.
wire_check "cm-$pair" "$capdir/$pair.pcap" || rc=1
tests/host/cm_wire_check.py --tag "$pair" \
	--guest "a($a)=$a_addrs" --guest "b($b)=$b_addrs" \
	--tests "$capdir/tests.tsv" "$capdir/$pair.pcap" || rc=1
echo "# cm wire $pair: done in $(($(date +%s) - t0))s"
exit "$rc"
