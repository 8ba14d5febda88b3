#!/usr/bin/env bash
# Run every test: dependencies, then for each kernel line (Debian 12's 6.1
# and 6.12, Debian 13's 6.12) the sparse/W=1 build gate and a DKMS build of
# the modules the VM suites load; the userspace unit tests; the VM suites
# on our modules and, with the same scripts, on the stock in-kernel
# modules.  6.1 runs the whole set, the 6.12 lines the lanes where the
# kernels or the userspace differ (see Documentation/testing.md).  Ends
# with "total: N passed, N failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/lib/target.sh

# Every test script named in this file exists: a moved or renamed one would
# otherwise fail only when its lane starts, an hour in.  --check-names: only
# this.
missing=$(grep -o 'tests/[a-z]*/[A-Za-z0-9_./-]*\.\(sh\|py\)' "$0" | sort -u |
	while read -r f; do [ -e "$f" ] || echo "$f"; done)
[ -z "$missing" ] || { echo "test-all: named but missing:" $missing >&2; exit 2; }
[ "${1:-}" != --check-names ] || exit 0

# The suite boots bookworm's kernels and trixie's: a Debian 12 host has the
# one and builds the other in a root; a Debian 13 host cannot get the first.
if [ "$(host_distro)" != bookworm ]; then
	echo "test-all: the test suite runs on a Debian 12 host; on Debian 13," \
		"scripts/install-deps.sh, make, make check and make deb build for" \
		"its own kernel (README)" >&2
	exit 2
fi

t0=$(date +%s)
scripts/install-deps.sh
declare -A kabi=() modules=()
for line in $(target_kernels); do
	kabi[$line]=$(OOT_KERNEL=$line target_kabi)
	echo "== kernel line $line: ABI ${kabi[$line]}"
done

passed=0 failed=0 failures=
count() # "NAME: N passed, N failed" lines of a log -> totals
{
	local p f
	p=$(sed -n 's/^[A-Za-z0-9_-]*: \([0-9]*\) passed, [0-9]* failed$/\1/p' "$1" | awk '{n += $1} END {print n + 0}')
	f=$(sed -n 's/^[A-Za-z0-9_-]*: [0-9]* passed, \([0-9]*\) failed$/\1/p' "$1" | awk '{n += $1} END {print n + 0}')
	passed=$((passed + p))
	failed=$((failed + f))
	f=$(grep "^[A-Za-z0-9_-]*: [0-9]* passed, [1-9][0-9]* failed$" "$1" || true)
	[ -z "$f" ] || failures+="$f"$'\n'
}
suite() # NAME CMD...: run one suite; a suite that dies without a summary counts as a failure
{
	local name=$1 log=build/test-logs/$1.log rc=0
	shift
	echo "== $name"
	"$@" 2>&1 | tee "$log" || rc=$?
	if [ "$rc" != 0 ] && ! grep -q "^[A-Za-z0-9_-]*: [0-9]* passed, [1-9][0-9]* failed$" "$log"; then
		echo "$name: 0 passed, 1 failed" | tee -a "$log"
	fi
	count "$log"
}
mkdir -p build/test-logs

# The run's end: its time, the suites that failed, the total; the exit status.
report() # WHAT
{
	echo "== done in $(($(date +%s) - t0))s on $1"
	[ -z "$failures" ] || printf 'failed:\n%s' "$failures" | sed '2,$s/^/#   /'
	echo "total: $passed passed, $failed failed"
	[ "$failed" = 0 ]
}

gate() # LINE: sparse and W=1, in the line's build environment
{
	if target_run "$1" "$top" make -s check KDIR="$(target_kdir "${kabi[$1]}")"; then
		echo "build-gate: 1 passed, 0 failed"
	else
		echo "build-gate: 0 passed, 1 failed"
		return 1
	fi
}
dkms_build() # LINE: the modules the VM suites load, built by DKMS itself
{
	local dir
	if dir=$(scripts/dkms-build.sh --kernel "$1"); then
		modules[$1]=$dir
		echo "dkms-build: 1 passed, 0 failed"
	else
		echo "dkms-build: 0 passed, 1 failed"
		return 1
	fi
}
# 6.1 last, so that the tree is left built for it: the in-kernel
# selftests (tests/kmod) link against it.
for line in 6.12-trixie 6.12 6.1; do
	suite "build-gate-$line" gate "$line"
