# shellcheck shell=bash
# Sourced by the guest-side test scripts.  Each check is one line of
# output, "ok - ..." or "not ok - ...", and the kernel log is checked after
# every check so that a warning is pinned on the test that caused it.
#   t_run DESC CMD...        passes when CMD exits 0
#   t_eq DESC EXPECTED CMD... passes when CMD's stdout equals EXPECTED
#   t_fail DESC CMD...       passes when CMD exits non-zero
#   t_done NAME              prints "NAME: N passed, N failed"; its status
T_PASS=0 T_FAIL=0 T_DMESG_SEEN=0
T_LOGCHECK=/oot-src/scripts/lib/check-kernel-log.sh

t_result()
{
	local ok=$1 desc=$2 detail=${3:-}
	local log=/tmp/t-dmesg.$$ lines
	dmesg >"$log"
	lines=$(wc -l <"$log")
	if ! tail -n +"$((T_DMESG_SEEN + 1))" "$log" >"$log.new" ||
	   ! "$T_LOGCHECK" "$log.new" >"$log.bad"; then
		ok=0
		detail="$detail kernel log: $(head -c 300 "$log.bad")"
	fi
	T_DMESG_SEEN=$lines
	rm -f "$log" "$log.new" "$log.bad"
	if [ "$ok" = 1 ]; then
		T_PASS=$((T_PASS + 1))
		echo "ok - $desc"
	else
		T_FAIL=$((T_FAIL + 1))
		echo "not ok - $desc${detail:+: $detail}"
	fi
}

t_run()
{
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_result 1 "$desc"
	else
		t_result 0 "$desc" "exit $?: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}

t_fail()
{
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_result 0 "$desc" "succeeded, expected failure: $out"
	else
		t_result 1 "$desc"
	fi
}

t_eq()
{
	local desc=$1 want=$2 got
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then
		t_result 1 "$desc"
	else
		t_result 0 "$desc" "got [$got], expected [$want]"
	fi
}

t_done()
{
	echo "$1: $T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" = 0 ]
}

wait_until() # SECONDS CMD...: poll CMD every 0.2 s until it succeeds
{
	local end=$(($(date +%s) + $1))
	shift
	while ! "$@"; do
		[ "$(date +%s)" -lt $end ] || return 1
		sleep 0.2
	done
}

wait_listen() # until something listens on the verbs tools' TCP port, 18515
{
	wait_until 10 eval "ss -Hltn 'sport = :18515' | grep -q ."
}

# Unload the RDMA stack, consumers first; modules that are not loaded are
# skipped (modprobe -r fails on those), so the same call serves both stacks.
unload_rdma()
{
	local m
	for m in rdma_ucm rdma_cm iw_cm ib_cm rdma_rxe ib_uverbs ib_core; do
		[ ! -d "/sys/module/$m" ] || modprobe -r "$m" || return 1
	done
}
