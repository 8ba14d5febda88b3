#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side of the package lane: the Debian package on a stock machine.
# Runs with --stack stock (the in-tree modules, as on a machine that never
# saw ordma) after `make deb` on the host:
#
#   before   ordma-coexist (from the checkout) against Debian's rdma.conf;
#            ib_core resolves to the in-tree module; an in-tree consumer
#            loads and shows as loaded
#   install  `apt-get install ./ordma-dkms_VERSION_all.deb` with the
#            line's linux-source (Recommends; apt's simulation of the plain
#            command must pick it), offline: the postinst runs dkms (add,
#            build, install) for this kernel and prints ordma-coexist's
#            report; nvmet-rdma and nvme-rdma are among the modules under
#            updates/dkms
#   use      dkms status, ib_core under updates/dkms, modprobe rdma_rxe
#            loads ours, `rdma link add rxe0`; the rdma.conf list loaded the
#            way rdma-load-modules@rdma.service does (its own ExecStart):
#            ours load, each in-tree consumer fails with the explanation;
#            nvmet: a configfs port with addr_trtype rdma on rxe0 enables,
#            loading our nvmet-rdma through nvmet-transport-1 and the hook;
#            modprobe nvme-rdma (what nvme-fabrics requests) loads ours
#   remove   `apt-get purge`: dkms forgets ordma, ib_core is the in-tree
#            one again and the consumers load again; nvmet_rdma and
#            nvme_rdma are the in-tree ones again and /var/cache/ordma-dkms
#            is gone
#
# How the guest stands in for a real machine: tests/guest/pkg_lib.sh.
set -u
. /oot-src/tests/guest/lib.sh
. /oot-src/tests/guest/pkg_lib.sh
VERSION=$PKG_VERSION
KVER=$(uname -r)
DEB=$PKG_DEB
OUT=/oot-out
INTREE=/lib/modules/$KVER/kernel/drivers/infiniband/core/ib_core.ko
OURS=/lib/modules/$KVER/updates/dkms/ib_core.ko
export DEBIAN_FRONTEND=noninteractive

# modinfo -n without the compression suffix (6.12 ships .ko.xz, and DKMS
# compresses ours to match).
resolves_to() { modinfo -n "$1" | sed 's/\.\(xz\|zst\|gz\)$//'; }
loaded() { [ -d "/sys/module/$1" ]; }
has() { grep -q -- "$1" "$2"; }
# ordma-coexist's table row of one module: "module state".
row() { awk -v m="$1" '$1 == m { print $1, $2 }' "$2"; }
# dkms status's own lines; with 6.12's headers dkms 3.0.10 also prints
# readelf warnings on stderr (it reads the compiler from their vmlinux).
dkms_status() { dkms status "$@" 2>/dev/null; }

t_run "the package was built (make deb)" test -s "$DEB"
t_eq "stock stack: ib_core resolves to the in-tree module" "$INTREE" resolves_to ib_core

# --- the guest as a machine with this kernel's headers installed ------------
pkg_machine
t_run "headers for $KVER reachable as /lib/modules/$KVER/build" \
	test -e "/lib/modules/$KVER/build/include/generated/autoconf.h"
t_run "the in-tree modules ordma replaces are files, as installed" \
	test -f "$(modinfo -n ib_core)" -a ! -L "$(modinfo -n ib_core)"

# --- before: what ordma-coexist says on a stock machine ----------------------
t_run "stock: an in-tree consumer (ib_iser) loads" modprobe ib_iser
/oot-src/scripts/ordma-coexist >"$OUT/coexist-before.txt" 2>&1
echo "coexist before: exit $?"
cat "$OUT/coexist-before.txt"
t_eq "coexist (before) exits 1: consumers loaded and configured" 1 \
	sh -c '/oot-src/scripts/ordma-coexist --quiet; echo $?'
t_run "coexist (before) knows ordma is not installed" \
	has "ordma is not installed" "$OUT/coexist-before.txt"
t_eq "coexist (before): ib_iser is loaded" "ib_iser loaded" row ib_iser "$OUT/coexist-before.txt"
t_eq "coexist (before): rpcrdma configured (xprtrdma, svcrdma in rdma.conf)" \
	"rpcrdma configured" row rpcrdma "$OUT/coexist-before.txt"
