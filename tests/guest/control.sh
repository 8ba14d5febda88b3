#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the control-path tests, run on either stack: create rxe0
# on eth0, check what the stock tools see, keep every output under
# /oot-out/capture/ for tests/host/compare-control.sh to diff ours against
# stock, run the pyverbs device and PD tests, follow address changes in
# the GID table, and (ours only) remove devices under open contexts.
set -u
. /oot-src/tests/guest/lib.sh
STACK=${OOT_STACK:?}
CAP=/oot-out/capture
BIN=/oot-src/tests/probes/bin
mkdir -p "$CAP"

capture() # NAME CMD...: stdout+stderr and exit status into $CAP/NAME
{
	local name=$1
	shift
	"$@" >"$CAP/$name" 2>&1
	echo "[exit $?]" >>"$CAP/$name"
}

wait_for() # SECONDS CMD...: poll until CMD succeeds
{
	local deadline=$(($(date +%s%N) + $1 * 1000000000))
	shift
	until "$@"; do
		[ "$(date +%s%N)" -lt "$deadline" ] || return 1
		sleep 0.05
	done
}

t_run "modprobe rdma_rxe" modprobe rdma_rxe
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
t_run "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
t_eq "rdma link add rxe0 again: EEXIST" "error: File exists" \
	rdma link add rxe0 type rxe netdev eth0
t_eq "second rxe on the same netdev: EEXIST" "error: File exists" \
	rdma link add rxe1 type rxe netdev eth0
t_run "IPv4 GID present" wait_for 5 grep -q "0000:0000:0000:0000:0000:ffff:0a00:020f" \
	/sys/class/infiniband/rxe0/ports/1/gids/1
t_run "uverbs0 node" test -c /dev/infiniband/uverbs0

# --- controlled Q_Keys: CAP_NET_RAW, or anyone with privileged-qkey on ---
NORAW="setpriv --inh-caps=-net_raw --bounding-set=-net_raw --"
QKEY=/oot-src/tests/probes/bin/qkey_probe
t_eq "controlled Q_Key with CAP_NET_RAW" "controlled_qkey OK" $QKEY
t_eq "controlled Q_Key without CAP_NET_RAW: EPERM" "controlled_qkey EPERM" $NORAW $QKEY
t_eq "privileged-qkey on" "pqkey-on OK 0" python3 /oot-src/tests/probes/nlprobe.py pqkey-on
t_eq "privileged-qkey on: reported" "sys-get OK 1 netns=1 cof=1 pqkey=1" \
	python3 /oot-src/tests/probes/nlprobe.py sys-get
t_eq "privileged-qkey on: controlled Q_Key without CAP_NET_RAW" "controlled_qkey OK" $NORAW $QKEY
t_eq "privileged-qkey off" "pqkey-off OK 0" python3 /oot-src/tests/probes/nlprobe.py pqkey-off
t_eq "privileged-qkey off: EPERM again" "controlled_qkey EPERM" $NORAW $QKEY

# --- what the tools print: compared with the stock stack on the host -----
capture rdma-dev rdma dev
capture rdma-dev-d rdma -d dev
capture rdma-dev-json rdma -j -p dev
capture rdma-link rdma link
capture rdma-link-d rdma -d -j -p link
capture rdma-system rdma system
capture ibv_devices ibv_devices
capture ibv_devinfo ibv_devinfo
capture ibv_devinfo-v ibv_devinfo -v
capture sysfs-rxe0 /usr/bin/python3 /oot-src/tests/probes/sysfs_dump.py /sys/class/infiniband/rxe0
capture sysfs-uverbs0 /usr/bin/python3 /oot-src/tests/probes/sysfs_dump.py /sys/class/infiniband_verbs/uverbs0
capture sysfs-verbs-class cat /sys/class/infiniband_verbs/abi_version
capture dev-node stat -c '%F %a %t:%T %n' /dev/infiniband/uverbs0

