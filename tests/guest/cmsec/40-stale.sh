# shellcheck shell=bash
# Sourced by cm_security.sh (issue 19, finding 5): messages that name a
# live connection of this host must not end it unless they come from its
# peer, and a peer whose answer got lost gets it again.
#   - a REQ claiming the QP and GID of a connection's peer, sent from
#     another address of the port: no stale-connection teardown
#   - a DREQ with the right comm IDs but another QP: dropped
#   - a REP from a peer comm ID another connection already has: a
#     stale-connection REJ, and the connection it collided with lives on
#   - a SIDR_REQ repeated after its SIDR_REP (lost, to the sender: it went
#     to this host's QP1) is answered again
#   - control: the same stale REQ from the peer's own address still ends
#     the connection (the check is on the source, not on the REQ)
# The live connection is an endless rping over loopback; "alive" means it
# still prints pings.  Comm IDs come from debugfs ib_cm/ids (ours) or from
# the in-tree ib_cm's tracepoints (stock, when it has them); what stock
# does where it differs is printed as "# stock:" lines.
IP4B=10.0.2.16
MI=/oot-src/tests/probes/bin/mad_inject
SL=$OUT/stale
mkdir -p "$SL"

GID_A=0000:0000:0000:0000:0000:ffff:0a00:020f	# $IP4
GID_B=0000:0000:0000:0000:0000:ffff:0a00:0210	# $IP4B

ip addr add $IP4B/24 dev eth0
t_run "stale: GID of a second address ($IP4B) on $DEV" wait_until 30 gid_index $GID_B
GA=$(gid_index $GID_A) GB=$(gid_index $GID_B)
echo "# stale: GID index $GA ($IP4), $GB ($IP4B)"

# The live connection, (re)started by live_up when a check ended it (on
# the old code or on stock), so that every check starts with one.
IDS=/sys/kernel/debug/ib_cm/ids
TR=/sys/kernel/tracing
[ -d $TR/events ] || mount -t tracefs nodev $TR 2>/dev/null
if [ ! -r $IDS ] && [ -d $TR/events/ib_cm/icm_send_rtu ]; then
	echo 1 >$TR/events/ib_cm/icm_send_rtu/enable
	echo 1 >$TR/events/ib_cm/icm_send_req/enable
fi
have_ids() { [ -r $IDS ] || [ -d $TR/events/ib_cm/icm_send_rtu ]; }
trace_ids() # EVENT: "LOCAL REMOTE" (hex) of the last such send traced
{
	grep "$1" $TR/trace | tail -n 1 |
		sed -n 's/.*local_id=\([0-9]*\) remote_id=\([0-9]*\).*/\1 \2/p' |
		{ read -r l r && printf '%08x %08x\n' "$l" "$r"; }
}
LIVE_PORT=7300 RC= RS=
alive() # the rping client still runs and still prints pings
{
	local n
	kill -0 "$RC" 2>/dev/null || return 1
	n=$(wc -l <"$SL/client")
	sleep 2
	kill -0 "$RC" 2>/dev/null && [ "$(wc -l <"$SL/client")" -gt "$n" ]
}
rping_qps() # "LQPN RQPN" (hex) of one end of the live rping
{
	if have_ids; then
		awk '$3 == "ESTABLISHED" { print $4, $5; exit }' $IDS
	else
		rdma res show qp 2>/dev/null | awk '/rping/ {
			for (i = 1; i < NF; i++) {
				if ($i == "lqpn") l = $(i+1); if ($i == "rqpn") r = $(i+1)
			}
			if (l != "" && r != "") { printf "%06x %06x\n", l, r; exit } }'
	fi
}
live_up()
{
	kill -0 "$RC" 2>/dev/null && return 0
	[ -n "$RC" ] && { kill "$RC" "$RS" 2>/dev/null; wait "$RC" "$RS" 2>/dev/null; }
	LIVE_PORT=$((LIVE_PORT + 1))
	timeout 900 rping -s -a $IP4 -p $LIVE_PORT >"$SL/server" 2>&1 &
	RS=$!
	wait_until 20 eval 'rdma res show cm_id 2>/dev/null | grep -q "state LISTEN.*comm rping"'
	timeout 900 rping -c -a $IP4 -p $LIVE_PORT -v >"$SL/client" 2>&1 &
	RC=$!
	wait_until 30 alive || return 1
	read -r LQPN RQPN < <(rping_qps)
	echo "# stale: live rping on port $LIVE_PORT, QPs $LQPN <-> $RQPN"
	[ -n "$LQPN" ]
}
live_ids() # "LOCAL REMOTE": comm IDs of one id of the live rping
{
	local l r
	if [ -r $IDS ]; then	# the id on QP $LQPN
		awk -v q="$LQPN" '$3 == "ESTABLISHED" && $4 == q { print $1, $2; exit }' $IDS
	else			# the server's: the client's RTU names both
		read -r l r < <(trace_ids icm_send_rtu)
		echo "$r $l"
	fi
}
connecting_id() # the local comm ID of the last REQ sent, still unanswered
{
	if [ -r $IDS ]; then
		awk '$3 == "REQ_SENT" { print $1; exit }' $IDS
	else
		trace_ids icm_send_req | cut -d' ' -f1
	fi
}
# (not through t_run: live_up sets this shell's RC, RS, LQPN, RQPN)
if live_up; then
	t_result 1 "stale: an endless rping runs"
