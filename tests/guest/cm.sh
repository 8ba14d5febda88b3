#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the connection-manager tests, on whichever stack OOT_STACK
# names, both ends on rxe0 of one guest, over its IPv4 address (10.0.2.15)
# and its IPv6 address (fd00::15).  The stock rdma-core 44 tools, unmodified:
#   rping (data verified), ucmatose (several RC connections), udaddy (UD
#   through SIDR), rdma_server/rdma_client, ib_send_bw/ib_write_bw/
#   ib_read_lat -R, qperf -cm1 rc_bw rc_lat, fi_pingpong (libfabric verbs,
#   msg endpoints), mckey (multicast); perftest and qperf over IPv4 only
#   (both resolve their RDMA peer as AF_INET only), and over IPv6 mckey's
#   join is refused (ENOTSUPP: 6.1's rdma_cm joins no IPv6 group on RoCE
#   v2);
# then `rdma res` cm_id counts during a connection and after, the CM
# counters in sysfs (layout and movement), and kill -9 of a connected rping
# on either side: no id left behind; the robustness checks of
# tests/guest/cm_robust.sh (connect/disconnect cycles, REJ, malformed MADs to
# QP1, device removal under a live connection); the modules unload.
#
# Flow per tool: the server starts under `timeout`, the client starts once
# the server is seen listening (its cm_id in LISTEN state in `rdma res`, a
# TCP listener in `ss`, or a line in its log), then both exit codes and
# the figures the tools print are checked.  Every check line is
# "ok - DESC" / "not ok - DESC: why" with stable DESCs on both stacks
# (tests/host/compare-cm.sh lines them up); figures go to "# " lines.  Logs of
# each tool in /oot-out/cm/.
set -u
. /oot-src/tests/guest/lib.sh
STACK=${OOT_STACK:?}
OUT=/oot-out/cm
rm -rf "$OUT"
mkdir -p "$OUT"
DEV=rxe0
IP4=10.0.2.15
IP6=fd00::15
CMSYS=/sys/class/infiniband/$DEV/ports/1
# Seconds (TCG is slow; on stock every tool here takes under 20 s even on
# a loaded host).  A client gives up after TO, its server after STO; a
# listener must show up within LTO; a server must be done GRACE after its
# client.
TO=120
STO=$((TO + 30))
LTO=60
GRACE=30
echo "# cm: $STACK stack, kernel $(uname -r)"
# Every check's outcome also goes to $OUT/results.tsv (DESC, ok|not ok) for
# tests/host/compare-cm.sh: lib.sh's t_result, wrapped.
eval "$(declare -f t_result | sed '1s/^t_result/t_result_lib/')"
t_result()
{
	local before=$T_PASS
	t_result_lib "$@"
	printf '%s\t%s\n' "$2" "$([ "$T_PASS" -gt "$before" ] && echo ok || echo 'not ok')" \
		>>"$OUT/results.tsv"
}

# --- set-up -----------------------------------------------------------------
t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_run "modprobe rdma_ucm" modprobe rdma_ucm
for m in ib_core ib_uverbs rdma_rxe ib_cm rdma_cm rdma_ucm; do
	echo "# $m: $(modinfo -F filename $m 2>/dev/null) version $(cat /sys/module/$m/version 2>/dev/null || echo -)"
