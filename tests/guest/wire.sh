#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the two-guest wire tests (scripts/vm-pair.sh starts the
# pair).  Both guests run this script; WIRE_ROLE says which side of every
# tool this one is.  Each guest has its own module stack (ours or stock) and
# rxe0 on eth0; the guests share nothing but a QEMU socket network.
#
# Environment (set by scripts/vm-pair.sh):
#   WIRE_ROLE     server | client
#   WIRE_SELF     this guest's IPv4 address (on eth0, without /LEN)
#   WIRE_PEER     the other guest's IPv4 address (the client connects there)
#   WIRE_TAG      name for the summary line ("wire-TAG-ROLE: ...")
#   WIRE_CAPTURE  1: capture UDP 4791 on eth0 for the whole run into
#                 /oot-out/wire/TAG.pcap, with /oot-out/wire/tests.tsv saying
#                 when each test ran (the host decodes and checks them)
#   WIRE_LOSS     1: both guests also run the loss phase
#   WIRE_NETEM    1: this guest puts netem (loss, reorder, duplicate) on
#                 eth0 for the loss phase
#   WIRE_ONLY     optional extended regex: run only the tests it matches
#   WIRE_FUZZ     1: both guests also run the fuzz phase: the client sprays
#                 malformed and lying RoCEv2 packets (tests/probes/bin/wire_fuzz)
#                 at the server's QP of a live rc/ud pingpong, and for rc
#                 crafted requests at sacrificial QPs (wire_sac); the
#                 server (the victim, ours) checks its drop counters and
#                 what its responder answered
#
# Rendezvous: every test has its own TCP port (18515 + its index), so a
# client can only ever meet the server of the same test.  The server runs the
# tests in order, each under a timeout; the client retries while the server's
# port refuses connections ("Couldn't connect to"), so the two stay in step
# without any other channel.  Both sides print one ok/not ok line per test,
# each followed by lib.sh's kernel-log check of this guest.
set -u
. /oot-src/tests/guest/lib.sh
. /oot-src/tests/guest/wire_lib.sh
LOSS=${WIRE_LOSS:-0}
NETEM=${WIRE_NETEM:-0}
ONLY=${WIRE_ONLY:-}
FUZZ=${WIRE_FUZZ:-0}
STACK=${OOT_STACK:?}
OUT=/oot-out/wire
DEV=rxe0
# Timeouts, seconds (TCG).  A client gives up after TO; a server waits
# longer, so that it still meets a client that hung TO in the test before;
# a client waits for its server to listen longer than that again.  WIRE_TO
# overrides TO (a test of the hang dump below).
TO=${WIRE_TO:-120}
STO=$((2 * TO + 30))
WAIT=$((STO + 30))
BASEPORT=18515
mkdir -p "$OUT"
echo "# wire $TAG: $ROLE on $STACK stack, $SELF, peer $PEER"

t_run "modprobe rdma_rxe" modprobe rdma_rxe
# rxe's debugfs view, for the hang dump (run_test)
[ "$STACK" = stock ] ||
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
# What every module in the stack is (ours carry a version of our own).
for m in ib_core ib_uverbs rdma_rxe; do
	echo "# $m: $(modinfo -F filename $m 2>/dev/null)"
done

# --- GIDs: the RoCE v2 GID of our IPv4 address, and of the link-local IPv6 --
gid_index() # PATTERN -> first RoCE v2 GID index whose GID matches
{
	local f i
	for f in /sys/class/infiniband/$DEV/ports/1/gids/*; do
		i=${f##*/}
		grep -q "$1" "$f" 2>/dev/null || continue
		[ "$(cat /sys/class/infiniband/$DEV/ports/1/gid_attrs/types/"$i" 2>/dev/null)" = "RoCE v2" ] || continue
		echo "$i"
		return
	done
}
want4=$(ip4gid "$SELF")
for i in $(seq 100); do
	G4=$(gid_index "^$want4\$")
	G6=$(gid_index '^fe80:')
	[ -n "$G4" ] && [ -n "$G6" ] && break
	sleep 0.2
