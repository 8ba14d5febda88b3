# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Sourced by cm_wire.sh after its tests and its capture (issue 19, "bounded
# under a flood", from another host): cmsec/50-flood.sh's flood, sent by
# this pair's other guest over the socket network instead of looped back
# by rxe, so that it crosses a real wire, arrives at the target's QP1 from
# a GID the target does not own, and the target's answers leave it.
# WIRE_FLOOD says which end this guest is:
#   inject  mad_inject -d TARGET: FLOOD_N (default 20000) each of REQs to
#           a stopped rping -s (:7500), REQs to no listener, SIDR_REQs to
#           a stopped udaddy (:7174), SIDR_REQs to no listener, DREQs
#           naming nobody, then FLOOD_N / 4 Gets of a class nobody
#           registered; meanwhile an honest rping -C 10 -V to the target
#           (:7600), started once the first flood is sent (the stopped
#           listener's backlog is full then), must connect and verify
#   target  the listeners, the honest rping's server, which must verify
#           and end while the flood still arrives; SUnreclaim sampled
#           through the flood; then, on ours, the peak rise under
#           FLOOD_SLAB_KB and the drops counted in ib_cm/ and ib_mad/;
#           on both stacks no cm_id, no QP beyond those of the start, and
#           (ours) an empty ib_cm/ids afterwards
# The capture is stopped before this: the flood's frames would swamp it,
# and its CM MADs belong to no test of tests/host/cm_wire_check.py.
# Rendezvous as for the tests (say_ready/wait_ready), on FLOODPORT:
#   +0  the target listens and samples: the injector may start
#   +1  the injector is done (sends complete, honest rping ended)
# (The honest rping is not started on a word from the target: under the
# flood, the target's python took 16 s to say it.)
FL=$OUT/flood
mkdir -p "$FL"
MI=/oot-src/tests/probes/bin/mad_inject
FLOOD_N=${FLOOD_N:-20000}
# The bound on the rise of unreclaimable slab at the flood's peak, in kB
# (ours), as in cmsec/50-flood.sh (measured there +6 to +7 MiB, +447 MiB
# without the bounds).  From another guest it measured +2.2 to +2.4 MiB
# (one vCPU, TCG, no slab debugging): the injector's own QP and sends are
# not the target's, and the socket network paces the flood.
FLOOD_SLAB_KB=${FLOOD_SLAB_KB:-16384}
FLOODPORT=21100
# Seconds the target waits for the injector to be done: the flood and the
# honest rping, with TCG's pace and room to spare.
FLOOD_WAIT=400
. /oot-src/tests/guest/cm_counters.sh
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

flood_target()
{
	local sr su hs t0 rc t_honest n rx_honest tp

	tp=$(date +%s)
	fl_baseline
	echo "# flood: target $SELF ($STACK), injector $PEER, FLOOD_N=$FLOOD_N; SUnreclaim before ${FL_SLAB0} kB, $FL_QPS0 QP lines"
	echo "# flood: before: $(fl_counters)"

	# The listeners that never answer: stopped once listening.  (No
	# timeout(1) around them: SIGSTOP must reach the tool itself.)
	rping -s -a "$SELF" -p 7500 >"$FL/stopped-rping" 2>&1 &
	sr=$!
	udaddy -b "$SELF" >"$FL/stopped-udaddy" 2>&1 &
	su=$!
	t_run "flood: listeners up (rping :7500, udaddy :7174)" \
		wait_until 20 eval 'listening 7500 && listening 7174'
	kill -STOP $sr $su
	# the honest server; when it ends, its status, the time and how
	# much of the flood had arrived by then
	rm -f "$FL/honest-end"
	( timeout $FLOOD_WAIT rping -s -a "$SELF" -p 7600 -C 10 -v -V >"$FL/honest-server" 2>&1
	  echo "$? $(date +%s) $(fl_rx)" >"$FL/honest-end" ) &
	hs=$!
	wait_until 20 listening 7600

	# one SUnreclaim figure every 0.5 s while the flood runs
	fl_sample
	t0=$(date +%s)
	t_run "flood: the injector came" say_ready $FLOODPORT
	t_run "flood: the injector is done" \
		wait_until $FLOOD_WAIT eval "(exec 3<>/dev/tcp/$PEER/$((FLOODPORT + 1))) 2>/dev/null"
	echo "# flood: set up in $((t0 - tp)) s; the injector came and was done $(($(date +%s) - t0)) s later"
	wait_until 30 test -s "$FL/honest-end"
	rc=running t_honest=$t0 rx_honest=0
	[ -s "$FL/honest-end" ] && read -r rc t_honest rx_honest <"$FL/honest-end"
	n=$(grep -c '^server ping data: ' "$FL/honest-server")
	t_eq "flood: the honest rping's server ended well and verified 10 pings" \
		0/10 echo "$rc/$n"
	wait $hs 2>/dev/null
	fl_settle
	echo "# flood: honest rping done at $((t_honest - t0)) s with $rx_honest REQ/DREQ/SIDR_REQ received, $(fl_rx) at the end ($(($(date +%s) - t0)) s)"
	# "during": more of the flood reached the CM after the honest rping
	# ended (a stack that queues the whole flood first, as stock 6.1 did,
	# lets the rping through only once it has answered all of it)
	t_run "flood: the honest rping ended while the flood still arrived ($rx_honest of $(fl_rx))" \
		test "$rx_honest" -lt "$(fl_rx)"
	fl_judge

	kill -CONT $sr $su 2>/dev/null
	kill $sr $su 2>/dev/null
	wait $sr $su 2>/dev/null
	fl_left
	echo "# flood: the target's part took $(($(date +%s) - tp)) s"
}

