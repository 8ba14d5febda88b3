#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Server (victim) side of the rc fuzz test of tests/guest/wire.sh: run the
# real pingpong server (CMD...) and, beside it, the victim's side of the
# responder cases (tests/probes/bin/wire_sac --victim: sacrificial QPs with a
# guarded MR) on the pingpong's TCP port + 1000.  CMD's -g and -p give the
# GID index and the port.  Prints the pingpong's output, then wire_sac's;
# the exit status is the pingpong's, or 1 if wire_sac failed.
#
#   wire_fuzz_server.sh CMD...
set -u
gidx= port= prev=
for a in "$@"; do
	case "$prev" in -g) gidx=$a ;; -p) port=$a ;; esac
	prev=$a
done
slog=$(mktemp)
timeout 240 /oot-src/tests/probes/bin/wire_sac --victim --gid-idx "$gidx" \
	--port $((port + 1000)) >"$slog" 2>&1 &
spid=$!
"$@"
rc=$?
wait "$spid"
src=$?
cat "$slog"
echo "wire_sac: victim exit $src"
rm -f "$slog"
[ "$src" = 0 ] || { [ "$rc" = 0 ] && rc=1; }
exit "$rc"
