# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Sourced by tests/guest/cm_security.sh: issue 19's rdma_ucm lifetime cases
# (findings 2 and 3), raw write() commands from tests/probes/ucma_sec_probe.py.
#
# Finding 2: the new id of a CONNECT_REQUEST must not be reachable by its
# number before GET_EVENT returned the request; MIGRATE_ID of that number
# into another file used to succeed, and destroying it there left the
# request on the listener's file pointing at freed memory.
# Finding 3: a second join of the same address on one id must be refused
# (EADDRINUSE, as in-tree); the leave of one of two such joins used to
# drop the other's rdma_cm membership and free the wrong ucma_mcast, which
# the pending join event then wrote to.
# After each case every slab cache is validated, so that SLUB's report of
# a write to freed memory fails the check that follows it.

UCMA_SEC=/oot-src/tests/probes/ucma_sec_probe.py

slab_validate()
{
	local v
	for v in /sys/kernel/slab/*/validate; do
		echo 1 >"$v" 2>/dev/null
	done
	return 0
}

ucma_step() # FILE STEP: the result the probe printed for STEP
{
	sed -n "s/^$2 //p" "$1"
}

ucma_expect() # FILE STEP WANT DESC
{
	t_eq "$4" "$3" ucma_step "$1" "$2"
}

# The fix itself: stock 6.1 has the same bugs (its MIGRATE_ID takes an
# unread request's id, it accepts the second join), so there the result
# is printed, not asserted.
ucma_expect_fix() # FILE STEP WANT DESC
{
	if [ "$STACK" = ours ]; then
		ucma_expect "$@"
	else
		echo "# $STACK differs: $2 $(ucma_step "$1" "$2") (ours: $3)"
	fi
}

# --- finding 2: MIGRATE_ID of an unread CONNECT_REQUEST's new id
f=$OUT/ucma-child-migrate
python3 "$UCMA_SEC" child-migrate "$IP4" 7471 >"$f" 2>&1
sed 's/^/# child-migrate: /' "$f"
ucma_expect "$f" listen OK "listener on $IP4:7471"
ucma_expect "$f" client-resolve-addr OK "client resolves $IP4"
ucma_expect "$f" client-resolve-route OK "client resolves its route"
ucma_expect "$f" connect OK "client connects"
ucma_expect "$f" request-queued yes "CONNECT_REQUEST queued on the listener's file"
ucma_expect_fix "$f" migrate-undelivered ENOENT \
	"MIGRATE_ID of the unread request's new id (its guessed number): ENOENT"
ucma_expect "$f" get-request OK "GET_EVENT on the listener's file afterwards"
ucma_expect "$f" request-event 4 "that event is the CONNECT_REQUEST"
ucma_expect "$f" request-id-is-guess yes "its new id is the number guessed before"
ucma_expect_fix "$f" migrate-delivered OK "MIGRATE_ID of the delivered new id works"
ucma_expect_fix "$f" reject-on-b OK "the migrated id rejects the request from its new file"
ucma_expect_fix "$f" destroy-delivered-on-b OK "DESTROY_ID of it on the new file"
ucma_expect "$f" destroy-listener OK "DESTROY_ID of the listener"
slab_validate
t_run "slab caches validate after child-migrate" true

f=$OUT/ucma-child-orphan
python3 "$UCMA_SEC" child-orphan "$IP4" 7472 >"$f" 2>&1
sed 's/^/# child-orphan: /' "$f"
ucma_expect "$f" request-queued yes "CONNECT_REQUEST queued (orphan case)"
ucma_expect_fix "$f" migrate-undelivered ENOENT \
	"MIGRATE_ID of the unread request's new id: ENOENT (orphan case)"
ucma_expect "$f" destroy-listener OK "DESTROY_ID of the listener with the request unread"
ucma_expect "$f" listener-events-reported 0 "the listener reported no event"
ucma_expect "$f" file-a-queue-after empty "its unread request went with it"
slab_validate
t_run "slab caches validate after child-orphan" true
t_run "the unread request's new id is gone (no cm_id left)" \
	wait_until 60 eval '[ "$(cm_ids)" = 0 ]'

# --- finding 3: two joins of the same address on one id
f=$OUT/ucma-mcast-dup
python3 "$UCMA_SEC" mcast-dup "$IP4" 239.1.19.3 >"$f" 2>&1
sed 's/^/# mcast-dup: /' "$f"
ucma_expect "$f" bind OK "UD id bound to $IP4"
ucma_expect "$f" join-first OK "JOIN_MCAST 239.1.19.3"
ucma_expect_fix "$f" join-second-same-address EADDRINUSE \
	"a second JOIN_MCAST of 239.1.19.3 on the same id: EADDRINUSE"
ucma_expect "$f" join-events 12:0xb1 "one MULTICAST_JOIN, for the first join's uid"
ucma_expect "$f" leave-first OK "LEAVE_MCAST of the first join"
ucma_expect "$f" leave-first-again ENOENT "LEAVE_MCAST of it again: ENOENT"
ucma_expect "$f" rejoin-after-leave OK "JOIN_MCAST of the address again after the leave"
ucma_expect "$f" rejoin-event 12:0xb3 "its MULTICAST_JOIN carries the new uid"
ucma_expect "$f" leave-rejoined OK "LEAVE_MCAST of the new join"
ucma_expect "$f" destroy OK "DESTROY_ID of the UD id"
slab_validate
t_run "slab caches validate after mcast-dup" true
