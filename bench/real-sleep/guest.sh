#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Real system sleep (S3, woken by the CMOS RTC) on the q35 machine of
# make real-sleep (scripts/run-vm.sh, LSX_MACHINE=real; the drivers of
# config/devices.config).  Runs in the guest.
#
# Setup: every device that may be async is (power/async), both network
# links up.  Then, for /sys/power/pm_async 1 (case s3-async1) and 0
# (s3-async0): one warm-up S3 and $1 measured ones.  Metrics from ftrace
# (power:suspend_resume, power:device_pm_callback_*) with microsecond
# resolution, see trace.awk:
#   prepare_us .. complete_us  each device PM phase's begin..end
#                              (suspend, suspend_late, suspend_noirq,
#                              resume_noirq, resume_early, resume, and
#                              prepare and complete)
#   freeze_us, thaw_us         freeze_processes, thaw_processes
#   cb_suspend_us, cb_resume_us  case s3-asyncA-DRIVER: the time of every
#                              callback of that driver's devices in the
#                              three suspend (resume) phases, summed
#   start_delay_*_us           see trace.awk: the PM core's latency between
#                              a device's dependencies and its callback
# Case zombies-30000 (pm_async=1, 30000 unreaped zombies, guest/src/spawn.c):
#   freeze_pmtest_us           freeze_processes of s2idle with
#                              pm_test=freezer (the freezer benchmark's
#                              measurement), one warm-up and $1 measured
#   freeze_s3_us               freeze_processes of a real S3, $1 of them
# The first measured S3 of each pm_async value also prints its callbacks
# between LSX-TIMELINE-BEGIN and LSX-TIMELINE-END (the host's charts).
reps=${1:-1}
T=/sys/kernel/tracing
RTC=/sys/class/rtc/rtc0
# drivers whose callback time is reported: the machine's real devices and
# the PCIe ports above them (USB devices, the network card and the virtio
# transport take most of an S3's callback time; driver strings as the
# trace prints them, one word each)
DRIVERS=${LSX_REAL_SLEEP_DRIVERS:-usb e1000e virtio-pci sd pcieport xhci_hcd lpc_ich i801_smbus rtc_cmos ahci}
ZOMBIES=${LSX_REAL_SLEEP_ZOMBIES:-30000}

fail() { echo "LSX-ERROR real-sleep: $*"; exit 1; }

grep -q tsc /sys/devices/system/clocksource/clocksource0/current_clocksource ||
	fail "clocksource is $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), not tsc: no microsecond timestamps"
grep -q deep /sys/power/mem_sleep || fail "no S3 on this machine (mem_sleep: $(cat /sys/power/mem_sleep))"
echo deep >/sys/power/mem_sleep
[ -e $RTC/wakealarm ] || fail "no RTC wake alarm ($RTC/wakealarm)"
# the machine's devices, given 30 s to be found and bound (USB
# enumerates after user space starts)
for d in virtio_blk virtio_net e1000e ahci xhci_hcd usb-storage usbhid rtc_cmos; do
	for _ in $(seq 60); do
		set -- /sys/bus/*/drivers/$d/*[0-9]
		[ -e "$1" ] && break
		sleep 0.5
	done
	[ -e "$1" ] || fail "no device bound to $d: not the q35 machine of LSX_MACHINE=real?"
done
echo 1 >/proc/sys/kernel/printk
echo 65536 >/proc/sys/kernel/pid_max
echo 200000 >/proc/sys/kernel/threads-max

# every device that may be async is; the map is for the timeline
for f in $(find /sys/devices -path '*/power/async'); do
	[ "$(cat "$f")" = enabled ] || echo enabled >"$f" 2>/dev/null
done
for f in $(find /sys/devices -path '*/power/async'); do
	d=${f%/power/async}
	echo "${d##*/} $(cat "$f")"
done >/tmp/async.map
# both links up, so that the network drivers suspend and resume a link
for i in $(ls /sys/class/net | grep -v '^lo$'); do
	printf '0x%x\n' $(($(cat "/sys/class/net/$i/flags") | 1)) >"/sys/class/net/$i/flags"
done
sleep 3

echo 0 >$T/tracing_on
echo 16384 >$T/buffer_size_kb
for e in power/suspend_resume power/device_pm_callback_start power/device_pm_callback_end; do
	echo 1 >$T/events/$e/enable || fail "no trace event $e"
done

rtc_wakeups() {
	cat $RTC/device/wakeup/wakeup*/event_count 2>/dev/null || echo 0
}

# sleep STATE: one transition with the trace on; an S3 must end by the
# RTC alarm (its wakeup source counts an event)
sleep_once() {
	local w0

	echo >$T/trace
	w0=$(rtc_wakeups)
	if [ "$1" = mem ]; then
		echo 0 >$RTC/wakealarm
		echo +3 >$RTC/wakealarm
	fi
	echo 1 >$T/tracing_on
	echo "$1" >/sys/power/state || fail "$1 failed (pm_test $(cat /sys/power/pm_test))"
	echo 0 >$T/tracing_on
	if [ "$1" = mem ] && [ "$(rtc_wakeups)" = "$w0" ]; then
		fail "S3 did not end by the RTC alarm"
	fi
}

for a in 1 0; do
	echo $a >/sys/power/pm_async
	sleep_once mem
	i=0
	while [ $i -lt "$reps" ]; do
		sleep_once mem
		awk -v c="s3-async$a" -v drivers="$DRIVERS" \
		    -v asyncmap="$([ $a = 1 ] && echo /tmp/async.map)" \
		    -v timeline=$([ $i = 0 ] && echo 1 || echo 0) -f ./trace.awk $T/trace || exit 1
		i=$((i + 1))
	done
done

echo 1 >/sys/power/pm_async
holder=$(spawn zombies "$ZOMBIES") || fail "cannot spawn $ZOMBIES zombies"
echo 0 >/sys/module/suspend/parameters/pm_test_delay || fail "no pm_test_delay"
# freezes STATE METRIC: $reps transitions, the freeze of each as METRIC
freezes() {
	local i=0

	while [ $i -lt "$reps" ]; do
		sleep_once "$1"
		awk -v c="zombies-$ZOMBIES" -v only="$2" -f ./trace.awk $T/trace || exit 1
		i=$((i + 1))
	done
}

echo freezer >/sys/power/pm_test
sleep_once freeze
freezes freeze freeze_pmtest_us
echo none >/sys/power/pm_test
freezes mem freeze_s3_us
kill "$holder"
exit 0
