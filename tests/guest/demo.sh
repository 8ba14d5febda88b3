#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of scripts/demo.sh: what a user does with the package — apt
# installs it (DKMS puts our modules under updates/dkms/), an rxe device,
# data moving between two endpoints with verbs, then an rping through the
# connection manager (librdmacm -> rdma_ucm -> rdma_cm -> ib_cm -> the MAD
# layer -> rxe's QP1).  The guest boots with the in-tree stack, as a
# machine that never saw ordma.
set -u
. /oot-src/tests/guest/pkg_lib.sh
show() { echo; echo "\$ $*"; "$@"; echo "[exit $?]"; }

echo "kernel $(uname -r); ib_core is $(modinfo -n ib_core)"
pkg_machine
echo; echo "\$ apt install ./ordma-dkms_${PKG_VERSION}_all.deb"
pkg_install /tmp/apt-install.log
cat /tmp/apt-install.log
show dkms status ordma

show modprobe rdma_rxe
show modprobe rdma_ucm
for m in ib_core ib_uverbs rdma_rxe ib_cm rdma_cm rdma_ucm; do
	printf '%-10s version %-12s from %s\n' "$m" \
		"$(cat /sys/module/$m/version 2>/dev/null || echo '(none: in-tree)')" \
		"$(modinfo -n $m)"
done
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip -6 addr add fd00::15/64 dev eth0 nodad
show rdma link add rxe0 type rxe netdev eth0
sleep 1
show rdma dev
show rdma link
show ibv_devices
show ibv_devinfo -d rxe0

# Verbs: an RC pingpong with data checked, then write bandwidth, both ends
# on rxe0 (the server listens on TCP for the out-of-band exchange).
gid=$(ibv_devinfo -v -d rxe0 | awk '/GID\[/ && /10.0.2.15/ {sub(/.*GID\[ */, ""); sub(/\].*/, ""); print; exit}')
echo; echo "IPv4 GID index of rxe0: ${gid:-?}"
timeout 60 ibv_rc_pingpong -d rxe0 -g "${gid:-1}" -n 1000 -c >/tmp/pp-srv.log 2>&1 &
sleep 1
show timeout 60 ibv_rc_pingpong -d rxe0 -g "${gid:-1}" -n 1000 -c localhost
wait
timeout 120 ib_write_bw -d rxe0 -x "${gid:-1}" -s 65536 -n 2000 >/tmp/bw-srv.log 2>&1 &
sleep 1
timeout 120 ib_write_bw -d rxe0 -x "${gid:-1}" -s 65536 -n 2000 localhost >/tmp/bw-cli.log 2>&1 &
sleep 3
show rdma res
show rdma statistic show link rxe0/1
wait
echo; echo "\$ ib_write_bw -s 65536 (client side)"; cat /tmp/bw-cli.log

# The connection manager: rping over IPv4 and over IPv6, data verified.
for addr in 10.0.2.15 fd00::15; do
	timeout 60 rping -s -a "$addr" -C 10 >/tmp/rping-srv.log 2>&1 &
	sleep 1
	show timeout 60 rping -c -a "$addr" -C 10 -V -v
	wait
done
show rdma res

show rdma link delete rxe0
dmesg | grep -E '^\[[ 0-9.]*\] (ib_core|ib_uverbs|rdma_rxe|ib_cm|rdma_cm|rdma_ucm):'
show modprobe -r rdma_ucm rdma_cm ib_cm rdma_rxe ib_uverbs ib_core
