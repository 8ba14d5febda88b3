#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the kernel verbs test: load rdma_rxe alone (no ib_uverbs:
# modprobe -i skips its soft dependency), make rxe0 on eth0 (10.0.2.15/24), run the kverbs_selftest
# module (built on the host: make -C tests/kmod), check that
# `rdma res` is back to what a fresh rxe0 showed (plus the shared CQs,
# freed with rxe0), and unload everything: ib_core only goes when they did.
set -u
. /oot-src/tests/guest/lib.sh
KO=/oot-src/tests/kmod/kverbs_selftest.ko

res_line() { rdma res show | awk '$2 == "rxe0:" || $1 ~ /rxe0/' ; }

t_run "selftest module is built" test -e "$KO"
t_fail "rdma_rxe links against ib_core alone" \
	bash -c "modinfo -F depends rdma_rxe | tr , '\n' | grep -qx ib_uverbs"
# -i: without the post-softdep on ib_uverbs that users' modprobe follows
t_run "modprobe -i rdma_rxe" modprobe -i rdma_rxe
t_fail "ib_uverbs not needed for kernel verbs" grep -q '^ib_uverbs ' /proc/modules
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
t_run "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
# the GID table follows the netdev's addresses through a workqueue
for _ in $(seq 20); do
	grep -qs '0000:0000:0000:0000:0000:ffff:0a00:020f' \
		/sys/class/infiniband/rxe0/ports/1/gids/* && break
	sleep 0.5
done
t_run "rxe0 has the IPv4 GID" sh -c "grep -qs 0000:0000:0000:0000:0000:ffff:0a00:020f /sys/class/infiniband/rxe0/ports/1/gids/*"
base=$(res_line)
echo "# rdma res before: $base"
if out=$(insmod "$KO" 2>&1); then
	t_result 1 "insmod kverbs_selftest"
else
	t_result 0 "insmod kverbs_selftest" "$out"
fi
dmesg | grep 'kverbs_selftest' | sed 's/^/# /'
t_run "selftest reports no failure" \
	sh -c "dmesg | grep -q 'kverbs_selftest: [0-9]* passed, 0 failed'"
grep -q '^kverbs_selftest ' /proc/modules && rmmod kverbs_selftest
after=$(res_line)
echo "# rdma res after:  $after"
# the shared CQs the selftest took stay with the device, as in-tree
pool_cqs=$(dmesg | sed -n 's/.*kverbs_selftest: \([0-9]*\) pool CQs stay.*/\1/p' | tail -1)
base_cq=$(echo "$base" | sed -n 's/.* cq \([0-9]*\) .*/\1/p')
base=$(echo "$base" | sed "s/ cq $base_cq / cq $((base_cq + ${pool_cqs:-0})) /")
t_eq "rdma res back to the baseline (plus ${pool_cqs:-0} pool CQs)" "$base" res_line
t_run "rdma link delete rxe0" rdma link delete rxe0
t_run "modprobe -r rdma_rxe ib_core" modprobe -r -i rdma_rxe ib_core
t_fail "ib_core unloaded" grep -q '^ib_core ' /proc/modules
t_done kverbs
