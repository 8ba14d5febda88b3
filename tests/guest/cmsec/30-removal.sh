# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Part of tests/guest/cm_security.sh (sourced; see there for DEV, IP4, OUT).
# Issue 19 finding 4: removing the device while the rdma_cm is in use.
# The device is deleted and added again REMOVAL_ROUNDS times while
#  - rping pairs connect and disconnect over and over (one server bound
#    to $IP4, one persistent wildcard listener, whose per-device child
#    removal creates and destroys),
#  - two removal_probe processes create, bind, resolve, QUERY and destroy
#    ids (every other one by closing the file), so ids are in destruction
#    and being queried just as removal detaches them.
# Everything is bounded by timeouts; afterwards no cm_id is left, rxe0 is
# back (the parts after this one use it) and an rping pair connects.  The
# slab debugging of this lane turns a use-after-free of the MAD agent,
# the port or the device into a log line that fails the checks.
REMOVAL_ROUNDS=${REMOVAL_ROUNDS:-6}
REMOVAL_LOG=$OUT/removal
mkdir -p "$REMOVAL_LOG"
rm -f "$REMOVAL_LOG/stop"

# LOG CMD...: run CMD until the stop file appears (each run bounded by
# the caller's timeout), appending its output to LOG.
removal_loop()
{
	local log=$1
	shift
	while [ ! -e "$REMOVAL_LOG/stop" ]; do
		"$@" >>"$log" 2>&1
		sleep 0.3
	done
}

removal_gids_back()
{
	wait_until 30 eval "gid_present 0000:0000:0000:0000:0000:ffff:0a00:020f && gid_present fd00:0000:0000:0000:0000:0000:0000:0015"
}

# One round: delete the device under load, wait a little, add it again.
removal_round()
{
	timeout 120 rdma link delete $DEV || { echo "delete: exit $?"; return 1; }
	sleep 1
	timeout 120 rdma link add $DEV type rxe netdev eth0 ||
		{ echo "add: exit $?"; return 1; }
	removal_gids_back || { echo "GIDs not back"; return 1; }
	sleep 2
}

removal_stress()
{
	local pids=() i probe_time=$((REMOVAL_ROUNDS * 8 + 10)) rc=0

	removal_loop "$REMOVAL_LOG/srv4" timeout 20 rping -s -a $IP4 -C 3 &
	pids+=($!)
	removal_loop "$REMOVAL_LOG/cli4" timeout 10 rping -c -a $IP4 -C 3 &
	pids+=($!)
	removal_loop "$REMOVAL_LOG/srvany" timeout 30 rping -s -P -p 7174 &
	pids+=($!)
	removal_loop "$REMOVAL_LOG/cliany" timeout 10 rping -c -a $IP4 -p 7174 -C 3 &
	pids+=($!)
	for i in 1 2; do
		timeout $((probe_time + 60)) /oot-src/tests/probes/bin/removal_probe \
			$probe_time $IP4 >"$REMOVAL_LOG/probe$i" 2>&1 &
		pids+=($!)
	done
	sleep 3
	for ((i = 1; i <= REMOVAL_ROUNDS; i++)); do
		removal_round || { echo "round $i failed"; rc=1; break; }
	done
	touch "$REMOVAL_LOG/stop"
	# the loops' runs end within their timeouts, the probes with theirs
	wait "${pids[@]}"
	echo "rounds done: $((i - 1)) of $REMOVAL_ROUNDS"
	return $rc
}

t_run "$REMOVAL_ROUNDS device delete/add rounds under rdma_cm load" removal_stress
cat "$REMOVAL_LOG"/probe? | sed 's/^/# /'
echo "# rping runs that connected: $(grep -c 'client DISCONNECT EVENT' "$REMOVAL_LOG/cli4" "$REMOVAL_LOG/cliany" 2>/dev/null | tr '\n' ' ')"
t_run "the probes' queries saw the device" \
	grep -Eq ' [1-9][0-9]* saw a device' "$REMOVAL_LOG/probe1"
t_run "$DEV present after the rounds" removal_gids_back
t_run "no cm_id left after the removal rounds" \
	wait_until 60 eval '[ "$(cm_ids)" = 0 ]'

removal_rping_after()
{
	local spid n
	timeout 60 rping -s -a $IP4 -C 10 >"$REMOVAL_LOG/after.srv" 2>&1 &
	spid=$!
	sleep 2
	timeout 60 rping -c -a $IP4 -C 10 -V -v >"$REMOVAL_LOG/after.cli" 2>&1
	wait $spid || return 1
	n=$(grep -c '^ping data: ' "$REMOVAL_LOG/after.cli")
	echo "pings: $n"
	[ "$n" = 10 ]
}
t_run "rping connects on $DEV after the removal rounds (10 pings)" removal_rping_after
t_run "no cm_id left after that rping" wait_until 60 eval '[ "$(cm_ids)" = 0 ]'
