#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the benchmark (run with --stack ours): in ONE boot, the
# stock in-kernel modules first (loaded by path: ours shadow them for
# modprobe), then ours; each runs ib_write_bw 64 KiB and ib_send_lat 2 B
# between two processes on rxe0, several rounds, median taken.  Prints
# "bench: ..." figures and the ratios ours/stock.  Not a test: nothing is
# asserted beyond the tools finishing.
set -u
KVER=$(uname -r)
DEV=rxe0
ROUNDS=${BENCH_ROUNDS:-3}
ip link set eth0 up
ip link set lo up
ip addr add 10.0.2.15/24 dev eth0

load_stock()
{
	local m path dep
	for m in core/ib_core core/ib_uverbs sw/rxe/rdma_rxe; do
		path=/lib/modules/$KVER/kernel/drivers/infiniband/$m.ko
		for dep in $(modinfo -F depends "$path" | tr ',' ' '); do
			case $dep in ib_core|ib_uverbs) ;; *) modprobe "$dep" ;; esac
		done
		insmod "$path" || return 1
	done
}

wait_listen()
{
	local i
	for i in $(seq 100); do
		ss -Hltn 'sport = :18515' | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# run_pair OUTFILE TOOL ARGS...: server and client; client output kept
run_pair()
{
	local out=$1
	shift
	timeout 300 "$@" >/dev/null 2>&1 &
	wait_listen
	timeout 300 "$@" 127.0.0.1 >"$out" 2>&1
	wait
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "nan") }'; }

measure() # STACK
{
	local st=$1 gid i bw lat
	rdma link add $DEV type rxe netdev eth0
	for i in $(seq 50); do
		gid=$(grep -l '0000:0000:0000:0000:0000:ffff:0a00:020f' \
			/sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null | head -n1)
		[ -n "$gid" ] && break
		sleep 0.1
	done
	gid=$(basename "$gid")
	for i in $(seq "$ROUNDS"); do
		run_pair /tmp/bw ib_write_bw -d $DEV -x "$gid" -F -s 65536 -n 2000
		awk '$1 == 65536 { print $4 }' /tmp/bw >>/tmp/bw.$st
		run_pair /tmp/lat ib_send_lat -d $DEV -x "$gid" -F -s 2 -n 5000
		awk '$1 == 2 { print $5 }' /tmp/lat >>/tmp/lat.$st
	done
	bw=$(median </tmp/bw.$st)
	lat=$(median </tmp/lat.$st)
	echo "bench: $st ib_write_bw 64KiB MB/s: $bw (rounds: $(tr '\n' ' ' </tmp/bw.$st))"
	echo "bench: $st ib_send_lat 2B t_typical usec: $lat (rounds: $(tr '\n' ' ' </tmp/lat.$st))"
	rdma link delete $DEV
}

load_stock || { echo "bench: cannot load the stock modules"; exit 1; }
measure stock
modprobe -r rdma_rxe ib_uverbs ib_core
modprobe rdma_rxe || { echo "bench: cannot load ours"; exit 1; }
grep -q . /sys/module/rdma_rxe/version || { echo "bench: not ours"; exit 1; }
measure ours
modprobe -r rdma_rxe ib_uverbs ib_core
awk -v a="$(median </tmp/bw.ours)" -v b="$(median </tmp/bw.stock)" \
	'BEGIN { printf "bench: ratio ib_write_bw 64KiB ours/stock = %.2f (higher is better)\n", a / b }'
awk -v a="$(median </tmp/lat.ours)" -v b="$(median </tmp/lat.stock)" \
	'BEGIN { printf "bench: ratio ib_send_lat 2B ours/stock = %.2f (lower is better)\n", a / b }'
dmesg >/tmp/bench-dmesg
/oot-src/scripts/lib/check-kernel-log.sh /tmp/bench-dmesg >/dev/null ||
	echo "bench: kernel log has warnings"
