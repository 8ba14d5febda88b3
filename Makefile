# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
#   make                 build ib_core, ib_uverbs, rdma_rxe, ib_cm, rdma_cm and
#                        rdma_ucm against KDIR
#   make check           the same with sparse (C=2) and W=1, plus tests/kmod and
#                        the hw_mlx5 header gate (no module); fails on any warning
#   make unit            userspace unit tests of the protocol logic
#   make test            everything: scripts/test-all.sh
#   make install         modules_install into updates/dkms, as DKMS does
#   make dkms-src DEST=D the module sources as DKMS and the package take them
#   make deb             build/deb/ordma-dkms_VERSION_all.deb (scripts/build-deb.sh)
#
# KDIR defaults to the running kernel's build tree when there is one, else
# to the Debian headers of the target ABI (scripts/lib/target.sh; KABI=...
# overrides it).

RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
KABI ?= $(shell bash -c '. scripts/lib/target.sh && target_kabi')
KDIR ?= $(if $(wildcard $(RUNNING_KDIR)/Makefile),$(RUNNING_KDIR),/usr/src/linux-headers-$(KABI)-amd64)

PWD := $(shell pwd)

# nvmet-rdma is built against nvmet's private header, nvmet.h, from
# Debian's linux-source of KDIR's exact version, and only when that
# header's export CRCs equal KDIR's (scripts/kernel-abi-gate.sh, which
# prints why not otherwise).  NVMET_SOURCE= on the command line builds
# without it.  Evaluated where a recipe uses it, so only builds pay.
NVMET_SOURCE ?= $(if $(wildcard scripts/kernel-abi-gate.sh),$(shell \
	scripts/kernel-abi-gate.sh nvmet-rdma $(KDIR) drivers/nvme/target/nvmet \
	drivers/nvme/target/core.c))
KMAKE = $(MAKE) -C $(KDIR) M=$(PWD)
KMAKE_GATED = $(KMAKE) NVMET_SOURCE=$(NVMET_SOURCE)

# nvme-rdma (the host) likewise, against nvme-core's nvme.h and
# nvme-fabrics' fabrics.h: both owners' CRCs must match.
NVME_HOST_SOURCE ?= $(if $(wildcard scripts/kernel-abi-gate.sh),$(shell \
	scripts/kernel-abi-gate.sh nvme-rdma $(KDIR) drivers/nvme/host/nvme-core \
	drivers/nvme/host/core.c >/dev/null && \
	scripts/kernel-abi-gate.sh nvme-rdma $(KDIR) drivers/nvme/host/nvme-fabrics \
	drivers/nvme/host/fabrics.c))
KMAKE_GATED += NVME_HOST_SOURCE=$(NVME_HOST_SOURCE)

all: modules

modules:
	+$(KMAKE_GATED) modules

# Every file is rebuilt so that no warning can hide in an up-to-date object.
check:
	$(KMAKE) NVMET_SOURCE=clean NVME_HOST_SOURCE=clean clean >/dev/null
	@mkdir -p build
	+$(KMAKE_GATED) C=2 W=1 modules 2>&1 | tee build/check.log
	$(MAKE) -s -C tests/kmod KDIR=$(KDIR) clean >/dev/null
	$(MAKE) -C tests/kmod KDIR=$(KDIR) check 2>&1 | tee -a build/check.log
	$(MAKE) -s -C hw_mlx5 KDIR=$(KDIR) clean >/dev/null
	$(MAKE) -C hw_mlx5 KDIR=$(KDIR) check 2>&1 | tee -a build/check.log
	@! grep -E 'warning:|error:|sparse:' build/check.log || \
		{ echo "check: warnings above"; exit 1; }
	@echo "check: build with sparse (C=2) and W=1 is clean"

# checkpatch over the modules' sources (from Debian's linux-source-6.1:
# the headers packages do not ship it); scripts/style.sh lists what is
# accepted and why.
style:
	scripts/style.sh

unit:
	$(MAKE) -C tests/unit run

test:
	scripts/test-all.sh

install:
	$(KMAKE_GATED) INSTALL_MOD_DIR=updates/dkms modules_install

# What /usr/src/ordma-VERSION holds: the build files and the modules'
# sources, nothing built and nothing of the tests; nvmet_rdma and nvme_rdma
# with the ABI gate that decides whether they are built (dkms.conf runs it).
DKMS_SRC = Makefile Kbuild dkms.conf include core uverbs sw_rxe cm cma ucma \
	nvmet_rdma nvme_rdma scripts/kernel-abi-gate.sh scripts/kernel-source.sh
dkms-src:
	@test -n "$(DEST)" || { echo "dkms-src: DEST=dir"; exit 2; }
	mkdir -p $(DEST)
	tar -C $(PWD) -c --exclude-vcs --exclude='*.o' --exclude='*.ko' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
		--exclude='*.o.d' --exclude=modules.order $(DKMS_SRC) | \
		tar -C $(DEST) -x

# The Debian package, built in a scratch copy under build/deb/.
deb:
	scripts/build-deb.sh

# The tests are not part of the DKMS source: clean them only where they are.
clean:
	$(KMAKE) NVMET_SOURCE=clean NVME_HOST_SOURCE=clean clean
	$(if $(wildcard tests/unit/Makefile),$(MAKE) -C tests/unit clean)
	$(if $(wildcard tests/kmod/Makefile),$(MAKE) -C tests/kmod KDIR=$(KDIR) clean)
	$(if $(wildcard hw_mlx5/Makefile),$(MAKE) -C hw_mlx5 KDIR=$(KDIR) clean)

.PHONY: all modules check style unit test install dkms-src deb clean
