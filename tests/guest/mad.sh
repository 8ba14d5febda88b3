#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the MAD layer test (scripts/vm-run.sh --stack ours|stock):
# an rxe device gets its GSI QP with a PD and a CQ, as `rdma res` shows on
# the stock stack too; on ours the in-kernel selftest (tests/kmod,
# built on the host first) then runs MADs through it, and the per-port
# drop counters in debugfs are checked.  Removing the link removes it all.
set -u
. /oot-src/tests/guest/lib.sh
DEV=rxe0
SELFTEST=/oot-src/tests/kmod/mad_selftest.ko
COUNTERS=/sys/kernel/debug/ib_mad/$DEV-1

res_summary() { rdma res show | grep " $DEV: " | sed 's/^[0-9]*: [a-z0-9]*: //'; }
counter() { awk -v n="$1" '$1 == n { print $2 }' "$COUNTERS"; }

t_run "load rdma_rxe" modprobe rdma_rxe
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
sleep 1

res=$(res_summary)
echo "# rdma res: $res"
t_run "rdma res: the GSI QP's pd 1 cq 1 qp 1" \
	grep -q 'pd 1 cq 1 qp 1 ' <<<"$res "
# Per-QP listing: stock only (ours answers the summary, not RES_QP_GET).
echo "# rdma res show qp:"; rdma res show qp 2>&1 | sed 's/^/#   /'
if [ "${OOT_STACK:-ours}" = stock ]; then
	t_run "rdma res show qp: lqpn 1 of type GSI" \
		bash -c "rdma res show qp link $DEV/1 | grep -q 'lqpn 1 type GSI'"
fi

if [ "${OOT_STACK:-ours}" = ours ]; then
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	t_run "drop counters in debugfs" test -r "$COUNTERS"
	[ -f "$SELFTEST" ] ||
		echo "# $SELFTEST missing: make -C tests/kmod on the host"
	t_run "insmod mad_selftest" insmod "$SELFTEST"
	line=$(dmesg | grep -o 'mad_selftest: [0-9]* passed, [0-9]* failed' | tail -1)
	echo "# $line"
	dmesg | grep 'mad_selftest: FAIL' | sed 's/^/# /'
	t_run "selftest ran with no failure" \
		grep -Eq 'mad_selftest: [1-9][0-9]* passed, 0 failed' <<<"$line"
	echo "# $COUNTERS:"; sed 's/^/#   /' "$COUNTERS"
	t_run "unclaimed MADs counted" test "$(counter rx_dropped_unclaimed)" -ge 2
	t_run "unclaimed Gets answered" test "$(counter tx_unclaimed_answered)" -ge 3
	t_run "retries counted" test "$(counter tx_retries)" -ge 2
	t_run "timeouts counted" test "$(counter tx_timeouts)" -ge 1
	t_eq "the selftest's short and version-2 MADs dropped and counted" "1 1" \
		echo "$(counter rx_dropped_short) $(counter rx_dropped_bad_base_version)"
	# test_backlog_cap: 64 + 256 + 80 sends at once on one CPU
	t_eq "sends beyond the backlog cap counted (tx_dropped_backlog_full)" 80 \
		counter tx_dropped_backlog_full
	# test_request_queue_cap: 1 + 1024 + 200 to a stalled agent
	# (all 200 unless the receive ring ran dry for some, which rxe counts)
	t_run "requests beyond a stalled agent's queue counted (rx_dropped_agent_busy)" \
		test "$(counter rx_dropped_agent_busy)" -ge 1 -a "$(counter rx_dropped_agent_busy)" -le 200
	t_run "rmmod mad_selftest" rmmod mad_selftest

	# The backlog's cap while QP1 is down: QP1 forced to ERR (rxe's
	# debugfs qp_error) with its recovery held at the test-only pause
	# point; mad_selftest in_recovery=1 sends 256 + 40, releases it, and
	# checks that the 256 go out after the recovery and a Get is answered.
	pause=/sys/kernel/debug/ib_test_pause/mad_recover
	full0=$(counter tx_dropped_backlog_full) rec0=$(counter qp_recoveries)
	echo 1 >$pause
	t_run "QP1 forced to ERR" sh -c "echo 1 >/sys/kernel/debug/rdma_rxe/$DEV/qp_error"
	t_run "its recovery held at ib_test_pause/mad_recover" \
		wait_until 30 grep -q paused $pause
	t_run "insmod mad_selftest in_recovery=1" insmod "$SELFTEST" in_recovery=1
	echo 0 >$pause	# (the selftest released it unless it failed first)
	line=$(dmesg | grep -o 'mad_selftest: [0-9]* passed, [0-9]* failed' | tail -1)
	echo "# $line"
	dmesg | grep 'mad_selftest: FAIL\|mad_selftest: in recovery' | sed 's/^/# /'
	t_run "in recovery: selftest ran with no failure" \
		grep -Eq 'mad_selftest: [1-9][0-9]* passed, 0 failed' <<<"$line"
	t_eq "in recovery: the 40 beyond the cap counted (tx_dropped_backlog_full)" 40 \
		eval 'echo $(($(counter tx_dropped_backlog_full) - full0))'
	t_eq "in recovery: QP1 recovered once (qp_recoveries)" 1 \
		eval 'echo $(($(counter qp_recoveries) - rec0))'
	t_run "rmmod mad_selftest" rmmod mad_selftest
	t_eq "rdma res unchanged by the selftest" "$res" res_summary
fi

t_run "rdma link delete $DEV" rdma link delete $DEV
t_eq "rdma res: nothing left" "" res_summary
if [ "${OOT_STACK:-ours}" = ours ]; then
	t_fail "debugfs entry gone with the device" test -e "$COUNTERS"
	t_run "unload modules" bash -c 'modprobe -r rdma_rxe &&
		for m in ib_uverbs ib_core; do
			! grep -q "^$m " /proc/modules || modprobe -r $m || exit 1
		done' 
else
	t_run "unload modules" modprobe -r rdma_rxe
fi
t_done mad