t_run "coexist (before): rpcrdma's loss is NFS over RDMA" \
	grep -q "rpcrdma .*NFS over RDMA.*/etc/rdma/modules/rdma.conf" "$OUT/coexist-before.txt"
t_eq "coexist (before): nvme_rdma neither loaded nor configured" "nvme_rdma -" \
	row nvme_rdma "$OUT/coexist-before.txt"
n_before=$(sed -n 's/^\([0-9]*\) in-tree modules use ib_core.*/\1/p' "$OUT/coexist-before.txt")
t_run "coexist (before) counts 20 or more consumers ($n_before)" test "${n_before:-0}" -ge 20
# Without ordma, the --modprobe hook is a plain modprobe.
t_run "coexist --modprobe loads normally while ib_core is in-tree" \
	/oot-src/scripts/ordma-coexist --modprobe rpcrdma
t_run "rpcrdma (in-tree) loaded through the hook" loaded rpcrdma
t_run "modprobe -r rpcrdma ib_iser" modprobe -r rpcrdma ib_iser
t_run "unload the in-tree stack" unload_rdma
t_run "no ib_core loaded" sh -c '! test -d /sys/module/ib_core'

# --- install ------------------------------------------------------------------
# The one apt command of README: the Recommends bring the kernel line's
# linux-source (apt's own resolution, simulated: no network here).
t_eq "the package Recommends both lines' linux-source" \
	"linux-source-6.1, linux-source-6.12" dpkg-deb -f "$DEB" Recommends
apt-get install -s "$DEB" >"$OUT/apt-simulate.log" 2>&1
t_run "apt-get install -s ./ordma-dkms...deb would install linux-source-$PKG_LINE" \
	grep -q "^Inst linux-source-$PKG_LINE " "$OUT/apt-simulate.log"
t_run "the host left linux-source-$PKG_LINE of the headers' version ($PKG_SOURCE_DEB)" \
	test -s "$PKG_SOURCE_DEB"
pkg_install "$OUT/apt-install.log"
rc=$?
cat "$OUT/apt-install.log"
t_eq "apt-get install ./ordma-dkms_${VERSION}_all.deb" 0 echo $rc
# What dkms prints differs between bookworm's 3.0 and trixie's 3.2: the
# tarball's name (ordma-VER, ordma/VER); 3.0 announces its version check,
# 3.2 checks silently and then archives each in-tree module it found and
# will replace; 3.2's status adds "(Original modules exist)" once it has.
dkms_new=0
dpkg --compare-versions "$(dpkg-query -W -f='${Version}' dkms)" ge 3.1 && dkms_new=1
if [ -e "$PKG_PRESEED" ]; then
	t_run "postinst loaded the host-built modules (dkms ldtarball)" \
		grep -Eq "Loading tarball for ordma[-/]$VERSION" "$OUT/apt-install.log"
else
	t_run "postinst built the modules (dkms build)" \
		grep -Eq "Building (initial module )?for $KVER" "$OUT/apt-install.log"
fi
# dkms install compares each module with the kernel's own: ours carry
# MODULE_VERSION and the in-tree ones none, so none is refused.
if [ "$dkms_new" = 1 ]; then
	t_run "dkms install found the in-tree ib_core and archived it" \
		grep -Eq "Found pre-existing .*/ib_core\.ko(\.xz|\.zst|\.gz)?, archiving for uninstallation" \
		"$OUT/apt-install.log"
	installed="installed (Original modules exist)"
else
	t_run "dkms install ran its version check" \
		has "Running module version sanity check" "$OUT/apt-install.log"
	installed=installed
fi
t_run "... and refused no module" sh -c \
	"! grep -Eq 'will not replace|is not newer' $OUT/apt-install.log"
t_run "... after finding the in-tree module to compare with" sh -c \
	"! grep -q 'No original module exists' $OUT/apt-install.log"
t_eq "dkms status: ordma installed for $KVER" \
	"ordma/$VERSION, $KVER, x86_64: $installed" dkms_status ordma -k "$KVER"
t_eq "ib_core now resolves to updates/dkms" "$OURS" resolves_to ib_core
for m in ib_uverbs rdma_rxe ib_cm rdma_cm rdma_ucm; do
	t_eq "$m resolves to updates/dkms" "${OURS%/*}/$m.ko" resolves_to "$m"