done
for line in $(target_kernels); do
	# Not through suite(): its pipe would run dkms_build in a subshell.
	dkms_build "$line" >"build/test-logs/dkms-build-$line.log" 2>&1 || true
	cat "build/test-logs/dkms-build-$line.log"
	count "build/test-logs/dkms-build-$line.log"
done
suite unit make -s unit
# The control path on ours, and on stock unless the stock capture of this
# ABI is recorded (as for the data path, below, with the hash of the
# scripts that made it, as for the CM); then what the stock tools printed
# on each diffed.
control_lanes() # LOG_SUFFIX ABI
{
	local sfx=$1 ref stockcap=build/test-logs/control-stock$1/capture stacks="stock ours" stack
	if ref=$(stock_ref_usable control "$2" capture); then
		stacks=ours stockcap=$ref/capture
	fi
	for stack in $stacks; do
		rm -rf "build/test-logs/control-$stack$sfx"
		suite "vm-control-$stack$sfx" scripts/vm-run.sh --stack "$stack" \
			--name control --out "build/test-logs/control-$stack$sfx" -- \
			tests/guest/control.sh
	done
	suite "compare-control$sfx" tests/host/compare-control.sh \
		"$stockcap" "build/test-logs/control-ours$sfx/capture"
}
# The data path (pingpongs, perftest, the whole pyverbs suite, kill -9) on
# ours, and on the stock stack unless the stock reference of this ABI is
# recorded (tests/ref/, made by scripts/record-stock-refs.sh: the in-tree
# modules of an ABI never change; a new ABI takes its line's newest, see
# stock_ref_dir; a line with none runs the stock lane live); then the
# pyverbs results compared.
datapath_lanes() # LOG_SUFFIX ABI
{
	local sfx=$1 ref stacks="stock ours" stack
	if ref=$(stock_ref_usable datapath "$2" datapath/pyverbs-ok); then
		stacks=ours
	else
		ref=build/test-logs/datapath-stock$sfx
	fi
	for stack in $stacks; do
		rm -rf "build/test-logs/datapath-$stack$sfx"
		suite "vm-datapath-$stack$sfx" scripts/vm-run.sh --stack "$stack" \
			--name datapath --mem 3072 --smp 2 --timeout 2400 \
			--out "build/test-logs/datapath-$stack$sfx" -- tests/guest/datapath.sh
	done
	suite "compare-datapath$sfx" tests/host/compare-datapath.sh \
		"$ref" "build/test-logs/datapath-ours$sfx"
}

make -s -C tests/probes
make -s -C tests/fuzz
# The in-kernel selftests link against the tree as built for 6.1 (above).
suite build-kmod make -s -C tests/kmod KDIR="$(target_kdir "${kabi[6.1]}")"

