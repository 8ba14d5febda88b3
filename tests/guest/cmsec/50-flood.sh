# shellcheck shell=bash
# Sourced by cm_security.sh (issue 19, "bounded under a flood"): a peer
# sending crafted CM messages as fast as it can must not grow kernel memory
# without bound, and honest connections must still be made meanwhile.
# The injector runs in this guest (rxe loops its datagrams back to QP1
# through the port's own GID): to the MAD layer and the CM they are a
# remote peer's, and no second guest is needed.
#   - FLOOD_N (default 20000) each of: REQs to a listener that never
#     answers (an rping -s stopped by SIGSTOP), REQs to no listener,
#     SIDR_REQs to a stopped udaddy, SIDR_REQs to no listener, DREQs
#     naming nobody: 5 x FLOOD_N datagrams, every one with fresh IDs;
#     then FLOOD_N / 4 Gets of a class nobody registered (the MAD layer's
#     own answers)
#   - during it, an honest rping -C 10 on another port connects and
#     verifies its data
#   - SUnreclaim (/proc/meminfo) is sampled before, through and after it:
#     the peak rise stays under FLOOD_SLAB_KB (ours)
#   - the drops are counted (ours): ib_cm/ tx_answer_ratelimited,
#     rx_dropped_listen_full; ib_mad/ tx_unclaimed_ratelimited
#   - afterwards no cm_id, no QP beyond those of the start, an empty
#     ib_cm/ids
FL=$OUT/flood
mkdir -p "$FL"
MI=/oot-src/tests/probes/bin/mad_inject
FLOOD_N=${FLOOD_N:-20000}
# The bound on the rise of unreclaimable slab at the flood's peak, in kB
# (ours): measured +7.0 and +6.2 MiB with the bounds (one vCPU, TCG,
# FZP), +447 MiB without them; 16 MiB leaves more than twice the margin.
FLOOD_SLAB_KB=${FLOOD_SLAB_KB:-16384}

GA=$(gid_index 0000:0000:0000:0000:0000:ffff:0a00:020f)
fl_baseline
req0=$(cmc cm_rx_msgs req)
echo "# flood: GID index $GA, SUnreclaim before ${FL_SLAB0} kB, $FL_QPS0 QP lines, FLOOD_N=$FLOOD_N"
echo "# flood: before: $(fl_counters)"

# The listeners that never answer: stopped once listening.  (No timeout(1)
# around them: SIGSTOP must reach the tool itself.)
rping -s -a $IP4 -p 7500 >"$FL/stopped-rping" 2>&1 &
SR=$!
udaddy -b $IP4 >"$FL/stopped-udaddy" 2>&1 &
SU=$!
t_run "flood: listeners up (rping :7500, udaddy :7174)" wait_until 20 eval \
	'rdma res show cm_id 2>/dev/null | grep -q "state LISTEN.*comm rping" &&
	 rdma res show cm_id 2>/dev/null | grep -q "state LISTEN.*comm udaddy"'
kill -STOP $SR $SU
timeout 600 rping -s -a $IP4 -p 7600 -C 10 -v -V >"$FL/honest-server" 2>&1 &
HS=$!
wait_until 20 eval '[ "$(rdma res show cm_id 2>/dev/null | grep -c "state LISTEN.*comm rping")" = 2 ]'

# The slab sampler: one figure every 0.5 s while the flood runs.
fl_sample
t0=$(date +%s)
$MI $DEV "$GA" "flood-req:$FLOOD_N:7500" "flood-req:$FLOOD_N" \
	"flood-sidr:$FLOOD_N:7174" "flood-sidr:$FLOOD_N" \
	"flood-dreq:$FLOOD_N" "flood-get:$((FLOOD_N / 4))" >"$FL/inject" 2>&1 &
INJ=$!
# the honest rping, once the flood is well under way
wait_until 60 eval "[ \$((\$(cmc cm_rx_msgs req) - req0)) -gt $((FLOOD_N / 4)) ] || ! kill -0 $INJ 2>/dev/null"
echo "# flood: honest rping starts after $(($(date +%s) - t0)) s: $(fl_counters)"
if timeout 120 rping -c -a $IP4 -p 7600 -C 10 -v -V >"$FL/honest-client" 2>&1 &&
   [ "$(grep -c 'ping data' "$FL/honest-client")" = 10 ]; then
	t_result 1 "flood: an honest rping -C 10 connects and verifies during the flood"
else
	t_result 0 "flood: an honest rping -C 10 connects and verifies during the flood" \
		"$(tail -n 2 "$FL/honest-client" | tr '\n' ' ')"
fi
hc_end=$(date +%s)
kill -0 $INJ 2>/dev/null && echo "# flood: (the flood still ran when the honest rping ended)" ||
	echo "# flood: the flood had ended before the honest rping did: lower FLOOD_N's pace or raise it"
wait "$INJ"
inj_rc=$?
t1=$(date +%s)
t_run "flood: the injector sent all $((5 * FLOOD_N + FLOOD_N / 4)) datagrams" \
	test "$inj_rc/$(grep -c '^sent flood' "$FL/inject")" = 0/6
sed 's/^/# flood: /' "$FL/inject"
fl_settle
echo "# flood: $((5 * FLOOD_N + FLOOD_N / 4)) datagrams in $((t1 - t0)) s; honest rping done at $((hc_end - t0)) s"
fl_judge

kill -CONT $SR $SU 2>/dev/null
kill $SR $SU $HS 2>/dev/null
wait $SR $SU $HS 2>/dev/null
fl_left
