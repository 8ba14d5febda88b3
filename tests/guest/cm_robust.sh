# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Robustness of the connection manager, sourced by tests/guest/cm.sh after the
# tools ran (same boot, same helpers, same results.tsv), on either stack:
#   - CYCLES connect/disconnect cycles of rping against one
#     persistent server leave `rdma res` (cm_id qp cq pd mr) and the
#     unreclaimable slab where they started;
#   - a REQ to a port nobody listens on is answered with a REJ (rping sees
#     REJECTED; the CM counters show the REJ sent and received);
#   - MADs sent to QP1 from a user UD QP, malformed (short, bad base or
#     class version, unknown class, attribute or method) and one REQ to no
#     listener: nothing breaks, the REQ is rejected, and on ours the MAD
#     layer's drop counters (debugfs ib_mad/) move as they should;
#   - `rdma link delete` under a live rping: both ends see the device go
#     (DEVICE_REMOVAL) and exit, the delete returns, the link comes back
#     and connects again.
# Needs from cm.sh: DEV IP4 OUT STACK TO STO LTO, t_* and the helpers
# (listening_cm, res_cm_id, cm_snap, cm_moved, counters_delta, ...).

# 500 cycles on ours (0.6 s each under TCG; 1000 cost the CI 10 minutes);
# stock, the reference, runs 200 (about 0.4 s each)
if [ "$STACK" = ours ]; then CYCLES=${CM_CYCLES:-500}; else CYCLES=${CM_CYCLES:-200}; fi
res_counts() # "cm_id N cq N mr N pd N qp N" of rxe0's `rdma res` summary
{
	rdma res show $DEV 2>/dev/null | tr ' ' '\n' |
		awk 'p != "" && $1 ~ /^[0-9]+$/ { v[p] = $1 } { p = $1 }
			END { printf "cm_id %s cq %s mr %s pd %s qp %s", v["cm_id"], v["cq"], v["mr"], v["pd"], v["qp"] }'
}
sunreclaim() # kB of unreclaimable slab, once the caches are dropped
{
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo
}

# --- connect/disconnect cycles --------------------------------------------------
robust_cycles()
{
	local spid i ok=0 fail=0 race=0 t0 res0 res1 slab0 slab1 port=7480 log=$OUT/cycles
	echo "# cycles: before: $(res_counts)"
	timeout $((STO + 3600)) rping -s -P -a $IP4 -p $port >"$log.server" 2>"$log.server.err" &
	spid=$!
	if ! wait_until $LTO eval 'listening_cm rping || ! kill -0 $spid 2>/dev/null'; then
		t_result 0 "rping connect/disconnect cycles: each pings once, data verified" "the persistent server did not listen"
		kill $spid 2>/dev/null
		return
	fi
	# a warm-up, so that slab caches filled once (per-CPU slabs, the
	# 9p dentries of the rping binary...) do not count as growth
	for i in $(seq $((CYCLES / 10))); do
		timeout $TO rping -c -a $IP4 -p $port -C 1 >/dev/null 2>&1
	done
	wait_until 30 eval '[ "$(res_cm_id)" = 1 ]'
	res0=$(res_counts)
	slab0=$(sunreclaim)
	echo "# cycles: after $((CYCLES / 10)) warm-up cycles: $res0; SUnreclaim ${slab0} kB"
	cm_snap cycles.0
	t0=$(date +%s)
	for i in $(seq "$CYCLES"); do
		if timeout $TO rping -c -a $IP4 -p $port -C 1 -V >"$log.client" 2>"$log.client.err"; then
			ok=$((ok + 1))
		elif [ "$(tail -n 1 "$log.client.err")" = "rdma_get_cm_event: Bad file descriptor" ] &&
			[ -z "$(grep -v -e '^rdma_get_cm_event: Bad file descriptor$' -e '^client DISCONNECT EVENT\.\.\.$' "$log.client.err")" ]; then
			# rping's own teardown race: its CM thread, having taken
			# the DISCONNECTED event, reads the event channel again
			# after the main thread closed it, and exits 255
			race=$((race + 1))
		else
			fail=$((fail + 1))
			[ $fail -gt 1 ] || cat "$log.client" "$log.client.err" >"$log.first-failure"
			[ $fail -lt 20 ] || break
		fi
	done
	cm_snap cycles.1
	echo "# cycles: $ok ok, $race lost rping's teardown race (exit 255 after the disconnect), $fail failed, in $(($(date +%s) - t0))s; CM counters moved: $(cm_moved cycles.0 cycles.1)"
	[ $fail = 0 ] && t_result 1 "rping connect/disconnect cycles: each pings once, data verified" ||
		t_result 0 "rping connect/disconnect cycles: each pings once, data verified" \
			"$ok ok, $fail failed; first: $(tr '\n' ' ' <"$log.first-failure" 2>/dev/null | head -c 300)"
	# both ends on one port: each connection is one RTU received, one
	# DREQ and one DREP
	t_eq "cycles: one connection established and torn down per cycle (RTU, DREQ, DREP received)" \
		"$CYCLES $CYCLES $CYCLES" counters_delta "$OUT/counters.cycles.0" "$OUT/counters.cycles.1" \
		cm_rx_msgs/rtu cm_rx_msgs/dreq cm_rx_msgs/drep
	wait_until 30 eval '[ "$(res_cm_id)" = 1 ]'
	res1=$(res_counts)
	slab1=$(sunreclaim)
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	t_run "the persistent rping server gone: no cm_id left" wait_until 60 eval '[ "$(res_cm_id)" = 0 ]' 
	echo "# cycles: after: $res1; SUnreclaim ${slab1} kB (moved $((slab1 - slab0)) kB)"
	t_eq "after the cycles: rdma res cm_id qp cq pd mr as before (the listener's id only)" "$res0" echo "$res1"
	# a leak of 256 bytes a cycle would show as CYCLES / 4 kB (stock
	# 6.1 grows by about 600 bytes a cycle here: shown, not asserted)
	if [ "$STACK" = ours ]; then
		t_run "after the cycles: unreclaimable slab grew by less than 256 bytes a cycle" \
			test $((slab1 - slab0)) -lt $((CYCLES / 4))
	fi
}

