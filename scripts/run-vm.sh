#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel with an initramfs under QEMU (TCG) and carry the guest's
# exit status to the host.
#   run-vm.sh KERNEL INITRAMFS LOG TIMEOUT_S [kernel args...]
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

# LSX_QEMU_ARGS: more QEMU options, split on spaces, e.g.
# "-icount shift=0,sleep=off" for instruction-counted guest time.
mkdir -p "$(dirname "$logf")"
# shellcheck disable=SC2086
timeout -k 10 "$tmo" qemu-system-x86_64 \
	-machine pc -cpu max -smp "${LSX_SMP:-2}" -m "${LSX_MEM:-2G}" \
	-accel tcg ${LSX_QEMU_ARGS:-} -nographic -no-reboot -nodefaults \
	-serial stdio -monitor none -nic none \
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
