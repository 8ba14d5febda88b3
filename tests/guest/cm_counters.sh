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
#   fl_rx                     REQs, DREQs and SIDR_REQs the CM received
# A flood is judged the same way wherever it comes from (needs t_run and
# wait_until of lib.sh, and FL, FLOOD_SLAB_KB):
#   fl_baseline               caches dropped, FL_SLAB0, FL_QPS0 and the
#                             drop counters' starting values taken
#   fl_sample                 SUnreclaim into $FL/slab every 0.5 s
#   fl_settle                 waits for the CM's counts to settle, stops
#                             the sampler, FL_PEAK its highest figure
#   fl_judge                  the readings, and on ours the slab bound and
#                             the drop counters' rise asserted
#   fl_left                   after the flood's listeners are gone: no
#                             cm_id, no extra QP, ib_cm/ids empty
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

fl_rx() { echo $(($(cmc cm_rx_msgs req) + $(cmc cm_rx_msgs dreq) + $(cmc cm_rx_msgs sidr_req))); }

fl_baseline()
{
	sync
	echo 2 >/proc/sys/vm/drop_caches
	FL_SLAB0=$(fl_slab) FL_QPS0=$(fl_qps)
	FL_RL0=$(cm_drop tx_answer_ratelimited)
	FL_LF0=$(cm_drop rx_dropped_listen_full)
	FL_UR0=$(debugfs_counter ib_mad tx_unclaimed_ratelimited)
}

fl_sample()
{
	( while :; do fl_slab; sleep 0.5; done ) >"$FL/slab" &
	FL_SAMPLER=$!
}

# rxe queues what it received: the counts settle a little after the sends
fl_settle()
{
	local last=-1

	while [ "$(fl_rx)" != "$last" ]; do last=$(fl_rx); sleep 2; done
	kill "$FL_SAMPLER" 2>/dev/null
	wait "$FL_SAMPLER" 2>/dev/null
	FL_PEAK=$(sort -n "$FL/slab" | tail -n 1)
}

fl_judge()
{
	local rise=$((FL_PEAK - FL_SLAB0))

	echo "# flood: at the end: $(fl_counters)"
	echo "# flood: rxe's non-zero counters: $(grep -H . /sys/class/infiniband/$DEV/ports/1/hw_counters/* 2>/dev/null |
		sed -n 's|.*/||; /:0$/d; p' | tr '\n' ' ')"
	echo "# flood: ib_cm ids while listeners hold requests: $(fl_ids)"
	echo "# flood: SUnreclaim before ${FL_SLAB0} kB, peak ${FL_PEAK} kB (+$rise kB)"
	[ "$STACK" = ours ] || return 0
	t_run "flood: unreclaimable slab rose less than $FLOOD_SLAB_KB kB at the peak (+$rise kB)" \
		test $rise -lt "$FLOOD_SLAB_KB"
	t_run "flood: unanswered REQs/DREQs/SIDR_REQs beyond the rate counted (tx_answer_ratelimited)" \
		test "$(cm_drop tx_answer_ratelimited)" -gt "$FL_RL0"
	t_run "flood: REQs beyond the listener's unanswered cap counted (rx_dropped_listen_full)" \
		test "$(cm_drop rx_dropped_listen_full)" -gt "$FL_LF0"
	t_run "flood: unclaimed Gets beyond the answer rate counted (tx_unclaimed_ratelimited)" \
		test "$(debugfs_counter ib_mad tx_unclaimed_ratelimited)" -gt "$FL_UR0"
}

fl_left()
{
	t_run "flood: no cm_id left" wait_until 90 eval '[ "$(cm_ids)" = 0 ]'
	t_run "flood: no QP left beyond those of the start" \
		wait_until 30 eval '[ "$(fl_qps)" -le "$FL_QPS0" ]'
	[ -r /sys/kernel/debug/ib_cm/ids ] &&
		t_run "flood: ib_cm/ids is empty again" wait_until 60 eval '[ "$(fl_ids)" = 0 ]'
	sync
	echo 2 >/proc/sys/vm/drop_caches
	sleep 1
	echo "# flood: SUnreclaim after ${FL_SLAB0} -> $(fl_slab) kB"
}
