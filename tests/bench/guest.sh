#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the benchmark (scripts/bench.sh; run with --stack ours).
# In ONE boot, rounds alternate between the stock in-kernel modules
# (loaded by path: ours shadow them for modprobe) and ours, so a slow
# spell of the shared host hits both stacks alike.  Each round runs every
# figure once on each stack, between two processes on rxe0 (the packets
# take the local route).  The result per figure is the median of the
# rounds, with min and max; the spread of stock's rounds is the noise
# floor printed beside each ratio.
#
# Two-guest mode (scripts/bench.sh --pair, under scripts/vm-pair.sh):
# WIRE_ROLE is set; both guests walk the same figures in the same order,
# stock<->stock then ours<->ours each round, over the QEMU socket link.
# Guest a serves every figure on a port of its own, guest b runs the
# clients (retrying while the server is not up yet, e.g. still loading
# its stack) and makes the table.
#
# Output: "bench: ..." lines (a table) and the CSV file $BENCH_CSV.
# Not a test: nothing is asserted beyond the tools finishing.
#
#   BENCH_ROUNDS  rounds per stack (default 3)
#   BENCH_ONLY    a regex over figure names, to run a subset
#   BENCH_PROFILE 1: also record a perf profile (cpu-clock, whole guest)
#                 of write_bw 64 KiB and send_lat 2 B on each stack,
#                 into $BENCH_OUT/perf-STACK-FIGURE.txt (one guest only)
#   BENCH_AA      1: an A/A run, the benchmark's own noise: the second
#                 slot of each round loads the stock modules again, so the
#                 column "ours" is stock too and every ratio would be 1.00
#                 on a quiet, steady host
set -u
KVER=$(uname -r)
DEV=rxe0
ROUNDS=${BENCH_ROUNDS:-3}
ONLY=${BENCH_ONLY:-.}
OUT=${BENCH_OUT:-/tmp/bench}
CSV=${BENCH_CSV:-$OUT/bench.csv}
BIN=/oot-src/tests/bench/bin
ROLE=${WIRE_ROLE:-}		# empty: one guest
PEER=${WIRE_PEER:-127.0.0.1}
SELF=${WIRE_SELF:-10.0.2.15}
PORT=18515			# each figure run takes the next one
mkdir -p "$OUT"
rm -f "$OUT"/raw.*
ip link set eth0 up
ip link set lo up
[ -n "$ROLE" ] || ip addr add $SELF/24 dev eth0

# --- the figures ---------------------------------------------------------
# name|kind|tool and arguments|size
#   kind bw: MB/s (higher is better); lat: usec typical and p99 (lower is
#   better); pp: ibv_rc_pingpong usec/iter; cpu: kernel CPU s per GiB.
FIGURES=()
for tool in write read send; do
	for size in 4096 65536 1048576; do
		FIGURES+=("${tool}_bw_$size|bw|ib_${tool}_bw|$size")
	done
done
for tool in write read send; do
	for size in 4096 65536 1048576; do
		FIGURES+=("${tool}_bw_q4_$size|bw|ib_${tool}_bw -q 4|$size")
	done
done
for tool in send write read; do
	for size in 2 4096; do
		FIGURES+=("${tool}_lat_$size|lat|ib_${tool}_lat|$size")
	done
done
FIGURES+=("rc_pingpong_4096|pp|ibv_rc_pingpong|4096")
# kernel CPU time is measured where both ends run
[ -n "$ROLE" ] || FIGURES+=("write_bw_cpu_65536|cpu|ib_write_bw|65536")

# Bytes a bandwidth run moves (per QP): enough for a second or two here.
BW_BYTES=$((48 << 20))

# --- loading the stacks ----------------------------------------------------
load_stock()
{
	local m path dep
	for m in core/ib_core core/ib_uverbs sw/rxe/rdma_rxe; do
		path=/lib/modules/$KVER/kernel/drivers/infiniband/$m.ko
		for dep in $(modinfo -F depends "$path" | tr ',' ' '); do
			case $dep in ib_core|ib_uverbs) ;; *) modprobe "$dep" ;; esac
		done
		insmod "$path" || return 1
	done
}

