#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Our NVMe/RDMA host (nvme_rdma/) against our target (nvmet_rdma/), both
# ends on rxe0 of one guest over 10.0.2.15 and fd00::15 (issue 21).  The
# target exports a 64 MiB brd RAM disk (namespace 1) and a 16 MiB file
# (namespace 2, buffered: tmpfs has no O_DIRECT) through configfs on port
# 4420 (IPv4) and port 4421 (IPv6); the host runs `nvme discover`,
# `nvme connect -i 2` (two I/O queues), `nvme list`, `nvme id-ctrl`, fio
# with verify=crc32c (random writes of 4 KiB to 1 MiB, then their
# verification; iodepth 32, two jobs, libaio, O_DIRECT) on namespace 1,
# writes a 64 MiB random pattern with O_DIRECT dd in
# 1 MiB blocks (keyed SGLs: fast-registered MRs the target reads) and
# another in 4 KiB blocks (in-capsule data), reads each back in both block
# sizes (the target writes into our MRs) and compares SHA-256 sums, also
# against /dev/ram0 read on the target's side; a 16 MiB pattern through
# namespace 2 equals the backing file.  Then `nvme reset`, and an
# error recovery: the target unlinks the subsystem from its port (the
# host's queues are disconnected), the host reconnects every second and,
# once the link is back, reads the pattern again; `nvme disconnect`; the
# same subsystem over IPv6 reads namespace 1's pattern and writes and
# reads namespace 2 again; a
# controller with ctrl_loss_tmo 3 is deleted when the target stays away;
# one more is deleted with rxe0 (`rdma link delete`).  Everything unloads
# with a clean kernel log.
#
#   flock /tmp/ordma-guest.lock env OOT_KERNEL=6.12 scripts/vm-run.sh \
#     --stack ours --name nvmehost --out /tmp/nvmehost -- tests/guest/nvme_host.sh
set -u
. /oot-src/tests/guest/lib.sh
. /oot-src/tests/guest/nvme_lib.sh
STACK=${OOT_STACK:?}
OUT=/oot-out/nvme_host
mkdir -p "$OUT"
DEV=rxe0
IP4=10.0.2.15
IP6=fd00::15
NQN=nqn.2026-11.org.ordma:nvme-host-test
CFG=/sys/kernel/config/nvmet
SIZE_MB=64
FILE_MB=16
FILE=/tmp/ns2.img
echo "# nvme_host: $STACK stack, kernel $(uname -r)"

ip link set lo up
ip link set eth0 up
ip addr add $IP4/24 dev eth0
ip -6 addr add $IP6/64 dev eth0 nodad
t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_run "modprobe rdma_cm" modprobe rdma_cm
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
t_run "GIDs of $IP4 and $IP6 on $DEV" wait_until 30 eval \
	"grep -qx 0000:0000:0000:0000:0000:ffff:0a00:020f /sys/class/infiniband/$DEV/ports/1/gids/* &&
	 grep -qx fd00:0000:0000:0000:0000:0000:0000:0015 /sys/class/infiniband/$DEV/ports/1/gids/*"

# --- the target ---------------------------------------------------------------
t_run "modprobe nvmet" modprobe nvmet
t_run "brd: a $SIZE_MB MiB RAM disk" modprobe brd rd_nr=1 rd_size=$((SIZE_MB * 1024))
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
S=$CFG/subsystems/$NQN P=$CFG/ports/1
t_run "subsystem $NQN" eval "mkdir $S && echo 1 >$S/attr_allow_any_host"
t_run "namespace 1: /dev/ram0" eval "mkdir $S/namespaces/1 &&
	echo -n /dev/ram0 >$S/namespaces/1/device_path &&
	echo 1 >$S/namespaces/1/enable"
t_run "a $FILE_MB MiB backing file" truncate -s ${FILE_MB}M $FILE
t_run "namespace 2: $FILE (buffered)" eval "mkdir $S/namespaces/2 &&
	echo -n $FILE >$S/namespaces/2/device_path &&
	echo 1 >$S/namespaces/2/buffered_io &&
	echo 1 >$S/namespaces/2/enable"
t_run "port 1: rdma $IP4:4420" eval "mkdir $P &&
	echo rdma >$P/addr_trtype && echo ipv4 >$P/addr_adrfam &&
	echo $IP4 >$P/addr_traddr && echo 4420 >$P/addr_trsvcid"
t_run "port 1 enabled with the subsystem" ln -s "$S" "$P/subsystems/"
P6=$CFG/ports/2
t_run "port 2: rdma [$IP6]:4421" eval "mkdir $P6 &&
	echo rdma >$P6/addr_trtype && echo ipv6 >$P6/addr_adrfam &&
	echo $IP6 >$P6/addr_traddr && echo 4421 >$P6/addr_trsvcid"
t_run "port 2 enabled with the subsystem" ln -s "$S" "$P6/subsystems/"
t_run "listeners on ports 4420 and 4421" wait_until 30 eval \
	"rdma res show cm_id | grep -q 'state LISTEN.*:4420' &&
	 rdma res show cm_id | grep -q 'state LISTEN.*:4421'"

# --- the host -----------------------------------------------------------------
t_run "modprobe nvme-rdma" modprobe nvme-rdma
t_eq "nvme_rdma loaded is the $STACK one" \
	"$([ "$STACK" = ours ] && echo 0.1.0-oot || echo in-tree)" \
	eval 'cat /sys/module/nvme_rdma/version 2>/dev/null || echo in-tree'
echo "# nvme_rdma: $(modinfo -F filename nvme_rdma)"

ctrl_of() # NQN: the nvmeN connected to it over rdma
{
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$1" ] &&
			[ "$(cat "$c/transport" 2>/dev/null)" = rdma ] && echo "${c##*/}"
	done
}

