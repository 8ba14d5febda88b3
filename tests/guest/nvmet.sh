#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the NVMe/RDMA pair (tests/host/nvmet.sh starts it through
# scripts/vm-pair.sh; not in CI yet).  The server (guest a) exports two
# namespaces through configfs on port 4420 of its rxe0: 1, a 64 MiB brd
# RAM disk (the bdev backend) and 2, a 16 MiB file (the file backend);
# (buffered: tmpfs has no O_DIRECT, nvmet's default for files);
# with addr_trtype=rdma nvmet loads whatever nvmet-transport-1 is, ours on
# the ours stack.  The client (guest b) runs `nvme discover`, `nvme
# connect`, writes a pattern with dd (1 MiB blocks: keyed SGLs, RDMA READ
# by the target; 4 KiB blocks: in-capsule data), reads it back with
# O_DIRECT (RDMA WRITE by the target), compares, runs fio verify
# (fio_verify) and disconnects; then connects over IPv6 (port 2,
# [fd00::11]:4421) and reads the pattern back.  The guest with
# WIRE_CAPTURE=1 captures RoCEv2 up to there.  Then
# (NVMET_REMOVAL=1, the default) the client connects again and reads while
# the server deletes its rxe0 (DEVICE_REMOVAL for the listener and the
# queues: nothing may be left), then disconnects; then the client says
# "done" on TCP port DONEPORT and the server takes its port and subsystem
# down and unloads everything.  NVMET_FAULTS=1 (the default) adds, before
# the removal: five controllers (round-robin) under ~600 concurrent 1 MiB
# writes (RDMA READs queued on the target) when the client deletes its own
# rxe0: the target's flushed READs must all fit its CQ (cq_overflow_drops
# stays 0) and its QPs go; then port 1 is unlinked, removed and re-created
# 20 times while the client connects in three loops (no hang).
#
# Environment: WIRE_ROLE, WIRE_SELF, WIRE_PEER, WIRE_TAG (scripts/vm-pair.sh,
# tests/host/nvmet.sh).
set -u
. /oot-src/tests/guest/lib.sh
OUT=/oot-out/nvmet
. /oot-src/tests/guest/wire_lib.sh
. /oot-src/tests/guest/nvme_lib.sh
STACK=${OOT_STACK:?}
DEV=rxe0
NQN=nqn.2026-11.org.ordma:nvmet-test
CFG=/sys/kernel/config/nvmet
DONEPORT=21400
REMOVEPORT=21401
FAULTPORT=21402
PORTLOOPPORT=21403
CAPPORT=21404
# 1: the host-fault and port-removal-while-connecting steps
FAULTS=${NVMET_FAULTS:-1}
# 1: at the end, the target's rxe0 is deleted under a connected host
REMOVAL=${NVMET_REMOVAL:-1}
# fio verify's region of namespace 1, per job (MiB)
FIO_MIB=${NVMET_FIO_MIB:-8}
WAIT=600
mkdir -p "$OUT"
echo "# nvmet $TAG: $ROLE on $STACK stack, $SELF, peer $PEER"