else
	t_result 0 "stale: an endless rping runs" "$(tail -n 2 "$SL/client")"
fi
rdma res show qp >"$SL/res-qp" 2>&1

# 1. A REQ from $IP4B claiming to be the QP at the other end of $LQPN at
#    $IP4: a stale connection, if the body were believed.
drop0=$(cm_drop rx_dropped_foreign_gid) dreq0=$(cmc cm_tx_msgs dreq)
rej0=$(cmc cm_tx_msgs rej)
t_run "stale: forged REQ sent from $IP4B" \
	$MI -s "$GB" $DEV "$GA" "stale-req:$RQPN"
sleep 2
dreq1=$(cmc cm_tx_msgs dreq) rej1=$(cmc cm_tx_msgs rej)
echo "# stale: after the forged REQ: DREQs sent $((dreq1 - dreq0)), REJs sent $((rej1 - rej0)), rx_dropped_foreign_gid $(($(cm_drop rx_dropped_foreign_gid) - drop0))"
if [ "$STACK" = ours ]; then
	t_run "stale: the live rping survives a REQ forged from another address" alive
	t_eq "stale: forged REQ: no DREQ sent" 0 echo $((dreq1 - dreq0))
	t_eq "stale: forged REQ: counted in rx_dropped_foreign_gid" 1 \
		echo $(($(cm_drop rx_dropped_foreign_gid) - drop0))
else
	alive && echo "# stock: the rping survived the forged REQ" ||
		echo "# stock: the forged REQ ended the rping (stale-connection teardown)"
fi

# 2. A DREQ with the connection's comm IDs, naming another of our QPs.
if have_ids && live_up; then
	read -r LID RID < <(live_ids)
	echo "# stale: an id of the live rping: comm IDs $LID (ours) $RID (peer)"
	bad0=$(cm_drop rx_dropped_bad_qpn) drep0=$(cmc cm_tx_msgs drep)
	BADQ=00dead	# no QP of the live rping's
	t_run "stale: DREQ naming QP $BADQ sent" \
		$MI $DEV "$GA" "dreq:$RID:$LID:$BADQ"
	sleep 1
	t_run "stale: the live rping survives a DREQ naming another QP" alive
	t_eq "stale: bad-QPN DREQ: no DREP sent" 0 echo $(($(cmc cm_tx_msgs drep) - drep0))
	[ "$STACK" = ours ] &&
		t_eq "stale: bad-QPN DREQ: counted in rx_dropped_bad_qpn" 1 \
			echo $(($(cm_drop rx_dropped_bad_qpn) - bad0))
else
	echo "# $STACK: no ib_cm/ids (or no rping): bad-QPN DREQ not tried"
fi

