#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the ib_cm test (scripts/vm-run.sh --stack ours): on rxe0
# the in-kernel selftest (tests/kmod, built on the host first)
# connects two RC QPs through the CM over the port's own RoCEv2 GID, moves
# data, disconnects, is rejected, resolves a SIDR and sends a REQ nobody
# answers (retries, duplicates) and a REQ from a QP already in a
# connection (stale) and a REQ the MAD layer flushes (debugfs
# ib_mad/flush_sends: it must end in REQ_ERROR at once); the per-port CM
# counters in sysfs must have moved by what it exchanged.
set -u
. /oot-src/tests/guest/lib.sh
DEV=rxe0
SELFTEST=/oot-src/tests/kmod/cm_selftest.ko
PORT=/sys/class/infiniband/$DEV/ports/1
MSGS="req mra rej rep rtu dreq drep sidr_req sidr_rep lap apr"

counters() { for m in $MSGS; do printf '%s=%s ' "$m" "$(cat "$PORT/$1/$m")"; done; }
count() { cat "$PORT/$1/$2"; }

t_run "load rdma_rxe" modprobe rdma_rxe
t_run "load ib_cm" modprobe ib_cm
t_run "ib_cm is ours (has a version)" test -s /sys/module/ib_cm/version
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
sleep 1

for d in cm_rx_msgs cm_tx_msgs cm_rx_duplicates cm_tx_retries; do
	t_eq "$d/ lists the in-tree names" "$(echo $MSGS | tr ' ' '\n' | sort)" \
		bash -c "ls $PORT/$d | sort"
done
before_rx=$(counters cm_rx_msgs)
echo "# before: rx $before_rx"
echo "# before: tx $(counters cm_tx_msgs)"

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
t_run "insmod cm_selftest" insmod "$SELFTEST"
line=$(dmesg | grep -o 'cm_selftest: [0-9]* passed, [0-9]* failed' | tail -1)
echo "# $line"
dmesg | grep 'cm_selftest: ' | grep -v passed | sed 's/^/# /'
t_run "selftest ran with no failure" \
	grep -Eq 'cm_selftest: [1-9][0-9]* passed, 0 failed' <<<"$line"

echo "# after: rx $(counters cm_rx_msgs)"
echo "# after: tx $(counters cm_tx_msgs)"
echo "# after: dup $(counters cm_rx_duplicates)"
echo "# after: retries $(counters cm_tx_retries)"
# Loopback: every message sent is also received on the same port.
# The selftest sends 9 REQs (one flushed before the wire), 1 REP, 1 RTU, 1 DREQ, 1 DREP, 5 REJs,
# 2 SIDR_REQs and 2 SIDR_REPs.
t_run "rx req >= 7" test "$(count cm_rx_msgs req)" -ge 7
t_run "rx rep >= 1" test "$(count cm_rx_msgs rep)" -ge 1
t_run "rx rtu >= 1" test "$(count cm_rx_msgs rtu)" -ge 1
t_run "rx dreq >= 1" test "$(count cm_rx_msgs dreq)" -ge 1
t_run "rx drep >= 1" test "$(count cm_rx_msgs drep)" -ge 1
t_run "rx rej >= 4" test "$(count cm_rx_msgs rej)" -ge 4
t_run "rx sidr_req >= 2" test "$(count cm_rx_msgs sidr_req)" -ge 2
t_run "rx sidr_rep >= 2" test "$(count cm_rx_msgs sidr_rep)" -ge 2
# (a retransmission the MAD layer makes is received but not sent anew)
for m in req rep rtu dreq drep rej sidr_req sidr_rep; do
	t_run "rx $m >= tx $m >= 1 (loopback)" \
		test "$(count cm_rx_msgs $m)" -ge "$(count cm_tx_msgs $m)" -a \
		"$(count cm_tx_msgs $m)" -ge 1
done
# test_req_retries: a REQ nobody answers, sent 3 times in all
t_run "tx retries: req moved by 2 (the unanswered REQ resent twice)" \
	test "$(count cm_tx_retries req)" -ge 2
t_run "rx duplicates: req >= 2 (the passive side saw the resent REQs)" \
	test "$(count cm_rx_duplicates req)" -ge 2
t_run "rmmod cm_selftest" rmmod cm_selftest
t_eq "rdma res: no QP but the GSI one left" "qp 1" \
	bash -c "rdma res show | grep ' $DEV: ' | grep -o 'qp [0-9]*'"

t_run "rdma link delete $DEV" rdma link delete $DEV
t_run "unload modules" modprobe -r ib_cm rdma_rxe ib_uverbs ib_core
t_done cm_selftest
