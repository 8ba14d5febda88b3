#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Issue 19 finding 4, deterministically: device removal against a step
# that the test-only pause points (debugfs ib_test_pause/, see
# include/ordma/test_pause.h) hold open, one case per race:
#   destroy      an id being destroyed (DESTROYING, still attached):
#                removal must wait until its destroyer detached it
#   cm_send      ib_cm making a send buffer on the port's MAD agent
#                (cm_selftest pause_send=1): removal must not unregister
#                the agent under it
#   query-route, query-addr, query-gid
#                rdma_ucm reading the id's device for a QUERY: removal
#                must not detach the id (and free the device) meanwhile
# Each case: arm the point, start the step and wait until it is held,
# start `rdma link delete`, which must still be running HOLD_S seconds
# later (without the fix it finishes under the held step); release; the
# removal and the step must then finish cleanly (a query answers the
# device's real node GUID), and the kernel log must stay clean.
# CASES selects cases (default: all).
set -u
. /oot-src/tests/guest/lib.sh
DEV=rxe0
IP4=10.0.2.15
PAUSE=/sys/kernel/debug/ib_test_pause
PROBE=/oot-src/tests/probes/removal_pause_probe.py
CM_KO=/oot-src/tests/kmod/cm_selftest.ko
HOLD_S=${HOLD_S:-10}
CASES=${CASES:-destroy cm_send query-route query-addr query-gid}
OUT=/tmp/removal_pause
mkdir -p $OUT

gids_back()
{
	grep -qs 0000:0000:0000:0000:0000:ffff:0a00:020f \
		/sys/class/infiniband/$DEV/ports/1/gids/*
}

device_up()
{
	[ -d /sys/class/infiniband/$DEV ] ||
		timeout 120 rdma link add $DEV type rxe netdev eth0 || return 1
	wait_until 30 gids_back
}

# CASE POINT: the step of CASE is running in the background (its output
# in $OUT/CASE); hold it, remove the device under it, release it.
held_removal()
{
	local c=$1 point=$2

	t_run "$c: held at $point" wait_until 60 grep -q paused $PAUSE/$point
	rm -f $OUT/$c.rc
	(timeout 180 rdma link delete $DEV >$OUT/$c.delete 2>&1
	 echo $? >$OUT/$c.rc) &
	if wait_until "$HOLD_S" test -e $OUT/$c.rc; then
		t_result 0 "$c: removal waits for the held step" \
			"rdma link delete finished under it"
	else
		t_result 1 "$c: removal waits for the held step"
	fi
	echo 0 >$PAUSE/$point
	wait $!
	t_result "$(($(cat $OUT/$c.rc) == 0))" \
		"$c: removal finishes once released" "$(cat $OUT/$c.delete)"
}

case_ucma() # CASE POINT: a removal_pause_probe.py step
{
	local c=$1 point=$2 pid guid

	guid=$(cat /sys/class/infiniband/$DEV/node_guid)
	echo 1 >$PAUSE/$point
	timeout 300 python3 $PROBE "$c" $IP4 >$OUT/$c 2>&1 &
	pid=$!
	held_removal "$c" "$point"
	wait $pid
	t_result $(($? == 0)) "$c: the probe finished" "$(cat $OUT/$c)"
	sed "s/^/# $c: /" $OUT/$c
	case $c in
	destroy) t_run "$c: DESTROY_ID succeeded" grep -qx "destroy OK" $OUT/$c ;;
	*) t_run "$c: answered the device's node GUID $guid" \
		grep -qx "$c OK $guid" $OUT/$c ;;
	esac
}

case_cm_send()
{
	local c=cm_send

	dmesg -C
	t_run "$c: insmod cm_selftest pause_send=1" \
		timeout 120 insmod $CM_KO pause_send=1
	held_removal $c cm_make_buf
	t_run "$c: rmmod cm_selftest (the sender finished)" \
		timeout 60 rmmod cm_selftest
	dmesg | grep 'cm_selftest: ' | sed "s/^/# $c: /"
	t_run "$c: the held SIDR_REQ returned" \
		sh -c "dmesg | grep -q 'cm_selftest: pause_send: SIDR_REQ returned'"
	t_run "$c: the selftest reports no failure" \
		sh -c "dmesg | grep -q 'cm_selftest: [0-9]* passed, 0 failed'"
}

t_run "selftest module is built" test -e $CM_KO
t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_run "modprobe rdma_ucm" modprobe rdma_ucm
t_run "rdma_ucm is ours" sh -c "modinfo -n rdma_ucm | grep -q updates"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
t_run "the pause points exist, idle" sh -c \
	"cat $PAUSE/cma_destroy $PAUSE/cm_make_buf $PAUSE/ucma_query | sort -u | grep -qx idle"
ip link set lo up
ip link set eth0 up
ip addr add $IP4/24 dev eth0
for c in $CASES; do
	echo "# --- $c"
	t_run "$c: $DEV is up" device_up
	case $c in
	destroy) case_ucma $c cma_destroy ;;
	cm_send) case_cm_send ;;
	query-*) case_ucma $c ucma_query ;;
	esac
done
t_run "$DEV back after the cases" device_up
t_run "modprobe -r rdma_ucm rdma_cm ib_cm rdma_rxe ib_core" \
	timeout 60 modprobe -r rdma_ucm rdma_cm ib_cm rdma_rxe ib_core
t_done removal_pause