# 3. A REP to a connecting id (an rping client whose server is stopped
#    before it can answer) from the peer comm ID of the live connection.
if have_ids && live_up; then
	# (no timeout(1) around it: SIGSTOP must reach rping itself)
	rping -s -a $IP4 -p 7399 -C 1 >"$SL/server2" 2>&1 &
	RS2=$!
	wait_until 20 eval '[ "$(rdma res show cm_id 2>/dev/null | grep -c "state LISTEN.*comm rping")" = 2 ]'
	kill -STOP $RS2
	timeout 120 rping -c -a $IP4 -p 7399 -C 1 >"$SL/client2" 2>&1 &
	RC2=$!
	wait_until 60 eval '[ -n "$(connecting_id)" ] && [ "$(connecting_id)" != "$RID" ]'
	XID=$(connecting_id)
	read -r LID RID < <(live_ids)
	echo "# stale: connecting id $XID; the live id's peer is $RID"
	rej0=$(cmc cm_tx_msgs rej) st0=$(cm_drop rx_dropped_stale)
	t_run "stale: REP from peer comm ID $RID to $XID sent" \
		$MI $DEV "$GA" "rep:$RID:$XID"
	sleep 1
	t_eq "stale: colliding REP: a REJ sent" 1 echo $(($(cmc cm_tx_msgs rej) - rej0))
	if [ "$STACK" = ours ]; then
		t_eq "stale: colliding REP: counted in rx_dropped_stale" 1 \
			echo $(($(cm_drop rx_dropped_stale) - st0))
		t_eq "stale: colliding REP: the connecting id still waits for its REP" \
			REQ_SENT awk -v x="$XID" '$1 == x { print $3 }' $IDS
	fi
	t_run "stale: the live rping survives the colliding REP" alive
	kill $RC2 $RS2 2>/dev/null
	kill -CONT $RS2 2>/dev/null
	wait $RC2 $RS2 2>/dev/null
else
	echo "# $STACK: no ib_cm/ids (or no rping): REP collision not tried"
fi

# 4. SIDR: udaddy listens (UDP port space, 7174); the first SIDR_REQ is
#    answered; the same request again (same ID, same TID) is answered too.
timeout 120 udaddy -b $IP4 -c 1 -C 1 >"$SL/udaddy" 2>&1 &
UD=$!
wait_until 20 eval 'rdma res show cm_id 2>/dev/null | grep -q "state LISTEN.*comm udaddy"'
sr0=$(cmc cm_tx_msgs sidr_rep) dup0=$(cmc cm_rx_duplicates sidr_req)
t_run "stale: SIDR_REQ to udaddy sent" $MI $DEV "$GA" sidr-req:7174:5eed0001
t_run "stale: SIDR_REQ answered (a SIDR_REP sent)" \
	wait_until 10 eval '[ $(($(cmc cm_tx_msgs sidr_rep) - sr0)) -ge 1 ]'
t_run "stale: the same SIDR_REQ again, as after a lost SIDR_REP" \
	$MI $DEV "$GA" sidr-req:7174:5eed0001
wait_until 10 eval '[ $(($(cmc cm_tx_msgs sidr_rep) - sr0)) -ge 2 ]'
echo "# stale: SIDR_REPs sent for the two: $(($(cmc cm_tx_msgs sidr_rep) - sr0)), SIDR_REQ duplicates counted $(($(cmc cm_rx_duplicates sidr_req) - dup0))"
t_eq "stale: the repeated SIDR_REQ is answered too (2 SIDR_REPs)" 2 \
	echo $(($(cmc cm_tx_msgs sidr_rep) - sr0))
kill $UD 2>/dev/null
wait $UD 2>/dev/null

# 5. Control: the peer's own address sending the stale REQ ends the
#    connection, as a restarted peer's REQ must.
if live_up; then
	dreq0=$(cmc cm_tx_msgs dreq)
	t_run "stale: the same REQ from $IP4 itself sent" \
		$MI $DEV "$GA" "stale-req:$RQPN"
	t_run "stale: a true stale REQ ends the connection (DREQ sent)" \
		wait_until 10 eval '[ $(($(cmc cm_tx_msgs dreq) - dreq0)) -ge 1 ]'
	t_run "stale: ... and the rping client ends" wait_until 30 eval '! kill -0 $RC 2>/dev/null'
else
	t_result 0 "stale: a true stale REQ ends the connection" "no live rping"
fi
kill $RC $RS 2>/dev/null
wait $RC $RS 2>/dev/null
ip addr del $IP4B/24 dev eth0
t_run "stale: no cm_id left" wait_until 60 eval '[ "$(cm_ids)" = 0 ]'
