#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the CQ and MR tests, run on either stack:
#   - the pyverbs modules test_cq, test_mr and test_cq_events: exactly the
#     tests listed below pass (the others need QPs, or hardware rxe lacks)
#   - errnos of bad MR/CQ/MW/PD requests, the CQ verbs as raw write()
#     commands and the shared ring's header, the CQ/MR/MW ioctl methods
#     with bad attributes, REREG_MR (all in cq_mr_probe)
#   - pinned memory: VmPin while an MR is registered, RLIMIT_MEMLOCK
#   - object churn, teardown by close(), module unload with a clean log
#   - ours only: completions posted through debugfs (arming, events,
#     overflow, resize with entries), mmap() corner cases of a ring, and a
#     CQ mapping after the device is removed under it (SIGBUS, not the
#     freed ring)
# Expected values are the stock stack's; where ours differs on purpose
# the check is branched on $OOT_STACK and says why.
set -u
. /oot-src/tests/guest/lib.sh
STACK=${OOT_STACK:?}
OUT=/oot-out/cq-mr
BIN=/oot-src/tests/probes/bin
PROBE=$BIN/cq_mr_probe
mkdir -p "$OUT"

# The pyverbs tests of test_cq, test_mr and test_cq_events that pass on
# both stacks.
PYVERBS_PASS="
tests.test_cq.CQAPITest.test_create_cq
tests.test_cq.CQAPITest.test_create_cq_bad_flow
tests.test_cq.CQAPITest.test_create_cq_with_comp_channel
tests.test_cq.CQTest.test_resize_cq
tests.test_cq_events.CqEventsTestCase.test_cq_events_rc
tests.test_cq_events.CqEventsTestCase.test_cq_events_ud
tests.test_mr.MRTest.test_reg_mr_bad_flags
tests.test_mr.MWTest.test_invalidate_mw_type1
tests.test_mr.MWTest.test_mw_type1
tests.test_mr.MWTest.test_mw_type2
tests.test_mr.MWTest.test_mw_type2_invalidate_dealloc
tests.test_mr.MWTest.test_mw_type2_invalidate_local
tests.test_mr.MWTest.test_mw_type2_invalidate_remote
tests.test_mr.MWTest.test_reg_mw_wrong_type
"

# t_lines DESC EXPECTED FILE: FILE has exactly the EXPECTED lines
t_lines()
{
	local desc=$1 want=$2 file=$3 d
	if d=$(diff <(echo "$want") "$file"); then
		t_result 1 "$desc"
	else
		t_result 0 "$desc" "$(echo "$d" | grep '^[<>]' | head -n 6 | tr '\n' ' ')"
	fi
}

unprivileged() # run without CAP_IPC_LOCK, as root otherwise
{
	setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock -- "$@"
}

t_run "modprobe rdma_rxe" modprobe rdma_rxe
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
t_run "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# --- pyverbs ------------------------------------------------------------------
rm -rf /tmp/pyv && cp -r /usr/share/doc/rdma-core/tests /tmp/pyv && gunzip -rq /tmp/pyv
(cd /tmp && timeout 900 /usr/bin/python3 pyv/run_tests.py --dev rxe0 -v \
	tests.test_cq tests.test_mr tests.test_cq_events) >"$OUT/pyverbs.log" 2>&1
# "name (tests.mod.Class.name) ... result", the docstring line may sit between
awk '/^test_[a-z0-9_]* \(tests\./ { id = $2; gsub(/[()]/, "", id) }
     / \.\.\. / && id { r = $0; sub(/.* \.\.\. /, "", r); sub(/ .*/, "", r); print id, r; id = "" }' \
	"$OUT/pyverbs.log" | sort >"$OUT/pyverbs-results"
echo "# pyverbs: $(grep -c ' ok$' "$OUT/pyverbs-results") ok, $(grep -c ' skipped$' "$OUT/pyverbs-results") skipped, $(grep -cvE ' (ok|skipped)$' "$OUT/pyverbs-results") other; $(grep -E '^(OK|FAILED)' "$OUT/pyverbs.log" | tail -n1)"
t_eq "pyverbs: 33 tests ran" 33 wc -l <"$OUT/pyverbs-results"
t_eq "pyverbs: no failure or error" "" grep -vE ' (ok|skipped)$' "$OUT/pyverbs-results"
t_eq "pyverbs: exactly the expected tests pass" \
	"$(echo $PYVERBS_PASS | tr ' ' '\n' | sort | xargs)" \
	bash -c "awk '\$2 == \"ok\" { print \$1 }' $OUT/pyverbs-results | sort | xargs"

