# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Sourced: what the CM and MAD checks read of $DEV's port 1, and what a
# flood of crafted CM messages (issue 19) is judged by.  Shared by
# cm_security.sh's parts (50-flood.sh floods through loopback) and
# cm_wire_flood.sh (the same flood from the other guest), so that both
# read one set of counters the same way.  Needs DEV and STACK.
#   debugfs_counter DIR NAME  a counter of port 1 in debugfs DIR/ (ours),
#                             0 where absent (stock has no such files)
#   cm_drop NAME              ib_cm's drop counters
#   cmc DIR MSG               the CM's sysfs counters (both stacks)
#   gid_index GID             its RoCE v2 index on port 1
#   fl_slab, fl_qps, fl_ids, fl_counters   a flood's readings: SUnreclaim
#                             in kB, `rdma res` QP lines, ib_cm/ids lines,
#                             one line of what the flood made it count
debugfs_counter()
{
	awk -v n="$2" '$1 == n { v = $2 } END { print v + 0 }' \
		/sys/kernel/debug/"$1"/$DEV-1 2>/dev/null
}
cm_drop() { debugfs_counter ib_cm "$1"; }
cmc() { cat /sys/class/infiniband/$DEV/ports/1/"$1"/"$2"; }
gid_index()
{
	local f i
	for f in /sys/class/infiniband/$DEV/ports/1/gids/*; do
		i=${f##*/}
		[ "$(cat "$f" 2>/dev/null)" = "$1" ] || continue
		[ "$(cat /sys/class/infiniband/$DEV/ports/1/gid_attrs/types/"$i" 2>/dev/null)" = "RoCE v2" ] || continue
		echo "$i"
		return 0
	done
	return 1
}

fl_slab() { awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo; }
fl_qps() { rdma res show qp 2>/dev/null | wc -l; }
fl_ids() { [ -r /sys/kernel/debug/ib_cm/ids ] && wc -l </sys/kernel/debug/ib_cm/ids; }
fl_counters()
{
	local c
	for c in req dreq sidr_req; do printf 'rx %s %s, ' $c "$(cmc cm_rx_msgs $c)"; done
	for c in rej drep sidr_rep; do printf 'tx %s %s, ' $c "$(cmc cm_tx_msgs $c)"; done
	if [ "$STACK" = ours ]; then
		for c in tx_answer_ratelimited rx_dropped_listen_full; do
			printf 'ib_cm %s %s, ' $c "$(cm_drop $c)"
		done
		for c in rx_delivered rx_dropped_agent_busy tx_dropped_backlog_full tx_errors tx_unclaimed_answered tx_unclaimed_ratelimited; do
			printf 'ib_mad %s %s, ' $c "$(debugfs_counter ib_mad $c)"
		done
	fi
	echo
}
