#!/usr/bin/env bash
# The main job: build our modules, boot the target kernel in a VM, install
# them the way DKMS does, load them and show what stock rdma-core sees.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/lib/target.sh

scripts/install-deps.sh
kabi=$(target_kabi)
make -s modules KDIR="/usr/src/linux-headers-$kabi-amd64"
exec scripts/vm-run.sh --stack ours --name demo -- tests/vm/demo.sh
