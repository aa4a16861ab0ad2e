# SPDX-License-Identifier: GPL-2.0
# One system sleep transition's ftrace (power:suspend_resume,
# power:device_pm_callback_start/end) to LSX-BENCH lines for case c:
#   PHASE_us         every "dpm_PHASE" begin..end of the transition (prepare,
#                    suspend, suspend_late, suspend_noirq, resume_noirq,
#                    resume_early, resume, complete), and freeze_us /
#                    thaw_us for "freeze_processes" / "thaw_processes"
#   start_delay_suspend_us, start_delay_resume_us  the time between the
#                    end of the callbacks a device depends on in a phase
#                    (its parent's in a resume phase, its children's in
#                    a suspend phase) and the start of its own, summed
#                    over the devices; start_delay_max_*: the longest
#   cb_suspend_us    per driver named in drivers (a space-separated list):
#   cb_resume_us     the callback time of all its devices in the three
#                    suspend (resume) phases, as case c-DRIVER; 0 when it
#                    has none
# With only=METRIC, just METRIC: the freeze_processes time.
# With timeline=1 the callbacks also go out between LSX-TIMELINE-BEGIN and
# LSX-TIMELINE-END in the form scripts/timeline.py reads: one 'dev IDX
# PARENT ASYNC' line per device in the order its first resume callback
# started, one 'cb IDX PHASE START_NS END_NS' line per callback; the
# async flags come from the file named by asyncmap ('NAME enabled|disabled'
# lines; a name that is not unique takes the last; none: all sync).
# A callback belongs to the phase whose begin..end holds its start; its
# end is matched to the open start of the same driver string and device
# name in the same task (names repeat across buses).

function ts_of(   i) {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/)
			return substr($i, 1, length($i) - 1) * 1000000
	return -1
}

# "DRIVER DEVICE" of a callback event into drv and dev: the device name
# has no space, the driver string may have one ("i6300ESB timer") or be
# empty (a device with no driver, bus or class)
function split_name(head) {
	if (!match(head, / [^ ]*$/)) {
		drv = ""
		dev = head
		return
	}
	drv = substr(head, 1, RSTART - 1)
	dev = substr(head, RSTART + 1)
}

# callback(EVENT, SEP): for a callback event "EVENT DRIVER DEVICESEP...",
# set drv, dev and key (driver, device, task) and return what follows SEP,
# or "" if the line has no SEP
function callback(event, sep,   text, p) {
	text = substr($0, index($0, event) + length(event))
	p = index(text, sep)
	if (!p)
		return ""
	split_name(substr(text, 1, p - 1))
	key = drv SUBSEP dev SUBSEP pid_of()
	return substr(text, p + length(sep))
}

# the PID of the task that logged the event: the start and the end of one
# callback come from the same task (the comm before it may hold spaces)
function pid_of(   i, f) {
	for (i = 2; i <= NF; i++)
		if ($i ~ /^\[[0-9]+\]$/) {
			f = $(i - 1)
			sub(/.*-/, "", f)
			return f
		}
	return ""
}

# the field after "NAME:" (the event name)
function after(name,   i) {
	for (i = 1; i <= NF; i++)
		if ($i == name ":")
			return i + 1
	return 0
}

BEGIN {
	split("prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete", P, " ")
	for (i in P)
		isphase["dpm_" P[i]] = 1
	n = split(drivers, D, " ")
	for (i = 1; i <= n; i++)
		want[D[i]] = 1
	if (asyncmap != "")
		while ((getline l < asyncmap) > 0) {
			split(l, f, " ")
			async[f[1]] = (f[2] == "enabled")
		}
	cur = ""
	ndev = 0
	ncb = 0
}

