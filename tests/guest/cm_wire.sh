#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the two-guest connection-manager wire tests (tests/host/cm_wire.sh
# starts the pair through scripts/vm-pair.sh).  Both guests run this script;
# WIRE_ROLE says which end of every tool this one is.  Each guest has its own
# module stack (ours or stock), rxe0 on eth0, 10.0.2.1X/24 and fd00::1X/64;
# the CM traffic (MADs on QP1, then the tools' data) crosses the QEMU socket
# network between them.
#
# Environment (from scripts/vm-pair.sh and tests/host/cm_wire.sh):
#   WIRE_ROLE, WIRE_SELF, WIRE_PEER   as for tests/guest/wire.sh
#   WIRE_TAG      name for the summary line ("cm-wire-TAG-ROLE: ...")
#   WIRE_CAPTURE  1: capture UDP 4791 on eth0 into /oot-out/cmwire/TAG.pcap,
#                 with /oot-out/cmwire/tests.tsv saying when each test ran
#   WIRE_FLOOD    target or inject: after the tests, a flood of crafted CM
#                 messages from the injector to the target
#                 (tests/guest/cm_wire_flood.sh; FLOOD_N, FLOOD_SLAB_KB)
#
# Rendezvous: every test has its own rdma_cm port (19000 + its index;
# udaddy has no port option: 7174), so a client only ever meets the server
# of its own test.  The server runs the tests in order, each under a
# timeout; the client retries while its connection attempt is refused or
# unanswered (REJECTED: nobody listens yet; UNREACHABLE or ADDR_ERROR: the
# peer, or its rxe, is not up yet), and only then, so both stay in step.
# After 2 tests in a row failed, the rest are reported failed without
# running (a stack that cannot connect stays within the time budget).
set -u
. /oot-src/tests/guest/lib.sh
. /oot-src/tests/guest/wire_lib.sh
STACK=${OOT_STACK:?}
SELF6=fd00::${SELF##*.}
PEER6=fd00::${PEER##*.}
OUT=/oot-out/cmwire
DEV=rxe0
# Seconds (TCG; on stock each tool takes under 20 s).  A client attempt
# gives up after TO; a server waits for its client longer than a client
# keeps retrying (WAIT).
TO=90
WAIT=150
STO=$((WAIT + TO + 30))
BASEPORT=19000
# What a client retries on: no listener yet, or no peer yet.
# (perftest: "Unexpected CM event bl blka 8", 8 being REJECTED)
RETRY='RDMA_CM_EVENT_(REJECTED|UNREACHABLE|ADDR_ERROR|ROUTE_ERROR)|Unable to connect \(retries|Failed to connect through RDMA CM|Unexpected CM event bl blka [0-9]+'
# The server's "listening" signal to the client: a TCP connection to
# READYPORT + the test's index.
READYPORT=21000
listening() # PORT: an rdma_cm id listening on it (`rdma res show cm_id`)
{
	rdma res show cm_id 2>/dev/null | grep 'state LISTEN' | grep -qE ":$1( |$)"
}
say_ready() # PORT: accept one connection (for up to WAIT s)
{
	timeout $WAIT python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("", int(sys.argv[1])))
s.listen(1)
s.accept()[0].close()' "$1" 2>/dev/null
}
wait_ready() # PORT: until the peer accepts on it (WAIT s at most)
{
	wait_until $WAIT eval "(exec 3<>/dev/tcp/$PEER/$1) 2>/dev/null"
}
rm -rf "$OUT"
mkdir -p "$OUT"
echo "# cm wire $TAG: $ROLE on $STACK stack, $SELF and $SELF6, peer $PEER and $PEER6"

t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_run "modprobe rdma_ucm" modprobe rdma_ucm
for m in ib_core ib_uverbs rdma_rxe ib_cm rdma_cm rdma_ucm; do
	echo "# $m: $(modinfo -F filename $m 2>/dev/null)"
done
ip -6 addr add "$SELF6/64" dev eth0 nodad
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
gid_present() { grep -qx "$1" /sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null; }
t_run "GIDs of $SELF and $SELF6" wait_until 30 eval \
	"gid_present $(ip4gid "$SELF") && gid_present fd00:0000:0000:0000:0000:0000:0000:$(printf %04d "${SELF##*.}")"
cm_ids() { rdma res show cm_id 2>/dev/null | grep -c 'cm-idn'; }

# --- the tests: NAME|SERVER-ARGS|CLIENT-ARGS|CLIENT-CHECK ------------------------
# $P is the test's port; $SELF/$PEER (and 6) are this guest's and the peer's
# addresses, expanded in each guest.  CLIENT-CHECK: an extended regex the
# client's log must match as well (beyond exit status 0).
TESTS=()
add() { TESTS+=("$1|$2|$3|$4"); }
add rping-ipv4 "rping -s -a \$SELF -p \$P -C 100" "rping -c -a \$PEER -p \$P -C 100 -V -v" '^ping data: '
add ucmatose-ipv4 "ucmatose -b \$SELF -p \$P -c 3 -C 10" "ucmatose -s \$PEER -p \$P -c 3 -C 10" '^data transfers complete'
add udaddy-ipv4 "udaddy -b \$SELF -c 2 -C 10" "udaddy -s \$PEER -c 2 -C 10" '^data transfers complete'
add ib_send_bw-R-ipv4 "ib_send_bw -d $DEV -R -F -s 65536 -n 100 -p \$P" "ib_send_bw -d $DEV -R -F -s 65536 -n 100 -p \$P \$PEER" '^ *65536 +100 '
add rping-ipv6 "rping -s -a \$SELF6 -p \$P -C 100" "rping -c -a \$PEER6 -p \$P -C 100 -V -v" '^ping data: '
add ucmatose-ipv6 "ucmatose -b \$SELF6 -p \$P -c 3 -C 10" "ucmatose -s \$PEER6 -p \$P -c 3 -C 10" '^data transfers complete'
add udaddy-ipv6 "udaddy -b \$SELF6 -c 2 -C 10" "udaddy -s \$PEER6 -c 2 -C 10" '^data transfers complete'
# (no ib_send_bw -R over IPv6: perftest 4.5's rdma_cm path resolves the
# server name as AF_INET only)

run_test() # INDEX NAME SERVER-ARGS CLIENT-ARGS CHECK
{
	local idx=$1 name=$2 P args rc t0 t1 log secs deadline extra=
	# shellcheck disable=SC2034 # P: used by the eval below
	P=$((BASEPORT + idx))
	case "$name" in udaddy-*) P=7174 ;; esac	# its fixed port
	if [ "$ROLE" = server ]; then args=$3; else args=$4; fi
	args=$(eval echo "$args")
	log=$OUT/$ROLE-$name.log
	t0=$(date +%s.%N)
	if [ "$ROLE" = server ]; then
		# shellcheck disable=SC2086
		timeout $STO $args >"$log" 2>"$log.err" &
		local spid=$!
		# once the tool listens on its port, say so on READYPORT + idx
		# (the client waits for that before its first attempt: a REQ
		# to no listener is rejected, and perftest then crashes in
		# its error path)
		wait_until $WAIT eval "listening $P || ! kill -0 $spid 2>/dev/null"
		kill -0 $spid 2>/dev/null && say_ready $((READYPORT + idx)) &
		wait $spid
		rc=$?
	else
		wait_ready $((READYPORT + idx)) ||
			echo "# $name: the server said nothing on port $((READYPORT + idx)) in ${WAIT}s"
		deadline=$(($(date +%s) + WAIT))
		while :; do
			# shellcheck disable=SC2086
			timeout $TO $args >"$log" 2>"$log.err"
			rc=$?
			[ "$rc" != 0 ] && cat "$log" "$log.err" | grep -qE "$RETRY" &&
				[ "$(date +%s)" -lt $deadline ] || break
			cat "$log" "$log.err" >"$log.retried"
			sleep 1
		done
		if [ "$rc" = 0 ] && ! grep -qE "$5" "$log"; then
			rc=250
			extra="no line matching /$5/; "
		fi
		case "$name" in
		rping-*)
			local n
			n=$(grep -c '^ping data: ' "$log")
			echo "# $name: $n pings verified"
			[ "$rc" != 0 ] || [ "$n" = 100 ] || { rc=251; extra="$n pings, not 100; "; } ;;
		ib_send_bw*)
			awk -v n="$name" '$1 == 65536 && $2 == 100 { print "# " n ": " $4 " MB/s avg" }' "$log" ;;
		esac
	fi
	t1=$(date +%s.%N)
	# the rdma_cm port: the host attributes CM MADs by the service ID
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$t0" "$t1" "$rc" "$P" >>"$OUT/tests.tsv"
	secs=$(printf '%.1f' "$(echo "$t1 - $t0" | bc)")
	if [ "$rc" = 0 ]; then
		t_result 1 "$name"
		echo "# $name: ${secs}s"
		FAILS_IN_A_ROW=0
	else
		FAILS_IN_A_ROW=$((FAILS_IN_A_ROW + 1))
		t_result 0 "$name" "exit $rc after ${secs}s: $extra$(cat "$log" "$log.err" | grep -v '^ *$' | tail -n 3 | tr '\n' ' ' | head -c 400)"
	fi
}

