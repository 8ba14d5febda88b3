# shellcheck shell=bash
# Sourced by tests/guest/cm_security.sh (DEV, IP4, OUT, STACK, mad_counter).
# Issue 19, finding 1: a UD datagram bigger than the receive buffer it lands
# in must cost that datagram only.  QP1's buffers hold 40 + 256 bytes: a
# 1024-byte SEND to QPN 1 with the GSI Q_Key used to put QP1 in ERR for
# good (every CM message flushed, rdma_connect() hanging, the MAD layer
# reposting flushed receives forever); the same for a plain UD QP with the
# well-known rdma_cm Q_Key.  Counters (ours): rxe's hw counter
# rcvd_ud_len_err (a UD receive too small for its datagram) and ib_mad/'s
# rx_errors (a receive completed in error), rx_flushed (flushed receives:
# must not keep rising), qp_recoveries (QP1 brought back from ERR),
# qp_state (QP1's state).
QP1_TO=60
qp1_bin=/oot-src/tests/probes/bin
qp1_gidx=$(grep -lx 0000:0000:0000:0000:0000:ffff:0a00:020f /sys/class/infiniband/$DEV/ports/1/gids/* | head -n1)
qp1_gidx=${qp1_gidx##*/}

qp1_hw() # NAME: a hw counter of port 1, "none" when the device has none
{
	cat /sys/class/infiniband/$DEV/ports/1/hw_counters/"$1" 2>/dev/null || echo none
}
# QP1's state as ib_mad/ reports it (ours): "RTS", ...
qp1_state() { mad_counter qp_state 2>/dev/null; }

# Percent of the last 3 s the CPU was busy: a completion loop shows as ~100.
qp1_cpu_busy()
{
	local a b
	read -r -a a < <(grep '^cpu ' /proc/stat)
	sleep 3
	read -r -a b < <(grep '^cpu ' /proc/stat)
	local i tot=0 idle
	for i in 1 2 3 4 5 6 7 8; do tot=$((tot + b[i] - a[i])); done
	idle=$((b[4] - a[4] + b[5] - a[5]))
	echo $(((tot - idle) * 100 / (tot ? tot : 1)))
}

# rping with 10 verified pings over a fresh connection on PORT
qp1_rping() # PORT TAG
{
	timeout $((QP1_TO + 30)) rping -s -a $IP4 -p "$1" -C 10 >"$OUT/$2.server" 2>&1 &
	local srv=$!
	sleep 2
	timeout $QP1_TO rping -c -a $IP4 -p "$1" -C 10 -V >"$OUT/$2.client" 2>&1
	local rc=$?
	[ $rc = 0 ] || kill $srv 2>/dev/null
	wait $srv
	return $rc
}

# --- three oversize datagrams to QP1 --------------------------------------------
qp1_len0=$(qp1_hw rcvd_ud_len_err)
qp1_err0=$(mad_counter rx_errors 2>/dev/null)
echo "# QP1 before: $(qp1_state)"
t_run "3 datagrams of 1024 bytes sent to QP1 (Q_Key 0x80010000)" \
	bash -c "$qp1_bin/mad_inject $DEV $qp1_gidx oversize oversize oversize >$OUT/qp1-inject 2>&1"
sleep 2
echo "# QP1 after: $(qp1_state); CPU busy $(qp1_cpu_busy)% over 3 s"
t_run "nothing loops after them (CPU busy < 60% over 3 s)" \
	eval '[ "$(qp1_cpu_busy)" -lt 60 ]'
t_run "rdma_cm still connects after them (rping, 10 pings verified)" qp1_rping 7490 qp1-rping
echo "# rping client: $(tail -n 2 "$OUT/qp1-rping.client" | tr '\n' ' ')"
if [ "$STACK" = ours ]; then
	t_run "QP1 is still in RTS" eval '[ "$(qp1_state)" = RTS ]'
	t_eq "the 3 drops counted: hw rcvd_ud_len_err +3, ib_mad rx_errors +3" "3 3" \
		eval 'echo $(($(qp1_hw rcvd_ud_len_err) - qp1_len0)) $(($(mad_counter rx_errors) - qp1_err0))'
	qp1_fl0=$(mad_counter rx_flushed)
	sleep 2
	t_eq "no flushed receive keeps coming back (ib_mad rx_flushed steady over 2 s)" \
		"$qp1_fl0" mad_counter rx_flushed
