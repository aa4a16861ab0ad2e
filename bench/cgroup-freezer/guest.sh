#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cgroup v2 freezer latency on a wide tree and a deep chain.  Runs in the
# guest.
#
# For each case cgfreeze builds the tree A -> {B, C}, B -> {D, E, F},
# C -> {G}, with N empty leaves under each of D..G, under
# /sys/fs/cgroup/lsx-cgfreeze, does one warm-up round and $1 measured
# rounds, and removes the tree again (see cgfreeze.c for the details).
# Metric freeze_thaw_us: the freeze plus the thaw, in microseconds, as
# CLOCK_MONOTONIC latency of the write()s to cgroup.freeze:
#   all-nN        freeze A, B, C, D, E, F, G, then thaw them in the same
#                 order: sum of the 14 writes
#   top-nN        D..G frozen beforehand (not timed); freeze A, thaw A:
#                 sum of the 2 writes; each sample is the median of 51
#                 such pairs, a pair being too short to time alone
#   top-tasks-nN  a sleeping process in every leaf and D..G NOT frozen
#                 beforehand (a real freeze, every task must stop; to show
#                 no regression): write 1 to A until A's cgroup.events
#                 reads "frozen 1", plus write 0 until "frozen 0"; also
#                 reports the number of tasks in the leaves (tasks count);
#                 three times the rounds of the other cases
#   depth-dN      no tree but a chain of N cgroups with 10 sleeping
#                 processes in the bottom one: freeze the top until it
#                 reads "frozen 1", thaw it until "frozen 0"; every cgroup
#                 of the chain changes state both ways; each sample is the
#                 median of 11 such pairs; also reports the tasks count
reps=${1:-1}
CASES=${LSX_CGFREEZER_CASES:-all-n10 all-n100 all-n1000 top-n10 top-n100 top-n1000 top-tasks-n1000 depth-d100}

fail() { echo "LSX-ERROR cgroup-freezer: $*"; exit 1; }

# Microsecond latencies need the TSC; a guest that fell back to jiffies
# (TSC calibration failed on a loaded host) would report 4 ms steps.
grep -q tsc /sys/devices/system/clocksource/clocksource0/current_clocksource ||
	fail "clocksource is $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), not tsc: no microsecond timestamps"
[ -f /sys/fs/cgroup/cgroup.subtree_control ] || fail "no cgroup2 at /sys/fs/cgroup"
[ -x ./cgfreeze ] || fail "cgfreeze not built"
echo 1 >/proc/sys/kernel/printk

for c in $CASES; do
	# A real freeze of 4000 tasks spreads widely: three times the rounds.
	r=$reps
	case $c in top-tasks-*) r=$((reps * 3)) ;; esac
	./cgfreeze "$c" "$r" || fail "$c: cgfreeze failed with status $?"
done
exit 0
