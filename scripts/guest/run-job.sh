#!/bin/bash
# Runs inside the VM, chrooted into the host's root (read-only, tmpfs overlay).
# Sets up the module stack named by OOT_STACK, then runs the job's command.
set -u
. /oot-out/job.env
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root OOT_STACK OOT_KVER
cd /oot-src

mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm 2>/dev/null
ln -sf /proc/self/fd /dev/fd 2>/dev/null
hostname "$OOT_HOSTNAME"

modprobe virtio_net
ip link set lo up
if [ -n "${OOT_IPV4:-}" ]; then
	ip link set eth0 up
	ip addr add "$OOT_IPV4" dev eth0
fi

echo "vm: kernel $(uname -r), stack $OOT_STACK, booted in $(cut -d' ' -f1 /proc/uptime)s"
bash -c "$OOT_CMD"
