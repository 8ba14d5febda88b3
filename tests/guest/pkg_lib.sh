# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Guest side: install the ordma-dkms package the way a user does, on a
# guest booted with the stock stack.  Sourced by tests/guest/package.sh and
# tests/guest/demo.sh.
#
# What differs from a real machine, on purpose:
#  * The guest's /lib/modules/$KVER is staged by vm-run.sh from the
#    unpacked kernel image, which has no `build` link (Debian ships that in
#    the headers package): pkg_machine points it at the host's
#    /usr/src/linux-headers-$KVER, as installing the headers would.
#  * That staged tree is made of symlinks to the image, and dkms install's
#    version check looks for the kernel's own module with `find -type f`:
#    pkg_machine turns the in-tree modules ordma replaces (the six and
#    nvmet_rdma) into real files, so dkms finds and compares them as on an
#    installed kernel.
#  * The guest's root is the host's, whose /boot may hold another kernel;
#    dkms's postinst would also build for the newest installed one.
#    pkg_machine hides the other kernels' /boot/config-* (tmpfs overlay,
#    the host is untouched), as on a machine with one kernel.
#  * Compiling the modules in a TCG guest takes longer than a test can
#    wait (not done after 16 minutes), so the host leaves them, built by
#    DKMS for this kernel, as a DKMS tarball (scripts/build-deb.sh
#    --preseed); pkg_install copies it to /usr/share/ordma-dkms/, where
#    dh-dkms's postinst loads it with `dkms ldtarball` in place of `dkms
#    add` + `dkms build`; `dkms install` (version check, depmod) runs as on
#    any machine.  Without the tarball dkms compiles here.
#  * The guest has no network: linux-source of the kernel's line, which
#    the package Recommends, is the .deb the host downloaded for its own
#    DKMS build (scripts/dkms-build.sh, build/kernel-source/download/), of
#    exactly the headers' version; pkg_install names it on the same apt
#    command line as the package, with --no-install-recommends (apt would
#    otherwise try to fetch the other line's too).

PKG_VERSION=$(sed -n 's/^#define ORDMA_VERSION "\(.*\)"/\1/p' /oot-src/include/ordma/version.h)
PKG_DEB=/oot-src/build/deb/ordma-dkms_${PKG_VERSION}_all.deb
PKG_PRESEED=/oot-src/build/deb/preseed/$(uname -r)/ordma-$PKG_VERSION.dkms.tar.gz
PKG_LINE=$(uname -r | sed -n 's/^\([0-9]*\.[0-9]*\)\..*/\1/p')
PKG_SOURCE_DEB=/oot-src/build/kernel-source/download/linux-source-${PKG_LINE}_$(dpkg-query -W \
	-f='${Version}' "linux-headers-$(uname -r)" 2>/dev/null)_all.deb

pkg_machine()
{
	local kver f m
	kver=$(uname -r)
	ln -sfn "/usr/src/linux-headers-$kver" "/lib/modules/$kver/build"
	for f in /boot/config-*; do
		[ "$f" = "/boot/config-$kver" ] || rm -f "$f"
	done
	for m in ib_core ib_uverbs rdma_rxe ib_cm rdma_cm rdma_ucm nvmet_rdma; do
		f=$(modinfo -n "$m")
		cp --remove-destination "$(readlink -f "$f")" "$f"
	done
}

# pkg_install LOG: apt-get install the package (offline), with the
# kernel line's linux-source when the host has its .deb (PKG_SOURCE_DEB),
# output in LOG; returns apt-get's status.
pkg_install()
{
	local rc t0 debs
	cp "$PKG_DEB" /tmp/
	debs=("/tmp/${PKG_DEB##*/}")
	if [ -e "$PKG_SOURCE_DEB" ]; then
		echo "package: with ${PKG_SOURCE_DEB##*/} (the host's download)"
		debs+=("$PKG_SOURCE_DEB")
	else
		echo "package: no $PKG_SOURCE_DEB; installing without linux-source"
	fi
	if [ -e "$PKG_PRESEED" ]; then
		echo "package: modules built on the host, loaded from $PKG_PRESEED by the postinst"
		mkdir -p /usr/share/ordma-dkms
		cp "$PKG_PRESEED" /usr/share/ordma-dkms/
	else
		echo "package: no host-built tarball; dkms compiles the modules in the guest"
	fi
	t0=$(date +%s)
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${debs[@]}" >"$1" 2>&1
	rc=$?
	echo "package: apt-get install took $(($(date +%s) - t0))s, exit $rc"
	return "$rc"
}