done
t_run "linux-source-$PKG_LINE installed where dkms.conf's gate reads it" \
	test -s "/usr/src/linux-source-$PKG_LINE.tar.xz"
t_eq "nvmet_rdma resolves to updates/dkms (the gate passed)" \
	"${OURS%/*}/nvmet-rdma.ko" resolves_to nvmet_rdma
t_eq "... and is ours (modinfo version)" "$VERSION" modinfo -F version nvmet_rdma
t_run "... and dkms status's build holds it" sh -c \
	"ls /var/lib/dkms/ordma/$VERSION/$KVER/x86_64/module/ | grep -q '^nvmet-rdma\.ko'"
t_eq "nvme_rdma resolves to updates/dkms (both host gates passed)" \
	"${OURS%/*}/nvme-rdma.ko" resolves_to nvme_rdma
t_eq "... and is ours (modinfo version)" "$VERSION" modinfo -F version nvme_rdma
t_run "... and dkms status's build holds it" sh -c \
	"ls /var/lib/dkms/ordma/$VERSION/$KVER/x86_64/module/ | grep -q '^nvme-rdma\.ko'"
t_run "postinst printed ordma-coexist's report" \
	has "ib_core is ordma $VERSION" "$OUT/apt-install.log"
t_run "... which says nvmet_rdma is provided by ordma" \
	has "Provided by ordma: nvmet_rdma" "$OUT/apt-install.log"
t_run "... and nvme_rdma" has "Provided by ordma: nvme_rdma" "$OUT/apt-install.log"
t_run "/usr/sbin/ordma-coexist installed" test -x /usr/sbin/ordma-coexist
t_run "/lib/modprobe.d/ordma.conf installed" \
	grep -q "^install ib_iser /usr/sbin/ordma-coexist --modprobe ib_iser" /lib/modprobe.d/ordma.conf

# --- use ----------------------------------------------------------------------
t_run "modprobe rdma_rxe" modprobe rdma_rxe
t_eq "loaded ib_core is ours" "$VERSION" cat /sys/module/ib_core/version
t_eq "loaded rdma_rxe is ours" "$VERSION" cat /sys/module/rdma_rxe/version
ip link set eth0 up
# An IPv4 address of its own (vm-run gives none): the pingpong below runs
# over its GID, which exists from the start, not over the IPv6 one SLAAC
# adds seconds after the link comes up.
ip addr add 10.0.2.15/24 dev eth0
t_run "rdma link add rxe0 type rxe netdev eth0" rdma link add rxe0 type rxe netdev eth0
t_run "rdma link shows rxe0 on eth0" sh -c 'rdma link show rxe0/1 | grep -q "netdev eth0"'
# Data through the installed stack: an RC pingpong with its data checked,
# both ends on rxe0, over the GID of eth0's IPv4 address.
# The GID table fills from a workqueue after `rdma link add` returns: wait
# for the IPv4 GID instead of racing it (a server on an empty index made
# its peer's RTR fail with remote GID ::, CI of 2026-11-29).
ipv4_gid_index() {
	ibv_devinfo -v -d rxe0 | awk '/GID\[/ && /::ffff:/ {sub(/.*GID\[ */, ""); sub(/\].*/, ""); print; exit}'
}
pp_gid=
for _ in $(seq 100); do
	pp_gid=$(ipv4_gid_index)
	[ -n "$pp_gid" ] && break
	sleep 0.2
done
t_run "rxe0 has an IPv4 GID (index ${pp_gid:-none}) within 20 s" test -n "$pp_gid"
timeout 60 ibv_rc_pingpong -d rxe0 -g "${pp_gid:-0}" -n 100 -c >"$OUT/pp-server.log" 2>&1 &
pp_server=$!
wait_listen
t_run "ibv_rc_pingpong -c (100 iterations, data checked)" \
	timeout 60 ibv_rc_pingpong -d rxe0 -g "${pp_gid:-0}" -n 100 -c localhost
wait "$pp_server"
t_eq "... and its server's too" 0 echo $?
t_run "ibv_devices lists rxe0" sh -c 'ibv_devices | grep -q rxe0'

