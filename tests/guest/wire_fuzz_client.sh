#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Client side of a fuzz test of tests/guest/wire.sh: run a real pingpong
# client (CMD...) and, once it is connected, tests/probes/bin/wire_fuzz
# against the server's QP of that pingpong while it runs.
#
#   wire_fuzz_client.sh rc|ud SEED ROUNDS CMD...
#
# Malformed packets come from this guest's own address (eth0); the lying
# ones (well-formed, for the live QP) from 10.0.2.99, an address nobody
# has, as any other host could send them.  For rc, first the responder
# cases (tests/probes/bin/wire_sac --fuzzer: sacrificial QPs connected to the
# server's wire_sac --victim on the pingpong's port + 1000, see
# wire_fuzz_server.sh), and the spray has PSNs far outside the window of
# the live QP, from this guest's own address (--psn: the PSN the server
# expected first, our pingpong's own initial PSN).  The exit status is
# the pingpong's, or 1 if the fuzzer or wire_sac failed or the pingpong
# ended before they did (then the fuzz did not run beside live traffic).
set -u
type=$1 seed=$2 rounds=$3
shift 3
peer=${*: -1}	# the pingpong's last argument: the server's address
gidx= port= prev=
for a in "$@"; do
	case "$prev" in -g) gidx=$a ;; -p) port=$a ;; esac
	prev=$a
done
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
self=$(ip -4 -o addr show dev eth0 | awk '{ sub("/.*", "", $4); print $4; exit }')
wf=(/oot-src/tests/probes/bin/wire_fuzz --ifname eth0 --dst-mac "$mac"
	--dst-ip "$peer" --src-ip "$self")
t0=$(date +%s.%N)
sac= src=0 psn=()
if [ "$type" = rc ]; then
	sac=$(timeout 200 /oot-src/tests/probes/bin/wire_sac --fuzzer --peer "$peer" \
		--port $((port + 1000)) --gid-idx "$gidx" -- "${wf[@]}" 2>&1)
	src=$?
	psn=(--psn "$(sed -n 's/.*local address:.*PSN \(0x[0-9a-fA-F]*\),.*/\1/p' "$log")")
fi
fuzz=$("${wf[@]}" --type "$type" --qpn "$qpn" --seed "$seed" \
	--rounds "$rounds" "${psn[@]}" \
	--spoof-mac 52:54:00:00:00:99 --spoof-ip 10.0.2.99 2>&1)
frc=$?
secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
alive=no
kill -0 "$pid" 2>/dev/null && alive=yes
wait "$pid"
rc=$?
cat "$log"
[ -z "$sac" ] || echo "$sac"
echo "$fuzz"
echo "fuzz: server QPN $qpn, MAC $mac; fuzzed for ${secs}s; the pingpong outlived the fuzz: $alive"
[ "$frc" = 0 ] && [ "$src" = 0 ] && [ "$alive" = yes ] || { [ "$rc" = 0 ] && rc=1; }
exit "$rc"
