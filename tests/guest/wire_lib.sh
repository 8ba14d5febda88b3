# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Sourced by the two-guest lanes' guest sides (wire.sh, cm_wire.sh): the
# pair's environment, the RoCE v2 GID of an IPv4 address, and the capture
# the host later dissects (tests/host/wire-check.py).  Needs lib.sh, and
# OUT from the caller.

# From scripts/vm-pair.sh and the host runner: this guest's role (server
# or client), its address and the peer's, the pair's tag, and whether
# this guest captures.
ROLE=${WIRE_ROLE:?}
SELF=${WIRE_SELF:?}
PEER=${WIRE_PEER:?}
TAG=${WIRE_TAG:-pair}
CAPTURE=${WIRE_CAPTURE:-0}

ip4gid() # a.b.c.d -> 0000:0000:0000:0000:0000:ffff:aabb:ccdd
{
	local IFS=.
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$1" "$2" "$3" "$4"
}

# One capture of UDP 4791 on eth0, written straight to the output share as
# $OUT/$TAG.pcap.  RING_MIB is dumpcap's ring (-B): it must hold the packets
# of any stall of a write to 9p on a busy host.
cap_pid=
cap_start() # [RING_MIB]
{
	[ "$CAPTURE" = 1 ] || return 0
	local f=$OUT/$TAG.pcap
	rm -f "$f" "$OUT/capture.log"
	dumpcap -q -i eth0 -f 'udp port 4791' -P -B "${1:-128}" -w "$f" \
		>"$OUT/capture.log" 2>&1 &
	cap_pid=$!
	t_run "capture started (dumpcap on eth0, udp port 4791)" wait_until 60 test -s "$f"
}
cap_stop()
{
	[ -n "$cap_pid" ] || return 0
	sleep 1 # the last packets on the wire
	kill -INT "$cap_pid" 2>/dev/null
	wait "$cap_pid" 2>/dev/null
	cap_pid=
	# dumpcap's own account: what it wrote, what the kernel or it dropped
	local drops
	echo "# capture: $(grep -E '^Packets' "$OUT/capture.log" | tr '\n' ' ')"
	drops=$(sed -n 's|^Packets received/dropped on interface .*: [0-9]*/\([0-9]*\) .*|\1|p' "$OUT/capture.log")
	t_eq "capture complete: no packet dropped" 0 echo "${drops:-unknown}"
}
