#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the foundation tests: the module set loads in place of the
# in-tree one, answers the stock tools with zero devices, autoloads on
# `rdma link add`, and loads/unloads cleanly.  Runs on either stack
# (OOT_STACK=ours|stock) with the same expectations except where noted.
set -u
. /oot-src/tests/guest/lib.sh
STACK=${OOT_STACK:?}
VERSION=$(sed -n 's/^#define ORDMA_VERSION "\(.*\)"/\1/p' /oot-src/include/ordma/version.h)
MODS="rdma_rxe ib_uverbs ib_core"

loaded() { grep -q "^$1 " /proc/modules; }
unload_all() { modprobe -r $MODS; }

# --- loading -----------------------------------------------------------------
t_run "modprobe rdma_rxe" modprobe rdma_rxe
for m in $MODS; do
	t_run "$m is loaded" loaded "$m"
done
t_eq "ib_uverbs and rdma_rxe hold ib_core" "2" \
	awk '$1 == "ib_core" { print $3 }' /proc/modules

if [ "$STACK" = ours ]; then
	for m in $MODS; do
		t_eq "$m is ours: /sys/module/$m/version" "$VERSION" \
			cat "/sys/module/$m/version"
		# DKMS compresses as the kernel's own modules are (6.12: xz).
		t_eq "$m resolves to updates/dkms (the DKMS override)" \
			"/lib/modules/$(uname -r)/updates/dkms/$m.ko" \
			sh -c "modinfo -n $m | sed 's/\\.xz\$//'"
	done
else
	for m in $MODS; do
		t_fail "$m is in-tree: no version file" test -e "/sys/module/$m/version"
	done
fi

# --- what the stock tools see with zero devices ------------------------------
t_eq "rdma dev: no devices, exit 0" "" rdma dev
t_eq "rdma link: no links, exit 0" "" rdma link
# What `rdma system` prints depends on the iproute2 asking: bookworm's 6.1
# shows two modes; trixie's 6.15 also the privileged Q_Key mode and the
# monitor mode, which in-tree 6.12 reports as on (it has `rdma monitor`).
case "$(rdma -V)" in
*iproute2-6.1.*) rdma_system="netns shared copy-on-fork on" ;;
*) rdma_system="netns shared privileged-qkey off monitor on copy-on-fork on" ;;
esac
t_eq "rdma system" "$rdma_system" rdma system
printf -v ibv_empty '    device          \t   node GUID\n    ------          \t----------------'
t_eq "ibv_devices: empty table, no warning" "$ibv_empty" ibv_devices
t_eq "ibv_devinfo: no devices" "No IB devices found" ibv_devinfo
t_run "/sys/class/infiniband exists" test -d /sys/class/infiniband
t_eq "infiniband_verbs abi_version" "6" cat /sys/class/infiniband_verbs/abi_version
t_run "uverbs owns char major 231" grep -qx "231 infiniband_verbs" /proc/devices

# --- nldev answers to raw requests: the in-tree stack's errnos --------------
python3 /oot-src/tests/probes/nlprobe.py >/tmp/nlprobe.out 2>&1
while read -r case want; do
	t_eq "nldev $case" "$case $want" awk -v c="$case" '$1 == c' /tmp/nlprobe.out
done <<'CASES'
get-noindex EINVAL 0
get-badindex EINVAL 0
get-dump OK 0
port-dump-noindex EINVAL 0
port-get-badindex EINVAL 0
sys-get OK 1 netns=1 cof=1 pqkey=0
sys-set-empty EINVAL 0
sys-set-pqkey-2 EINVAL 0
sys-set-pqkey-unprivileged EPERM 0
unknown-op EINVAL 0
unknown-client EINVAL 0
chardev-notype EINVAL 0
chardev-uverbs-nodev ENOTSUP 0
chardev-unknown-client ENOTSUP 0
chardev-port-without-dev EINVAL 0
newlink-missing-attrs EINVAL 0
newlink-pattern-name EINVAL 0
newlink-long-name EINVAL 0
newlink-unknown-netdev ENODEV 0
newlink-unknown-type EINVAL 0
newlink-unprivileged EPERM 0
dellink-badindex EINVAL 0
dellink-unprivileged EPERM 0
CASES

# --- rdma link add reaches the rxe module, autoloading it --------------------
unload_all
t_run "all three unloaded" bash -c '! grep -Eq "^(rdma_rxe|ib_uverbs|ib_core) " /proc/modules'
t_run "ib_core alone" modprobe ib_core
ip link set eth0 up
t_run "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
t_run "rdma link delete rxe0" rdma link delete rxe0
t_run "rdma_rxe was autoloaded by link add" loaded rdma_rxe
# `rdma monitor`'s events: kernels from 6.9 on send them, in-tree 6.12's
# exactly these three for an rxe link's life (no netdev detach: the device
# goes with its netdev); 6.1 has no monitor.
monitor_want="monitor: not in this kernel"
mon_probe=(python3 /oot-src/tests/probes/nlprobe.py monitor)
if ! "${mon_probe[@]}" true | grep -q "not in this kernel"; then
	monitor_want=$'REGISTER rxe0\nNETDEV_ATTACH rxe0 port 1 eth0\nUNREGISTER rxe0'
fi
t_eq "rdma monitor: a link's add and delete" "$monitor_want" "${mon_probe[@]}" \
	"rdma link add rxe0 type rxe netdev eth0 && rdma link delete rxe0"
t_eq "unknown link type" "error: Invalid argument" \
	rdma link add x0 type nosuchtype netdev eth0
t_eq "unknown netdev" "error: No such device" \
	rdma link add x0 type rxe netdev nosuch0

# --- load/unload cycles: nothing may leak ------------------------------------
# Our modules keep their objects in caches named ordma_* or rxe_*; the VM
# boots with slab_nomerge, so each shows in /proc/slabinfo under its own
# name, and kmem_cache_destroy() at unload logs a BUG (failing the kernel
# log check) if any object of one is left.  The generic kmalloc caches are
# too noisy to assert on (+-200 objects over 20 cycles of the in-tree
# stack, which leaks nothing); their delta is printed for information.
our_slab_objs()
{
	awk '/^(ordma_|rxe_)/ { n += $2 } END { print n + 0 }' /proc/slabinfo
}
kmalloc_objs()
{
	awk '/^kmalloc-/ { n += $2 } END { print n + 0 }' /proc/slabinfo
}
cycle()
{
	modprobe rdma_rxe && rdma dev >/dev/null && rdma system >/dev/null &&
		ibv_devices >/dev/null && our_slab_objs >>/tmp/loaded-objs &&
		unload_all && ! grep -Eq '^(rdma_rxe|ib_uverbs|ib_core) ' /proc/modules
}
unload_all
start=$(date +%s)
cycle   # the first cycle may populate caches that then stay
sync; echo 3 >/proc/sys/vm/drop_caches
before=$(kmalloc_objs)
ok=1
for i in $(seq 20); do
	cycle || { ok=0; echo "# cycle $i failed"; break; }
done
t_result "$ok" "20 load/unload cycles ($(($(date +%s) - start))s)"
sync; echo 3 >/proc/sys/vm/drop_caches
echo "# info: kmalloc-* objects $before -> $(kmalloc_objs) over 20 cycles"
t_eq "our slab caches empty after unload" 0 our_slab_objs
t_eq "our slab caches held the same count on every load" 1 \
	bash -c 'sort -u /tmp/loaded-objs | wc -l'
t_run "class infiniband gone after unload" test ! -e /sys/class/infiniband
t_run "char region released" bash -c '! grep -q infiniband_verbs /proc/devices'

t_done "foundation-$STACK"
