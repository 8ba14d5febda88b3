#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side: rdma_ucm as librdmacm 44 sees it, on either stack
# (scripts/vm-run.sh --stack ours|stock -- tests/guest/ucma.sh).
#   - the device node, its sysfs ABI version and nldev GET_CHARDEV;
#   - raw commands with bad input and their errnos (tests/probes/ucma_probe.py);
#   - the rdma_cm tools over rxe0: rping (IPv4, IPv6), ucmatose, udaddy,
#     mckey, rdma_server/rdma_client, each under a timeout;
#   - rdma res counting the user cm_ids (the summary: ours has no dump).
# Differences between the stacks are named where they are expected.
set -u
. "$(dirname "$0")/lib.sh"
stack=${OOT_STACK:-ours}
addr4=10.0.2.15 addr6=fd00::15

# rdma res's count of cm_ids on rxe0.
cm_ids() { rdma res | sed -n 's/.*rxe0: .*cm_id \([0-9]*\).*/\1/p'; }
# Start a server in the background ($srv) and wait for its listening id.
start_server()
{
	local log=$1 i
	shift
	"$@" >"$log" 2>&1 &
	srv=$!
	for i in $(seq 60); do
		[ "$(cm_ids)" -gt 0 ] 2>/dev/null && return 0
		sleep 0.5
	done
}
# The server's exit status, waited for in this shell (not in t_run's).
server_done()
{
	local desc=$1 log=$2 rc
	wait "$srv"
	rc=$?
	t_eq "$desc" 0 echo "$rc"
	tail -n 5 "$log"
}

modprobe rdma_rxe
modprobe rdma_ucm
ip link set lo up
ip link set eth0 up
ip addr add $addr4/24 dev eth0
ip -6 addr add $addr6/64 dev eth0 nodad
rdma link add rxe0 type rxe netdev eth0
sleep 1

t_eq "rdma_ucm is ours" "$([ "$stack" = ours ] && echo 0.1.0-oot)" \
	sh -c 'cat /sys/module/rdma_ucm/version 2>/dev/null'
t_eq "device node: char, 0666, under infiniband/" "crw-rw-rw-" \
	stat -c %A /dev/infiniband/rdma_cm
ls -l /dev/infiniband/rdma_cm
t_eq "sysfs abi_version" 4 cat /sys/class/misc/rdma_cm/abi_version
t_eq "GET_CHARDEV rdma_cm: name, ABI, devt" "rdma_cm 4 same-as-node" \
	python3 tests/probes/ucma_probe.py chardev

# The errnos of bad commands.  Ours answers ENOSYS for every unknown
# command; in-tree gives EINVAL past its table and ENOSYS below it.
unknown=ENOSYS
[ "$stack" = stock ] && unknown=EINVAL
want="short-write EINVAL
in-past-write EINVAL
get-option ENOSYS
unknown-cmd $unknown
create-bad-ps EINVAL
create-bad-response EFAULT
create-short-out ENOSPC
destroy-unknown ENOENT
create OK
query-route-unbound OK
query-route-short-out ENOSPC
query-bad-option ENOSYS
bind-ip-bad-family EINVAL
init-qp-attr-unbound EINVAL
init-qp-attr-bad-state EINVAL
get-event-empty EAGAIN
get-event-short-out ENOSPC
poll-empty OK 0
set-option-big EINVAL
set-option-tos-len EINVAL
connect-not-valid EINVAL
reject-bad-reason EINVAL
join-bad-flags EINVAL
leave-unknown ENOENT
migrate-bad-fd ENOENT
other-file-destroy EINVAL
bind-ip OK
listen OK
migrate OK 0
destroy-after-migrate-old-file EINVAL
destroy OK 0
destroy-again ENOENT"
got=$(python3 tests/probes/ucma_probe.py 2>&1)
while read -r line; do
	case=${line%% *}
	t_eq "bad input: $case" "$line" \
		sh -c "echo \"\$1\" | grep -m1 \"^$case \" || echo \"$case (missing)\"" _ "$got"
done <<<"$want"

# rping over IPv4 and IPv6, data verified; rdma res sees the server's ids.
for addr in $addr4 $addr6; do
	start_server /tmp/rping-srv.log timeout 60 rping -s -a "$addr" -v -C 3
	t_run "rdma res counts rping -s's listening cm_id ($addr)" \
		sh -c "rdma res | grep -q 'rxe0: .*cm_id [1-9]'"
	t_run "rping -c -a $addr -C 10 -V" \
		timeout 60 rping -c -a "$addr" -C 10 -V
	server_done "rping -s -a $addr -v -C 3 exits 0" /tmp/rping-srv.log
done

# ucmatose: RC connections with data, then a disconnect from each side.
start_server /tmp/ucmatose-srv.log timeout 90 ucmatose -b $addr4
t_run "ucmatose -s $addr4 (client)" timeout 90 ucmatose -s $addr4
server_done "ucmatose server exits 0" /tmp/ucmatose-srv.log

# udaddy: UD port space, SIDR, datagrams.
start_server /tmp/udaddy-srv.log timeout 90 udaddy -b $addr4
t_run "udaddy -s $addr4 (client)" timeout 90 udaddy -s $addr4
server_done "udaddy server exits 0" /tmp/udaddy-srv.log

# rdma_server / rdma_client: the rdma_getaddrinfo + rdma_create_ep path.
start_server /tmp/rdma-srv.log timeout 60 rdma_server -s $addr4
t_run "rdma_client -s $addr4" timeout 60 rdma_client -s $addr4
server_done "rdma_server exits 0" /tmp/rdma-srv.log

# mckey: multicast joins (JOIN_IP_MCAST) and UD sends to the group.
start_server /tmp/mckey-rcv.log timeout 60 mckey -m 239.1.1.1 -b $addr4 -C 10
t_run "mckey -s (sender to 239.1.1.1)" \
	timeout 60 mckey -m 239.1.1.1 -b $addr4 -s -C 10
server_done "mckey receiver exits 0" /tmp/mckey-rcv.log

t_eq "no cm_id left" "cm_id 0" sh -c "rdma res | grep -o 'cm_id [0-9]*'"
rdma link delete rxe0
t_run "modules unload" modprobe -r rdma_ucm rdma_cm ib_cm rdma_rxe
t_done ucma