# ---- The lanes, side by side. ---------------------------------------------
# TCG runs one host thread per vCPU, and a 2-vCPU guest kept about 1.3 of
# this 2-core machine's cores busy; so the lanes run in the background,
# their guests with one vCPU, as many at once as their weights fit in
# $OOT_SLOTS (default 2): one guest weighs 1, a two-guest lane (wire) 2.
# Longest first.  A lane's output is printed, and counted, when it ends.
slots=${OOT_SLOTS:-2}
export OOT_VM_SMP=${OOT_VM_SMP:-1}
declare -A lane_name=() lane_weight=() lane_t0=()
used=0
reap() # wait for one lane to end; print and count its output
{
	local pid= name
	wait -n -p pid || true
	[ -n "$pid" ] && [ -n "${lane_name[$pid]:-}" ] || return 0
	name=${lane_name[$pid]}
	used=$((used - lane_weight[$pid]))
	echo "== lane $name: ended after $(($(date +%s) - lane_t0[$pid]))s (at +$(($(date +%s) - t0))s)"
	cat "build/test-logs/lane-$name.out"
	count "build/test-logs/lane-$name.out"
	unset "lane_name[$pid]" "lane_weight[$pid]" "lane_t0[$pid]"
}
lane() # WEIGHT LINE NAME CMD...: run CMD (its suites) on kernel LINE once WEIGHT slots are free
{
	local weight=$1 line=$2 name=$3
	shift 3
	while [ $((used + weight)) -gt "$slots" ] && [ "$used" -gt 0 ]; do
		reap
	done
	(
		export OOT_KERNEL=$line OOT_MODULES=${modules[$line]:-/nonexistent}
		rc=0 t=$SECONDS
		"$@" || rc=$?
		[ "$rc" = 0 ] || echo "lane-$name: 0 passed, 1 failed"
		# How many host cores the lane kept busy: its guests' CPU time
		# (user + system) over its wall time.
		# (times in a pipeline would run in a fork, which has no children.)
		times >"build/test-logs/lane-$name.times"
		awk -v t=$((SECONDS - t)) 'NR == 2 {
			gsub(/[ms]/, " "); c = $1 * 60 + $2 + $3 * 60 + $4
			printf "# lane cpu: %.0f s in %d s (%.2f cores)\n", c, t, t ? c / t : 0 }' \
			"build/test-logs/lane-$name.times"
	) >"build/test-logs/lane-$name.out" 2>&1 </dev/null &
	lane_name[$!]=$name lane_weight[$!]=$weight lane_t0[$!]=$(date +%s)
	used=$((used + weight))
	echo "== lane $name: started at +$(($(date +%s) - t0))s"
}
lanes_wait() { while [ "$used" -gt 0 ]; do reap; done; }

