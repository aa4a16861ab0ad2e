#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exit of killed processes whose memory is in swap.  Runs in the guest.
# Sets up 6 GiB of swap on zram0 (lzo-rle, the only swap), then runs
# swapexit for each case (see swapexit.c for the cases and metrics):
#   s128-1      one process, 128 MiB swapped out
#   s512-1      one process, 512 MiB swapped out
#   s512-4      four processes, 512 MiB each, killed at once; a probe
#               process doing fixed work reports its slowdown
#   s512-8      eight processes, 512 MiB each (4 GiB of swap), killed at
#               once, with the probe
#   s512-floor  one process, 512 MiB of zero-page mappings: the floor
#   m256-1      one process of 256 MiB confined by the memory.max of its
#               cgroup (64 MiB): memcg reclaim sends it to swap, charged
#               to that memcg
# $1 measured rounds per case (after one warm-up round).  The kernel's
# vm.swap_exit_ratio is left at its default: the bound it sets is what
# the benchmark reports and checks.
reps=${1:-1}
CASES=${LSX_SWAPEXIT_CASES:-s128-1 s512-1 s512-4 s512-8 s512-floor m256-1}
ZRAM=zram0
ZRAM_MIB=6144

fail() { echo "LSX-ERROR swap-exit: $*"; exit 1; }

grep -q tsc /sys/devices/system/clocksource/clocksource0/current_clocksource ||
	fail "clocksource is $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), not tsc"
[ -x ./swapexit ] || fail "swapexit not built"
[ -w /sys/block/$ZRAM/disksize ] || fail "no $ZRAM"
[ "$(cat /sys/block/$ZRAM/disksize)" = 0 ] || fail "$ZRAM is already in use"
other=$(tail -n +2 /proc/swaps)
[ -z "$other" ] || fail "another swap device is active: $other"

# The swap the largest case needs (MIB x N of its victims), a quarter
# more for slack, against the zram disk: s512-8 needs 4 GiB of 6.
need=0
for c in $CASES; do
	case $c in
	[sm][0-9]*-floor) n=0 ;;
	[sm][0-9]*-[0-9]*) mib=${c#?}; mib=${mib%-*}; n=$((mib * ${c##*-})) ;;
	*) fail "bad case '$c'" ;;
	esac
	[ "$n" -gt "$need" ] && need=$n
done
[ $((need * 5 / 4 + 64)) -le $ZRAM_MIB ] ||
	fail "the cases need $need MiB of swap and a quarter more, $ZRAM has $ZRAM_MIB MiB"

echo 1 >/proc/sys/kernel/printk
echo ${ZRAM_MIB}M >/sys/block/$ZRAM/disksize || fail "$ZRAM disksize"
mkswap /dev/$ZRAM >/dev/null || fail "mkswap"
swapon /dev/$ZRAM || fail "swapon"
total=$(sed -n 's/^SwapTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)
[ "$((total / 1024))" -ge $((need * 5 / 4 + 64)) ] ||
	fail "SwapTotal is $total kB, the cases need $need MiB and a quarter more"
ratio=$(cat /proc/sys/vm/swap_exit_ratio 2>/dev/null || echo none)
echo "swap-exit: $ZRAM $((total / 1024)) MiB, $(cat /sys/block/$ZRAM/comp_algorithm)," \
	"vm.swap_exit_ratio $ratio"

for c in $CASES; do
	./swapexit "$c" "$reps" $ZRAM || fail "$c: swapexit failed with status $?"
done
# Only the swap this script set up.
swapoff /dev/$ZRAM || fail "swapoff at the end"
exit 0