# --- a REQ nobody listens for ---------------------------------------------------
robust_reject()
{
	local log=$OUT/no-listener rc
	cm_snap reject.0
	timeout $TO rping -c -a $IP4 -p 7481 -C 1 >"$log" 2>"$log.err"
	rc=$?
	cm_snap reject.1
	echo "# no listener: rping exit $rc: $(tr '\n' ' ' <"$log.err" | head -c 200); CM counters moved: $(cm_moved reject.0 reject.1)"
	t_run "rping to a port with no listener: rejected (RDMA_CM_EVENT_REJECTED)" \
		eval "[ $rc != 0 ] && grep -q 'RDMA_CM_EVENT_REJECTED' '$log' '$log.err'"
	t_eq "rping to a port with no listener: one REJ sent and one received" "1 1" \
		counters_delta "$OUT/counters.reject.0" "$OUT/counters.reject.1" cm_tx_msgs/rej cm_rx_msgs/rej
}

# --- malformed MADs to QP1 ------------------------------------------------------
# ours: the MAD layer's and the CM's drop counters ("name value" lines)
madstats() { cat /sys/kernel/debug/ib_mad/$DEV-1 /sys/kernel/debug/ib_cm/$DEV-1 2>/dev/null | sort; }
robust_mads()
{
	local n gidx log=$OUT/mad-inject kinds="short base-version class-version bad-class bad-attr bad-method"
	gidx=$(grep -lx 0000:0000:0000:0000:0000:ffff:0a00:020f $CMSYS/gids/* | head -n1)
	gidx=${gidx##*/}
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	madstats >"$OUT/mad.0"
	cm_snap mads.0
	t_run "MADs to QP1: 6 malformed and a REQ to no listener sent from a user UD QP" \
		bash -c "/oot-src/tests/probes/bin/mad_inject $DEV $gidx $kinds req-no-listener >$log 2>&1"
	sed 's/^/# /' "$log"
	sleep 2
	cm_snap mads.1
	madstats >"$OUT/mad.1"
	echo "# CM counters moved: $(cm_moved mads.0 mads.1)"
	# (stock 6.1 takes one of the malformed REQs as a REQ too and
	# rejects it: 2 and 2 there)
	n=$(counters_delta "$OUT/counters.mads.0" "$OUT/counters.mads.1" cm_rx_msgs/req cm_tx_msgs/rej)
	echo "# MADs to QP1: REQs taken, REJs sent: $n"
	t_run "MADs to QP1: the REQ to no listener is rejected" test "${n#* }" -ge 1
	t_run "the CM still connects after the MADs (rping, 10 pings verified)" \
		bash -c "timeout $STO rping -s -a $IP4 -p 7484 -C 10 >$OUT/after-mads.server 2>&1 & sleep 2;
			timeout $TO rping -c -a $IP4 -p 7484 -C 10 -V >$OUT/after-mads.client 2>&1 && wait"
	if [ "$STACK" = ours ]; then
		t_eq "MADs to QP1 (ours): only the well-formed REQ is taken and rejected" "1 1" echo "$n"
		echo "# MAD layer counters moved: $(counters_moved "$OUT/mad.0" "$OUT/mad.1")"
		# short -> rx_dropped_short; base-version -> ..._bad_base_version;
		# class-version, bad-class, bad-method: no agent -> unclaimed;
		# bad-attr reaches the CM, which drops it (ib_cm/)
		t_eq "MADs to QP1 (ours): drops counted: short 1, bad base version 1, unclaimed 3, CM bad attribute 1" "1 1 3 1" \
			counters_delta "$OUT/mad.0" "$OUT/mad.1" rx_dropped_short \
			rx_dropped_bad_base_version rx_dropped_unclaimed rx_dropped_bad_attr
	fi
}