# The in-kernel selftests of the kernel verbs, the MAD layer, ib_cm and
# rdma_cm, in one boot of ours.
kselftests()
{
	suite vm-kselftests-ours scripts/vm-run.sh --stack ours --name kselftests \
		--slub-debug=FZP --out build/test-logs/kselftests -- tests/guest/kselftests.sh
}
# The CM and MAD layer against hostile input (tests/guest/cm_security.sh and
# its parts in tests/guest/cmsec/): injected MADs, forged CM messages, raw
# rdma_ucm sequences, device removal under load; booted with slab debugging
# (a planted use-after-free proves it reports).
cm_security()
{
	suite vm-cm-security-ours scripts/vm-run.sh --slub-debug=FZP --stack ours \
		--name cm-security --out build/test-logs/cm-security -- tests/guest/cm_security.sh
}
# The uverbs fuzzer (tests/fuzz): 1,000,000 write()/ioctl() calls over 8
# seeds, two racing threads each, half as nobody, on ours; then the device
# still works, `rdma res` is back, the modules unload, the log is clean.
# (Stock is run by hand: testing.md has its figures.)  Then the rdma_ucm
# fuzzer (tests/fuzz/ucma_fuzz.c): 1,000,000 write() calls over 8 seeds,
# two files and two racing threads, half as nobody, rxe0 deleted and
# re-added under the middle seed, then the directed sequences of issue 19's
# findings 2 and 3; every slab cache validated after each seed.
fuzz()
{
	suite vm-fuzz-uverbs-ours scripts/vm-run.sh --stack ours --name fuzz-uverbs \
		--slub-debug=FZP --out build/test-logs/fuzz-uverbs -- tests/guest/fuzz_uverbs.sh
	suite vm-fuzz-ucma-ours scripts/vm-run.sh --stack ours --name fuzz-ucma \
		--slub-debug=FZP --timeout 1800 --out build/test-logs/fuzz-ucma -- tests/guest/fuzz_ucma.sh
}
# The connection manager: the rdma-core tools on one guest on both stacks,
# then their checks side by side (the CM between two guests, ours with
# stock both ways, is tests/host/cm_wire.sh).  Stock's checks come from the reference recorded
# for this ABI (scripts/record-stock-refs.sh --suite cm) while it was made
# by the same cm.sh, cm_robust.sh and lib.sh; otherwise stock runs live.
cm_lanes() # LOG_SUFFIX ABI
{
	local sfx=$1 ref stocklog=build/test-logs/cm-stock$1 stacks="stock ours" stack
	if ref=$(stock_ref_usable cm "$2" cm/results.tsv); then
		stacks=ours stocklog=$ref
	fi
	# Two vCPUs, as the stock reference was recorded: qperf's server child
	# segfaults in libibverbs as it ends a test (on both stacks), and on
	# one vCPU rc_lat's connection after rc_bw's crashed child was
	# rejected (twice on ours, at 8056d2e and 9a09917; never on two).
	for stack in $stacks; do
		rm -rf "build/test-logs/cm-$stack$sfx"
		suite "vm-cm-$stack$sfx" scripts/vm-run.sh --stack "$stack" \
			--name cm --smp 2 --timeout 2400 --out "build/test-logs/cm-$stack$sfx" -- \
			tests/guest/cm.sh
	done
	suite "compare-cm$sfx" tests/host/compare-cm.sh "$stocklog" "build/test-logs/cm-ours$sfx"
}
# Our NVMe/RDMA host against our target in one guest (issue 21), with slab
# debugging, on the DKMS build's modules (both NVMe transports are in it
# when their ABI gates pass).  Two vCPUs: nvme core gives a controller no
# more I/O queues than CPUs, and the test asks for two.
nvme_host()
{
	suite vm-nvme-host-ours scripts/vm-run.sh --stack ours \
		--name nvme-host --smp 2 --slub-debug=FZP --out build/test-logs/nvme-host -- \
		tests/guest/nvme_host.sh
}
# Module loading and DKMS's (on 6.12 compressed) modules.
foundation() # STACKS...
{
	local stack sfx=
	[ "$OOT_KERNEL" = 6.1 ] || sfx=-$OOT_KERNEL
	for stack in "$@"; do
		suite "vm-foundation-$stack$sfx" scripts/vm-run.sh --stack "$stack" \
			--name foundation --out "build/test-logs/foundation-$stack$sfx" -- \
			tests/guest/foundation.sh
	done
}
# CQs, completion channels, MRs, MWs and pinned memory, on both stacks.
cq_mr()
{
	local stack
	for stack in stock ours; do
		suite "vm-cq-mr-$stack" scripts/vm-run.sh --stack "$stack" \
			--name cq-mr --out "build/test-logs/cq-mr-$stack" -- tests/guest/cq_mr.sh
	done
}
# Wire interoperability: two guests on a QEMU socket network, each with its
# own stack: ours serving stock clients, stock serving ours, ours with ours;
# each pair's RoCEv2 capture decoded (tshark) and ICRC-checked on the host;
# the mixed pairs also run RC traffic under netem loss/reorder/duplication.
# cm_wire: the CM between two guests, ours with stock both ways.
wire() # SCRIPT PAIR [OPTION...]
{
	local sfx=
	[ "$OOT_KERNEL" = 6.1 ] || sfx=-$OOT_KERNEL
	suite "$(basename "$1" .sh | tr _ -)-$2$sfx" "$@"
}

