#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the uverbs fuzz lane, on either stack: tests/fuzz/bin/
# uverbs_fuzz drives /dev/infiniband/uverbs0 of rxe0 with random and
# structure-aware write() commands and ioctl() methods, two threads racing
# on the same handles and a re-open of the device under calls, for TOTAL
# calls split across SEEDS seeds (half of them as nobody, half as root).
# Afterwards:
#   - every seed ran to its end (exit 0, its summary line printed)
#   - `rdma res` is back to the counts before the fuzzing (no user object
#     is left)
#   - ibv_rc_pingpong -c still passes on rxe0
#   - the modules unload
# and, as after every check of lib.sh, the kernel log is clean.  Calls made
# and the accepted fraction are printed as "# " lines.
#
#   fuzz_uverbs.sh [TOTAL [SEEDS [FIRST_SEED]]]   (default 1000000 8 1)
set -u
. /oot-src/tests/guest/lib.sh
STACK=${OOT_STACK:?}
OUT=/oot-out/fuzz-uverbs
FUZZ=/oot-src/tests/fuzz/bin/uverbs_fuzz
TOTAL=${1:-1000000}
SEEDS=${2:-8}
FIRST=${3:-1}
DEV=rxe0
IP4=10.0.2.15
mkdir -p "$OUT"

t_run "modprobe rdma_rxe" modprobe rdma_rxe
ip link set eth0 up
ip link set lo up
ip addr add $IP4/24 dev eth0
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0

gid4() # the index of the IPv4-mapped GID of 10.0.2.15
{
	grep -l '^0000:0000:0000:0000:0000:ffff:0a00:020f$' \
		/sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null |
		head -n 1 | xargs -r basename
}
wait_until 10 test -n "$(gid4)"
G4=$(gid4)
t_run "IPv4 GID present" test -n "$G4"
UV=/dev/infiniband/uverbs0
for u in /sys/class/infiniband_verbs/uverbs*; do
	[ "$(cat "$u/ibdev" 2>/dev/null)" != $DEV ] || UV=/dev/infiniband/${u##*/}
done
echo "# device $UV: $(stat -c '%a %U:%G' "$UV")"

res_summary() { rdma res show $DEV | sed 's/^[0-9]*: [a-z0-9]*: //'; }
before=$(res_summary)
echo "# rdma res before: $before"

# --- what the fuzzer found, replayed --------------------------------------------
# A UD QP attached to one group twice (MLIDs 0 and 1), then close(): the
# in-tree 6.1 stack counts two attachments in the QP's usecnt but its rxe
# detaches only once, so the QP, its CQ and PD can never be destroyed
# (WARNING in uverbs_destroy_ufile_hw, objects left in `rdma res`, the
# module refuses to unload cleanly).  Ours must leave nothing.
t_eq "mcast: a QP attached twice to one group, then close()" \
	"mcast_twice attach=OK,OK" "$FUZZ" --dev "$UV" --case mcast-twice
wait_until 5 test "$(res_summary)" = "$before"
t_eq "mcast: rdma res back after the close" "$before" res_summary

# --- the fuzzing --------------------------------------------------------------
per=$((TOTAL / SEEDS))
calls=0 ok=0 t0=$(date +%s)
for i in $(seq 0 $((SEEDS - 1))); do
	seed=$((FIRST + i))
	who=root run=()
	# nobody can open the node when it is 0666 (rdma-core's udev rule)
	if [ $((i % 2)) = 1 ] && [ "$(stat -c %a "$UV")" = 666 ]; then
		who=nobody
		run=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
	fi
	s0=$(date +%s)
	timeout 900 "${run[@]}" "$FUZZ" --seed "$seed" --calls "$per" \
		--threads 2 --dev "$UV" >"$OUT/seed-$seed.out" 2>"$OUT/seed-$seed.err"
	rc=$?
	line=$(grep '^uverbs_fuzz seed=' "$OUT/seed-$seed.out")
	echo "# $who ($(($(date +%s) - s0)) s): ${line:-no summary}"
	if [ "$rc" = 0 ] && [ -n "$line" ]; then
		t_result 1 "fuzz seed $seed as $who"
	else
		t_result 0 "fuzz seed $seed as $who" "exit $rc: $(tail -n 3 "$OUT/seed-$seed.err" | tr '\n' ' ')"
	fi
	c=$(sed -n 's/.* calls=\([0-9]*\) .*/\1/p' <<<"$line")
	o=$(sed -n 's/.* ok=\([0-9]*\) .*/\1/p' <<<"$line")
	calls=$((calls + ${c:-0})) ok=$((ok + ${o:-0}))
done
secs=$(($(date +%s) - t0))
echo "# $STACK: calls=$calls ok=$ok accepted=$(awk -v o=$ok -v c=$calls 'BEGIN { printf "%.1f%%", c ? 100 * o / c : 0 }') in ${secs} s ($(awk -v c=$calls -v s=$secs 'BEGIN { printf "%d", s ? c / s : c }') calls/s)"
t_run "at least $TOTAL calls made" test "$calls" -ge "$TOTAL"

# --- afterwards ---------------------------------------------------------------
# The objects of a closed file go with it; give deferred work a moment.
wait_until 10 test "$(res_summary)" = "$before"
t_eq "rdma res: back to the counts before the fuzzing" "$before" res_summary

timeout 120 ibv_rc_pingpong -d $DEV -g "$G4" -n 1000 -c >"$OUT/pp.server" 2>&1 &
spid=$!
wait_listen
timeout 120 ibv_rc_pingpong -d $DEV -g "$G4" -n 1000 -c 127.0.0.1 >"$OUT/pp.client" 2>&1
rc_c=$?
wait $spid
rc_s=$?
t_eq "ibv_rc_pingpong -c after the fuzzing (server, client)" "0 0" echo "$rc_s $rc_c"

rdma link delete $DEV 2>/dev/null
t_run "unload" unload_rdma
t_done "fuzz-uverbs-$STACK"