load_ours()
{
	modprobe rdma_rxe || return 1
	grep -q . /sys/module/rdma_rxe/version
}

# rmmod by name serves both stacks; a device release may lag the last
# close by a moment, so retry before giving up.
unload()
{
	local m i
	for m in rdma_rxe ib_uverbs ib_core; do
		for i in $(seq 50); do
			[ -d /sys/module/$m ] || break
			rmmod $m 2>/dev/null && break
			sleep 0.2
		done
		[ ! -d /sys/module/$m ] || { lsmod >&2; return 1; }
	done
}

GID=
# the GID of $SELF: ::ffff:a.b.c.d, as sysfs prints it
GID_TEXT=$(IFS=. read -r a b c d <<<"$SELF"
	   printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		  "$a" "$b" "$c" "$d")
link_up()
{
	local i g
	rdma link add $DEV type rxe netdev eth0 || return 1
	for i in $(seq 50); do
		g=$(grep -l "$GID_TEXT" \
			/sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null | head -n1)
		[ -n "$g" ] && break
		sleep 0.1
	done
	GID=$(basename "$g")
	[ -n "$GID" ]
}

use_stack() # stock|ours
{
	unload || return 1
	if [ "$1" = stock ]; then load_stock; else load_ours; fi || return 1
	link_up
}

# --- running one figure --------------------------------------------------
wait_listen() # PORT
{
	local i
	for i in $(seq 100); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# run_pair OUTFILE CMD...: a server, and the client towards it, on the
# next port; the client's output goes to OUTFILE.  Two guests: each runs
# its own side (guest a the server, guest b the client).
run_pair()
{
	local out=$1 server i
	shift
	PORT=$((PORT + 1))
	case $ROLE in
	server)
		timeout 180 "$@" -p $PORT >"$out" 2>&1
		;;
	client)
		# refused while the server is not up: try again
		for i in $(seq 300); do
			timeout 120 "$@" -p $PORT "$PEER" >"$out" 2>&1 && return
			grep -q "Couldn't connect" "$out" || return
			sleep 0.2
		done
		;;
	*)
		timeout 120 "$@" -p $PORT >/dev/null 2>&1 &
		server=$!
		wait_listen $PORT
		timeout 120 "$@" -p $PORT "$PEER" >"$out" 2>&1
		wait $server
		;;
	esac
}

# Kernel CPU time (system + irq + softirq, all CPUs) in USER_HZ ticks.
kernel_ticks() { awk '$1 == "cpu" { print $4 + $7 + $8 }' /proc/stat; }

# measure STACK NAME KIND TOOL SIZE: appends the figure(s) to raw files
measure()
{
	local st=$1 name=$2 kind=$3 tool=$4 size=$5 n v t0 t1 q=1
	local f=$OUT/out.$st.$name
	case $tool in *"-q 4"*) q=4 ;; esac
	case $kind in
	bw)
		n=$((BW_BYTES / size / q))
		[ $n -ge 20 ] || n=20
		# shellcheck disable=SC2086
		run_pair "$f" $tool -d $DEV -x "$GID" -F -s "$size" -n $n
		v=$(awk -v s="$size" '$1 == s { print $4 }' "$f")
		;;
	lat)
		n=2000
		[ "$size" -le 64 ] || n=1000
		# shellcheck disable=SC2086
		run_pair "$f" $tool -d $DEV -x "$GID" -F -s "$size" -n $n
		v=$(awk -v s="$size" '$1 == s { print $5 }' "$f")
		echo "$(awk -v s="$size" '$1 == s { print $8 }' "$f")" \
			>>"$OUT/raw.$st.${name}_p99"
		;;
	pp)
		run_pair "$f" $tool -d $DEV -g "$GID" -s "$size" -n 1000
		v=$(awk '/usec\/iter/ { print $(NF - 1) }' "$f")
		;;
	cpu)
		n=$((128 << 20))
		n=$((n / size))
		t0=$(kernel_ticks)
		run_pair "$f" $tool -d $DEV -x "$GID" -F -s "$size" -n $n
		t1=$(kernel_ticks)
		grep -q "^ *$size " "$f" &&
			v=$(awk -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" \
				'BEGIN { printf "%.2f", t / hz * 8 }')
		;;
	esac
	[ -n "${v:-}" ] || { v=nan; echo "bench: $st $name failed:" \
		"$(tail -n 2 "$f" | tr '\n' ' ')"; }
	echo "$v" >>"$OUT/raw.$st.$name"
}

