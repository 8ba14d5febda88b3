#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the CM/MAD security lane (issue 19), booted with slab
# debugging (vm-run.sh --slub-debug) so that a use-after-free or an overflow
# becomes a log line that fails the check it happened in.  One rxe device on
# eth0 (10.0.2.15, fd00::15), then each part in tests/guest/cmsec/, in name
# order; a part is sourced, so it shares this shell's counters and helpers:
#   DEV, IP4, IP6, OUT (its logs), STACK; cm_ids (rdma res's cm_id count);
#   mad_counter NAME (debugfs ib_mad/, ours only); and from cm_counters.sh
#   debugfs_counter DIR NAME and cm_drop NAME (0 where absent); cmc DIR MSG
#   (sysfs CM counters); gid_index GID; the flood's fl_* readings.
# Every part runs on both stacks; where stock behaves differently, the part
# prints the difference as a "# " line and asserts only what both must do,
# except for the checks that are the fix itself (guarded by STACK=ours).
#   cm_security.sh [PART...]   only the parts whose names start with one
#                              of PART (e.g. "50"); all without arguments
set -u
. /oot-src/tests/guest/lib.sh
STACK=${OOT_STACK:?}
OUT=/oot-out/cm-security
rm -rf "$OUT"
mkdir -p "$OUT"
DEV=rxe0
IP4=10.0.2.15
IP6=fd00::15
echo "# cm-security: $STACK stack, kernel $(uname -r)"

cm_ids() { rdma res | sed -n "s/.*$DEV: .*cm_id \([0-9]*\).*/\1/p"; }
mad_counter() # NAME: a drop counter of port 1 in debugfs (ours)
{
	awk -v n="$1" '$1 == n { print $2 }' /sys/kernel/debug/ib_mad/$DEV-1
}
. /oot-src/tests/guest/cm_counters.sh

# First prove that this boot's slab debugging catches a use-after-free
# (tests/kmod/slab_canary.ko plants one); its report is expected, so the log
# is checked up to here, the report looked for, and the log cleared.
canary_report()
{
	local before=$OUT/dmesg-boot
	dmesg >"$before"
	insmod /oot-src/tests/kmod/slab_canary.ko || return 1
	echo 1 >/sys/kernel/slab/ordma_canary/validate
	rmmod slab_canary
	dmesg | tail -n +"$(($(wc -l <"$before") + 1))" >"$OUT/dmesg-canary"
	dmesg -C
	T_DMESG_SEEN=0
	/oot-src/scripts/lib/check-kernel-log.sh "$before" >&2 || return 1
	grep -E -q 'BUG ordma_canary .*Poison overwritten' "$OUT/dmesg-canary"
}
t_run "slab debugging reports a planted use-after-free" canary_report
echo "# canary: $(grep -E -m1 'BUG ordma_canary' "$OUT/dmesg-canary" 2>/dev/null)"

t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_run "modprobe rdma_ucm" modprobe rdma_ucm
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
ip link set lo up
ip link set eth0 up
ip addr add $IP4/24 dev eth0
ip -6 addr add $IP6/64 dev eth0 nodad
ip route add 224.0.0.0/4 dev eth0
t_run "rdma link add $DEV" rdma link add $DEV type rxe netdev eth0
gid_present() { grep -qx "$1" /sys/class/infiniband/$DEV/ports/1/gids/* 2>/dev/null; }
t_run "GIDs of $IP4 and $IP6 on $DEV" wait_until 30 eval \
	"gid_present 0000:0000:0000:0000:0000:ffff:0a00:020f && gid_present fd00:0000:0000:0000:0000:0000:0000:0015"
echo "# slab debugging: $(tr ' ' '\n' </proc/cmdline | grep -E '^(slub_debug|init_on_free|page_poison)=' | tr '\n' ' ')"

part_selected() # FILE: chosen by this run's arguments
{
	local want
	[ ${#PARTS[@]} = 0 ] && return 0
	for want in "${PARTS[@]}"; do
		case ${1##*/} in "$want"*) return 0 ;; esac
	done
	return 1
}
PARTS=("$@")
[ ${#PARTS[@]} -gt 0 ] && echo "# parts: ${PARTS[*]}"
for part in /oot-src/tests/guest/cmsec/*.sh; do
	[ -e "$part" ] || continue
	part_selected "$part" || continue
	echo "# --- ${part##*/}"
	. "$part"
done

t_run "no cm_id left" wait_until 60 eval '[ "$(cm_ids)" = 0 ]'
rdma link delete $DEV 2>/dev/null
modules="rdma_ucm rdma_cm iw_cm ib_cm rdma_rxe ib_uverbs ib_core"
loaded=$(for m in $modules; do [ -d /sys/module/$m ] && echo $m; done)
t_run "unload the modules" modprobe -r $loaded
t_done "cm-security-$STACK"
