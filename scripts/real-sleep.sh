#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Real system sleep with real drivers (make real-sleep).
#   real-sleep.sh                          build the patched test kernel
#                                          (it has config/devices.config),
#                                          run the plan of guest/real-sleep
#   real-sleep.sh run KERNEL INITRAMFS OUT run the plan with that kernel
#   real-sleep.sh disks DIR                only make the disk images
# CYCLES (default 2): cycles of each of s2idle, S3 and hibernation, each
# with pm_async=1 and then 0.  REAL_SLEEP_STATES (default "freeze mem
# disk"): which of s2idle, S3 and hibernation to run.  REAL_SLEEP_ARGS: more
# kernel arguments.
#
# The guest runs on QEMU's q35 machine (run-vm.sh, LSX_MACHINE=real).  A
# hibernation writes the image to the virtio disk's swap partition and
# reboots, which ends QEMU (-no-reboot); the next boot gets lsx.real=resume
# and resumes from the image.  Every boot's console is OUT/boot-N.log;
# scripts/realsleep.py judges them all together.
. "$(dirname "$0")/lib.sh"

# disks DIR: virtio.img (1 GiB, MBR: p1 128 MiB Linux for ext2, p2
# 768 MiB Linux swap for swap and the image), ahci.img, usb.img (raw).
make_disks() {
	local dir=$1
	mkdir -p "$dir"
	rm -f "$dir"/*.img
	truncate -s 1G "$dir/virtio.img"
	truncate -s 64M "$dir/ahci.img"
	truncate -s 32M "$dir/usb.img"
	"$PY" - "$dir/virtio.img" <<'EOF' || die "cannot write the partition table"
import struct, sys
def entry(ptype, start, count):
    return struct.pack("<B3sB3sII", 0, b"\0\0\0", ptype, b"\0\0\0", start, count)
mib = 2048  # sectors
mbr = bytearray(512)
struct.pack_into("<I", mbr, 440, 0x4c535852)
mbr[446:462] = entry(0x83, mib, 128 * mib)
mbr[462:478] = entry(0x82, 129 * mib, 768 * mib)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
EOF
}

if [ "${1:-}" = disks ]; then
	make_disks "${2:?usage: real-sleep.sh disks DIR}"
	exit 0
fi

cycles=${CYCLES:-2}
[[ $cycles =~ ^[1-9][0-9]*$ ]] || die "CYCLES=$cycles: a positive number of cycles"
states=${REAL_SLEEP_STATES:-freeze mem disk}
for st in $states; do
	case $st in
	freeze|mem|disk) ;;
	*) die "REAL_SLEEP_STATES='$states': the states are freeze, mem and disk" ;;
	esac
done

if [ "${1:-}" = run ]; then
	kernel=${2:?kernel}; initrd=${3:?initramfs}; out=${4:?output directory}
else
	"$TOP/scripts/deps.sh" || exit 1
	"$TOP/scripts/build-kernel.sh" patched test || exit 1
	kernel="$BUILD/kernel/patched/obj-test/arch/x86/boot/bzImage"
	out="$BUILD/real-sleep"
	mkdir -p "$out"
	log "real-sleep: packing the initramfs"
	"$TOP/scripts/initramfs.sh" bench "$out/initramfs.cpio.gz" || exit 1
	initrd="$out/initramfs.cpio.gz"
fi
need_cmd qemu-system-x86_64
mkdir -p "$out"
rm -f "$out"/boot-*.log "$out"/waker-*.log
make_disks "$out/disks"

# Per boot: the first one runs setup, s2idle, S3, the pm_test levels and
# the first hibernation; each later one resumes and runs one hibernation.
tmo=$((900 + 300 * cycles))
boots=1
[[ " $states " == *" disk "* ]] && boots=$((2 * cycles + 1))
args="lsx.mode=real lsx.cycles=$cycles lsx.states=$(echo $states | tr ' ' ,) no_console_suspend kunit.enable=0 hpet=disable ${REAL_SLEEP_ARGS:-}"
results=()
resume=
t0=$(date +%s)
for b in $(seq "$boots"); do
	logf="$out/boot-$b.log"
	log "real-sleep: boot $b of at most $boots${resume:+ (resume)} (limit $tmo s; console: $logf)"
	"$PY" "$TOP/scripts/qmp-waker.py" "$out/disks/qmp.sock" "$logf" "$out/waker-$b.log" &
	waker=$!
	LSX_MACHINE=real LSX_DISKS="$out/disks" LSX_MEM=${LSX_MEM:-2G} \
		"$TOP/scripts/run-vm.sh" "$kernel" "$initrd" "$logf" "$tmo" $args $resume
	status=$?
	wait "$waker"
	results+=("$logf:$status")
	# A hibernation ends the boot with a reboot (status 125); anything
	# else is the end of the plan.
	if [ "$status" = 125 ] && grep -q '^LSX-REAL-HIBERNATE' "$logf" &&
	   grep -q 'reboot: Restarting system' "$logf"; then
		resume=lsx.real=resume
		continue
	fi
	break
done
log "real-sleep: $b boots in $(( $(date +%s) - t0 )) s"
"$PY" "$TOP/scripts/realsleep.py" "${results[@]}"