fi

# --- a plain UD QP with the rdma_cm Q_Key -----------------------------------------
qp1_len0=$(qp1_hw rcvd_ud_len_err)
"$qp1_bin/ud_sink" $DEV 20 >"$OUT/ud-sink" 2>&1 &
qp1_sink=$!
wait_until 20 grep -q '^qpn ' "$OUT/ud-sink"
qp1_qpn=$(sed -n 's/^qpn //p' "$OUT/ud-sink")
t_run "a datagram of 1024 bytes, then one of 64, sent to UD QP ${qp1_qpn:-?} (Q_Key 0x01234567)" \
	bash -c "$qp1_bin/mad_inject $DEV $qp1_gidx ud-oversize=$qp1_qpn ud-small=$qp1_qpn >$OUT/ud-inject 2>&1"
wait $qp1_sink
sed 's/^/# ud_sink: /' "$OUT/ud-sink"
t_run "the UD QP still receives the 64-byte datagram (40 + 64 bytes)" \
	grep -qx 'recv success byte_len=104' "$OUT/ud-sink"
t_run "the UD QP is still in RTS" grep -qx 'state RTS' "$OUT/ud-sink"
if [ "$STACK" = ours ]; then
	t_eq "the drop counted: hw rcvd_ud_len_err +1" 1 \
		eval 'echo $(($(qp1_hw rcvd_ud_len_err) - qp1_len0))'
fi

# --- QP1 in ERR all the same (ours: rxe's debugfs qp_error forces it) -------------
# Nothing from the wire does that any more; a local fault still could.  The
# MAD layer must bring QP1 back (counted in ib_mad/ qp_recoveries), and a CM
# message the QP flushes must end its id with an error event: rdma_connect()
# returns, it does not wait forever.
qp1_force=/sys/kernel/debug/rdma_rxe/$DEV/qp_error
if [ "$STACK" = ours ] && [ -e "$qp1_force" ]; then
	qp1_rec0=$(mad_counter qp_recoveries)
	t_run "QP1 forced to ERR" eval "echo 1 >$qp1_force"
	t_run "the MAD layer brings it back to RTS and counts it (qp_recoveries +1)" \
		wait_until 30 eval '[ "$(mad_counter qp_recoveries)" -gt "$qp1_rec0" ] && [ "$(qp1_state)" = RTS ]'
	t_run "rdma_cm connects after the recovery (rping, 10 pings verified)" qp1_rping 7491 qp1-recovered
	# rping while QP1 is knocked into ERR every 0.1 s: each CM message
	# the QP flushes must become an event; the client must end by itself.
	timeout 120 rping -s -a $IP4 -p 7492 -C 3 >"$OUT/qp1-hammer.server" 2>&1 &
	qp1_srv=$!
	sleep 2
	timeout 90 rping -c -a $IP4 -p 7492 -C 3 -V >"$OUT/qp1-hammer.client" 2>&1 &
	qp1_cli=$!
	while kill -0 $qp1_cli 2>/dev/null; do echo 1 >"$qp1_force"; sleep 0.1; done
	wait $qp1_cli
	qp1_rc=$?
	kill $qp1_srv 2>/dev/null
	wait $qp1_srv
	echo "# rping under QP1 errors: exit $qp1_rc: $(tail -n 3 "$OUT/qp1-hammer.client" | tr '\n' ' ' | head -c 300)"
	echo "# ib_mad after it: qp_recoveries $(mad_counter qp_recoveries), rx_flushed $(mad_counter rx_flushed), qp_recovery_failures $(mad_counter qp_recovery_failures)"
	t_run "rping while QP1 keeps failing ends by itself (connected or an error event), not by timeout" \
		test "$qp1_rc" != 124
	t_run "QP1 back in RTS afterwards" wait_until 30 eval '[ "$(qp1_state)" = RTS ]'
	t_run "rdma_cm connects afterwards (rping, 10 pings verified)" qp1_rping 7493 qp1-after
fi