# --- errnos --------------------------------------------------------------------
"$PROBE" errnos rxe0 >"$OUT/errnos" 2>&1
t_lines "errnos of MR, MW, CQ and PD requests as stock" "\
reg_mr OK
reg_mr_unaligned OK
reg_mr_len0 EINVAL
reg_mr_remote_write_only EINVAL
reg_mr_remote_atomic_only EINVAL
reg_mr_remote_read_only OK
reg_mr_all_rights OK
reg_mr_unknown_bit EINVAL
reg_mr_on_demand EINVAL
reg_mr_readonly_mem_local_write EFAULT
reg_mr_readonly_mem_no_write OK
reg_mr_unmapped EFAULT
reg_mr_partly_unmapped EFAULT
reg_mr_wrapping EINVAL
mr_rkey_without_remote_rights zero
mr_lkey_nonzero yes
dealloc_pd_with_mr EBUSY
dereg_mr OK
alloc_mw_type1 OK
dealloc_pd_with_mw EBUSY
dealloc_mw_type1 OK
alloc_mw_type2 OK
dealloc_mw_type2 OK
alloc_mw_type3 EINVAL
create_cq_1 OK
create_cq_max OK
create_cq_max_plus_1 EINVAL
create_cq_0 EINVAL
create_cq_negative EINVAL
create_cq_bad_vector EINVAL
create_cq_negative_vector EINVAL
max_cqe 32767
dealloc_pd OK
close_device OK" "$OUT/errnos"

# Stock pads ring slots to its kernel's struct ib_wc (128 bytes), ours to
# a cache line (64): librxe reads the size from the header.
"$PROBE" write rxe0 2>&1 | sed 's/log2_elem_size=[67] /log2_elem_size=L /' >"$OUT/write"
t_lines "CQ verbs as write() commands, ring header, mmap() errnos as stock" "\
write_create_cq OK cqe=15
mmap_offset_page_aligned yes
ring log2_elem_size=L index_mask=15 prod=0 cons=0
mmap_bad_offset EINVAL
mmap_too_large EINVAL
write_resize_cq OK cqe=127
resized_ring log2_elem_size=L index_mask=127 prod=0 cons=0
write_resize_cq_0 EINVAL
write_resize_cq_huge EINVAL
write_resize_cq_short_resp EINVAL
write_destroy_cq OK events=0/0
write_destroy_cq_again ENOENT
write_destroy_cq_bad_handle ENOENT
write_create_cq_0 EINVAL
write_create_cq_bad_channel EBADF
write_create_comp_channel OK
write_create_cq_on_channel OK
write_req_notify_cq OK
write_req_notify_bad_cq ENOENT
channel_poll_idle 0
channel_read_nonblock EAGAIN
write_destroy_cq_on_channel OK
write_ex_create_cq OK cqe=7 len=16
write_ex_destroy_cq OK
write_ex_create_cq_flags EOPNOTSUPP
write_ex_create_cq_comp_mask EINVAL
close_device OK" "$OUT/write"

"$PROBE" ioctl rxe0 >"$OUT/ioctl" 2>&1
t_lines "CQ/MR/MW ioctl methods and their bad attributes as stock" "\
cq_create OK
cq_create_no_uhw EINVAL
cq_create_cqe_len8 EINVAL
cq_create_no_cqe EINVAL
cq_create_channel_is_async_fd EBADF
cq_create_event_fd_bad EBADF
cq_create_flags_unknown EINVAL
cq_create_flags_timestamp EOPNOTSUPP
cq_create_resp_len8 EINVAL
cq_create_handle_len4 EINVAL
cq_destroy_resp_len4 EINVAL
cq_destroy_no_resp EINVAL
cq_destroy OK
cq_destroy_again ENOENT
cq_destroy_pd_handle EINVAL
query_mr OK lkey same rkey=0 length=64 iova same
query_mr_no_iova OK
query_mr_length_len4 EINVAL
query_mr_mw_handle EINVAL
mr_destroy_as_mw EINVAL
mw_destroy OK
mr_destroy OK
mr_destroy_again ENOENT
dealloc_pd OK
close_device OK" "$OUT/ioctl"

