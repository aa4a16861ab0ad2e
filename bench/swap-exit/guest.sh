#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exit latency of killed processes whose memory is in swap.  Runs in the
# guest.  Sets up 4 GiB of swap on zram0 (lzo-rle), then runs swapexit
# for each case (see swapexit.c for the cases and metrics):
#   s128-1      one process, 128 MiB swapped out
#   s512-1      one process, 512 MiB swapped out
#   s512-4      four processes, 512 MiB each, killed at once; a probe
#               process doing fixed work reports its slowdown
#   s512-floor  one process, 512 MiB of zero-page mappings: the floor
reps=${1:-1}
CASES=${LSX_SWAPEXIT_CASES:-s128-1 s512-1 s512-4 s512-floor}

fail() { echo "LSX-ERROR swap-exit: $*"; exit 1; }

grep -q tsc /sys/devices/system/clocksource/clocksource0/current_clocksource ||
	fail "clocksource is $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), not tsc"
[ -x ./swapexit ] || fail "swapexit not built"
[ -w /sys/block/zram0/disksize ] || fail "no zram0"
echo 1 >/proc/sys/kernel/printk
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
echo 4G >/sys/block/zram0/disksize || fail "zram0 disksize"
mkswap /dev/zram0 >/dev/null || fail "mkswap"
swapon /dev/zram0 || fail "swapon"

for c in $CASES; do
	./swapexit "$c" "$reps" || fail "$c: swapexit failed with status $?"
done
swapoff /dev/zram0 || fail "swapoff at the end"
exit 0
