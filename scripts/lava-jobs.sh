#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make lava-jobs: the real-sleep plan as LAVA jobs, in build/lava:
# the devices kernel and the initramfs of the last make real-sleep run,
# blank disk images, real-sleep-qemu.yaml, real-sleep-x86-board.yaml and
# expected.txt, validated with Debian's lava-common (scripts/lava-jobs.py).
# LAVA_URL: where a lab serves build/lava from (default: file:// here).
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/deps.sh" lava || exit 1
run="$BUILD/real-sleep"
kernel="$BUILD/kernel/patched/obj-test-devices/arch/x86/boot/bzImage"
for f in "$kernel" "$run/initramfs.cpio.gz" "$run/boot-1.log"; do
	[ -f "$f" ] || die "no $f: run 'make real-sleep' first"
done
out="$BUILD/lava"
rm -rf "$out"
mkdir -p "$out"
cp "$kernel" "$out/bzImage"
cp "$run/initramfs.cpio.gz" "$out/"
"$TOP/scripts/real-sleep.sh" disks "$out/disks" || exit 1
for d in virtio ahci usb; do
	xz -T1 -c "$out/disks/$d.img" >"$out/$d.img.xz" || die "cannot compress $d.img"
done
rm -rf "$out/disks"
(cd "$out" && sha256sum bzImage initramfs.cpio.gz ./*.img.xz >SHA256SUMS)
"$PY" "$TOP/scripts/lava-jobs.py" "$out" "${LAVA_URL:-file://$out}" "$run" || exit 1
log "lava-jobs: $out"
