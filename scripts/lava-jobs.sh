#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make lava-jobs: the real-sleep plan as LAVA jobs, in build/lava:
# the test kernel and the initramfs of the last make real-sleep run,
# blank disk images, real-sleep-qemu.yaml, real-sleep-x86-board.yaml and
# expected.txt, validated with Debian's lava-common (scripts/lava-jobs.py)
# and lava-dispatcher's lava-run --validate.
# LAVA_URL: where a lab serves build/lava from (default: file:// here).
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/deps.sh" lava || exit 1
run="$BUILD/real-sleep"
kernel="$BUILD/kernel/patched/obj-test/arch/x86/boot/bzImage"
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

# lava-run's own validation of the qemu job on this machine: the pipeline
# LAVA would build (deploy, boot, test monitor) checked against the device.
# LAVA_RUN=1 also runs the job (about as long as make real-sleep's boots).
lr="$out/lava-run"
mkdir -p "$lr"
lava-run --job-id 1 --output-dir "$lr/validate" --device "$out/qemu-device.yaml" \
	--validate "$out/real-sleep-qemu.yaml" >"$lr/validate.log" 2>&1
grep -q '"case": "validate".*"result": "pass"' "$lr/validate.log" ||
	die "lava-run --validate refused real-sleep-qemu.yaml (see $lr/validate.log)"
log "lava-jobs: lava-run --validate: real-sleep-qemu.yaml passes"
if [ "${LAVA_RUN:-0}" = 1 ]; then
	log "lava-jobs: lava-run of real-sleep-qemu.yaml (log: $lr/run.log)"
	lava-run --job-id 2 --output-dir "$lr/run" --device "$out/qemu-device.yaml" \
		"$out/real-sleep-qemu.yaml" >"$lr/run.log" 2>&1
	"$PY" "$TOP/scripts/lava-results.py" "$lr/run.log" "$out/expected.txt" real-sleep-qemu ||
		exit 1
fi
log "lava-jobs: $out"
