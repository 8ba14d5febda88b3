#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the rdma_ucm fuzz lane (issue 19), on either stack, best
# booted with vm-run.sh --slub-debug: tests/fuzz/bin/ucma_fuzz drives
# /dev/infiniband/rdma_cm through two files and two racing threads with
# the commands librdmacm issues, for TOTAL calls split across SEEDS fixed
# seeds; during the middle seed rxe0 is deleted and added again under the
# fuzzer.  Then the two directed sequences of the issue's findings 2 and 3
# (ucma_fuzz --directed), after the fuzzing so that what the fuzzer finds
# by itself is its own; every slab cache is checked after each seed and
# case, so that a write to freed memory is pinned on the step that made
# it.  Afterwards:
#   - every seed ran to its end (exit 0, its summary line printed)
#   - `rdma res` shows no cm_id and the QPs there were before
#   - no slab cache holds a corrupted object
#   - the modules unload
# and, as after every check of lib.sh, the kernel log is clean.  Calls,
# the accepted fraction and the rate are printed as "# " lines.
#
#   fuzz_ucma.sh [TOTAL [SEEDS [FIRST_SEED [SKIP]]]]   (default 1000000 8 1 -)
# SKIP: a comma list of the fuzzer's kinds of call (ucma_fuzz --skip) and
# directed cases to leave out, e.g. do_join,dup-join to run the rest on a
# stack where finding 3 is known to corrupt memory.
set -u
. /oot-src/tests/guest/lib.sh
STACK=${OOT_STACK:?}
OUT=/oot-out/fuzz-ucma
FUZZ=/oot-src/tests/fuzz/bin/ucma_fuzz
TOTAL=${1:-1000000}
SEEDS=${2:-8}
FIRST=${3:-1}
SKIP=${4:--}
DEV=rxe0
IP4=10.0.2.15
IP6=fd00::15
CM=/dev/infiniband/rdma_cm
mkdir -p "$OUT"
echo "# fuzz-ucma: $STACK stack, kernel $(uname -r), $(nproc) CPUs; $(tr ' ' '\n' </proc/cmdline | grep -E '^(slub_debug|init_on_free)=' | tr '\n' ' ')"

t_run "modprobe rdma_rxe rdma_ucm" modprobe -a rdma_rxe rdma_ucm
ip link set lo up
ip link set eth0 up
ip addr add $IP4/24 dev eth0
ip -6 addr add $IP6/64 dev eth0 nodad
ip route add 224.0.0.0/4 dev eth0
link_add() # the device, and its IPv4 and IPv6 GIDs
{
	rdma link add $DEV type rxe netdev eth0 &&
		wait_until 30 eval "grep -qx 0000:0000:0000:0000:0000:ffff:0a00:020f /sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null &&
			grep -qx fd00:0000:0000:0000:0000:0000:0000:0015 /sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null"
}
t_run "rdma link add $DEV, GIDs of $IP4 and $IP6" link_add
echo "# device $CM: $(stat -c '%a %U:%G' "$CM")"

res_summary() { rdma res show $DEV 2>/dev/null | sed 's/^[0-9]*: [a-z0-9]*: //'; }
res_count() { res_summary | sed -n "s/.*\<$1 \([0-9]*\).*/\1/p"; }
qp_before=$(res_count qp)
echo "# rdma res before: $(res_summary)"
[ "$SKIP" = - ] || echo "# left out: $SKIP"

