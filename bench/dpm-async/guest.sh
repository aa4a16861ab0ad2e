#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Async device suspend and resume on synthetic device trees.  Runs in the
# guest.
#
# The test_dpm_tree driver (/sys/kernel/debug/dpm_tree) builds each tree;
# its devices' callbacks only sleep.  Every tree is measured with
# /sys/power/pm_async 1 (case TREE-async) and 0 (TREE-sync), s2idle with
# pm_test=platform (all six suspend and resume phases, no sleep), $1
# measured transitions per case; the async case first does one warm-up
# transition (the baseline creates a kernel worker per parked device).
# Metrics, from ftrace with microsecond resolution (see dpmtrace.c):
#   suspend_us          "dpm_suspend" begin to "dpm_suspend_noirq" end
#   resume_us           "dpm_resume_noirq" begin to "dpm_resume" end
#   critical_suspend_us the driver's lower bound (dpm_tree/critical), ASYNC
#   critical_resume_us  column for TREE-async, SYNC (the sum) for TREE-sync,
#                       from the nominal callback durations
#   critical_measured_suspend_us, critical_measured_resume_us
#                       the same critical path with the durations the
#                       callbacks took in this transition (driver's log):
#                       the bound for this transition, whatever a sleep
#                       costs under emulation
#   sleeping_workers_peak  TREE-async only: peak number of async workers
#                       asleep outside a device callback
#   cpu_busy_suspend_us, cpu_busy_resume_us  TREE-async only: CPU time of
#                       all tasks but the idle tasks in those windows,
#                       summed over the CPUs (sched_switch)
#   cpu_share_suspend_us, cpu_share_resume_us  the same per online CPU: the
#                       least time that much work can take
# Case empty-async (and -sync) is the machine without a tree: what every
# transition costs besides the tree (about 1 ms per direction).
# The driver's log of the first measured transition of slow-async-last-async,
# wide-async, fanout-async, fanout-syncparent-async and links-async
# (LSX_DPM_TIMELINE)
# goes to the console between LSX-TIMELINE-BEGIN and LSX-TIMELINE-END, for
# the host's timeline charts.
#
# Trees (callbacks 0.1-10 ms; sync sum = one pm_async=0 transition):
#   deep             4 chains of 60, 1-2 ms: 240 devices, sync sum ~2.2 s
#   wide             a root with 300 children, 0.1-1 ms, the root and 4
#                    children 10 ms: 301 devices, ~1.3 s
#   slow-async-last  4 sync devices of 10 ms, a sync device of 10 ms with
#                    300 async children of 0.1-0.2 ms, then 2 async chains
#                    of 10 devices of 5 ms at the end of dpm_list: 325
#                    devices, ~1.2 s.  On resume the baseline starts a
#                    worker for each of the 300 children up front; they
#                    sleep until their parent resumed and fill the async
#                    workqueue's 256 active slots, so the chains wait
#                    behind them although nothing holds them up
#   links            6 chains of 40, 0.5-1.5 ms, 180 links between
#                    cousins: 240 devices, ~1.4 s
#   fanout           a root of 10 ms with 1000 async children of 0.1-1 ms:
#                    1001 devices, ~3.4 s
#   fanout-syncparent  the same with a sync root
#   empty            no tree: the machine's own devices only
reps=${1:-1}
T=/sys/kernel/tracing
D=/sys/kernel/debug/dpm_tree
TREES=${LSX_DPM_TREES:-empty deep wide slow-async-last links fanout fanout-syncparent}
TIMELINE=${LSX_DPM_TIMELINE:-slow-async-last-async wide-async fanout-async fanout-syncparent-async links-async}

fail() { echo "LSX-ERROR dpm-async: $*"; exit 1; }

# pdur= tokens: device $1 takes $2 us in every suspend and resume phase
slow() {
	for p in suspend suspend_late suspend_noirq resume_noirq resume_early resume; do
		printf ' pdur=%s:%s:%s' "$1" "$p" "$2"
	done
}

desc() {
	case $1 in
	empty)
		echo none
		;;
	deep)
		echo "seed=1 levels=4,1*59 dur=1000-2000"
		;;
	wide)
		echo "seed=2 levels=1,300 dur=100-1000$(slow 0 10000)$(slow 50 10000)$(slow 100 10000)$(slow 150 10000)$(slow 300 10000)"
		;;
	slow-async-last)
		# 0-3 sync; 4 sync, 5-304 its async children; 305-324 two chains
		echo "seed=3 levels=4 async=0 dur=10000 levels=1,300 async=100 dur=100-200 mode=4:s$(slow 4 10000) levels=2,1*9 async=100 dur=5000"
		;;
	links)
		echo "seed=4 levels=6,1*39 dur=500-1500 links=180"
		;;
	fanout)
		echo "seed=5 levels=1,1000 dur=100-1000$(slow 0 10000)"
		;;
	fanout-syncparent)
		echo "seed=5 levels=1,1000 dur=100-1000 mode=0:s$(slow 0 10000)"
		;;
	*)
		return 1
		;;
	esac
}

