#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the rdma_cm test: rxe0 on eth0 with 10.0.2.15/24 and
# fd00::15/64, rdma_cm loaded (it pulls ib_cm and the MAD layer), the
# cma_selftest module (built on the host: make -C tests/kmod) run
# at insmod, `rdma res` cm_id back to its baseline; then again with
# hold=1, which keeps a wildcard listener, a connection through it and an
# id bound to fd00::15: deleting fd00::15 gives that id ADDR_CHANGE, and
# deleting rxe0 under the live ids must not hang and gives each
# DEVICE_REMOVAL; unloading the module destroys the detached ids.
set -u
. /oot-src/tests/guest/lib.sh
KO=/oot-src/tests/kmod/cma_selftest.ko

cm_ids() { rdma res show | awk '/rxe0/ { for (i = 1; i < NF; i++) if ($i == "cm_id") print $(i + 1) }'; }

t_run "selftest module is built" test -e "$KO"
t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_run "modprobe rdma_cm" modprobe rdma_cm
t_run "rdma_cm is ours" sh -c "modinfo -n rdma_cm | grep -q updates"
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip -6 addr add fd00::15/64 dev eth0 nodad
t_run "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
for _ in $(seq 20); do
	grep -qs 'fd00:0000:0000:0000:0000:0000:0000:0015' \
		/sys/class/infiniband/rxe0/ports/1/gids/* &&
	grep -qs '0000:0000:0000:0000:0000:ffff:0a00:020f' \
		/sys/class/infiniband/rxe0/ports/1/gids/* && break
	sleep 0.5
done
t_run "rxe0 has the IPv4 and IPv6 GIDs" sh -c \
	"grep -qs 0000:0000:0000:0000:0000:ffff:0a00:020f /sys/class/infiniband/rxe0/ports/1/gids/* &&
	 grep -qs fd00:0000:0000:0000:0000:0000:0000:0015 /sys/class/infiniband/rxe0/ports/1/gids/*"
base=$(cm_ids)
echo "# rdma res cm_id before: $base"
# for ib_mad/flush_sends, which the selftest arms before a connect
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
if out=$(timeout 600 insmod "$KO" 2>&1); then
	t_result 1 "insmod cma_selftest"
else
	t_result 0 "insmod cma_selftest" "$out"
fi
dmesg | grep 'cma_selftest' | sed 's/^/# /'
t_run "selftest reports no failure" \
	sh -c "dmesg | grep -q 'cma_selftest: [0-9]* passed, 0 failed'"
grep -q '^cma_selftest ' /proc/modules && rmmod cma_selftest
t_eq "rdma res cm_id back to the baseline" "$base" cm_ids

dmesg -C
if out=$(timeout 600 insmod "$KO" hold=1 2>&1); then
	t_result 1 "insmod cma_selftest hold=1"
else
	t_result 0 "insmod cma_selftest hold=1" "$out"
fi
dmesg | grep 'cma_selftest: [0-9]* passed' | sed 's/^/# /'
rdma res show | sed 's/^/# /'
# the child listener, both ends of the connection, the bound id
t_eq "rdma res cm_id counts the held ids" "$((base + 4))" cm_ids
t_run "delete fd00::15" ip -6 addr del fd00::15/64 dev eth0
sleep 2
t_run "ADDR_CHANGE on the id bound to fd00::15" \
	sh -c "dmesg | grep -q 'cma_selftest: hold: ADDR_CHANGE on the bound id'"
t0=$(date +%s)
t_run "rdma link delete rxe0 under live ids" timeout 120 rdma link delete rxe0
echo "# device removal took $(($(date +%s) - t0)) s"
t_run "modules still usable: rmmod cma_selftest" timeout 60 rmmod cma_selftest
dmesg | grep 'cma_selftest: hold' | sed 's/^/# /'
t_run "DEVICE_REMOVAL on the three user ids" \
	sh -c "dmesg | grep -q 'cma_selftest: hold: 1 addr_change, 3 device_removal'"
t_run "modprobe -r rdma_cm ib_cm rdma_rxe ib_core" \
	timeout 60 modprobe -r rdma_cm ib_cm rdma_rxe ib_core
t_fail "rdma_cm unloaded" grep -q '^rdma_cm ' /proc/modules
t_done cma_selftest