# --- GIDs follow addresses within a second -------------------------------
gid_shown() { ibv_devinfo -v | grep -q "GID\[.*\]:[[:space:]]*$1, RoCE v2"; }
gid_gone() { ! gid_shown "$1"; }
ip addr add 10.9.8.7/24 dev eth0
t_run "IPv4 address added: GID within 1s" wait_for 1 gid_shown "::ffff:10.9.8.7"
ip addr del 10.9.8.7/24 dev eth0
t_run "IPv4 address removed: GID gone within 1s" wait_for 1 gid_gone "::ffff:10.9.8.7"
ip -6 addr add fd00:1:2::3/64 dev eth0 nodad
t_run "IPv6 address added: GID within 1s" wait_for 1 gid_shown "fd00:1:2::3"
capture ibv_devinfo-v-ipv6 ibv_devinfo -v
ip -6 addr del fd00:1:2::3/64 dev eth0
t_run "IPv6 address removed: GID gone within 1s" wait_for 1 gid_gone "fd00:1:2::3"

# --- port state follows the netdev, with events to open contexts ----------
"$BIN/async_events" rxe0 2 10 >/tmp/events.out 2>&1 &
events_pid=$!
wait_for 10 grep -q ready /tmp/events.out
ip link set eth0 down
t_run "link down: port DOWN" wait_for 2 bash -c \
	'rdma link show rxe0/1 | grep -q "state DOWN physical_state DISABLED"'
ip link set eth0 up
t_run "link up: port ACTIVE" wait_for 5 bash -c \
	'rdma link show rxe0/1 | grep -q "state ACTIVE physical_state LINK_UP"'
ip addr add 10.0.2.15/24 dev eth0 2>/dev/null
wait "$events_pid"
grep -E 'PORT_' /tmp/events.out >"$CAP/port-events"
t_eq "async events: PORT_ERR then PORT_ACTIVE" \
	"$(printf 'PORT_ERR port 1\nPORT_ACTIVE port 1')" cat "$CAP/port-events"

# --- more devices on more netdevs; a netdev going away takes its device ----
ip link add vtest0 type veth peer name vtest1
ip link set vtest0 up; ip link set vtest1 up
t_run "rdma link add rxe1 on a veth" rdma link add rxe1 type rxe netdev vtest0
t_run "rdma link add rxe2 on its peer" rdma link add rxe2 type rxe netdev vtest1
t_eq "three devices" "rxe0 rxe1 rxe2" bash -c \
	"rdma dev | awk '{ print \$2 }' | tr -d : | sort | xargs"
t_eq "three uverbs devices" "uverbs0 uverbs1 uverbs2" bash -c \
	"ls /sys/class/infiniband_verbs | grep uverbs | sort | xargs"
t_run "rdma link delete rxe2" rdma link delete rxe2
ip link del vtest0	# takes vtest1 with it
t_run "netdev gone: rxe1 removed" wait_for 5 bash -c '! rdma dev | grep -q rxe1'
t_eq "rxe0 remains" "rxe0" bash -c "rdma dev | awk '{ print \$2 }' | tr -d : | xargs"

# --- rename ----------------------------------------------------------------
t_run "rdma dev set rxe0 name rxe7" rdma dev set rxe0 name rxe7
t_run "renamed in sysfs" test -d /sys/class/infiniband/rxe7
t_eq "ibdev of uverbs0 follows" rxe7 cat /sys/class/infiniband_verbs/uverbs0/ibdev
t_run "and back" rdma dev set rxe7 name rxe0

# --- pyverbs: the rdma-core suite's device and PD tests ------------------
rm -rf /tmp/pyv && cp -r /usr/share/doc/rdma-core/tests /tmp/pyv && gunzip -rq /tmp/pyv
(cd /tmp && timeout 600 /usr/bin/python3 pyv/run_tests.py --dev rxe0 -v \
	tests.test_device tests.test_pd) >"$CAP/pyverbs.log" 2>&1
pyv_summary=$(grep -E '^(OK|FAILED)' "$CAP/pyverbs.log" | tail -n1)
grep -E ' \.\.\. ' "$CAP/pyverbs.log" | sed 's/ (.*)//' | sort >"$CAP/pyverbs-results"
echo "# pyverbs test_device+test_pd: $(grep -c ' ok$' "$CAP/pyverbs-results") ok, $(grep -c 'skipped' "$CAP/pyverbs-results") skipped; $pyv_summary"
t_run "pyverbs test_device + test_pd: no failure or error" \
	bash -c "grep -q '^OK' $CAP/pyverbs.log"

# --- malformed input to uverbs0 ---------------------------------------------
if [ -x "$BIN/uverbs_abuse" ]; then
	capture uverbs-abuse "$BIN/uverbs_abuse"
	t_run "uverbs_abuse ran to the end" grep -q '^\[exit 0\]' "$CAP/uverbs-abuse"