# NVMe-oF target over ours: enabling a port with addr_trtype rdma makes
# nvmet request nvmet-transport-1, which modprobe resolves to our
# nvmet-rdma (through modprobe.d's hook, which lets ordma's own through);
# it listens on rxe0's address through our rdma_cm.
nqn=nqn.2026-11.org.ordma:package
cfg=/sys/kernel/config/nvmet
t_run "modprobe nvmet" modprobe nvmet
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
t_run "nvmet subsystem $nqn" eval "mkdir $cfg/subsystems/$nqn &&
	echo 1 >$cfg/subsystems/$nqn/attr_allow_any_host"
t_run "nvmet port 1: rdma 10.0.2.15:4420" eval "mkdir $cfg/ports/1 &&
	echo rdma >$cfg/ports/1/addr_trtype && echo ipv4 >$cfg/ports/1/addr_adrfam &&
	echo 10.0.2.15 >$cfg/ports/1/addr_traddr && echo 4420 >$cfg/ports/1/addr_trsvcid"
t_run "port 1 enabled: the subsystem linked" ln -s "$cfg/subsystems/$nqn" "$cfg/ports/1/subsystems/"
t_run "... and shown under the port's subsystems" test -d "$cfg/ports/1/subsystems/$nqn"
t_eq "loaded nvmet_rdma is ours" "$VERSION" cat /sys/module/nvmet_rdma/version
t_eq "... from updates/dkms" "${OURS%/*}/nvmet-rdma.ko" sh -c \
	"modinfo -F filename nvmet_rdma | sed 's/\.\(xz\|zst\|gz\)\$//'"
t_run "an RDMA CM listener on 10.0.2.15:4420" wait_until 30 eval \
	"rdma res show cm_id | grep -q 'state LISTEN.*10.0.2.15:4420'"
t_run "port 1 disabled and removed" eval "rm $cfg/ports/1/subsystems/$nqn && rmdir $cfg/ports/1"
t_run "subsystem removed" rmdir "$cfg/subsystems/$nqn"
t_run "no cm_id left" wait_until 30 eval '[ -z "$(rdma res show cm_id)" ]'
t_run "unload nvmet_rdma nvmet" modprobe -r nvmet_rdma nvmet

# The NVMe-oF host: nvme-fabrics asks for "nvme-rdma" by name
# (request_module); modprobe of that name goes through the hook, which lets
# ordma's own through, beside the distribution's nvme-core and nvme-fabrics.
t_run "modprobe nvme-rdma" modprobe nvme-rdma
t_eq "loaded nvme_rdma is ours" "$VERSION" cat /sys/module/nvme_rdma/version
t_eq "... from updates/dkms" "${OURS%/*}/nvme-rdma.ko" sh -c \
	"modinfo -F filename nvme_rdma | sed 's/\.\(xz\|zst\|gz\)\$//'"
t_run "... on the in-tree nvme-fabrics (no version of ours)" sh -c \
	'test -d /sys/module/nvme_fabrics && ! test -s /sys/module/nvme_fabrics/version'
t_run "unload nvme_rdma" rmmod nvme_rdma

# rdma-core starts rdma-load-modules@rdma.service when an RDMA device
# appears (udev -> rdma-hw.target); run that unit's own ExecStart.
unit=/lib/systemd/system/rdma-load-modules@.service
execstart=$(sed -n 's/^ExecStart=//p' "$unit" | sed 's/%I/rdma/g')
echo "package: running $execstart (ExecStart of $unit)"
dmesg_before=$(dmesg | wc -l)
SYSTEMD_LOG_TARGET=console $execstart >"$OUT/modules-load.log" 2>&1
rc=$?
cat "$OUT/modules-load.log"
dmesg | tail -n +"$((dmesg_before + 1))" >"$OUT/modules-load.dmesg"
t_run "the unit's command fails (exit $rc): rdma.conf asks for modules that cannot load" \
	test "$rc" -ne 0
for m in ib_iser rpcrdma; do
	t_run "explained on stderr (the unit's journal): in-tree $m" \
		has "ordma: in-tree $m not loaded" "$OUT/modules-load.log"
	t_run "explained in the kernel log: in-tree $m" \
		has "ordma: in-tree $m not loaded" "$OUT/modules-load.dmesg"
	t_run "$m is not loaded" sh -c "! test -d /sys/module/$m"