: >"$OUT/tests.tsv"
FAILS_IN_A_ROW=0
cap_start 32
i=0
for t in "${TESTS[@]}"; do
	IFS='|' read -r name sargs cargs check <<<"$t"
	if [ "$FAILS_IN_A_ROW" -ge 2 ]; then
		# a stack that cannot connect: within the time budget
		t_result 0 "$name" "not run: the 2 tests before failed"
	else
		run_test $i "$name" "$sargs" "$cargs" "$check"
	fi
	i=$((i + 1))
done
cap_stop

t_run "no cm_id left" wait_until 60 eval '[ "$(cm_ids)" = 0 ]'
echo "# CM counters: $(for d in /sys/class/infiniband/$DEV/ports/1/cm_*; do for f in "$d"/*; do v=$(cat "$f"); [ "$v" = 0 ] || echo -n "${d##*/}/${f##*/}=$v "; done; done)"
# after the capture: the flood is no test of the capture's
[ -n "${WIRE_FLOOD:-}" ] && . /oot-src/tests/guest/cm_wire_flood.sh
t_run "rdma link delete $DEV" rdma link delete $DEV
loaded=$(for m in rdma_ucm rdma_cm iw_cm ib_cm rdma_rxe ib_uverbs ib_core; do [ -d /sys/module/$m ] && echo $m; done)
t_run "unload the modules" modprobe -r $loaded
t_done "cm-wire-$TAG-$ROLE"