done
echo "# GID index IPv4 ${G4:-none} ($want4), IPv6 link-local ${G6:-none} ($(cat /sys/class/infiniband/$DEV/ports/1/gids/"${G6:-0}" 2>/dev/null))"
t_run "RoCE v2 GIDs for IPv4 and IPv6 link-local" test -n "$G4" -a -n "$G6"
echo "# eth0: $(ip -br addr show dev eth0), mtu $(cat /sys/class/net/eth0/mtu); rxe0 active_mtu $(ibv_devinfo -d $DEV | awk '/active_mtu/ { print $2 }')"

# --- capture ----------------------------------------------------------------
# One capture of UDP 4791 on eth0 for the whole run, written straight to the
# output share; $OUT/tests.tsv says when each test ran (this guest's clock,
# the one the capture's timestamps come from), so the host can attribute
# every packet to a test.
# (cap_start: wire_lib.sh.)  The ring holds a whole run's packets (about
# 50 MB): a 32 MiB ring lost 4112 of 60186 in one CI run.

# --- the test list: NAME|SERVER-ARGS|CLIENT-ARGS (identical on both sides) ----
# Every tool over IPv4 and IPv6; over IPv4 several sizes each, among them
# sizes that are not a multiple of 4 (BTH pad count), exactly one MTU, and
# larger than the path MTU (1024: several packets per message).
TESTS=()
add() { TESTS+=("$1|$2|$3"); }
pp4="-d $DEV -g \$G4" pt4="-d $DEV -x \$G4 -F"
pp6="-d $DEV -g \$G6" pt6="-d $DEV -x \$G6 -F"
add rc_pingpong-ipv4 "ibv_rc_pingpong $pp4 -n 100 -c" same
add rc_pingpong-1B-ipv4 "ibv_rc_pingpong $pp4 -n 50 -s 1 -c" same
add rc_pingpong-64KiB-ipv4 "ibv_rc_pingpong $pp4 -n 10 -s 65536 -c" same
add ud_pingpong-1KiB-ipv4 "ibv_ud_pingpong $pp4 -n 100 -s 1024 -c" same
add ud_pingpong-5B-ipv4 "ibv_ud_pingpong $pp4 -n 50 -s 5 -c" same
add srq_pingpong-ipv4 "ibv_srq_pingpong $pp4 -n 20 -c" same
for t in write read send; do
	add "ib_${t}_bw-2B-ipv4" "ib_${t}_bw $pt4 -s 2 -n 100" same
	add "ib_${t}_bw-1500B-ipv4" "ib_${t}_bw $pt4 -s 1500 -n 100" same
	add "ib_${t}_bw-64KiB-ipv4" "ib_${t}_bw $pt4 -s 65536 -n 20" same
done
add ib_atomic_bw-cas-ipv4 "ib_atomic_bw $pt4 -n 100 -A CMP_AND_SWAP" same
add ib_atomic_bw-fadd-ipv4 "ib_atomic_bw $pt4 -n 100 -A FETCH_AND_ADD" same
add ib_send_lat-2B-ipv4 "ib_send_lat $pt4 -s 2 -n 100" same
# RDMA FLUSH (tests/probes/flush_wire.c: WRITE, FLUSH of a range and of the
# MR, the data checked at the responder, a FLUSH NAKed for its rkey) where
# both stacks have it: from 6.2 (6.1's in-tree rxe has none; ours has it
# on every line).  Both guests boot the same kernel, so both lists agree.
if [ "$(printf '6.2\n%s\n' "$(uname -r)" | sort -V | head -n 1)" = 6.2 ]; then
	fw=/oot-src/tests/probes/bin/flush_wire
	add flush-ipv4 "$fw -d $DEV -g \$G4" same
	add flush-ipv6 "$fw -d $DEV -g \$G6" same
