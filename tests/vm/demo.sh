#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of scripts/demo.sh: what a user sees today on our modules.
set -u
show() { echo; echo "\$ $*"; "$@"; echo "[exit $?]"; }

show modprobe rdma_rxe
for m in ib_core ib_uverbs rdma_rxe; do
	printf '%-10s version %-12s from %s\n' "$m" \
		"$(cat /sys/module/$m/version)" "$(modinfo -n $m)"
done
show rdma dev
show rdma system
show rdma link
show ibv_devices
show cat /sys/class/infiniband_verbs/abi_version
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
show rdma link add rxe0 type rxe netdev eth0
sleep 1
show rdma dev
show rdma link
show ibv_devices
show ibv_devinfo -v
show rdma link delete rxe0
dmesg | grep -E '^\[[ 0-9.]*\] (ib_core|ib_uverbs|rdma_rxe):'
show modprobe -r rdma_rxe ib_uverbs ib_core
