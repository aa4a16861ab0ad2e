#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Freezer latency with many tasks that never freeze.  Runs in the guest.
#
# Cases KIND-N (guest/src/spawn.c): zombies-N, N unreaped zombies;
# sleepers-N, N processes asleep in pause(), which must freeze;
# forkstorm-N, N processes forking and reaping short-lived children as
# fast as they can, all through the freeze (every fork moves total_forks).
#
# Each case sets up its tasks, then does one warm-up freeze and $1
# measured freezes of s2idle with pm_test=freezer (the system freezes
# tasks, then thaws at once).  Times come from ftrace with microsecond
# resolution:
#   freeze_user_us    function_graph duration of freeze_processes()
#   freeze_kernel_us  function_graph duration of freeze_kernel_threads()
#                     (trace.awk reads every form the tracer prints)
#   freeze_total_us   power:suspend_resume "freeze_processes" begin..end
#                     (both phases, as suspend_prepare() sees them)
#   suspend_resume_us s2idle suspend and resume with pm_test=devices (tasks
#                     and devices suspended, then all resumed): first to
#                     last power:suspend_resume event; for the cases in
#                     LSX_FREEZER_E2E (default zombies-30000)
reps=${1:-1}
T=/sys/kernel/tracing
CASES=${LSX_FREEZER_CASES:-zombies-0 zombies-1000 sleepers-1000 zombies-30000 forkstorm-4}
E2E=${LSX_FREEZER_E2E:-zombies-30000}

fail() { echo "LSX-ERROR freezer: $*"; exit 1; }

# Microsecond timestamps need the TSC; a guest that fell back to jiffies
# (TSC calibration failed on a loaded host) would report 4 ms steps.
grep -q tsc /sys/devices/system/clocksource/clocksource0/current_clocksource ||
	fail "clocksource is $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), not tsc: no microsecond timestamps"
[ -w /sys/power/pm_test ] || fail "no /sys/power/pm_test (CONFIG_PM_DEBUG)"
grep -qw freeze /sys/power/state || fail "s2idle not offered in /sys/power/state"
echo 65536 >/proc/sys/kernel/pid_max
echo 200000 >/proc/sys/kernel/threads-max
echo 0 >/sys/module/suspend/parameters/pm_test_delay || fail "no pm_test_delay"
echo freezer >/sys/power/pm_test
echo 1 >/proc/sys/kernel/printk

echo 0 >$T/tracing_on
echo nop >$T/current_tracer
echo 'freeze_processes freeze_kernel_threads' >$T/set_ftrace_filter ||
	fail "cannot filter freeze_processes/freeze_kernel_threads"
echo function_graph >$T/current_tracer || fail "no function_graph tracer"
echo 1 >$T/options/funcgraph-abstime
echo 1 >$T/options/funcgraph-tail || fail "no funcgraph-tail option"
echo 1 >$T/events/power/suspend_resume/enable || fail "no power:suspend_resume event"

freeze_once() {
	echo >$T/trace
	echo 1 >$T/tracing_on
	echo freeze >/sys/power/state || fail "freeze failed"
	echo 0 >$T/tracing_on
}

# Print the three metrics of the last freeze for case $1 (trace.awk), and
# the trace itself between markers: evidence when it cannot be parsed, and
# the recorded samples of the harness's parser tests.
report() {
	echo "LSX-TRACE-BEGIN freezer $1"
	cat $T/trace
	echo "LSX-TRACE-END"
	awk -v c="$1" -f ./trace.awk $T/trace
}

for c in $CASES; do
	kind=${c%-*}
	n=${c##*-}
	holder=
	if [ "$n" -gt 0 ]; then
		holder=$(spawn "$kind" "$n") ||
			fail "$c: cannot spawn $n $kind"
	fi
	freeze_once
	i=0
	while [ $i -lt "$reps" ]; do
		freeze_once
		report "$c" || exit 1
		i=$((i + 1))
	done
	case " $E2E " in
	*" $c "*)
		echo devices >/sys/power/pm_test
		freeze_once
		i=0
		while [ $i -lt "$reps" ]; do
			freeze_once
			awk -v c="$c" '
			/suspend_resume:/ { if (b == "") b = $1; e = $1 }
			END {
				if (b == "" || e == b) {
					print "LSX-ERROR freezer: " c ": no suspend_resume events"
					exit 1
				}
				printf "LSX-BENCH %s suspend_resume_us us %.1f\n", c, (e - b) * 1e6
			}' $T/trace || exit 1
			i=$((i + 1))
		done
		echo freezer >/sys/power/pm_test
		;;
	esac
	if [ -n "$holder" ]; then
		kill "$holder"
		while kill -0 "$holder" 2>/dev/null; do sleep 0.1; done
	fi
done
exit 0
