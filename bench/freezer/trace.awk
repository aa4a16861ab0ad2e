# SPDX-License-Identifier: GPL-2.0
# The freezer metrics of one freeze from the function_graph trace, read by
# the guest (busybox awk) and by the harness's tests (tests/data/ftrace).
#
#   awk -v c=CASE -f trace.awk TRACE
#
# The trace is taken with funcgraph-abstime and funcgraph-tail, filtered to
# freeze_processes() and freeze_kernel_threads(), with the
# power:suspend_resume event on.  A function whose entry and return are
# adjacent in one CPU's buffer is printed as a leaf, 'name();', with its
# duration; otherwise (it slept and something else was recorded on that
# CPU, or it returned on another CPU) as 'name() {' where it was entered
# and '} /* name */' where it returned, the duration on that closing line.
# Both forms carry the duration on the line that ends the call; it may
# have a marker (+ ! # * @ $) in front.  Other lines (events printed as
# comments, the banners the tracer inserts when the trace moves between
# CPUs or tasks) are ignored, except the power:suspend_resume event pair
# around both phases, whose timestamps give the total.
#
# Prints the LSX-BENCH lines, or one LSX-ERROR line and exits 1.

function duration(   i) {
	for (i = 1; i < NF; i++)
		if ($(i + 1) == "us" && $i ~ /^[0-9]+(\.[0-9]+)?$/)
			return $i
	return ""
}

# The name of the function a line ends, or "".
function ended(   s) {
	if (match($0, /[a-z_]+\(\);/))
		return substr($0, RSTART, RLENGTH - 3)
	if (match($0, /\} \/\* [a-z_]+ \*\//))
		return substr($0, RSTART + 5, RLENGTH - 8)
	return ""
}

{
	f = ended()
	if (f == "freeze_processes" || f == "freeze_kernel_threads") {
		d = duration()
		if (d == "")
			bad = bad " " f
		else if (f == "freeze_processes")
			user = d
		else
			kern = d
	}
}
/suspend_resume: freeze_processes\[0\] begin/ { b = $1 }
/suspend_resume: freeze_processes\[0\] end/ { e = $1 }

END {
	if (bad != "") {
		print "LSX-ERROR freezer: " c ": no duration on the line that ends" bad
		exit 1
	}
	miss = ""
	if (user == "")
		miss = miss " freeze_processes()"
	if (kern == "")
		miss = miss " freeze_kernel_threads()"
	if (b == "" || e == "")
		miss = miss " suspend_resume:freeze_processes"
	if (miss != "") {
		print "LSX-ERROR freezer: " c ": trace lacks" miss
		exit 1
	}
	printf "LSX-BENCH %s freeze_user_us us %.1f\n", c, user
	printf "LSX-BENCH %s freeze_kernel_us us %.1f\n", c, kern
	printf "LSX-BENCH %s freeze_total_us us %.1f\n", c, (e - b) * 1e6
}