profile() # STACK
{
	local st=$1 p name tool size n
	command -v perf >/dev/null || { echo "bench: no perf"; return; }
	for p in "write_bw_65536|ib_write_bw|65536|4000" \
		 "send_lat_2|ib_send_lat|2|50000"; do
		IFS='|' read -r name tool size n <<<"$p"
		# SIGINT does not reach a background job here: perf runs
		# the pair itself
		perf record -q -e cpu-clock -F 500 -a -o /tmp/perf.data -- \
			bash -c "PORT=$PORT ROLE= PEER=$PEER
				 $(declare -f run_pair wait_listen)
				 run_pair /dev/null $tool -d $DEV -x $GID -F \
					  -s $size -n $n" >/dev/null 2>&1
		PORT=$((PORT + 1))
		perf report -q -i /tmp/perf.data --no-children --sort sym \
			--stdio 2>/dev/null | grep -v '^$' | head -n 40 \
			>"$OUT/perf-$st-$name.txt"
		rm -f /tmp/perf.data
		echo "bench: profile $st $name (top 15 of $OUT/perf-$st-$name.txt):"
		head -n 15 "$OUT/perf-$st-$name.txt" | sed 's/^/bench:   /'
	done
}

# --- loss mode ---------------------------------------------------------------
# BENCH_LOSS=1 (scripts/bench.sh --loss, two guests): guest a alternates
# its stack each round (stock, then ours), guest b keeps the stack it
# booted with (stock), and netem (delay 1ms loss 1% reorder 5% duplicate
# 1%) sits on the RoCE packets (UDP 4791) leaving the guest named by
# BENCH_NETEM (a or b), so TCP rendezvous and setup stay clean.  A round
# is a fixed RC workload: ibv_rc_pingpong -c 8 KiB x 300 with either
# guest as the server, ib_send_bw 64 KiB x 300 in each direction (the
# sender is the requester: a's stack as requester, then as responder).
# Each guest appends, per item, the item's wall time (its client's) and
# its own hw counter deltas to $OUT/loss.tsv; the host joins the two.
LOSS_ITEMS=(
	"pp_a_srv|a|ibv_rc_pingpong -d $DEV -g \$GID -s 8192 -n 300 -c"
	"pp_b_srv|b|ibv_rc_pingpong -d $DEV -g \$GID -s 8192 -n 300 -c"
	"sbw_b_to_a|a|ib_send_bw -d $DEV -x \$GID -F -s 65536 -n 300"
	"sbw_a_to_b|b|ib_send_bw -d $DEV -x \$GID -F -s 65536 -n 300"
)
LOSS_COUNTERS="completer_retry_err rcvd_seq_err duplicate_request out_of_seq_request retry_exceeded_err rcvd_rnr_err send_rnr_err"

counters_now() # one line: the values of $LOSS_COUNTERS on rxe0 port 1
{
	local c d=/sys/class/infiniband/$DEV/ports/1/hw_counters
	for c in $LOSS_COUNTERS; do
		printf '%s ' "$(cat "$d/$c" 2>/dev/null || echo 0)"
	done
	echo
}

netem_on()
{
	modprobe sch_netem
	tc qdisc add dev eth0 root handle 1: prio &&
	tc qdisc add dev eth0 parent 1:3 handle 30: netem \
		delay 1ms loss 1% reorder 5% duplicate 1% &&
	tc filter add dev eth0 parent 1: protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:3
}