disc=$OUT/discover.txt
t_run "nvme discover -t rdma -a $IP4 finds $NQN" wait_until 60 eval \
	"nvme discover -t rdma -a $IP4 -s 4420 >$disc 2>&1 && grep -q 'subnqn: *$NQN' $disc"
sed 's/^/#   /' "$disc"
t_run "no controller left by discover" wait_until 30 eval \
	'[ -z "$(ctrl_of nqn.2014-08.org.nvmexpress.discovery)" ]'
t_run "nvme connect -t rdma -i 2 -n $NQN" nvme connect -t rdma -a $IP4 -s 4420 -i 2 \
	-n "$NQN" --reconnect-delay=1 --ctrl-loss-tmo=60
C=$(ctrl_of "$NQN")
t_run "a controller for $NQN ($C)" test -n "$C"
t_run "namespace 1 appears" wait_until 30 eval '[ -b "$(ns_dev 1)" ]'
NS=$(ns_dev 1)
nvme list | sed 's/^/#   /'
t_run "nvme list shows $NS" eval "nvme list | grep -q '^$NS '"
t_run "nvme id-ctrl: subnqn is $NQN" eval \
	"nvme id-ctrl /dev/$C | grep -q '^subnqn *: *$NQN\$'"
# With native multipath $NS is the bio-based head: the path's disk
# (nvmeXcYnZ, under the controller) has the hardware queues.
MQDEV=$(basename "$(ls -d /sys/class/nvme/"$C"/nvme*c*n1 2>/dev/null | head -n 1)")
[ -n "$MQDEV" ] || MQDEV=${NS#/dev/}
t_eq "two I/O queues (blk-mq hardware queues of $MQDEV)" 2 \
	eval "ls -d /sys/block/$MQDEV/mq/* | wc -l"
t_eq "namespace 1 is $SIZE_MB MiB" $((SIZE_MB << 20)) blockdev --getsize64 "$NS"
t_run "namespace 2 appears" wait_until 30 eval '[ -b "$(ns_dev 2)" ]'
NS2=$(ns_dev 2)
t_eq "namespace 2 is $FILE_MB MiB" $((FILE_MB << 20)) blockdev --getsize64 "$NS2"

# fio's own verification on the two-queue controller: each job its 16 MiB
# of namespace 1 (nvme_lib.sh).
fio_verify "$NS" 16 0 fio

sum() { sha256sum | cut -d' ' -f1; }
for bs in 1M 4k; do
	head -c $((SIZE_MB << 20)) /dev/urandom >/tmp/pattern
	want=$(sum </tmp/pattern)
	echo "# pattern for bs=$bs: $want"
	count=$(( (SIZE_MB << 20) / $(numfmt --from=iec "${bs^^}") ))
	t_run "bs=$bs: write $SIZE_MB MiB with O_DIRECT" \
		dd if=/tmp/pattern of="$NS" bs=$bs count=$count oflag=direct status=none
	t_eq "bs=$bs: read back in 1 MiB blocks, sha256 equal" "$want" \
		eval "dd if=$NS bs=1M count=$SIZE_MB iflag=direct status=none | sum"
	t_eq "bs=$bs: read back in 4 KiB blocks, sha256 equal" "$want" \
		eval "dd if=$NS bs=4k count=$((SIZE_MB * 256)) iflag=direct status=none | sum"
	t_eq "bs=$bs: the target's /dev/ram0 holds the pattern" "$want" \
		eval "dd if=/dev/ram0 bs=1M count=$SIZE_MB iflag=direct status=none | sum"
done

# Namespace 2, the file backend.
ns2_pattern() # TAG: write a fresh FILE_MB MiB pattern to NS2, check it
{
	head -c $((FILE_MB << 20)) /dev/urandom >/tmp/pattern2
	want2=$(sum </tmp/pattern2)
	t_run "$1: write $FILE_MB MiB to namespace 2 ($NS2)" \
		dd if=/tmp/pattern2 of="$NS2" bs=1M oflag=direct status=none
	t_eq "$1: namespace 2 reads back, sha256 equal" "$want2" \
		eval "dd if=$NS2 bs=128k iflag=direct status=none | sum"
	t_eq "$1: the target's $FILE holds the pattern" "$want2" eval "sum <$FILE"
}
ns2_pattern ipv4

state_is() { [ "$(cat "/sys/class/nvme/$1/state" 2>/dev/null)" = "$2" ]; }
readback() { dd if="$NS" bs=1M count=$SIZE_MB iflag=direct status=none | sum; }

# Reset: the queues are torn down and made again on the kept tag sets.
t_run "nvme reset /dev/$C" nvme reset "/dev/$C"
t_run "live again after the reset" wait_until 60 state_is "$C" live
t_eq "after the reset: $SIZE_MB MiB read back, sha256 equal" "$want" readback

# Error recovery: the target drops the controller (the port's last
# subsystem link goes, so does its listener); the host reconnects every
# second until the link is back.
t_run "target: subsystem unlinked from port 1" rm "$P/subsystems/$NQN"
t_run "the host lost the controller (connecting)" wait_until 60 state_is "$C" connecting
sleep 3
t_run "target: subsystem linked again" ln -s "$S" "$P/subsystems/"
t_run "the host reconnected (live)" wait_until 90 state_is "$C" live
t_eq "after the reconnect: $SIZE_MB MiB read back, sha256 equal" "$want" readback
echo "# reconnects: $(dmesg | grep -c 'nvme_rdma: .*reconnect attempt') failed attempts logged"

dmesg | grep nvme_rdma | tail -n 40 | sed 's/^/#   /'
t_run "nvme disconnect -n $NQN" nvme disconnect -n "$NQN"
t_run "the controller is gone" wait_until 30 eval '[ -z "$(ctrl_of "$NQN")" ]'

# The same subsystem over IPv6 (port 2).
t_run "nvme connect -t rdma -a $IP6 -s 4421" nvme connect -t rdma -a $IP6 -s 4421 \
	-n "$NQN"
C=$(ctrl_of "$NQN")
t_eq "ipv6: the controller's address is $IP6:4421" "traddr=$IP6,trsvcid=4421" \
	eval "cut -d, -f1,2 /sys/class/nvme/$C/address"
t_run "ipv6: namespaces 1 and 2 appear" wait_until 30 eval \
	'[ -b "$(ns_dev 1)" ] && [ -b "$(ns_dev 2)" ]'
NS=$(ns_dev 1) NS2=$(ns_dev 2)
t_eq "ipv6: namespace 1 reads back what IPv4 wrote, sha256 equal" "$want" readback
t_eq "ipv6: namespace 2 reads back what IPv4 wrote, sha256 equal" "$want2" \
	eval "dd if=$NS2 bs=1M iflag=direct status=none | sum"
ns2_pattern ipv6
t_run "nvme disconnect (IPv6)" nvme disconnect -n "$NQN"
t_run "the controller is gone (IPv6)" wait_until 30 eval '[ -z "$(ctrl_of "$NQN")" ]'

# ctrl_loss_tmo: a controller whose target stays away is deleted.
t_run "nvme connect --ctrl-loss-tmo=3" nvme connect -t rdma -a $IP4 -s 4420 \
	-n "$NQN" --reconnect-delay=1 --ctrl-loss-tmo=3
C=$(ctrl_of "$NQN")
t_run "target: subsystem unlinked again" rm "$P/subsystems/$NQN"
t_run "ctrl_loss_tmo over: the controller is deleted" wait_until 60 eval \
	'[ -z "$(ctrl_of "$NQN")" ]'
t_run "target: subsystem linked again" ln -s "$S" "$P/subsystems/"

# Device removal under a connected controller: it is deleted with the
# device (the target's listener goes too).
t_run "nvme connect (for the device removal)" nvme connect -t rdma -a $IP4 -s 4420 -n "$NQN"
t_run "namespace 1 is back" wait_until 30 eval '[ -b "$(ns_dev 1)" ]'
t_run "rdma link delete $DEV under the controller" rdma link delete $DEV
t_run "the controller went with the device" wait_until 60 eval '[ -z "$(ctrl_of "$NQN")" ]'
t_run "unload nvme_rdma" modprobe -r nvme_rdma

# --- the target down, the stack unloaded -------------------------------------
t_run "port 1 disabled and removed" eval "rm $P/subsystems/$NQN && rmdir $P"
t_run "port 2 disabled and removed" eval "rm $P6/subsystems/$NQN && rmdir $P6"
t_run "namespaces and subsystem removed" eval "echo 0 >$S/namespaces/1/enable &&
	echo 0 >$S/namespaces/2/enable &&
	rmdir $S/namespaces/1 $S/namespaces/2 && rmdir $S"
t_run "no cm_id and no RC QP left" wait_until 30 eval \
	'[ -z "$(rdma res show cm_id)" ] && ! rdma res show qp | grep -q "type RC"'
t_run "unload nvmet_rdma nvmet brd" modprobe -r nvmet_rdma nvmet brd
t_run "unload the RDMA stack" unload_rdma
t_done "nvme_host-$STACK"