# --- device removal under a live connection ---------------------------------------
robust_removal()
{
	local spid cpid rc gone slog=$OUT/removal.server clog=$OUT/removal.client
	timeout $STO rping -s -a $IP4 -p 7482 -v >"$slog" 2>"$slog.err" &
	spid=$!
	wait_until $LTO eval 'listening_cm rping || ! kill -0 $spid 2>/dev/null'
	timeout $STO stdbuf -oL rping -c -a $IP4 -p 7482 -v >"$clog" 2>"$clog.err" &
	cpid=$!
	if ! wait_until $LTO eval "[ \$(grep -c '^ping data' $clog) -ge 20 ] || ! kill -0 $cpid || ! kill -0 $spid"; then
		:
	fi
	t_run "device removal: an endless rping runs" eval "kill -0 $spid && kill -0 $cpid"
	timeout 120 rdma link delete $DEV
	rc=$?
	t_eq "device removal: rdma link delete under the live rping returns 0 (no hang)" 0 echo $rc
	wait_until 60 eval "! kill -0 $spid 2>/dev/null && ! kill -0 $cpid 2>/dev/null"
	gone=$?
	kill $spid $cpid 2>/dev/null
	wait $spid $cpid 2>/dev/null
	echo "# device removal: server: $(tail -n 2 "$slog.err" | tr '\n' ' ' | head -c 200); client: $(tail -n 2 "$clog.err" | tr '\n' ' ' | head -c 200)"
	t_eq "device removal: both rpings exit by themselves" 0 echo $gone
	t_run "device removal: both ends saw it (RDMA_CM_EVENT_DEVICE_REMOVAL or a flushed connection)" \
		eval "grep -qiE 'device removal|DEVICE_REMOVAL|disconnect|error|flush' '$slog.err' '$slog' && grep -qiE 'device removal|DEVICE_REMOVAL|disconnect|error|flush' '$clog.err' '$clog'"
	t_run "device removal: the link comes back" rdma link add $DEV type rxe netdev eth0
	wait_until 30 eval "grep -qx 0000:0000:0000:0000:0000:ffff:0a00:020f $CMSYS/gids/* 2>/dev/null"
	SLOG=$OUT/after-removal.server CLOG=$OUT/after-removal.client
	pair after-removal cm:rping rping -s -a $IP4 -p 7483 -C 10 -- rping -c -a $IP4 -p 7483 -C 10 -V
	both_ok "device removal: rping connects again on the new link (10 pings, verified)"
}

robust_reject
robust_mads
robust_cycles
robust_removal