done
t_run "no 'Invalid module format' or symbol error from the unit" \
	sh -c "! grep -Eiq 'invalid module format|unknown symbol|disagrees' $OUT/modules-load.log $OUT/modules-load.dmesg"
for m in ib_uverbs rdma_ucm; do
	t_eq "the unit loaded our $m" "$VERSION" cat "/sys/module/$m/version"
done
# What the hook spares the user: the in-tree module itself cannot load.
t_fail "without the hook, in-tree ib_iser fails to load (modprobe --ignore-install)" \
	modprobe --ignore-install ib_iser

/usr/sbin/ordma-coexist >"$OUT/coexist-after.txt" 2>&1
echo "coexist after: exit $?"
cat "$OUT/coexist-after.txt"
t_run "coexist (after): ib_core is ordma $VERSION" \
	has "ib_core is ordma $VERSION" "$OUT/coexist-after.txt"
t_run "coexist (after): loaded ib_core is ours" \
	has "loaded ib_core: $VERSION" "$OUT/coexist-after.txt"
t_eq "coexist (after): ib_iser configured, not loaded" "ib_iser configured" \
	row ib_iser "$OUT/coexist-after.txt"
t_eq "coexist (after) lists two consumers fewer: nvmet_rdma, nvme_rdma are ours" "$((n_before - 2))" \
	sed -n 's/^\([0-9]*\) in-tree modules use ib_core.*/\1/p' "$OUT/coexist-after.txt"
t_eq "coexist (after): no nvmet_rdma row" "" row nvmet_rdma "$OUT/coexist-after.txt"
t_run "coexist (after): nvmet_rdma provided by ordma" \
	grep -q "^Provided by ordma: nvmet_rdma, .*updates/dkms/nvmet-rdma" "$OUT/coexist-after.txt"
t_eq "coexist (after): no nvme_rdma row" "" row nvme_rdma "$OUT/coexist-after.txt"
t_run "coexist (after): nvme_rdma provided by ordma" \
	grep -q "^Provided by ordma: nvme_rdma, .*updates/dkms/nvme-rdma" "$OUT/coexist-after.txt"
t_eq "coexist (after) exits 1" 1 sh -c '/usr/sbin/ordma-coexist --quiet; echo $?'

# --- remove -------------------------------------------------------------------
t_run "rdma link delete rxe0" rdma link delete rxe0
t_run "unload our stack" unload_rdma
apt-get purge -y -q ordma-dkms >"$OUT/apt-purge.log" 2>&1
rc=$?
cat "$OUT/apt-purge.log"
t_eq "apt-get purge ordma-dkms" 0 echo $rc
t_eq "dkms status no longer lists ordma" "" dkms_status ordma
t_eq "ib_core resolves to the in-tree module again" "$INTREE" resolves_to ib_core
t_run "/usr/src/ordma-$VERSION removed" sh -c "! test -e /usr/src/ordma-$VERSION"
t_run "/lib/modprobe.d/ordma.conf removed" sh -c '! test -e /lib/modprobe.d/ordma.conf'
t_eq "nvmet_rdma resolves to the in-tree module again" \
	"/lib/modules/$KVER/kernel/drivers/nvme/target/nvmet-rdma.ko" resolves_to nvmet_rdma
t_eq "nvme_rdma resolves to the in-tree module again" \
	"/lib/modules/$KVER/kernel/drivers/nvme/host/nvme-rdma.ko" resolves_to nvme_rdma
t_run "no nvmet-rdma or nvme-rdma left under updates/dkms" sh -c \
	"! ls /lib/modules/$KVER/updates/dkms/ 2>/dev/null | grep -q nvme"
t_run "/var/cache/ordma-dkms removed" sh -c '! test -e /var/cache/ordma-dkms'
t_run "in-tree ib_iser loads again" modprobe ib_iser
t_run "in-tree ib_core loaded (no version)" sh -c '! test -e /sys/module/ib_core/version'
t_run "modprobe -r ib_iser" modprobe -r ib_iser
t_run "unload the in-tree stack" unload_rdma

t_done package
