#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Client side of a fuzz test of tests/vm/wire.sh: run a real pingpong
# client (CMD...) and, once it is connected, tests/vm/bin/wire_fuzz
# against the server's QP of that pingpong while it runs.
#
#   wire_fuzz_client.sh rc|ud SEED ROUNDS CMD...
#
# Malformed packets come from this guest's own address (eth0); the lying
# ones (well-formed, for the live QP) from 10.0.2.99, an address nobody
# has, as any other host could send them.  The exit status is the
# pingpong's, or 1 if the fuzzer failed or the pingpong ended before the
# fuzzer did (then the fuzz did not run beside live traffic).
set -u
type=$1 seed=$2 rounds=$3
shift 3
peer=${*: -1}	# the pingpong's last argument: the server's address
log=$(mktemp)
# line-buffered: its "remote address" line must reach the log while it runs
stdbuf -oL "$@" >"$log" 2>&1 &
pid=$!
for _ in $(seq 1200); do
	grep -q "remote address" "$log" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
qpn=$(sed -n 's/.*remote address:.*QPN \(0x[0-9a-fA-F]*\),.*/\1/p' "$log")
if [ -z "$qpn" ]; then
	wait "$pid"
	rc=$?
	cat "$log"
	[ "$rc" = 0 ] && rc=1
	exit "$rc"
fi
mac=$(ip neigh show "$peer" dev eth0 | awk '{ for (i = 1; i < NF; i++) if ($i == "lladdr") print $(i + 1) }')
t0=$(date +%s.%N)
fuzz=$(/oot-src/tests/vm/bin/wire_fuzz --ifname eth0 --type "$type" \
	--qpn "$qpn" --seed "$seed" --rounds "$rounds" \
	--dst-mac "$mac" --dst-ip "$peer" \
	--src-ip "$(ip -4 -o addr show dev eth0 | awk '{ sub("/.*", "", $4); print $4; exit }')" \
	--spoof-mac 52:54:00:00:00:99 --spoof-ip 10.0.2.99 2>&1)
frc=$?
secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
alive=no
kill -0 "$pid" 2>/dev/null && alive=yes
wait "$pid"
rc=$?
cat "$log"
echo "$fuzz"
echo "fuzz: server QPN $qpn, MAC $mac; fuzzed for ${secs}s; the pingpong outlived the fuzz: $alive"
[ "$frc" = 0 ] && [ "$alive" = yes ] || { [ "$rc" = 0 ] && rc=1; }
exit "$rc"