done
ip link set lo up
ip link set eth0 up
ip addr add $IP4/24 dev eth0
ip -6 addr add $IP6/64 dev eth0 nodad
# multicast (mckey) leaves through eth0: there is no default route
ip route add 224.0.0.0/4 dev eth0
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
gid_present() { grep -qx "$1" $CMSYS/gids/* 2>/dev/null; }
t_run "GIDs of $IP4 and $IP6 on $DEV" wait_until 30 eval \
	"gid_present 0000:0000:0000:0000:0000:ffff:0a00:020f && gid_present fd00:0000:0000:0000:0000:0000:0000:0015"

# (pyverbs' rdmacm tests look for the netdev there; stock 6.1 rxe has none)
echo "# $DEV device/net: $(ls /sys/class/infiniband/$DEV/device/net 2>&1)"

# --- helpers ----------------------------------------------------------------
# cm_ids: how many `rdma res show cm_id` lists; res_cm_id: the cm_id figure
# of the `rdma res` summary of rxe0.
cm_ids() { rdma res show cm_id 2>/dev/null | grep -c 'cm-idn'; }
res_cm_id() { rdma res show $DEV 2>/dev/null | sed -n 's/.* cm_id \([0-9]*\).*/\1/p'; }
res_qp() { rdma res show $DEV 2>/dev/null | sed -n 's/.* qp \([0-9]*\).*/\1/p'; }
listening_cm() # COMM: a cm_id of process COMM in LISTEN state
{
	rdma res show cm_id 2>/dev/null | grep 'state LISTEN' | grep -q "comm $1\b"
}
listening_tcp() { ss -Hltn "sport = :$1" | grep -q .; }
log_has() { grep -q "$2" "$1" 2>/dev/null; }

# CM counters: "DIR/MSG VALUE" lines, DIR cm_rx_msgs ... MSG req ...
CM_DIRS="cm_rx_msgs cm_tx_msgs cm_rx_duplicates cm_tx_retries"
CM_MSGS="apr drep dreq lap mra rej rep req rtu sidr_rep sidr_req"
cm_counters()
{
	local d m
	for d in $CM_DIRS; do
		for m in $CM_MSGS; do
			echo "$d/$m $(cat $CMSYS/$d/$m 2>/dev/null || echo -)"
		done
	done
}
cm_snap() { cm_counters >"$OUT/counters.$1"; }
cm_net() # FROM TO MSG: received MSG minus received duplicates of it
{
	join "$OUT/counters.$1" "$OUT/counters.$2" |
		awk -v m="$3" '$1 == "cm_rx_msgs/" m { r = $3 - $2; seen++ }
			$1 == "cm_rx_duplicates/" m { d = $3 - $2; seen++ }
			END { if (seen == 2 && r == r + 0) print r - d; else print "?" }'
}
cm_moved() # FROM TO: "DIR/MSG+N ..." of the counters that moved
{
	counters_moved "$OUT/counters.$1" "$OUT/counters.$2"
}
# Two snapshots of "name value" lines (CM counters, debugfs drop counts):
counters_moved() # FILE0 FILE1: "name+N ..." of those that moved
{
	join "$1" "$2" | awk '$2 != $3 { printf "%s+%s ", $1, $3 - $2 }'
}
counters_delta() # FILE0 FILE1 NAME...: how far each NAME moved (0 if absent)
{
	local f0=$1 f1=$2
	shift 2
	join "$f0" "$f1" | awk -v names="$*" '{ d[$1] = $3 - $2 }
		END { n = split(names, w); for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? " " : ""), d[w[i]] }'
}