fi

# --- removing a device under an open context ---------------------------------
if [ "$STACK" = ours ]; then
	# In-tree rxe cannot disassociate: its delete waits for the last close.
	# Ours disassociates: the delete completes and the context gets EIO.
	# Per-cache object counts around the cycles: a leak of one object per
	# cycle shows as +100 in some cache (the guest boots with slab_nomerge).
	# Our modules allocate from the kmalloc caches; the others move with
	# the 9p file system and lazy vfree and say nothing about us.  What we
	# vmalloc is checked in /proc/vmallocinfo instead, by caller.
	# (after a pause: objects freed after an RCU grace period, which is
	# slow on a loaded TCG host, must be gone)
	slab_snap() { sleep 3; sync; echo 3 >/proc/sys/vm/drop_caches; awk 'NR > 2 && /^kmalloc/ { print $1, $2 }' /proc/slabinfo | sort; }
	# run_cycles FIRST N: N x (link add unless it is cycle 1 of the first
	# batch, open, alloc PD, link delete under it, close)
	run_cycles()
	{
		local first=$1 n=$2 i
		for i in $(seq "$n"); do
			if [ "$first" = 0 ] || [ "$i" -gt 1 ]; then
				rdma link add rxe0 type rxe netdev eth0 || { cycle_ok=0; break; }
			fi
			rm -f /tmp/hold.in; mkfifo /tmp/hold.in
			"$BIN/hold_pd" rxe0 </tmp/hold.in >/tmp/hold.out 2>&1 &
			pid=$!
			exec 9>/tmp/hold.in
			wait_for 10 grep -q ready /tmp/hold.out || { cycle_ok=0; echo "# cycle $i: $(cat /tmp/hold.out)"; break; }
			timeout 20 rdma link delete rxe0 || { cycle_ok=0; echo "# cycle $i: delete hung or failed"; break; }
			echo go >&9; exec 9>&-
			wait "$pid"
			if ! grep -q "query_device EIO" /tmp/hold.out; then
				cycle_ok=0; echo "# cycle $i: $(tr '\n' ' ' </tmp/hold.out)"; break
			fi
		done
	}
	# grown BEFORE AFTER: caches that grew by >= 90 objects
	grown() { join "$1" "$2" | awk '{ d = $3 - $2; if (d >= 90) print $1 }'; }
	slab_snap >/tmp/slab.before
	cycle_ok=1
	run_cycles 1 100
	t_result "$cycle_ok" "100 x (link add, open, alloc PD, link delete under it, close)"
	t_eq "no device left" "" rdma dev
	slab_snap >/tmp/slab.after
	echo "# slab caches that grew most over the 100 cycles: $(join /tmp/slab.before /tmp/slab.after | awk '{ print $3 - $2, $1 }' | sort -rn | head -3 | tr '\n' ' ')"
	grown /tmp/slab.before /tmp/slab.after >/tmp/slab.grown
	if [ -s /tmp/slab.grown ]; then
		# The guest's own activity moves kmalloc caches too, a different
		# one from run to run: a leak of ours grows the same cache by
		# ~100 again over 100 more cycles.
		echo "# grew: $(tr '\n' ' ' </tmp/slab.grown); 100 more cycles to tell a leak from noise"
		run_cycles 0 100
		slab_snap >/tmp/slab.after2
		echo "# over the next 100: $(join /tmp/slab.after /tmp/slab.after2 | awk '{ print $3 - $2, $1 }' | sort -rn | head -3 | tr '\n' ' ')"
		grown /tmp/slab.after /tmp/slab.after2 | join - /tmp/slab.grown >/tmp/slab.grown2
		mv /tmp/slab.grown2 /tmp/slab.grown
	fi
	t_eq "no kmalloc cache grew by ~1 object per cycle (twice in a row)" "" cat /tmp/slab.grown
	t_eq "nothing vmalloc'ed by our modules is left" "" \
		grep -E '\[(ib_core|ib_uverbs|rdma_rxe)\]' /proc/vmallocinfo
fi

rdma link delete rxe0 2>/dev/null
t_run "unload" modprobe -r rdma_rxe ib_uverbs ib_core
t_done "control-$STACK"