# Kernel 6.1 runs every lane (rdma-core 44).  Debian 13's 6.12
# (6.12-trixie, rdma-core 56) runs those where the kernel or the userspace
# differ: module loading and dkms 3.2's compressed modules (foundation), what
# rdma-core 56's tools see (control, compared with stock trixie), the data
# path with stock trixie as reference (ATOMIC WRITE, FLUSH, pyverbs 56),
# the CM suite on librdmacm 56, libfabric 2.1 and trixie's qperf (against
# stock trixie's recorded reference), the Debian package with trixie's dkms 3.2, and the wire against 6.12's
# rxe both ways (ours with ours is the same code on every kernel: 6.1 runs
# it).  Bookworm's 6.12 is the same upstream kernel as trixie's, built by
# gcc-12: its build gate, its DKMS build and foundation (our modules as
# bookworm's dkms built them, loaded and used) cover what differs; its
# other lanes run by hand (OOT_KERNEL=6.12), as they would repeat trixie's.
#
# The Debian package: `make deb`, then in a stock guest apt install
# (DKMS installs ours), use, the rdma.conf unit, apt purge (the in-tree
# stack is back); on 6.1 (dkms 3.0) and trixie (dkms 3.2, its own dialect).
# `tests/host/package.sh 6.12` runs bookworm's 6.12 by hand.
# The data path's pingpongs and perftest busy-poll a client and a server in
# one guest: with one vCPU each round trip waits for a time slice (8.4 ms
# an iteration against 1.4 ms with two), so its guests keep two vCPUs; over
# the lane they kept 1.1 cores busy, so it weighs 1 all the same.  A wire
# lane's two guests take both slots: they run last, one after another.
# The one-guest lanes first, two at a time, longest first.
trixie=6.12-trixie
lane 1 6.1 datapath datapath_lanes "" "${kabi[6.1]}"
lane 1 $trixie datapath-$trixie datapath_lanes "-$trixie" "${kabi[$trixie]}"
lane 1 6.1 cm cm_lanes "" "${kabi[6.1]}"
lane 1 $trixie cm-$trixie cm_lanes "-$trixie" "${kabi[$trixie]}"
lane 1 6.1 control control_lanes "" "${kabi[6.1]}"
lane 1 6.1 package suite package-6.1 tests/host/package.sh 6.1
lane 1 $trixie package-$trixie suite "package-$trixie" tests/host/package.sh $trixie
lane 1 6.1 cm-security cm_security
lane 1 $trixie control-$trixie control_lanes "-$trixie" "${kabi[$trixie]}"
lane 1 6.1 foundation foundation ours stock
lane 1 6.1 fuzz fuzz
lane 1 6.1 cq-mr cq_mr
lane 1 6.1 kselftests kselftests
lane 1 6.1 nvme-host nvme_host
lane 1 $trixie foundation-$trixie foundation ours
lane 1 6.12 foundation-6.12 foundation ours
for pair in ours-stock stock-ours ours-ours; do
	lane 2 6.1 "wire-$pair" wire tests/host/wire.sh "$pair"
done
# The loss phase runs with stock trixie serving too: stock 6.12's server
# double-faulted under it twice in CI (2026-11-28), which was TCG losing
# its EFLAGS in crc32_pclmul; the pairs boot without that module since
# (tests/host/pair_lib.sh), and the phase passed against stock trixie.
lane 2 6.1 cm-wire-ours-stock wire tests/host/cm_wire.sh ours-stock
lane 2 $trixie wire-ours-stock-$trixie wire tests/host/wire.sh ours-stock
lane 2 6.1 cm-wire-stock-ours wire tests/host/cm_wire.sh stock-ours
lane 2 $trixie wire-stock-ours-$trixie wire tests/host/wire.sh stock-ours
# NVMe over RDMA between two guests (issue 21): our target with the stock
# host, the stock target with our host; discover, connect over IPv4 and
# IPv6, dd and fio verify, the target's rxe0 deleted under a connected
# host, the capture dissected as NVMe-oF.  Its fault steps (NVMET_FAULTS=1:
# the host's rxe0 deleted under 600 writes, 20 port cycles under
# connecting hosts) take 6 minutes a pair: run by hand.
export NVMET_FAULTS=${NVMET_FAULTS:-0}
lane 2 6.1 nvmet-ours-stock wire tests/host/nvmet.sh ours-stock
lane 2 6.1 nvmet-stock-ours wire tests/host/nvmet.sh stock-ours
lanes_wait

report "kernels ${kabi[6.1]}, ${kabi[6.12]} and ${kabi[6.12-trixie]}"