/ suspend_resume: / {
	t = ts_of()
	k = after("suspend_resume")
	if (!k || t < 0)
		next
	act = $k
	sub(/\[.*$/, "", act)
	if ($(k + 1) == "begin") {
		open[act] = t
		if (act in isphase)
			cur = act
	} else if (act in open) {
		dur[act] += t - open[act]
		seen[act] = 1
		delete open[act]
		if (act == cur)
			cur = ""
	}
	next
}

/ device_pm_callback_start: / {
	t = ts_of()
	if (t < 0 || cur == "")
		next
	par = callback("device_pm_callback_start: ", ", parent: ")
	if (par == "")
		next
	par = substr(par, 1, index(par, ", ") ? index(par, ", ") - 1 : length(par))
	start[key] = t
	phase[key] = cur
	parent[dev] = par
	next
}

/ device_pm_callback_end: / {
	t = ts_of()
	if (t < 0)
		next
	if (callback("device_pm_callback_end: ", ", err=") == "")
		next
	if (!(key in start))
		next
	ph = substr(phase[key], 5)
	d = t - start[key]
	if (ph ~ /^suspend/)
		cbs[drv] += d
	else if (ph ~ /^resume/)
		cbr[drv] += d
	if (ph ~ /^(suspend|resume)/) {
		if (!(dev in idx) && ph ~ /^resume/) {
			idx[dev] = ++ndev
			order[ndev] = dev
		}
		ncb++
		cdev[ncb] = dev
		cph[ncb] = ph
		cs[ncb] = start[key]
		ce[ncb] = t
	}
	delete start[key]
	next
}

END {
	if (only != "") {
		if (!("freeze_processes" in seen)) {
			print "LSX-ERROR real-sleep: " c ": no freeze_processes in the trace"
			exit 1
		}
		printf "LSX-BENCH %s %s us %.0f\n", c, only, dur["freeze_processes"]
		exit 0
	}
	for (i = 1; i <= 8; i++) {
		a = "dpm_" P[i]
		if (!(a in seen)) {
			print "LSX-ERROR real-sleep: " c ": no " a " in the trace"
			exit 1
		}
		printf "LSX-BENCH %s %s_us us %.0f\n", c, P[i], dur[a]
	}
	if ("freeze_processes" in seen)
		printf "LSX-BENCH %s freeze_us us %.0f\n", c, dur["freeze_processes"]
	if ("thaw_processes" in seen)
		printf "LSX-BENCH %s thaw_us us %.0f\n", c, dur["thaw_processes"]
	for (i = 1; i <= n; i++) {
		printf "LSX-BENCH %s-%s cb_suspend_us us %.0f\n", c, D[i], cbs[D[i]]
		printf "LSX-BENCH %s-%s cb_resume_us us %.0f\n", c, D[i], cbr[D[i]]
	}
	# How long a device's callback started after the callbacks it
	# depends on in the same phase had ended: in a resume phase its
	# parent's, in a suspend phase its children's (the PM core's own
	# latency, with the drivers' time left out; device links are none on
	# this machine)
	for (i = 1; i <= ncb; i++) {
		endof[cph[i] SUBSEP cdev[i]] = ce[i]
		k = cph[i] SUBSEP parent[cdev[i]]
		if (!(k in kidsend) || ce[i] > kidsend[k])
			kidsend[k] = ce[i]
	}
	for (i = 1; i <= ncb; i++) {
		k = cph[i] SUBSEP (cph[i] ~ /^resume/ ? parent[cdev[i]] : cdev[i])
		if (cph[i] ~ /^resume/) {
			if (!(k in endof))
				continue
			w = cs[i] - endof[k]
		} else {
			if (!(k in kidsend))
				continue
			w = cs[i] - kidsend[k]
		}
		if (w < 0)
			continue
		dir = cph[i] ~ /^resume/ ? "resume" : "suspend"
		wsum[dir] += w
		if (w > wmax[dir])
			wmax[dir] = w
	}
	printf "LSX-BENCH %s start_delay_suspend_us us %.0f\n", c, wsum["suspend"]
	printf "LSX-BENCH %s start_delay_resume_us us %.0f\n", c, wsum["resume"]
	printf "LSX-BENCH %s start_delay_max_suspend_us us %.0f\n", c, wmax["suspend"]
	printf "LSX-BENCH %s start_delay_max_resume_us us %.0f\n", c, wmax["resume"]
	if (timeline != 1)
		exit 0
	print "LSX-TIMELINE-BEGIN"
	print "case " c
	print "rows the order of their first resume callback"
	# devices with suspend callbacks only come last
	for (i = 1; i <= ncb; i++)
		if (!(cdev[i] in idx)) {
			idx[cdev[i]] = ++ndev
			order[ndev] = cdev[i]
		}
	for (i = 1; i <= ndev; i++) {
		p = parent[order[i]]
		printf "dev %d %d %d 0 0 -\n", i, (p in idx) ? idx[p] : -1, \
			(order[i] in async) ? async[order[i]] : 0
	}
	for (i = 1; i <= ncb; i++)
		printf "cb %d %s %.0f %.0f 0 0 0\n", idx[cdev[i]], cph[i], cs[i] * 1000, ce[i] * 1000
	print "LSX-TIMELINE-END"
}