t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_run "modprobe rdma_cm" modprobe rdma_cm
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
SELF6=fd00::${SELF##*.}
PEER6=fd00::${PEER##*.}
ip -6 addr add "$SELF6/64" dev eth0 nodad
t_run "GIDs of $SELF and $SELF6" wait_until 30 eval \
	"grep -qx $(ip4gid "$SELF") /sys/class/infiniband/$DEV/ports/1/gids/* &&
	 grep -qx fd00:0000:0000:0000:0000:0000:0000:$(printf %04d "${SELF##*.}") /sys/class/infiniband/$DEV/ports/1/gids/*"
# WIRE_CAPTURE=1: this guest captures the NVMe traffic from discover to
# the IPv6 disconnect (both guests meet on CAPPORT at its end); the host
# dissects it as NVMe-oF over RDMA (tests/host/nvmet.sh).
cap_start 256

accept_one() # PORT: one TCP connection from the peer (WAIT s at most)
{
	timeout $WAIT python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("", int(sys.argv[1])))
s.listen(1)
s.accept()[0].close()' "$1"
}
connect_peer() { (exec 3<>"/dev/tcp/$PEER/$1") 2>/dev/null; }

server()
{
	t_run "modprobe nvmet" modprobe nvmet
	t_run "brd: a 64 MiB RAM disk" modprobe brd rd_nr=1 rd_size=65536
	t_run "a 16 MiB backing file" truncate -s 16M /tmp/ns2.img
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	local s=$CFG/subsystems/$NQN p=$CFG/ports/1
	t_run "subsystem $NQN" eval "mkdir $s && echo 1 >$s/attr_allow_any_host"
	t_run "namespace 1: /dev/ram0" eval "mkdir $s/namespaces/1 &&
		echo -n /dev/ram0 >$s/namespaces/1/device_path &&
		echo 1 >$s/namespaces/1/enable"
	t_run "namespace 2: /tmp/ns2.img" eval "mkdir $s/namespaces/2 &&
		echo -n /tmp/ns2.img >$s/namespaces/2/device_path &&
		echo 1 >$s/namespaces/2/buffered_io &&
		echo 1 >$s/namespaces/2/enable"
	t_run "port 1: rdma $SELF:4420 ipv4" eval "mkdir $p &&
		echo rdma >$p/addr_trtype && echo ipv4 >$p/addr_adrfam &&
		echo $SELF >$p/addr_traddr && echo 4420 >$p/addr_trsvcid"
	t_run "port 1 enabled with the subsystem" ln -s "$s" "$p/subsystems/"
	local p6=$CFG/ports/2
	t_run "port 2: rdma [$SELF6]:4421 ipv6" eval "mkdir $p6 &&
		echo rdma >$p6/addr_trtype && echo ipv6 >$p6/addr_adrfam &&
		echo $SELF6 >$p6/addr_traddr && echo 4421 >$p6/addr_trsvcid"
	t_run "port 2 enabled with the subsystem" ln -s "$s" "$p6/subsystems/"
	local qps0
	qps0=$(rdma res show qp 2>/dev/null | grep -c .)
	# ours carries MODULE_VERSION, the in-tree one none
	t_eq "nvmet_rdma loaded is the $STACK one" \
		"$([ "$STACK" = ours ] && echo 0.1.0-oot || echo in-tree)" \
		eval 'cat /sys/module/nvmet_rdma/version 2>/dev/null || echo in-tree'
	echo "# nvmet_rdma: $(modinfo -F filename nvmet_rdma)"
	t_run "a listener on port 4420" wait_until 30 eval \
		"rdma res show cm_id | grep -q 'state LISTEN.*:4420'"
	echo "# waiting for the client's end of the captured traffic (port $CAPPORT)"
	WAIT=1200 t_run "the client's captured traffic is over" accept_one $CAPPORT
	cap_stop
	if [ "$FAULTS" = 1 ]; then
		server_faults "$s" "$p" "$qps0" || { t_done "nvmet-$TAG-$ROLE"; exit 1; }
	fi
	if [ "$REMOVAL" = 1 ]; then
		echo "# waiting for the client to connect for the removal (port $REMOVEPORT)"
		t_run "the client is connected, reading" accept_one $REMOVEPORT
		sleep 2
		t_run "rdma link delete $DEV under a connected host" rdma link delete $DEV
		t_run "no cm_id and no QP left after the removal" wait_until 60 eval \
			'[ -z "$(rdma res show cm_id 2>/dev/null)" ] && [ -z "$(rdma res show qp 2>/dev/null)" ]'
		t_run "rdma link add $DEV again" rdma link add $DEV type rxe netdev eth0
	fi
	echo "# waiting for the client (port $DONEPORT)"
	t_run "the client says done" accept_one $DONEPORT
	echo "# ram0 after the client: $(head -c 9437184 /dev/ram0 | sha256sum | cut -c1-16) (first 9 MiB)"
	echo "# cm ids: $(rdma res show cm_id | grep -c .); qps: $(rdma res show qp 2>/dev/null | grep -c .)"
	t_run "port 1 disabled" rm "$p/subsystems/$NQN"
	t_run "port 1 removed" rmdir "$p"
	t_run "port 2 disabled and removed" eval "rm $p6/subsystems/$NQN && rmdir $p6"
	t_run "namespaces and subsystem removed" eval "echo 0 >$s/namespaces/1/enable &&
		echo 0 >$s/namespaces/2/enable && rmdir $s/namespaces/1 $s/namespaces/2 && rmdir $s"
	t_run "no cm_id left" wait_until 30 eval '[ -z "$(rdma res show cm_id)" ]'
	t_run "unload nvmet_rdma nvmet brd" modprobe -r nvmet_rdma nvmet brd
}

port1_setup() # SUBSYS PORTDIR: port 1 (IPv4, 4420) serving SUBSYS
{
	mkdir "$2" && echo rdma >"$2/addr_trtype" && echo ipv4 >"$2/addr_adrfam" &&
		echo "$SELF" >"$2/addr_traddr" && echo 4420 >"$2/addr_trsvcid" &&
		ln -s "$1" "$2/subsystems/"
}

# Runs CMD... in the background; fails (and leaves it, stuck) if it has
# not ended within SECONDS: a configfs write that hangs is a failed check,
# not a hung guest.
bounded() # SECONDS CMD...
{
	local t=$1 pid
	shift
	"$@" &
	pid=$!
	wait_until "$t" eval "! kill -0 $pid 2>/dev/null" || return 124
	wait $pid
}

# The target's side of the faults (NVMET_FAULTS=1).
server_faults() # SUBSYS PORTDIR QPS_BEFORE
{
	local s=$1 p=$2 qps0=$3 c=/sys/class/infiniband/$DEV/ports/1/hw_counters i
	echo "# waiting for the client's fault (port $FAULTPORT)"
	t_run "the client faulted under 1 MiB writes" accept_one $FAULTPORT
	t_run "the host's queues are gone from the target" wait_until 120 eval \
		'[ "$(rdma res show qp 2>/dev/null | grep -c .)" = "$qps0" ]'
	echo "# qps now: $(rdma res show qp 2>/dev/null | grep -c .), before: $qps0"
	# (a counter of ours: the in-tree rxe drops such completions unseen)
	if [ "$STACK" = ours ]; then
		t_eq "no completion lost to a full CQ (cq_overflow_drops)" 0 cat $c/cq_overflow_drops
	fi
	echo "# waiting for the client's connect loop (port $PORTLOOPPORT)"
	t_run "the client connects in a loop" accept_one $PORTLOOPPORT
	for i in $(seq 20); do
		t_run "cycle $i: port 1 unlinked and removed (hosts connecting)" \
			bounded 150 eval "rm $p/subsystems/$NQN && rmdir $p" || return 1
		t_run "cycle $i: port 1 back" bounded 60 port1_setup "$s" "$p" || return 1
		sleep 0.$((RANDOM % 10))
	done
}

host_addr() { echo "10.0.2.$((20 + $1))"; }
writes_in_flight() # on the paths to namespace 1
{
	awk '{ n += $2 } END { print n + 0 }' /sys/block/nvme*c*n1/inflight 2>/dev/null
}
host_gids() # rxe0 has a GID for each of the five host addresses
{
	local i
	for i in 1 2 3 4 5; do
		grep -qx "$(ip4gid "$(host_addr $i)")" /sys/class/infiniband/$DEV/ports/1/gids/* ||
			return 1
	done
}

# The host's side of the faults (NVMET_FAULTS=1).
client_faults()
{
	local i n dev writer looper
	# Five host addresses (nvme-cli 2.3 refuses a second controller from
	# one, -D or not): five paths to the subsystem's namespaces.
	for i in 1 2 3 4 5; do
		ip addr add "$(host_addr $i)/24" dev eth0
	done
	t_run "fault: GIDs of the five host addresses" wait_until 30 host_gids
	for i in 1 2 3 4 5; do
		t_run "fault: controller $i of 5 (from $(host_addr $i))" nvme connect \
			-w "$(host_addr $i)" -t rdma -a "$PEER" -s 4420 -n "$NQN" \
			--ctrl-loss-tmo=5 --reconnect-delay=2
	done
	t_run "fault: five controllers, namespace 1 on them" wait_until 60 eval \
		'[ "$(ls -d /sys/class/nvme/nvme[0-9]* 2>/dev/null | wc -l)" -ge 5 ] && [ -b "$(ns_dev 1 | head -n 1)" ]'
	for i in /sys/class/nvme-subsystem/*/iopolicy; do echo round-robin >"$i"; done
	dev=$(ns_dev 1 | head -n 1)
	# One 1 MiB buffer shared by 600 threads: the target holds ~600 MiB of
	# RDMA READs in flight, this guest only the buffer.
	timeout 300 python3 -c 'import mmap, os, sys, threading
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 1 << 20)
buf.write(b"\xa5" * (1 << 20))
def run(i):
    try:
        while True:
            os.pwrite(fd, buf, (i % 60) << 20)
    except OSError:
        pass
threading.stack_size(1 << 18)
ts = [threading.Thread(target=run, args=(i,)) for i in range(600)]
for t in ts:
    t.start()
for t in ts:
    t.join()' "$dev" &
	writer=$!
	# Fault once most writers wait on the target (at most 120 s).
	wait_until 120 eval '[ "$(writes_in_flight)" -ge 400 ]'
	echo "# fault: $(writes_in_flight) 1 MiB writes in flight"
	t_run "fault: rdma link delete $DEV under 600 1 MiB writes" rdma link delete $DEV
	t_run "fault: the writers end" wait_until 240 eval "! kill -0 $writer 2>/dev/null"
	wait $writer
	t_run "fault: the controllers are gone" wait_until 60 eval '! ls /dev/nvme0 2>/dev/null'
	t_run "fault: rdma link add $DEV again" rdma link add $DEV type rxe netdev eth0
	t_run "fault: GID of $SELF back" wait_until 30 eval \
		"grep -qx $(ip4gid "$SELF") /sys/class/infiniband/$DEV/ports/1/gids/*"
	t_run "fault: tell the server" wait_until 60 connect_peer $FAULTPORT
	# Port 1 goes and comes back while three hosts connect in loops.
	local loops=()
	for i in 1 2 3; do
		( n=0; end=$(($(date +%s) + 120))
		  while [ "$(date +%s)" -lt $end ]; do
			nvme connect -w "$(host_addr $i)" -t rdma -a "$PEER" -s 4420 \
				-n "$NQN" >/dev/null 2>&1 && n=$((n + 1))
			nvme disconnect -n "$NQN" >/dev/null 2>&1
		  done; echo "# connect loop $i: $n connects" ) &
		loops+=($!)
	done
	t_run "loop: tell the server" wait_until 60 connect_peer $PORTLOOPPORT
	wait "${loops[@]}"
	nvme disconnect -n "$NQN" >/dev/null 2>&1
	t_run "loop: the target serves again" wait_until 120 eval \
		"nvme discover -t rdma -a $PEER -s 4420 | grep -q 'subnqn: *$NQN'"
}