# loss_item ROUND STACK NAME SERVER-GUEST ARGS: one workload item
loss_item()
{
	local r=$1 st=$2 name=$3 srv=$4 args me c0 c1 t0 t1 rc log
	me=a; [ "$ROLE" = client ] && me=b
	args=$(eval echo "$5")
	log=$OUT/loss.$r.$st.$name.$me.log
	PORT=$((PORT + 1))
	c0=$(counters_now)
	if [ "$me" = "$srv" ]; then
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086
		timeout 600 $args -p $PORT >"$log" 2>&1
		rc=$?
		t1=$(date +%s.%N)
	else
		# refused while the server is not up (or a is still loading
		# its stack): try again; the time is the successful attempt's
		for _ in $(seq 1500); do
			t0=$(date +%s.%N)
			# shellcheck disable=SC2086
			timeout 300 $args -p $PORT "$PEER" >"$log" 2>&1
			rc=$?
			t1=$(date +%s.%N)
			[ $rc != 0 ] && grep -q "Couldn't connect" "$log" ||
				break
			sleep 0.2
		done
	fi
	# both ends' counters settle (the last ACKs) before they are read
	sleep 0.5
	c1=$(counters_now)
	awk -v r="$r" -v st="$st" -v n="$name" -v me="$me" -v srv="$srv" \
	    -v rc=$rc -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" 'BEGIN {
		split(c0, x); split(c1, y); d = ""
		for (i = 1; i <= length(y); i++) d = d "\t" (y[i] - x[i])
		printf "%s\t%s\t%s\t%s\t%s\t%d\t%.2f%s\n", r, st, n, me,
			(me == srv ? "server" : "client"), rc, t1 - t0, d
	}' >>"$OUT/loss.tsv"
	[ $rc = 0 ] || echo "bench: round $r $st $name ($me) failed: $(tail -n 2 "$log" | tr '\n' ' ')"
}

loss_main()
{
	local r st fig name srv args me=a
	[ "$ROLE" = client ] && me=b
	printf 'round\tstack_a\titem\tguest\tside\trc\tsecs' >"$OUT/loss.tsv"
	printf '\t%s' $LOSS_COUNTERS >>"$OUT/loss.tsv"
	echo >>"$OUT/loss.tsv"
	if [ "${BENCH_NETEM:-b}" = $me ]; then
		netem_on || { echo "bench: netem failed"; exit 1; }
		echo "bench: netem on guest $me: $(tc qdisc show dev eth0 | grep netem)"
	fi
	# b keeps its boot stack (stock) throughout
	# BENCH_CAPTURE=1: RoCE packets on guest a, for a look at a slow run
	if [ "${BENCH_CAPTURE:-0}" = 1 ] && [ $me = a ]; then
		dumpcap -q -i eth0 -f 'udp port 4791' -s 128 -w "$OUT/a.pcap" \
			>/dev/null 2>&1 &
		cap=$!
		sleep 2
	fi
	if [ $me = b ]; then
		modprobe rdma_rxe && link_up ||
			{ echo "bench: cannot bring up rxe0"; exit 1; }
	fi
	for r in $(seq "$ROUNDS"); do
		for st in stock ours; do
			if [ $me = a ]; then
				use_stack $st ||
					{ echo "bench: cannot load $st"; exit 1; }
			fi
			for fig in "${LOSS_ITEMS[@]}"; do
				IFS='|' read -r name srv args <<<"$fig"
				[[ $name =~ $ONLY ]] || continue
				loss_item "$r" $st "$name" "$srv" "$args"
			done
			[ $me = b ] || rdma link delete $DEV
		done
		echo "bench: round $r done"
	done
	[ $me = b ] && rdma link delete $DEV
	[ -z "${cap:-}" ] || { kill -INT "$cap"; wait "$cap"; }
	[ "${BENCH_NETEM:-b}" = $me ] &&
		echo "bench: netem $(tc -s qdisc show dev eth0 | grep -A1 netem | tr '\n' ' ' | tr -s ' ')"
	unload
	echo "bench: guest $me done"
	dmesg >"$OUT/dmesg"
	/oot-src/scripts/lib/check-kernel-log.sh "$OUT/dmesg" >/dev/null ||
		echo "bench: guest $me: kernel log has warnings"
	exit 0
}
[ "${BENCH_LOSS:-0}" = 1 ] && loss_main