flood_inject()
{
	local ga inj rc n t0 t1 t_honest still tp

	tp=$(date +%s)
	ga=$(gid_index "$(ip4gid "$SELF")")
	t_run "flood: the target is ready" \
		wait_until $FLOOD_WAIT eval "(exec 3<>/dev/tcp/$PEER/$FLOODPORT) 2>/dev/null"
	t0=$(date +%s)
	# its status and when it ended: the checks below take their time
	rm -f "$FL/inject-end"
	( $MI -d "$PEER" $DEV "$ga" "flood-req:$FLOOD_N:7500" "flood-req:$FLOOD_N" \
		"flood-sidr:$FLOOD_N:7174" "flood-sidr:$FLOOD_N" \
		"flood-dreq:$FLOOD_N" "flood-get:$((FLOOD_N / 4))" >"$FL/inject" 2>&1
	  echo "$? $(date +%s)" >"$FL/inject-end" ) &
	inj=$!
	wait_until 120 grep -q "^sent flood-req:$FLOOD_N:7500 " "$FL/inject" ||
		echo "# flood: the first flood was not sent in 120 s"
	echo "# flood: honest rping starts after $(($(date +%s) - t0)) s"
	timeout 120 rping -c -a "$PEER" -p 7600 -C 10 -v -V >"$FL/honest-client" 2>&1
	rc=$?
	t_honest=$(date +%s)
	kill -0 $inj 2>/dev/null && still=1 || still=0
	n=$(grep -c '^ping data: ' "$FL/honest-client")
	if [ "$rc/$n" = 0/10 ]; then
		t_result 1 "flood: an honest rping -C 10 -V to the target connects and verifies ($((t_honest - t0)) s in)"
	else
		t_result 0 "flood: an honest rping -C 10 -V to the target connects and verifies" \
			"exit $rc, $n pings: $(tail -n 2 "$FL/honest-client" | tr '\n' ' ')"
	fi
	# (the target asserts that the flood still arrived then)
	[ "$still" = 1 ] && echo "# flood: still sending when the honest rping ended" ||
		echo "# flood: all sent before the honest rping ended"
	wait $inj
	rc=unknown t1=$(date +%s)
	[ -s "$FL/inject-end" ] && read -r rc t1 <"$FL/inject-end"
	t_run "flood: the injector sent all $((5 * FLOOD_N + FLOOD_N / 4)) datagrams" \
		test "$rc/$(grep -c '^sent flood' "$FL/inject")" = 0/6
	sed 's/^/# flood: /' "$FL/inject"
	echo "# flood: $((5 * FLOOD_N + FLOOD_N / 4)) datagrams in $((t1 - t0)) s; honest rping done at $((t_honest - t0)) s"
	echo "# flood: the target's answers, counted here: $(for c in rej drep sidr_rep; do printf 'rx %s %s, ' $c "$(cmc cm_rx_msgs $c)"; done)"
	t_run "flood: the target took the done signal" say_ready $((FLOODPORT + 1))
	echo "# flood: the injector's part took $(($(date +%s) - tp)) s"
}

case "$WIRE_FLOOD" in
target) flood_target ;;
inject) flood_inject ;;
*) t_result 0 "flood: WIRE_FLOOD=$WIRE_FLOOD" "neither target nor inject" ;;
esac