# The block device of namespace NSID (the host names disks in the order
# their probes finish, which on 6.12 need not be NSID order).

# The client's data: 8 MiB in 1 MiB blocks, then 1 MiB in 4 KiB ones.
client()
{
	t_run "modprobe nvme-rdma" modprobe nvme-rdma
	# ours carries MODULE_VERSION, the in-tree one none
	t_eq "nvme_rdma loaded is the $STACK one" \
		"$([ "$STACK" = ours ] && echo 0.1.0-oot || echo in-tree)" \
		eval 'cat /sys/module/nvme_rdma/version 2>/dev/null || echo in-tree'
	echo "# nvme_rdma: $(modinfo -F filename nvme_rdma)"
	local disc=$OUT/discover.txt
	t_run "nvme discover -t rdma -a $PEER finds $NQN" wait_until 300 eval \
		"nvme discover -t rdma -a $PEER -s 4420 >$disc 2>&1 && grep -q 'subnqn: *$NQN' $disc"
	cat "$disc"
	t_run "nvme connect -t rdma -n $NQN" nvme connect -t rdma -a "$PEER" -s 4420 -n "$NQN"
	t_run "two namespaces appear" wait_until 30 eval '[ -b "$(ns_dev 1)" ] && [ -b "$(ns_dev 2)" ]'
	nvme list
	t_eq "namespace 1 is 64 MiB" 67108864 blockdev --getsize64 "$(ns_dev 1)"
	t_eq "namespace 2 is 16 MiB" 16777216 blockdev --getsize64 "$(ns_dev 2)"
	head -c 9437184 /dev/urandom >/tmp/pattern
	local ns dev
	for ns in 1 2; do
		dev=$(ns_dev $ns)
		t_run "ns$ns: write 8 MiB in 1 MiB blocks (RDMA READ)" \
			dd if=/tmp/pattern of=$dev bs=1M count=8 oflag=direct status=none
		t_run "ns$ns: write 1 MiB in 4 KiB blocks (in-capsule)" \
			dd if=/tmp/pattern of=$dev bs=4k skip=2048 seek=2048 count=256 oflag=direct status=none
		t_run "ns$ns: read 9 MiB back (RDMA WRITE)" \
			dd if=$dev of=/tmp/back$ns bs=1M count=9 iflag=direct status=none
		t_run "ns$ns: the bytes read are the bytes written" cmp /tmp/pattern /tmp/back$ns
		t_run "ns$ns: 4 KiB reads match too" eval "dd if=$dev bs=4k count=64 skip=2100 iflag=direct status=none |
			cmp - <(dd if=/tmp/pattern bs=4k count=64 skip=2100 status=none)"
	done
	echo "# pattern: $(sha256sum </tmp/pattern | cut -c1-16)"
	# (from 16 MiB on: the 9 MiB pattern before it is read back over IPv6)
	fio_verify "$(ns_dev 1)" "$FIO_MIB" 16 "fio-$TAG"
	t_run "nvme disconnect -n $NQN" nvme disconnect -n "$NQN"
	t_run "the controller is gone" wait_until 30 eval '! ls /dev/nvme0 2>/dev/null'
	# The same subsystem over IPv6 (port 2): what IPv4 wrote reads back.
	t_run "nvme connect -t rdma -a $PEER6 -s 4421" nvme connect -t rdma -a "$PEER6" -s 4421 -n "$NQN"
	t_run "namespace 1 appears (IPv6)" wait_until 30 eval '[ -b "$(ns_dev 1)" ]'
	t_run "ipv6: 9 MiB read back are the pattern" eval \
		"dd if=\$(ns_dev 1) bs=1M count=9 iflag=direct status=none | cmp - /tmp/pattern"
	t_run "nvme disconnect (IPv6)" nvme disconnect -n "$NQN"
	t_run "the controller is gone (IPv6)" wait_until 30 eval '! ls /dev/nvme0 2>/dev/null'
	cap_stop
	t_run "tell the server the captured traffic is over" wait_until 60 connect_peer $CAPPORT
	# A peer that is no NVMe host: rping's private data asks for a queue
	# of one entry (hsqsize 0), which ours refuses (the in-tree target
	# accepts it, then drops the connection); either way the target goes
	# on serving.  The target's stack is the first of the pair's tag.
	if [ "${TAG%-*}" = ours ]; then
		t_fail "rping to port 4420 is refused" timeout 60 rping -c -a "$PEER" -p 4420 -C 1
	else
		echo "# rping to a stock target: $(timeout 60 rping -c -a "$PEER" -p 4420 -C 1 2>&1 | tail -n 1) (exit $?)"
	fi
	t_run "the target still serves: nvme discover" eval \
		"nvme discover -t rdma -a $PEER -s 4420 | grep -q 'subnqn: *$NQN'"
	[ "$FAULTS" = 1 ] && client_faults
	if [ "$REMOVAL" = 1 ]; then
		# The target's rxe0 goes away under this connection: the host
		# sees its queues fail and tries to reconnect, and disconnecting
		# still works (ctrl_loss_tmo 20 s).
		t_run "nvme connect for the removal" nvme connect -t rdma -a "$PEER" -s 4420 \
			-n "$NQN" --ctrl-loss-tmo=20 --reconnect-delay=2
		t_run "namespace 1 appears (removal)" wait_until 30 eval '[ -b "$(ns_dev 1)" ]'
		( for _ in $(seq 20); do dd if="$(ns_dev 1)" of=/dev/null bs=1M count=16 \
			iflag=direct status=none 2>/dev/null || break; done ) &
		local reader=$!
		t_run "tell the server to remove its device" wait_until 60 connect_peer $REMOVEPORT
		sleep 10
		t_run "nvme disconnect after the target's removal" nvme disconnect -n "$NQN"
		t_run "the controller is gone (removal)" wait_until 60 eval '! ls /dev/nvme0 2>/dev/null'
		wait $reader
	fi
	t_run "tell the server we are done" wait_until 60 connect_peer $DONEPORT
	t_run "unload nvme_rdma" modprobe -r nvme_rdma
}

if [ "$ROLE" = server ]; then server; else client; fi
t_run "rdma link delete $DEV" rdma link delete $DEV
t_done "nvmet-$TAG-$ROLE"