fi
add ib_send_lat-4KiB-ipv4 "ib_send_lat $pt4 -s 4096 -n 100" same
add rc_pingpong-ipv6 "ibv_rc_pingpong $pp6 -n 100 -c" same
add ud_pingpong-1KiB-ipv6 "ibv_ud_pingpong $pp6 -n 100 -s 1024 -c" same
add srq_pingpong-ipv6 "ibv_srq_pingpong $pp6 -n 20 -c" same
add ib_write_bw-64KiB-ipv6 "ib_write_bw $pt6 -s 65536 -n 20" same
add ib_read_bw-1500B-ipv6 "ib_read_bw $pt6 -s 1500 -n 100" same
add ib_send_bw-4097B-ipv6 "ib_send_bw $pt6 -s 4097 -n 100" same
add ib_atomic_bw-fadd-ipv6 "ib_atomic_bw $pt6 -n 100 -A FETCH_AND_ADD" same
add ib_send_lat-4KiB-ipv6 "ib_send_lat $pt6 -s 4096 -n 100" same
if [ "$FUZZ" = 1 ]; then
	# NAME is fuzz-TYPE-SEED-ROUNDS; the pingpongs run long enough
	# (about 20-60 s and 10 s under TCG) to outlive the fuzzer's ~2200
	# packets, and for rc the responder cases before them (wire_sac's
	# sacrificial QPs, the victim's beside its pingpong server)
	fz=/oot-src/tests/guest/wire_fuzz_client.sh
	fs=/oot-src/tests/guest/wire_fuzz_server.sh
	add fuzz-rc-1-4 "$fs ibv_rc_pingpong $pp4 -n 400 -c" "$fz rc 1 4 ibv_rc_pingpong $pp4 -n 400 -c"
	add fuzz-ud-2-4 "ibv_ud_pingpong $pp4 -n 2000 -s 512 -c" "$fz ud 2 4 ibv_ud_pingpong $pp4 -n 2000 -s 512 -c"
fi
NLOSS_FIRST=${#TESTS[@]}
if [ "$LOSS" = 1 ]; then
	# perftest's -u 14 is the pingpongs' fixed QP timeout: 4.096 us << 14,
	# 67 ms; 7 retries
	add loss-rc_pingpong "ibv_rc_pingpong $pp4 -n 200 -c" same
	add loss-rc_pingpong-64KiB "ibv_rc_pingpong $pp4 -n 20 -s 65536 -c" same
	add loss-ib_write_bw "ib_write_bw $pt4 -u 14 -s 65536 -n 40" same
	add loss-ib_read_bw "ib_read_bw $pt4 -u 14 -s 65536 -n 40" same
	add loss-ib_send_bw "ib_send_bw $pt4 -u 14 -s 4096 -n 100" same
fi

# --- counters ---------------------------------------------------------------
counters() # -> "name value" lines of rxe0 port 1
{
	local f
	for f in /sys/class/infiniband/$DEV/ports/1/hw_counters/*; do
		[ -f "$f" ] && echo "${f##*/} $(cat "$f")"
	done
}
counter() { counters | awk -v n="$1" '$1 == n { print $2 }'; }

