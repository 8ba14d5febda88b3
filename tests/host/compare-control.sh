#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Diff what the stock tools printed on our stack against the in-tree stack
# (captures made by tests/guest/control.sh in the same VM setup, same MAC):
#   compare-control.sh STOCK_CAPTURE_DIR OURS_CAPTURE_DIR
# Every capture must be identical but for the differences listed in
# KNOWN below, each with its reason.  Prints "compare-control: N passed,
# N failed".
set -u
stock=$1 ours=$2
pass=0 fail=0

# file: sed expression applied to both sides before diffing, and why.
declare -A KNOWN=(
	# hw counter values depend on traffic, not on the stack; ours has
	# more, counting drops that stock rxe does not count (a packet queue
	# of a QP full, a UD datagram longer than its receive, a completion
	# lost to a full CQ, received packets dropped by class: rcvd_icrc_err
	# and the other rcvd_* below).  Ours
	# registers rxe0 with its netdev's parent (virtio here) as parent, as
	# RoCE hardware is, so device/net/ names the netdev (pyverbs' rdmacm
	# tests need that); stock rxe has no parent.  uverbs0 inherits it.
	[sysfs-rxe0]='s/^\(444 ports\/1\/hw_counters\/[a-z_]*\) = [0-9]*$/\1 = N/; /^444 ports\/1\/hw_counters\/\(rcvd_queue_drops\|rcvd_ud_len_err\|cq_overflow_drops\|rcvd_icrc_err\|rcvd_malformed\|rcvd_bad_qp\|rcvd_key_err\|rcvd_addr_mismatch\) = /d; /^link device -> /d'
	[sysfs-uverbs0]='/^link device -> /d'
	# Capability bits above 31, which iproute2 and rdma-core 44 print as
	# UNKNOWN: ours sets ATOMIC_WRITE and FLUSH_GLOBAL/PERSISTENT (40,
	# 38, 39) on both lines, 6.1's rxe sets none, 6.12's the same three
	# as ours.  The lower bits are still compared, decoded, in
	# device_cap_flags.
	[rdma-dev-d]='s/\(, UNKNOWN\)*>$/>/'
	[ibv_devinfo-v]='/^\tdevice_cap_flags_ex:/d; /^\t*Unknown flags: /d'
	[ibv_devinfo-v-ipv6]='/^\tdevice_cap_flags_ex:/d; /^\t*Unknown flags: /d'
)
# 6.1's rxe caps a message at 8 MiB; ours and 6.12's at IBTA's 2 GiB.
if [ "${OOT_KERNEL:-6.1}" = 6.1 ]; then
	for f in ibv_devinfo-v ibv_devinfo-v-ipv6; do
		KNOWN[$f]+='; s/\(max_msg_sz:\t*\)0x[0-9a-f]*$/\1N/'
	done
fi

for f in rdma-dev rdma-dev-d rdma-dev-json rdma-link rdma-link-d rdma-system \
	 ibv_devices ibv_devinfo ibv_devinfo-v ibv_devinfo-v-ipv6 sysfs-rxe0 \
	 sysfs-uverbs0 sysfs-verbs-class dev-node port-events pyverbs-results uverbs-abuse; do
	if [ ! -e "$stock/$f" ] || [ ! -e "$ours/$f" ]; then
		echo "not ok - $f: missing capture (stock: $(test -e "$stock/$f" && echo yes || echo no), ours: $(test -e "$ours/$f" && echo yes || echo no))"
		fail=$((fail + 1))
		continue
	fi
	expr=${KNOWN[$f]:-s/^//}
	if diff -u --label "stock/$f" --label "ours/$f" \
		<(sed -e "$expr" "$stock/$f") <(sed -e "$expr" "$ours/$f") \
		>"$ours/$f.diff"; then
		echo "ok - $f identical to stock"
		pass=$((pass + 1))
	else
		echo "not ok - $f differs from stock:"
		head -n 40 "$ours/$f.diff" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "compare-control: $pass passed, $fail failed"
[ "$fail" = 0 ]
