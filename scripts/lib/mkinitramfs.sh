#!/usr/bin/env bash
# Build (or reuse) the busybox initramfs for one kernel; prints its path.
#   mkinitramfs.sh IMAGE_DIR KVER
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/target.sh"
imgdir=$1 kver=$2

# Loaded by the init, in this order, before the 9p root can be mounted.
mods="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
netfs fscache 9pnet 9pnet_virtio 9p overlay"

key=$(cat "$here/../guest/init" "$0" /bin/busybox | md5sum | cut -c1-12)
img=$OOT_CACHE/initramfs-$kver-$key.cpio.gz
if [ -e "$img" ]; then
	echo "$img"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,sbin,proc,sys,dev,modules,newroot}
cp /bin/busybox "$tmp/bin/busybox"
cp "$here/../guest/init" "$tmp/init"
chmod 755 "$tmp/init"
: >"$tmp/modules.order"
for m in $mods; do
	f=$(find "$(target_image_modules "$imgdir" "$kver")/kernel" -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" | head -n1)
	if [ -z "$f" ]; then
		# Built into this kernel: nothing to load.
		continue
	fi
	case "$f" in
	*.xz) xz -dc "$f" >"$tmp/modules/$m.ko" ;;
	*.zst) zstd -dc "$f" >"$tmp/modules/$m.ko" ;;
	*) cp "$f" "$tmp/modules/$m.ko" ;;
	esac
	echo "$m" >>"$tmp/modules.order"
done
(cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) >"$img.tmp"
mv "$img.tmp" "$img"
echo "$img"