# Every slab cache's objects checked now (slub_debug: a poisoned free
# object written to, a red zone overwritten is reported as a BUG).
validate_slabs()
{
	local v
	for v in /sys/kernel/slab/*/validate; do
		[ -w "$v" ] && echo 1 >"$v" 2>/dev/null
	done
	return 0
}

# --- the fuzzing ---------------------------------------------------------------
# rxe0 goes and comes back during the middle seed, under live ids.
relink()
{
	sleep 5
	echo "# $(date +%T) rdma link delete $DEV"
	timeout 120 rdma link delete $DEV || echo "# rdma link delete: exit $?"
	sleep 2
	echo "# $(date +%T) rdma link add $DEV"
	link_add || echo "# rdma link add: exit $?"
}
per=$((TOTAL / SEEDS))
calls=0 ok=0 t0=$(date +%s) fuzz_secs=0
for i in $(seq 0 $((SEEDS - 1))); do
	seed=$((FIRST + i))
	who=root run=()
	if [ $((i % 2)) = 1 ] && [ "$(stat -c %a "$CM")" = 666 ]; then
		who=nobody
		run=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
	fi
	rl=
	if [ $i = $((SEEDS / 2)) ]; then
		relink &
		rl=$!
	fi
	s0=$(date +%s)
	timeout 900 "${run[@]}" "$FUZZ" --seed "$seed" --calls "$per" \
		--threads 2 --dev "$CM" --skip "$SKIP" \
		>"$OUT/seed-$seed.out" 2>"$OUT/seed-$seed.err"
	rc=$?
	s1=$(date +%s)
	fuzz_secs=$((fuzz_secs + s1 - s0))
	[ -z "$rl" ] || wait "$rl"
	validate_slabs
	line=$(grep '^ucma_fuzz seed=' "$OUT/seed-$seed.out")
	echo "# $who ($((s1 - s0)) s${rl:+, relink}; slab check $(($(date +%s) - s1)) s): ${line:-no summary}"
	if [ "$rc" = 0 ] && [ -n "$line" ]; then
		t_result 1 "fuzz seed $seed as $who${rl:+ (rdma link delete/add under it)}"
	else
		t_result 0 "fuzz seed $seed as $who" "exit $rc: $(tail -n 3 "$OUT/seed-$seed.err" | tr '\n' ' ')"
	fi
	c=$(sed -n 's/.* calls=\([0-9]*\) .*/\1/p' <<<"$line")
	o=$(sed -n 's/.* ok=\([0-9]*\) .*/\1/p' <<<"$line")
	calls=$((calls + ${c:-0})) ok=$((ok + ${o:-0}))
done
secs=$(($(date +%s) - t0))
echo "# $STACK: calls=$calls ok=$ok accepted=$(awk -v o=$ok -v c=$calls 'BEGIN { printf "%.1f%%", c ? 100 * o / c : 0 }') in ${fuzz_secs} s of fuzzing ($(awk -v c=$calls -v s=$fuzz_secs 'BEGIN { printf "%d", s ? c / s : c }') calls/s), ${secs} s with the slab checks"
t_run "at least $TOTAL calls made" test "$calls" -ge "$TOTAL"
# The ids of a closed file go with it; give the rdma_cm's work a moment.
t_run "rdma res: no cm_id left after the fuzzing" \
	wait_until 60 eval '[ "$(res_count cm_id)" = 0 ]'
t_eq "rdma res: qp as before the fuzzing" "$qp_before" res_count qp
echo "# rdma res after the fuzzing: $(res_summary)"

# --- the findings, as directed sequences ---------------------------------------
# Finding 2: MIGRATE_ID of a connection request's id before GET_EVENT
# reported it, DESTROY_ID in the other file, then the listener destroyed.
# Finding 3: two JOINs of one group on one id, LEAVE of the second at once,
# its join event still to come.
for c in migrate-child dup-join; do
	case ",$SKIP," in *,$c,*) echo "# $c: skipped"; continue ;; esac
	timeout 300 "$FUZZ" --directed $c >"$OUT/$c.out" 2>"$OUT/$c.err"
	rc=$?
	validate_slabs
	echo "# $c: $(cat "$OUT/$c.out" "$OUT/$c.err" | tr '\n' ' ')"
	t_eq "directed $c: exit 0 (the kernel kept its books)" 0 echo $rc
done
t_run "rdma res: no cm_id after the directed cases" \
	wait_until 30 eval '[ "$(res_count cm_id)" = 0 ]'

# --- afterwards ----------------------------------------------------------------
validate_slabs
t_run "every slab cache validated (the log says nothing)" true
rdma link delete $DEV 2>/dev/null
t_run "unload" unload_rdma
t_done "fuzz-ucma-$STACK"