# --- REREG_MR: librxe 44 has no rereg_mr, so it is sent as raw write() ----
"$PROBE" rereg rxe0 >"$OUT/rereg" 2>&1
if [ "$STACK" = stock ]; then
	t_lines "REREG_MR: stock 6.1 rxe has none" "\
libibverbs_rereg EOPNOTSUPP
rereg_access EOPNOTSUPP" "$OUT/rereg"
else
	# Keys stay (the rkey follows the remote rights), a failed rereg
	# leaves the MR as it was, and the PD usecnt moves with the MR.
	t_lines "REREG_MR: access, translation, PD" "\
libibverbs_rereg EOPNOTSUPP
rereg_access OK
rereg_access_keys lkey kept, rkey =lkey
rereg_access_none OK rkey=zero
rereg_access_bad EINVAL
rereg_no_flags EINVAL
rereg_unknown_flag EOPNOTSUPP
rereg_translation OK lkey kept
rereg_translation VmLck:	       0 kB
rereg_translation VmPin:	    1024 kB
rereg_translation_small OK
rereg_translation_small VmLck:	       0 kB
rereg_translation_small VmPin:	       4 kB
rereg_translation_unmapped EFAULT
rereg_translation_unmapped VmLck:	       0 kB
rereg_translation_unmapped VmPin:	       4 kB
rereg_bad_pd ENOENT
rereg_pd OK
dealloc_new_pd_with_mr EBUSY
dealloc_old_pd OK
dereg_mr OK
dealloc_new_pd OK
end VmLck:	       0 kB
end VmPin:	       0 kB" "$OUT/rereg"
fi

# --- pinned memory --------------------------------------------------------------
pin_expect() # KB: what the pin probe prints when registering KB works
{
	printf '%s\n' "before VmLck:	       0 kB" "before VmPin:	       0 kB" \
		"reg_mr OK" "registered VmLck:	       0 kB" \
		"$(printf 'registered VmPin:\t%8s kB' "$1")" "dereg_mr OK" \
		"after VmLck:	       0 kB" "after VmPin:	       0 kB"
}
pin_fails() # ERRNO
{
	printf '%s\n' "before VmLck:	       0 kB" "before VmPin:	       0 kB" \
		"reg_mr $1" "after VmLck:	       0 kB" "after VmPin:	       0 kB"
}
"$PROBE" pin rxe0 16384 >"$OUT/pin" 2>&1
t_lines "16 MB MR: VmPin 16384 kB while registered, 0 after (not VmLck)" \
	"$(pin_expect 16384)" "$OUT/pin"
(ulimit -l 8192; unprivileged "$PROBE" pin rxe0 4096) >"$OUT/pin-8m" 2>&1
t_lines "RLIMIT_MEMLOCK 8 MB, no CAP_IPC_LOCK: 4 MB MR works" \
	"$(pin_expect 4096)" "$OUT/pin-8m"
(ulimit -l 1024; unprivileged "$PROBE" pin rxe0 4096) >"$OUT/pin-1m" 2>&1
t_lines "RLIMIT_MEMLOCK 1 MB, no CAP_IPC_LOCK: 4 MB MR fails with ENOMEM" \
	"$(pin_fails ENOMEM)" "$OUT/pin-1m"
(ulimit -l 0; unprivileged "$PROBE" pin rxe0 64) >"$OUT/pin-0" 2>&1
t_lines "RLIMIT_MEMLOCK 0, no CAP_IPC_LOCK: any MR fails with EPERM" \
	"$(pin_fails EPERM)" "$OUT/pin-0"
(ulimit -l 1024; "$PROBE" pin rxe0 4096) >"$OUT/pin-cap" 2>&1
t_lines "RLIMIT_MEMLOCK 1 MB with CAP_IPC_LOCK: 4 MB MR works" \
	"$(pin_expect 4096)" "$OUT/pin-cap"