grep -q tsc /sys/devices/system/clocksource/clocksource0/current_clocksource ||
	fail "clocksource is $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), not tsc: no microsecond timestamps"
[ -w /sys/power/pm_test ] || fail "no /sys/power/pm_test (CONFIG_PM_DEBUG)"
grep -qw freeze /sys/power/state || fail "s2idle not offered in /sys/power/state"
[ -w $D/tree ] || fail "no $D (CONFIG_TEST_DPM_TREE)"
[ -x ./dpmtrace ] || fail "dpmtrace not built"
echo 0 >/sys/module/suspend/parameters/pm_test_delay || fail "no pm_test_delay"
echo platform >/sys/power/pm_test
echo 1 >/proc/sys/kernel/printk

echo 0 >$T/tracing_on
echo nop >$T/current_tracer
# One clock for all CPUs: the worker count follows tasks across CPUs
echo mono >$T/trace_clock 2>/dev/null
# KiB per CPU; an async transition logs about 50 events per device
echo 16384 >$T/buffer_size_kb || fail "cannot size the trace buffer"
for e in power/suspend_resume power/device_pm_callback_start power/device_pm_callback_end \
	workqueue/workqueue_execute_start workqueue/workqueue_execute_end sched/sched_switch; do
	[ -e $T/events/$e/enable ] || fail "no $e trace event"
done

# Only suspend_resume for pm_async=0: no workers to follow, a short trace
events() {
	v=0
	[ "$1" = async ] && v=1
	echo 1 >$T/events/power/suspend_resume/enable
	for e in power/device_pm_callback_start power/device_pm_callback_end \
		workqueue/workqueue_execute_start workqueue/workqueue_execute_end \
		sched/sched_switch; do
		echo $v >$T/events/$e/enable
	done
}

suspend_once() {
	echo >$T/trace
	echo 1 >$T/tracing_on
	echo freeze >/sys/power/state || fail "$1: the transition failed"
	echo 0 >$T/tracing_on
}

# The driver's lower bound: column $2 (2 ASYNC, 3 SYNC) of the summary
# lines of dpm_tree/critical, in us.  They come after the per-phase lines,
# two of which are also called suspend and resume: the last line wins.
critical() {
	awk -v c="$1" -v col="$2" '
	$1 == "suspend" { s = $col }
	$1 == "resume" { r = $col }
	END {
		if (s == "" || r == "") {
			print "LSX-ERROR dpm-async: " c ": no summary lines in dpm_tree/critical"
			exit 1
		}
		printf "LSX-BENCH %s critical_suspend_us us %.1f\n", c, s / 1000
		printf "LSX-BENCH %s critical_resume_us us %.1f\n", c, r / 1000
	}' $D/critical
}

for t in $TREES; do
	d=$(desc "$t") || fail "no tree '$t'"
	echo "$d" >$D/tree || fail "$t: the driver refused the tree: $d"
	n=$(wc -l <$D/devices)
	for mode in async sync; do
		c=$t-$mode
		if [ $mode = async ]; then
			echo 1 >/sys/power/pm_async
			col=2
			suspend_once "$c"
		else
			echo 0 >/sys/power/pm_async
			col=3
		fi
		events $mode
		opt=plain
		[ $mode = async ] && opt=workers
		i=0
		while [ $i -lt "$reps" ]; do
			suspend_once "$c"
			if [ "$t" = empty ]; then
				./dpmtrace "$c" $T/trace plain || exit 1
				i=$((i + 1))
				continue
			fi
			./dpmtrace "$c" $T/trace $opt || exit 1
			critical "$c" $col || exit 1
			./dpmtrace "$c" critical $D/devices $D/log $mode || exit 1
			if [ $i = 0 ] && echo " $TIMELINE " | grep -q " $c "; then
				echo "LSX-TIMELINE-BEGIN"
				echo "case $c $n devices"
				sed 's/^/dev /' $D/devices
				sed 's/^/cb /' $D/log
				echo "LSX-TIMELINE-END"
			fi
			i=$((i + 1))
		done
	done
done
echo none >$D/tree
echo 1 >/sys/power/pm_async
exit 0
