#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel with an initramfs under QEMU (TCG) and carry the guest's
# exit status to the host.
#   run-vm.sh KERNEL INITRAMFS LOG TIMEOUT_S [kernel args...]
# LSX_MACHINE=real (make real-sleep) boots a q35 machine with real emulated
# devices instead of the bare PC: see machine_args below.
# Exit status: the guest's (lsx-exit CODE), or
#   124  the guest did not finish within TIMEOUT_S (hang)
#   125  the guest ended without a result (panic, reboot, QEMU error)
# The whole console goes to LOG; lines the user wants to see live are
# echoed when LSX_VERBOSE=1, else only TAP results and harness markers.
. "$(dirname "$0")/lib.sh"

kernel=${1:?kernel}; initrd=${2:?initramfs}; logf=${3:?log}; tmo=${4:?timeout}
shift 4
need_cmd qemu-system-x86_64 timeout
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"

# A hung task, a soft lockup or an oops panics, and a panic reboots at
# once, which -no-reboot turns into QEMU's exit: the host never waits
# for a dead guest longer than it must.
cmdline="console=ttyS0,115200 panic=-1 oops=panic softlockup_panic=1
hung_task_panic=1 sysctl.kernel.hung_task_timeout_secs=${LSX_HUNG_S:-60}
log_buf_len=16M printk.devkmsg=on rdinit=/init tsc=reliable $*"

# Under TCG the guest's TSC is the host's.  The guest calibrates it against
# the PIT, which fails when the host is busy, and then falls back to
# jiffies (4 ms steps) for sched_clock and tracing.  Hand it the host's
# TSC frequency instead (LSX_TSC_KHZ overrides).
tsc_khz=${LSX_TSC_KHZ:-$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)}
[ -n "$tsc_khz" ] && cmdline="$cmdline tsc_early_khz=$tsc_khz"

# The bare machine of every test and benchmark: a PC with no devices but
# the serial console.  LSX_MACHINE=real: the q35 machine of config/q35.qemu,
# whose devices sit behind PCIe root ports, for real system sleep
# (scripts/real-sleep.sh):
#   rp1 virtio-blk (LSX_DISKS/virtio.img: ext2 + swap partition)
#   rp2 virtio-net, rp3 e1000e (user networking, no host access)
#   rp4 qemu-xhci with usb-storage (usb.img), usb-kbd, usb-tablet
#   ICH9 AHCI (built into q35) with a SATA disk (ahci.img), ICH9 SMBus
#   and LPC (TCO watchdog), an i6300esb watchdog, virtio-rng, the CMOS RTC.
# A QMP socket (LSX_DISKS/qmp.sock) lets the host press the power button
# or wake the guest from S3.
machine_args=(-machine pc -nic none)
if [ "${LSX_MACHINE:-pc}" = real ]; then
	d=${LSX_DISKS:?LSX_MACHINE=real needs LSX_DISKS}
	for f in virtio ahci usb; do
		[ -f "$d/$f.img" ] || die "no disk image $d/$f.img (scripts/real-sleep.sh disks $d)"
	done
	rm -f "$d/qmp.sock"
	machine_args=()
	while read -r opt arg; do
		case $opt in
		''|'#'*) continue ;;
		esac
		arg=${arg//\{virtio\}/$d/virtio.img}
		arg=${arg//\{usb\}/$d/usb.img}
		arg=${arg//\{ahci\}/$d/ahci.img}
		machine_args+=("$opt" "$arg")
	done <"$TOP/config/q35.qemu"
	machine_args+=(-qmp "unix:$d/qmp.sock,server=on,wait=off")
fi

# LSX_QEMU_ARGS: more QEMU options, split on spaces, e.g.
# "-icount shift=0,sleep=off" for instruction-counted guest time.
mkdir -p "$(dirname "$logf")"
# shellcheck disable=SC2086
timeout -k 10 "$tmo" qemu-system-x86_64 \
	"${machine_args[@]}" -cpu max -smp "${LSX_SMP:-2}" -m "${LSX_MEM:-2G}" \
	-accel tcg ${LSX_QEMU_ARGS:-} -nographic -no-reboot -nodefaults \
	-serial stdio -monitor none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x01 \
	-kernel "$kernel" -initrd "$initrd" -append "$(echo $cmdline)" \
	</dev/null 2>&1 | sed -u 's/\r//g' | tee "$logf" | {
	if [ "${LSX_VERBOSE:-0}" = 1 ]; then
		cat >&2
	else
		# Results as they come; the end-of-run copies between markers are
		# for the parser only.
		awk '/^LSX-(KSFT|DMESG)-BEGIN/ { skip = 1 } /^LSX-(KSFT|DMESG)-END/ { skip = 0; next }
		     !skip && /^(# )?(ok|not ok) |^LSX-(ERROR|EXIT)/ { print; fflush() }' >&2
	fi
}
rc=${PIPESTATUS[0]}
case $rc in
124|137) exit 124 ;;
esac
# isa-debug-exit: QEMU exits with (code << 1) | 1.  QEMU's own errors
# exit with 1 too, so the guest's marker line must agree.
if [ $((rc & 1)) = 1 ] && grep -qx "LSX-EXIT $((rc >> 1))" "$logf"; then
	exit $((rc >> 1))
fi
exit 125
