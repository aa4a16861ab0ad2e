#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stand-in for scripts/run-vm.sh in the harness's tests (LSX_RUN_VM).
#   fake-vm.sh KERNEL INITRAMFS LOG TIMEOUT ARGS...
# Each call takes the next line of $FAKE_VM_PLAN: ok, error, hang, splat,
# dead, empty, onekernel, busy or timelines; it writes a console log like a bench
# guest's to LOG and exits with the status run-vm.sh would.  busy is an
# ok boot during which the host (the file $LSX_PROC_STAT stands for
# /proc/stat) spent 1000 s of CPU time on something else; timelines is an ok
# boot that prints the callback timelines of two cases.
kernel=$1 log=$3
n=$(cat "$FAKE_VM_PLAN.n" 2>/dev/null || echo 0)
echo $((n + 1)) >"$FAKE_VM_PLAN.n"
what=$(sed -n "$((n + 1))p" "$FAKE_VM_PLAN")
echo "$kernel $what machine=${LSX_MACHINE:-pc} disks=${LSX_DISKS:-} args=${*:5}" >>"$FAKE_VM_PLAN.calls"
v=10; case $kernel in *patched*) v=5 ;; *step*) v=8 ;; esac
{
	echo "LSX-USERSPACE-START mode=bench"
	case $what in
	ok|splat|busy|timelines)
		echo "LSX-BENCH c1 m_us us $((v + n % 2))"
		echo "LSX-BENCH c2 m_us us $((v * 2))"
		[ "$what" = timelines ] && for c in wide-async fanout-async; do
			printf '%s\n' LSX-TIMELINE-BEGIN "case $c 2 devices" "dev 0 -1 1 0 0 -" \
				"dev 1 0 1 0 0 -" "cb 1 suspend 1000 $((v * 1000)) 1 0 0" \
				"cb 0 suspend $((v * 1000)) $((v * 3000)) 2 0 0" LSX-TIMELINE-END
		done ;;
	onekernel)
		echo "LSX-BENCH c1 m_us us $v"
		[ "$v" = 10 ] && echo "LSX-BENCH c3 only_us us 1" ;;
	error)
		echo "LSX-ERROR freezer: c1: trace lacks freeze_processes()" ;;
	esac
	echo "LSX-DMESG-BEGIN"
	echo "[    0.000000] Linux version 6.12.117 ($kernel) #1 SMP"
	[ "$what" = splat ] && echo "[    9.000000] BUG: KASAN: slab-use-after-free in f+0x1/0x2"
	echo "LSX-DMESG-END"
	echo "LSX-EXIT 0"
} >"$log"
case $what in
busy)
	awk -v t="$(getconf CLK_TCK)" 'NR == 1 { $2 += 1000 * t } { print }' \
		"$LSX_PROC_STAT" >"$LSX_PROC_STAT.x" && mv "$LSX_PROC_STAT.x" "$LSX_PROC_STAT" ;;
hang) exit 124 ;;
dead) head -1 "$log" >"$log.x"; mv "$log.x" "$log"; exit 125 ;;
empty) : >"$log"; exit 0 ;;
esac
exit 0