# --- main ------------------------------------------------------------------
echo "bench: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "bench: memcpy 64KiB $("$BIN/memcpy_bw" 65536 1)"
"$BIN/memcpy_bw" 65536 1 | awk '{ print $NF }' >"$OUT/memcpy"

for r in $(seq "$ROUNDS"); do
	for st in stock ours; do
		load=$st
		[ "${BENCH_AA:-0}" = 1 ] && load=stock
		use_stack $load || { echo "bench: cannot load $load"; exit 1; }
		for fig in "${FIGURES[@]}"; do
			IFS='|' read -r name kind tool size <<<"$fig"
			[[ $name =~ $ONLY ]] || continue
			measure $st "$name" "$kind" "$tool" "$size"
		done
		if [ "$r" = 1 ] && [ "${BENCH_PROFILE:-0}" = 1 ] &&
		   [ -z "$ROLE" ]; then
			profile $st
		fi
		rdma link delete $DEV
	done
	echo "bench: round $r done"
done
unload
if [ "$ROLE" = server ]; then
	echo "bench: server side done"
	exit 0
fi

# --- the table --------------------------------------------------------------
stats() { sort -g | awk '{ v[NR] = $1 } END {
	if (!NR) { print "nan nan nan"; exit }
	printf "%s %s %s\n", v[int((NR + 1) / 2)], v[1], v[NR] }'; }

memcpy=$(cat "$OUT/memcpy")
[ "${BENCH_AA:-0}" = 1 ] &&
	echo "bench: A/A run: the column ours is the stock stack loaded again"
echo "figure,kind,stock_median,stock_min,stock_max,ours_median,ours_min,ours_max,ratio,stock_spread,better,stock_of_memcpy,ours_of_memcpy" >"$CSV"
printf 'bench: %-22s %10s %10s %7s %7s %s\n' figure stock ours ratio noise ""
for raw in "$OUT"/raw.stock.*; do
	name=${raw#"$OUT"/raw.stock.}
	read -r sm smin smax < <(stats <"$raw")
	read -r om omin omax < <(stats <"$OUT/raw.ours.$name" 2>/dev/null)
	case $name in
	*_cpu_*) kind=cpu better=lower ;;
	*_bw_*) kind=bw better=higher ;;
	rc_pingpong*) kind=pp better=lower ;;
	*) kind=lat better=lower ;;
	esac
	awk -v n="$name" -v k="$kind" -v b="$better" -v sm="$sm" -v smin="$smin" \
	    -v smax="$smax" -v om="$om" -v omin="$omin" -v omax="$omax" \
	    -v mc="$memcpy" -v csv="$CSV" 'BEGIN {
		r = (sm > 0) ? om / sm : 0
		noise = (sm > 0) ? (smax - smin) / sm : 0
		fs = fo = ""
		if (k == "bw" && mc > 0) {
			fs = sprintf("%.3f", sm / mc); fo = sprintf("%.3f", om / mc)
		}
		printf "bench: %-22s %10s %10s %7.2f %6.0f%% (%s is better)%s\n",
			n, sm, om, r, noise * 100, b,
			(k == "bw" ? sprintf(" memcpy %s / %s", fs, fo) : "")
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%.3f,%s,%s,%s\n", n, k, sm,
			smin, smax, om, omin, omax, r, noise, b, fs, fo >> csv
	}'
done
echo "bench: csv in $CSV"
dmesg >"$OUT/dmesg"
/oot-src/scripts/lib/check-kernel-log.sh "$OUT/dmesg" >/dev/null ||
	echo "bench: kernel log has warnings"