# --- completions through debugfs (ours) -------------------------------------------
if [ "$STACK" = ours ]; then
	"$PROBE" events rxe0 >"$OUT/events" 2>&1
	t_lines "CQ: ring, arming, solicited, overflow event, resize, destroy" "\
cqe 3
debugfs found
post_unarmed OK
event_unarmed none
poll_unarmed 11
arm OK
post_armed OK
event_armed cq
post_disarmed OK
event_disarmed none
poll_armed 12,13
arm_solicited OK
post_unsolicited OK
event_unsolicited none
post_solicited OK
event_solicited cq
poll_solicited 14,15
post_full EBUSY
async_event CQ_ERR
resize_below_count EINVAL
resize_up OK cqe=7
poll_after_resize 20,21,22
post_after_resize EBUSY
poll_resized_full 30,31,32,33,34,35,36
resize_down OK cqe=3
poll_resized_down 40
destroy_cq_unread_event OK
channel_after_destroy empty
destroy_channel OK
close_device OK" "$OUT/events"

	# Stock maps rings privately or executable, and only once.
	"$PROBE" mmap rxe0 >"$OUT/mmap" 2>&1
	t_lines "ring mmap(): private, exec, fork, split, refault, junk indices" "\
ring_pages 9
debugfs found
mmap_private EINVAL
mmap_exec EPERM
mmap_inside EINVAL
mmap_twice mapped mapped
mprotect_exec EACCES
same_memory yes
producer_seen 2
child_reads prod=2
child_wrote cons=2
after_dontneed mask=511 prod=2
split 7
mremap_grow EFAULT
post_with_junk_consumer ffffffff OK
post_with_junk_consumer 200 OK
post_with_junk_consumer 80000001 OK
post_with_junk_consumer 3 OK
post_with_junk_header OK
destroy_cq OK
read_after_destroy mask=4294967295
mmap_after_destroy EINVAL
close_device OK" "$OUT/mmap"
fi

# --- leaks: churn, teardown by close(), device removal, unload ------------------
# (after a pause: objects freed after an RCU grace period, which is slow
# on a loaded TCG host, must be gone)
slab_snap() { sleep 3; sync; echo 3 >/proc/sys/vm/drop_caches; awk 'NR > 2 && /^kmalloc/ { print $1, $2 }' /proc/slabinfo | sort; }
slab_snap >/tmp/slab.before
t_eq "2000 x (reg/dereg MR, create/destroy CQ, alloc/dealloc MW), then close" \
	"churn OK" "$PROBE" churn rxe0 2000
slab_snap >/tmp/slab.after
join /tmp/slab.before /tmp/slab.after | awk '{ d = $3 - $2; if (d >= 1800) print $1, "+" d }' >/tmp/slab.grown
echo "# kmalloc caches that grew most over the churn: $(join /tmp/slab.before /tmp/slab.after | awk '{ print $3 - $2, $1 }' | sort -rn | head -3 | tr '\n' ' ')"
t_eq "no kmalloc cache grew by ~1 object per round" "" cat /tmp/slab.grown
t_eq "nothing pinned is left" "" bash -c "grep -h '^VmPin:' /proc/[0-9]*/status 2>/dev/null | grep -v ' 0 kB'"

if [ "$STACK" = ours ]; then
	# In-tree rxe cannot disassociate (its delete waits for the close).
	# Ours zaps the mapping: the process gets SIGBUS, not the freed ring.
	rm -f /tmp/rv.in; mkfifo /tmp/rv.in
	"$PROBE" revoke rxe0 </tmp/rv.in >"$OUT/revoke" 2>&1 &
	pid=$!
	exec 9>/tmp/rv.in
	for i in $(seq 100); do grep -q ready "$OUT/revoke" && break; sleep 0.1; done
	t_run "rdma link delete rxe0 under a mapped CQ" timeout 20 rdma link delete rxe0
	echo go >&9; exec 9>&-
	wait "$pid"
	t_lines "device gone: CQ ring SIGBUS, MR unpinned, destroys EIO" "\
registered VmLck:	       0 kB
registered VmPin:	    1024 kB
mapped log2_elem_size=6 index_mask=15
ready
after_removal SIGBUS
write_after_removal SIGBUS
removed VmLck:	       0 kB
removed VmPin:	       0 kB
destroy_cq EIO
dereg_mr EIO
close_device OK" "$OUT/revoke"
	t_eq "nothing vmalloc'ed by our modules is left" "" \
		grep -E '\[(ib_core|ib_uverbs|rdma_rxe)\]' /proc/vmallocinfo
fi

rdma link delete rxe0 2>/dev/null
t_run "unload" modprobe -r rdma_rxe ib_uverbs ib_core
t_done "cq-mr-$STACK"