# --- run one test -------------------------------------------------------------
# A test about to run out of time has the QPs' state written to its log
# first, while the tool still holds them: ours from rxe's debugfs view
# (PSNs, flags, timers, what each side waits for), stock's from `rdma res`
# (state, PSNs), and the tool's kernel stacks (a process stuck in the
# kernel outlives its timeout).  hang_dump_arm SECONDS LOG TOOL starts the
# watchdog, hang_dump_disarm stops it.
HANG_DUMP_PID=
hang_dump_arm()
{
	# TERM (disarm) ends the watchdog while it sleeps; once the dump has
	# begun it is ignored, so the dump runs to its end.
	( trap 'kill $nap 2>/dev/null; exit 0' TERM
	  sleep "$(($1 - 5))" & nap=$!
	  wait $nap
	  trap '' TERM
	  { echo "== hang dump at $(date +%s.%N)"
	    if [ "$STACK" = ours ]; then
		cat /sys/kernel/debug/rdma_rxe/$DEV/qps /sys/kernel/debug/rdma_rxe/$DEV/cqs
	    else
		rdma res show qp link $DEV
	    fi
	    echo "== counters: $(counters | tr '\n' ' ')"
	    for pid in $(pgrep -f "^$3( |$)"); do
		echo "== $3 $pid: $(tr '\0' ' ' </proc/$pid/cmdline), kernel stacks:"
		for t in /proc/$pid/task/*; do cat "$t/stack"; done
	    done
	  } >>"$2.hang" 2>&1 ) &
	HANG_DUMP_PID=$!
}
hang_dump_disarm()
{
	kill "$HANG_DUMP_PID" 2>/dev/null
	wait "$HANG_DUMP_PID" 2>/dev/null
}
FAILS_IN_A_ROW=0
run_test() # INDEX NAME SERVER-ARGS CLIENT-ARGS
{
	local idx=$1 name=$2 args port rc t0 t1 log secs
	port=$((BASEPORT + idx))
	if [ "$ROLE" = server ]; then args=$3; else args=$4; fi
	[ "$args" = same ] && args=$3
	args=$(eval echo "$args")	# $G4/$G6 of this guest
	args="$args -p $port"
	[ "$ROLE" = client ] && args="$args $PEER"
	log=$OUT/$ROLE-$name.log
	[ "$ROLE" = server ] && [[ $name == fuzz-* ]] && counters >"$OUT/$name.before"
	t0=$(date +%s.%N)
	if [ "$ROLE" = server ]; then
		hang_dump_arm $STO "$log" "${args%% *}"
		# shellcheck disable=SC2086
		timeout -k 10 $STO $args >"$log" 2>&1
		rc=$?
		hang_dump_disarm
	else
		# The server may not listen yet (still on the previous test, or
		# booting): retry while the connection is refused.
		local deadline=$(($(date +%s) + WAIT))
		while :; do
			hang_dump_arm $TO "$log" "${args%% *}"
			# shellcheck disable=SC2086
			timeout -k 10 $TO $args >"$log" 2>&1
			rc=$?
			hang_dump_disarm
			[ "$rc" != 0 ] && grep -q "Couldn't connect to $PEER" "$log" &&
				[ "$(date +%s)" -lt $deadline ] || break
			sleep 0.3
		done
	fi
	t1=$(date +%s.%N)
	printf '%s\t%s\t%s\t%s\n' "$name" "$t0" "$t1" "$rc" >>"$OUT/tests.tsv"
	secs=$(printf '%.1f' "$(echo "$t1 - $t0" | bc)")
	if [ "$rc" = 0 ]; then
		t_result 1 "$name (${secs}s)"
		FAILS_IN_A_ROW=0
	else
		t_result 0 "$name" "exit $rc after ${secs}s: $(grep -v '^ *$' "$log" | tail -n 3 | tr '\n' ' ' | head -c 400)"
		[ ! -e "$log.hang" ] || sed "s/^/# $name: /" "$log.hang"
		FAILS_IN_A_ROW=$((FAILS_IN_A_ROW + 1))
	fi
	# The figure each tool reports, for the log (not asserted).
	case "$name" in
	*pingpong*) grep -h "iters in" "$log" | sed "s/^/# $name: /" ;;
	*_bw-*|loss-ib_*) awk -v n="$name" '$1 ~ /^[0-9]+$/ && NF >= 5 { print "# " n ": " $1 " B x " $2 " iters, " $4 " MB/s avg" }' "$log" ;;
	*_lat-*) awk -v n="$name" '$1 ~ /^[0-9]+$/ && NF >= 5 { print "# " n ": " $1 " B, t_typical " $5 " usec" }' "$log" ;;
	esac
	case "$name" in
	fuzz-*)
		grep -h "^wire_fuzz \|^wire_sac: \|^wire_sac victim: \|^fuzz: " "$log" | sed "s/^/# $name: /"
		[ "$ROLE" = server ] && fuzz_check "$name" "$log"
		;;
	esac
}

# The victim's side of a fuzz test: what the fuzzer sent (its --plan, from
# the same seed, rounds and our QPN) against the drop counters it moved,
# and for rc what its responder did with the packets that reach it.
# Lower bounds: the real traffic's own late packets may add drops.
fuzz_check() # NAME LOG
{
	local name=$1 log=$2 type seed rounds qpn plan n k v
	IFS=- read -r _ type seed rounds <<<"$name"
	sleep 1 # the last of the fuzz, behind the pingpong's last packet
	counters >"$OUT/$name.after"
	echo "# $name counters moved: $(join "$OUT/$name.before" "$OUT/$name.after" |
		awk '$3 != $2 { printf "%s +%d ", $1, $3 - $2 }')"
	qpn=$(sed -n 's/.*local address:.*QPN \(0x[0-9a-fA-F]*\),.*/\1/p' "$log")
	if [ -z "$qpn" ]; then
		t_result 0 "$name: the victim's QPN" "none in $log"
		return
	fi
	# the PSN only moves the psn class's packets, not how many
	plan=$(/oot-src/tests/probes/bin/wire_fuzz --plan --type "$type" \
		--qpn "$qpn" --seed "$seed" --rounds "$rounds" \
		$([ "$type" = rc ] && echo --psn 0))
	echo "# $name victim's plan: $plan"
	# a counter missing (a stack without it) reads "none" and fails its
	# check, and counts 0 in the sum (an empty value in $((...)) would
	# abort the run of tests)
	fd() { join "$OUT/$name.before" "$OUT/$name.after" | awk -v n="$1" '$1 == n { v = $3 - $2 } END { print v == "" ? "none" : v }'; }
	fp() { tr ' ' '\n' <<<"$plan" | sed -n "s/^$1=//p"; }
	# What reaches the responder is checked on any stack (IBTA
	# behaviour, in-tree counters).
	if [ "$type" = rc ]; then
		# PSNs outside the window, from the real peer: the responder's
		# PSN check drops them (the live QP completing its pingpong
		# with -c is the check that it did no more).  Each duplicate
		# counts; out_of_seq_request counts sequence NAKs, as in-tree:
		# a run of PSNs ahead draws one, unless a NAK is outstanding
		# already (a real loss, or the previous round's run with no
		# in-order packet since: 2 for 4 rounds on a loaded host)
		n=$(fp psn_behind)
		v=$(fd duplicate_request)
		t_run "$name: every PSN far behind dropped as a duplicate, duplicate_request rose by $v >= $n" \
			test "$v" -ge "$n"
		n=$(fp psn_ahead)
		v=$(fd out_of_seq_request)
		t_run "$name: the $n PSNs far ahead dropped, a sequence NAK for them, out_of_seq_request rose by $v >= 1" \
			test "$v" -ge 1
		# the responder cases, one sacrificial QP each (wire_sac --victim)
		local l cases=0
		while IFS= read -r l; do
			cases=$((cases + 1))
			t_result "$([[ $l == *": ok" ]] && echo 1 || echo 0)" \
				"$name: ${l#wire_sac }"
		done < <(grep -h "^wire_sac case \|^wire_sac memory: " "$log")
		t_eq "$name: responder cases checked by the victim" \
			"$(grep -h "^wire_sac victim: cases=" "$log" | sed 's/.*cases=\([0-9]*\).*/\1/')" \
			echo $((cases - 1))
	fi
	[ "$STACK" = ours ] || return 0 # stock rxe has none of the rcvd_* counters
	for k in icrc:rcvd_icrc_err malformed:rcvd_malformed key:rcvd_key_err; do
		n=$(fp "expect_${k%%:*}")
		v=$(fd "${k#*:}")
		t_run "$name: ${k#*:} rose by $v >= $n" test "$v" -ge "$n"
	done
	if [ "$type" = rc ]; then
		n=$(fp lie)
		v=$(fd rcvd_addr_mismatch)
		t_run "$name: every lie from another address dropped, rcvd_addr_mismatch rose by $v >= $n" \
			test "$v" -ge "$n"
	else
		n=$(fp qkey)
		v=$(fd rcvd_key_err)
		t_run "$name: every wrong Q_Key dropped, rcvd_key_err rose by $v >= $n + $(fp pkey)" \
			test "$v" -ge $((n + $(fp pkey)))
	fi
	v=0
	for k in rcvd_icrc_err rcvd_malformed rcvd_key_err rcvd_bad_qp rcvd_addr_mismatch; do
		n=$(fd $k)
		[ "$n" = none ] || v=$((v + n))
	done
	n=$(fp expect_total)
	t_run "$name: every fuzz packet dropped and counted ($v >= $n)" test "$v" -ge "$n"
}

loss_on()
{
	[ "$NETEM" = 1 ] || return 0
	modprobe sch_netem
	t_run "netem on eth0" tc qdisc add dev eth0 root netem \
		delay 1ms loss 1% reorder 5% duplicate 1%
	echo "# $(tc qdisc show dev eth0)"
}
loss_off()
{
	[ "$NETEM" = 1 ] || return 0
	echo "# netem: $(tc -s qdisc show dev eth0 | tr '\n' ' ' | tr -s ' ')"
	t_run "netem off" tc qdisc del dev eth0 root
}

# `rdma res` summary: "pd N cq N qp N ..." (stock keeps a GSI QP of its own)
res_summary() { rdma res show $DEV | sed 's/^[0-9]*: [a-z0-9]*: //'; }
res_before=$(res_summary)
echo "# rdma res before the tests: $res_before"
: >"$OUT/tests.tsv"
cap_start 128

i=0
loss=
for t in "${TESTS[@]}"; do
	IFS='|' read -r name sargs cargs <<<"$t"
	if [ $i = "$NLOSS_FIRST" ]; then
		counters >"$OUT/counters.before"
		echo "# counters before the loss phase: $(tr '\n' ' ' <"$OUT/counters.before")"
		loss_on
		loss=1
	fi
	if [ "$FAILS_IN_A_ROW" -ge 4 ]; then
		t_result 0 "$name" "not run: 4 tests in a row failed"
	elif [ -z "$ONLY" ] || [[ $name =~ $ONLY ]]; then
		run_test $i "$name" "$sargs" "$cargs"
	fi
	i=$((i + 1))
done
if [ -n "$loss" ]; then
	loss_off
	counters >"$OUT/counters.after"
	echo "# counters after the loss phase:  $(tr '\n' ' ' <"$OUT/counters.after")"
	delta() { join "$OUT/counters.before" "$OUT/counters.after" | awk -v n="$1" '$1 == n { print $3 - $2 }'; }
	join "$OUT/counters.before" "$OUT/counters.after" |
		awk '$3 != $2 { printf "%s +%d ", $1, $3 - $2 } END { print "" }' |
		sed "s/^/# $STACK counters moved in the loss phase: /"
	echo "# rdma statistic: $(rdma statistic show link $DEV/1 2>&1 | tr '\n' ' ')"
	if [ "$STACK" = ours ]; then
		retries=$(($(delta completer_retry_err) + $(delta rcvd_seq_err)))
		t_run "loss: our requester retransmitted (completer_retry_err + rcvd_seq_err moved by $retries)" \
			test "$retries" -gt 0
		t_eq "loss: no retry exhausted (retry_exceeded_err)" 0 delta retry_exceeded_err
	fi
fi
cap_stop

# Nothing left behind: no QP, MR, CQ... but those the stack had before.
sleep 1
t_eq "the same QPs, MRs, PDs, CQs as before the tests" "$res_before" res_summary
t_run "rdma link delete $DEV" rdma link delete $DEV
t_run "unload" modprobe -r rdma_rxe ib_uverbs ib_core
t_done "wire-$TAG-$ROLE"