FAILS_IN_A_ROW=0
# pair NAME READY SERVER-CMD... -- CLIENT-CMD...
# Starts the server, waits until READY (cm:COMM, tcp:PORT or log:REGEX),
# runs the client, waits for the server.  Sets SRC and CRC (exit codes;
# 124 is a timeout, 200 the server never got ready, 201 not run: after 3
# tools in a row failed, the rest are reported failed without running), SLOG and CLOG (their
# stdout; stderr in SLOG.err and CLOG.err, apart: a tool's unbuffered
# stderr would land in the middle of its stdout's lines) and SECS.
pair()
{
	local name=$1 ready=$2 srv=() cli=() spid t0 ok
	shift 2
	while [ "$1" != -- ]; do srv+=("$1"); shift; done
	shift
	cli=("$@")
	SLOG=$OUT/$name.server CLOG=$OUT/$name.client
	if [ "$FAILS_IN_A_ROW" -ge 3 ]; then
		# a stack that cannot connect at all: within the time budget
		SRC=201 CRC=201
		: >"$SLOG"
		: >"$CLOG"
		echo "not run: the 3 tools before failed" >"$SLOG.err"
		echo "not run: the 3 tools before failed" >"$CLOG.err"
		return
	fi
	t0=$(date +%s)
	timeout $STO "${srv[@]}" >"$SLOG" 2>"$SLOG.err" &
	spid=$!
	# ready, or the server is gone (then no waiting for it)
	case "$ready" in
	cm:*) wait_until $LTO eval 'listening_cm "${ready#cm:}" || ! kill -0 $spid 2>/dev/null' ;;
	tcp:*) wait_until $LTO eval 'listening_tcp "${ready#tcp:}" || ! kill -0 $spid 2>/dev/null' ;;
	log:*) wait_until $LTO eval 'log_has "$SLOG" "${ready#log:}" || ! kill -0 $spid 2>/dev/null' ;;
	esac
	kill -0 $spid 2>/dev/null
	ok=$?
	if [ $ok = 0 ]; then
		timeout $TO "${cli[@]}" >"$CLOG" 2>"$CLOG.err"
		CRC=$?
	else
		echo "server not ready after ${LTO}s" >"$CLOG.err"
		CRC=200
	fi
	# a server whose client is done has GRACE seconds to finish too
	if ! wait_until $GRACE eval '! kill -0 $spid 2>/dev/null'; then
		echo "still running ${GRACE}s after its client exited: killed" >>"$SLOG.err"
		kill $spid 2>/dev/null
	fi
	wait $spid
	SRC=$?
	SECS=$(($(date +%s) - t0))
	if [ "$SRC" = 0 ] && [ "$CRC" = 0 ]; then
		FAILS_IN_A_ROW=0
	else
		FAILS_IN_A_ROW=$((FAILS_IN_A_ROW + 1))
	fi
	echo "# $name: server exit $SRC, client exit $CRC, ${SECS}s"
}
# why: the last lines of both logs, for a "not ok" line
why()
{
	echo "server $SRC: $(tail -q -n 2 "$SLOG" "$SLOG.err" 2>/dev/null | tr '\n' ' ' | head -c 250) / client $CRC: $(tail -q -n 2 "$CLOG" "$CLOG.err" 2>/dev/null | tr '\n' ' ' | head -c 250)"
}
both_ok() # DESC [EXTRA-CONDITION-CMD...]
{
	local desc=$1
	shift
	if [ "$SRC" = 0 ] && [ "$CRC" = 0 ] && { [ $# = 0 ] || "$@"; }; then
		t_result 1 "$desc"
	else
		t_result 0 "$desc" "$(why)"
	fi
}

# --- per-family tool runs ----------------------------------------------------
# FAM: ipv4 | ipv6, A: the address
tools()
{
	local FAM=$1 A=$2 n
	local f6=() mc=239.1.2.3
	[ "$FAM" = ipv6 ] && { f6=(-6); mc=ff0e::1:2:3; }

	# rping: 1000 pings, each one's data checked by the client (-V);
	# -v prints each, so the client's log has exactly 1000 "ping data".
	cm_snap rping-$FAM.0
	pair rping-$FAM cm:rping rping -s -a "$A" -C 1000 -- \
		rping -c -a "$A" -C 1000 -V -v
	cm_snap rping-$FAM.1
	n=$(grep -c '^ping data: ' "$CLOG")
	echo "# rping-$FAM: $n pings verified; CM counters moved: $(cm_moved rping-$FAM.0 rping-$FAM.1)"
	both_ok "rping $FAM: 1000 pings, data verified (-V)" \
		test "$n" = 1000 -a -z "$(grep -i mismatch "$CLOG")"
	# one connection, on one port: each of REQ REP RTU DREQ DREP went out
	# and came in (tx and rx: both ends are this port)
	t_eq "rping $FAM: CM counters: req rep rtu dreq drep sent and received" \
		"cm_rx_msgs/drep cm_rx_msgs/dreq cm_rx_msgs/rep cm_rx_msgs/req cm_rx_msgs/rtu cm_tx_msgs/drep cm_tx_msgs/dreq cm_tx_msgs/rep cm_tx_msgs/req cm_tx_msgs/rtu" \
		bash -c "join $OUT/counters.rping-$FAM.0 $OUT/counters.rping-$FAM.1 |
			awk '\$1 ~ /_msgs\\/(req|rep|rtu|dreq|drep)\$/ && \$3 != \"-\" && \$3 > \$2 { print \$1 }' | sort | tr '\n' ' ' | sed 's/ \$//'"

	# ucmatose: 4 RC connections, 20 messages each way on each
	cm_snap ucmatose-$FAM.0
	pair ucmatose-$FAM cm:ucmatose ucmatose -b "$A" -c 4 -C 20 -- \
		ucmatose -s "$A" -c 4 -C 20
	cm_snap ucmatose-$FAM.1
	n=$(cm_net ucmatose-$FAM.0 ucmatose-$FAM.1 rtu)
	echo "# ucmatose-$FAM: $n RTUs received; CM counters moved: $(cm_moved ucmatose-$FAM.0 ucmatose-$FAM.1)"
	both_ok "ucmatose $FAM: 4 connections, 20 messages each way on each" \
		eval "grep -q '^data transfers complete' '$SLOG' && grep -q '^data transfers complete' '$CLOG' && grep -q '^return status 0' '$CLOG'"
	t_eq "ucmatose $FAM: 4 connections established (RTUs received)" 4 echo "$n"

	# udaddy: 2 UD endpoints resolved through SIDR, 10 messages each way
	cm_snap udaddy-$FAM.0
	pair udaddy-$FAM cm:udaddy udaddy -b "$A" -c 2 -C 10 -- \
		udaddy -s "$A" -c 2 -C 10
	cm_snap udaddy-$FAM.1
	n=$(cm_net udaddy-$FAM.0 udaddy-$FAM.1 sidr_rep)
	echo "# udaddy-$FAM: $n SIDR REPs received; CM counters moved: $(cm_moved udaddy-$FAM.0 udaddy-$FAM.1)"
	both_ok "udaddy $FAM: 2 UD endpoints, 10 messages each way" \
		eval "grep -q '^data transfers complete' '$SLOG' && grep -q '^data transfers complete' '$CLOG' && grep -q '^return status 0' '$CLOG'"
	t_eq "udaddy $FAM: 2 SIDR exchanges (SIDR REPs received)" 2 echo "$n"

	# rdma_server / rdma_client: one send/recv over rdma_create_ep
	pair rdma_server-$FAM cm:rdma_server rdma_server -s "$A" -p 7471 -- \
		rdma_client -s "$A" -p 7471
	both_ok "rdma_server/rdma_client $FAM" \
		eval "grep -q '^rdma_server: end 0' '$SLOG' && grep -q '^rdma_client: end 0' '$CLOG'"

	# perftest over rdma_cm: the result row (size, iterations) is there.
	# IPv4 only: perftest 4.5's rdma_cm path resolves the server name as
	# AF_INET only ("Problem in resolving basic address and port" for an
	# IPv6 address; its --ipv6 only picks the GID of the non-CM path).
	if [ "$FAM" = ipv4 ]; then
		pair ib_send_bw-$FAM cm:ib_send_bw ib_send_bw -d $DEV -R -F -s 65536 -n 200 -- \
			ib_send_bw -d $DEV -R -F -s 65536 -n 200 "$A"
		awk '$1 == 65536 && $2 == 200 { print "# ib_send_bw-'$FAM': " $4 " MB/s avg" }' "$CLOG"
		both_ok "ib_send_bw -R $FAM: 200 x 64 KiB" \
			eval "awk '\$1 == 65536 && \$2 == 200 { f = 1 } END { exit !f }' '$CLOG'"
		pair ib_write_bw-$FAM cm:ib_write_bw ib_write_bw -d $DEV -R -F -s 65536 -n 200 -- \
			ib_write_bw -d $DEV -R -F -s 65536 -n 200 "$A"
		awk '$1 == 65536 && $2 == 200 { print "# ib_write_bw-'$FAM': " $4 " MB/s avg" }' "$CLOG"
		both_ok "ib_write_bw -R $FAM: 200 x 64 KiB" \
			eval "awk '\$1 == 65536 && \$2 == 200 { f = 1 } END { exit !f }' '$CLOG'"
		pair ib_read_lat-$FAM cm:ib_read_lat ib_read_lat -d $DEV -R -F -s 2 -n 200 -- \
			ib_read_lat -d $DEV -R -F -s 2 -n 200 "$A"
		awk '$1 == 2 && $2 == 200 { print "# ib_read_lat-'$FAM': t_typical " $5 " usec" }' "$CLOG"
		both_ok "ib_read_lat -R $FAM: 200 x 2 B" \
			eval "awk '\$1 == 2 && \$2 == 200 { f = 1 } END { exit !f }' '$CLOG'"
	fi

	# qperf: its server runs until killed; the client's figures decide.
	# IPv4 only: qperf 0.4.11 looks the RDMA address up as AF_INET
	# ("getaddrinfo failed: Address family for hostname not supported").
	if [ "$FAM" = ipv4 ] && [ "$FAILS_IN_A_ROW" -ge 3 ]; then
		t_result 0 "qperf -cm1 $FAM: rc_bw and rc_lat measured" \
			"not run: the 3 tools before failed"
	elif [ "$FAM" = ipv4 ]; then
		timeout $STO qperf >"$OUT/qperf-$FAM.server" 2>"$OUT/qperf-$FAM.server.err" &
		local qpid=$!
		SLOG=$OUT/qperf-$FAM.server CLOG=$OUT/qperf-$FAM.client SRC=0
		if wait_until $LTO listening_tcp 19765; then
			timeout $TO qperf -cm1 "$A" rc_bw rc_lat >"$CLOG" 2>"$CLOG.err"
			CRC=$?
		else
			CRC=200
		fi
		kill $qpid 2>/dev/null
		wait $qpid 2>/dev/null
		echo "# qperf-$FAM: $(tr -s ' \n' ' ' <"$CLOG")"
		both_ok "qperf -cm1 $FAM: rc_bw and rc_lat measured" \
			eval "grep -qE '^ *bw += +[0-9.]+ [KMG]B/sec' '$CLOG' && grep -qE '^ *latency += +[0-9.]+ [mun]?s' '$CLOG'"
	fi

	# libfabric's verbs provider, msg endpoints (rdma_cm underneath):
	# 100 x 1 KiB with data checked (-c); the row reads "1k 100 =100 ..."
	pair fi_pingpong-$FAM tcp:47592 fi_pingpong -p verbs -e msg -d $DEV "${f6[@]}" -I 100 -S 1024 -c -- \
		fi_pingpong -p verbs -e msg -d $DEV "${f6[@]}" -I 100 -S 1024 -c "$A"
	awk '$2 == 100 && $3 == "=100" { print "# fi_pingpong-'$FAM': " $0 }' "$CLOG"
	both_ok "fi_pingpong verbs msg $FAM: 100 x 1 KiB, data checked" \
		eval "awk '\$2 == 100 && \$3 == \"=100\" { f = 1 } END { exit !f }' '$CLOG'"

	# mckey: the receiver joins, then the sender sends 10 datagrams to
	# the group; the receiver exits once it has received all 10
	# 6.1's rdma_cm joins no IPv6 group on RoCE v2 (ENOTSUPP, 524); ours does
	if [ "$FAM" = ipv4 ] || [ "$STACK" = ours ]; then
		pair mckey-$FAM "log:joined dgid" stdbuf -oL mckey -m $mc -b "$A" -C 10 -- \
			mckey -m $mc -b "$A" -s -C 10
		both_ok "mckey $FAM: 10 multicast messages received" \
			eval "grep -q '^data transfers complete' '$SLOG' && grep -q '^return status 0' '$SLOG'"
	else
		SLOG=$OUT/mckey-$FAM.server
		timeout $TO mckey -m $mc -b "$A" -C 10 >"$SLOG" 2>"$SLOG.err"
		SRC=$? CRC=-
		echo "# mckey-$FAM: exit $SRC: $(tr '\n' ' ' <"$SLOG.err")"
		SRC=$([ "$SRC" = 255 ] && grep -q 'failure joining: Unknown error 524' "$SLOG.err" && echo 0 || echo "$SRC") CRC=0 CLOG=/dev/null
		both_ok "mckey $FAM: the join is refused with ENOTSUPP (no IPv6 multicast on RoCE v2 in 6.1)"
	fi
}

# (CM_ONLY=robust: only the robustness checks, when working on them)
if [ "${CM_ONLY:-}" != robust ]; then
t_run "fi_info -p verbs lists $DEV" bash -c "fi_info -p verbs 2>&1 | tee $OUT/fi_info | grep -q 'domain: $DEV'"
tools ipv4 $IP4
tools ipv6 $IP6

# --- rdma res, counters, kill -9 ------------------------------------------------
t_eq "CM counter directories in $CMSYS" "$CM_DIRS" \
	bash -c "for d in $CM_DIRS; do [ -d $CMSYS/\$d ] && echo -n \"\$d \"; done | sed 's/ \$//'"
for d in $CM_DIRS; do
	t_eq "CM counters $d: the message names" "$CM_MSGS" \
		bash -c "ls $CMSYS/$d 2>/dev/null | sort | tr '\n' ' ' | sed 's/ \$//'"
done
echo "# CM counters after the tools: $(cm_counters | awk '$2 != 0' | tr '\n' ' ')"
t_eq "no cm_id left after the tools" 0 cm_ids

# An endless rping (no -C); during it: the listener and both ends of the
# connection in `rdma res`; then kill -9 one end.  The other end sees the
# disconnection and exits on its own; no id is left.
killtest() # VICTIM (client|server)
{
	local victim=$1 spid cpid other n vpid qp0
	qp0=$(res_qp)
	SLOG=$OUT/kill-$victim.server CLOG=$OUT/kill-$victim.client
	timeout $STO rping -s -a $IP4 -v >"$SLOG" 2>"$SLOG.err" &
	spid=$!
	wait_until $LTO eval 'listening_cm rping || ! kill -0 $spid 2>/dev/null'
	timeout $STO stdbuf -oL rping -c -a $IP4 -v >"$CLOG" 2>"$CLOG.err" &
	cpid=$!
	wait_until $LTO eval "[ \$(grep -c '^ping data' $CLOG) -ge 20 ] || ! kill -0 $cpid || ! kill -0 $spid"
	if ! kill -0 $spid 2>/dev/null || ! kill -0 $cpid 2>/dev/null; then
		SRC=- CRC=-
		t_result 0 "kill -9 $victim: an endless rping runs" "$(why)"
		kill $spid $cpid 2>/dev/null
		wait $spid $cpid 2>/dev/null
		t_run "kill -9 $victim: no cm_id left (rdma res)" wait_until 60 eval '[ "$(cm_ids)" = 0 ] && [ "$(res_cm_id)" = 0 ]'
		return
	fi
	t_result 1 "kill -9 $victim: an endless rping runs"
	rdma res show cm_id >"$OUT/kill-$victim.cm_id" 2>&1
	sed 's/^/# /' "$OUT/kill-$victim.cm_id"
	t_eq "kill -9 $victim: rdma res summary: cm_id 3" 3 res_cm_id
	t_eq "kill -9 $victim: rdma res shows 3 cm_ids during the rping (listener, both ends)" 3 cm_ids
	t_eq "kill -9 $victim: 2 cm_ids in state CONNECT" 2 \
		bash -c "grep -c 'state CONNECT' $OUT/kill-$victim.cm_id"
	t_eq "kill -9 $victim: the 3 cm_ids belong to rping" 3 \
		bash -c "grep -c 'comm rping' $OUT/kill-$victim.cm_id"
	# the rping itself, not the `timeout` it runs under
	if [ "$victim" = client ]; then
		vpid=$(pgrep -P $cpid rping)
		other=$spid
	else
		vpid=$(pgrep -P $spid rping)
		other=$cpid
	fi
	t_run "kill -9 $victim: the rping killed" kill -9 "$vpid"
	wait_until 120 eval "! kill -0 $other 2>/dev/null"
	n=$?
	wait $spid 2>/dev/null
	wait $cpid 2>/dev/null
	t_eq "kill -9 $victim: the other end exits by itself" 0 echo $n
	t_run "kill -9 $victim: no cm_id left (rdma res)" wait_until 60 eval '[ "$(cm_ids)" = 0 ] && [ "$(res_cm_id)" = 0 ]'
	t_eq "kill -9 $victim: no QP left (rdma res qp as before)" "$qp0" res_qp
	echo "# after kill -9 $victim: $(rdma res show $DEV)"
}
killtest client
killtest server
fi

# Robustness: cycles, REJ, malformed MADs, device removal (cm_robust.sh)
. /oot-src/tests/guest/cm_robust.sh

echo "# CM counters at the end: $(cm_counters | awk '$2 != 0' | tr '\n' ' ')"
t_run "rdma link delete $DEV" rdma link delete $DEV
modules="rdma_ucm rdma_cm iw_cm ib_cm rdma_rxe ib_uverbs ib_core"
loaded=$(for m in $modules; do [ -d /sys/module/$m ] && echo $m; done)
echo "# loaded: $(echo $loaded)"
t_run "unload the modules" modprobe -r $loaded
t_eq "no module of the stack left" "" \
	bash -c "for m in $modules; do [ -d /sys/module/\$m ] && echo -n \"\$m \"; done"
t_done "cm-$STACK"
