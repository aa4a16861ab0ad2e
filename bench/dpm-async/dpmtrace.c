// SPDX-License-Identifier: GPL-2.0
/*
 * Metrics of one system suspend/resume transition from an ftrace text
 * trace.  Runs in the guest, started by guest.sh as
 *
 *	dpmtrace CASE TRACE_FILE [workers]
 *
 * and prints
 *
 *	LSX-BENCH CASE METRIC UNIT VALUE
 *
 *   suspend_us		power:suspend_resume "dpm_suspend" begin to
 *			"dpm_suspend_noirq" end
 *   resume_us		"dpm_resume_noirq" begin to "dpm_resume" end
 *   sleeping_workers_peak  (with "workers") the peak number of async
 *			workers asleep outside any device callback: tasks
 *			inside a workqueue work item whose function is
 *			async_run_entry_fn (the async API, which the PM core
 *			of the base uses) or dpm_async_work_fn (the PM core's
 *			own work items, patched kernel)
 *			(workqueue:workqueue_execute_start
 *			.. workqueue_execute_end), not between
 *			power:device_pm_callback_start and _end, and switched
 *			out in a sleeping state (sched:sched_switch prev_state
 *			other than R; switched in again = awake).  The same
 *			events exist on every kernel, so kernels that schedule
 *			the async work differently are measured alike.
 *   cpu_busy_suspend_us, cpu_busy_resume_us  (with "workers") the CPU time
 *			spent in the suspend_us and resume_us windows by any
 *			task but the idle tasks, summed over all CPUs, from
 *			sched:sched_switch (next_pid 0 = the CPU goes idle)
 *   cpu_share_suspend_us, cpu_share_resume_us  the same divided by the
 *			number of online CPUs: no schedule of that much work
 *			can take less time, whatever the critical path
 *
 * The trace must be complete: a header whose entries-in-buffer differ
 * from entries-written, or a "LOST EVENTS" marker, is an error.
 *
 *	dpmtrace CASE critical DEVICES LOG async|sync
 *
 * prints critical_measured_suspend_us and critical_measured_resume_us: the
 * critical path of the transition that the test_dpm_tree driver's DEVICES
 * and LOG files describe, computed like the driver's own critical file but
 * with the durations the callbacks took in that transition instead of the
 * nominal ones.  It is the lower bound on that transition given how long
 * its callbacks actually ran (under emulation a sleep of 100 us takes
 * noticeably longer), so the difference is what the schedule adds.  With
 * "sync" every device counts as sync (pm_async=0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct task {
	unsigned char in_work;		/* inside an async device work item */
	unsigned char asleep;		/* switched out, not runnable */
	unsigned short depth;		/* device callbacks entered */
};

static struct task *tasks;
static long nr_tasks;
static long parked, peak;

/* CPU idle/busy switches, for cpu_busy_*: in trace order */
#define CPU_MAX		64

struct cpu_switch {
	double ts;
	int cpu, idle;
};

static struct cpu_switch *switches;
static long nr_switches, max_switches;
/* state of each CPU before its first switch: -1 unknown, 0 busy, 1 idle */
static int cpu_first[CPU_MAX];

static void die(const char *c, const char *msg, const char *line)
{
	printf("LSX-ERROR dpm-async: %s: %s%s%.200s\n", c, msg, line ? ": " : "",
	       line ? line : "");
	exit(1);
}

static struct task *task(long pid)
{
	long n;

	if (pid < 0 || pid > (1L << 24))
		return NULL;
	if (pid >= nr_tasks) {
		n = pid * 2 + 1024;
		tasks = realloc(tasks, n * sizeof(*tasks));
		if (!tasks)
			die("dpmtrace", "out of memory", NULL);
		memset(tasks + nr_tasks, 0, (n - nr_tasks) * sizeof(*tasks));
		nr_tasks = n;
	}
	return &tasks[pid];
}

static int is_parked(const struct task *t)
{
	return t->in_work && t->asleep && !t->depth;
}

/*
 * Change @t (a negative @in_work or @asleep leaves that as it is; @depth is
 * added) and keep the count of parked workers and its peak.
 */
static void change(struct task *t, int in_work, int asleep, int depth)
{
	int was = is_parked(t);

	if (in_work >= 0)
		t->in_work = in_work;
	if (asleep >= 0)
		t->asleep = asleep;
	if (depth > 0 || t->depth)
		t->depth += depth;
	parked += is_parked(t) - was;
	if (parked > peak)
		peak = parked;
}

static long field_long(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static void cpu_switch(double ts, int cpu, int prev_idle, int next_idle)
{
	if (cpu < 0 || cpu >= CPU_MAX || prev_idle == next_idle)
		return;
	if (cpu_first[cpu] < 0)
		cpu_first[cpu] = prev_idle;
	if (nr_switches == max_switches) {
		max_switches = max_switches * 2 + 4096;
		switches = realloc(switches, max_switches * sizeof(*switches));
		if (!switches)
			die("dpmtrace", "out of memory", NULL);
	}
	switches[nr_switches].ts = ts;
	switches[nr_switches].cpu = cpu;
	switches[nr_switches].idle = next_idle;
	nr_switches++;
}

/*
 * CPU time not spent idle between @from and @to, summed over the CPUs.  A CPU
 * is busy before its first switch if that switch leaves the idle task; a CPU
 * that never switches in the trace counts as idle.
 */
static double cpu_busy(double from, double to)
{
	double since[CPU_MAX], busy = 0;
	int idle[CPU_MAX], cpu;
	long i;

	for (cpu = 0; cpu < CPU_MAX; cpu++) {
		idle[cpu] = cpu_first[cpu] != 0;
		since[cpu] = from;
	}
	for (i = 0; i < nr_switches && switches[i].ts < to; i++) {
		struct cpu_switch *w = &switches[i];

		if (w->ts > from && !idle[w->cpu])
			busy += w->ts - since[w->cpu];
		idle[w->cpu] = w->idle;
		since[w->cpu] = w->ts > from ? w->ts : from;
	}
	for (cpu = 0; cpu < CPU_MAX; cpu++)
		if (!idle[cpu])
			busy += to - since[cpu];
	return busy;
}

/* The measured critical path (see the top of the file) */
#define CRIT_MAX	8192

enum { C_SUSPEND, C_SUSPEND_LATE, C_SUSPEND_NOIRQ, C_RESUME_NOIRQ, C_RESUME_EARLY,
	C_RESUME, C_PHASES };
static const char * const crit_phase[C_PHASES] = {
	"suspend", "suspend_late", "suspend_noirq", "resume_noirq", "resume_early", "resume",
};

struct cdev {
	int present, async, parent, nsup, *sup;
	double dur[C_PHASES];
	double fin;
};

static struct cdev cdevs[CRIT_MAX];
static int corder[CRIT_MAX], ncorder;

static int critical(const char *c, const char *devices, const char *log, int all_sync)
{
	double total[2] = { 0, 0 }, crit, f;
	int i, j, k, ph, idx, last, d, n;
	char line[4096], name[64], *p, *end;
	long long start, stop;
	FILE *fd;

	fd = fopen(devices, "r");
	if (!fd)
		die(c, "cannot open", devices);
	while (fgets(line, sizeof(line), fd)) {
		int parent, async, direct, rpm;
		char sup[4000];

		if (sscanf(line, "%d %d %d %d %d %3999s", &idx, &parent, &async, &direct, &rpm,
			   sup) != 6 || idx < 0 || idx >= CRIT_MAX)
			die(c, "cannot parse the devices file", line);
		cdevs[idx].present = 1;
		cdevs[idx].parent = parent;
		cdevs[idx].async = async && !all_sync;
		corder[ncorder++] = idx;
		if (strcmp(sup, "-")) {
			for (n = 1, p = sup; *p; p++)
				n += *p == ',';
			cdevs[idx].sup = calloc(n, sizeof(int));
			if (!cdevs[idx].sup)
				die(c, "out of memory", NULL);
			for (p = sup; *p; p = *end ? end + 1 : end) {
				cdevs[idx].sup[cdevs[idx].nsup++] = strtol(p, &end, 10);
				if (end == p)
					die(c, "cannot parse the suppliers", line);
			}
		}
	}
	fclose(fd);
	fd = fopen(log, "r");
	if (!fd)
		die(c, "cannot open", log);
	while (fgets(line, sizeof(line), fd)) {
		if (!strncmp(line, "overflow", 8))
			die(c, "the driver's log overflowed", line);
		if (sscanf(line, "%d %63s %lld %lld", &idx, name, &start, &stop) != 4 ||
		    idx < 0 || idx >= CRIT_MAX)
			die(c, "cannot parse the log", line);
		for (ph = 0; ph < C_PHASES; ph++)
			if (!strcmp(name, crit_phase[ph]))
				cdevs[idx].dur[ph] += (stop - start) / 1e3;
	}
	fclose(fd);

	for (ph = 0; ph < C_PHASES; ph++) {
		int resume = ph >= C_RESUME_NOIRQ;

		crit = 0;
		last = -1;
		for (i = 0; i < ncorder; i++)
			cdevs[corder[i]].fin = 0;
		for (k = 0; k < ncorder; k++) {
			d = corder[resume ? k : ncorder - 1 - k];
			f = 0;
			if (resume) {
				/* after the parent and the suppliers */
				if (cdevs[d].parent >= 0 && cdevs[cdevs[d].parent].fin > f)
					f = cdevs[cdevs[d].parent].fin;
				for (j = 0; j < cdevs[d].nsup; j++)
					if (cdevs[cdevs[d].sup[j]].fin > f)
						f = cdevs[cdevs[d].sup[j]].fin;
			} else {
				/* after the children and the consumers */
				for (i = 0; i < ncorder; i++) {
					struct cdev *o = &cdevs[corder[i]];

					if (o->parent == d && o->fin > f)
						f = o->fin;
					for (j = 0; j < o->nsup; j++)
						if (o->sup[j] == d && o->fin > f)
							f = o->fin;
				}
			}
			if (!cdevs[d].async) {
				if (last >= 0 && cdevs[last].fin > f)
					f = cdevs[last].fin;
				last = d;
			}
			cdevs[d].fin = f + cdevs[d].dur[ph];
			if (cdevs[d].fin > crit)
				crit = cdevs[d].fin;
		}
		total[resume] += crit;
	}
	printf("LSX-BENCH %s critical_measured_suspend_us us %.1f\n", c, total[0]);
	printf("LSX-BENCH %s critical_measured_resume_us us %.1f\n", c, total[1]);
	return 0;
}

int main(int argc, char **argv)
{
	double dpm_suspend = -1, suspend_noirq_end = -1, resume_noirq = -1, dpm_resume_end = -1;
	long in_buf = -1, written = -1, pid, items = 0, line_nr = 0;
	const char *c, *p, *ev, *payload;
	char line[4096], name[64], *end;
	int workers, begin, cpu, ncpus;
	struct task *t;
	double ts, busy;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: dpmtrace CASE TRACE_FILE [workers]\n");
		return 2;
	}
	c = argv[1];
	memset(cpu_first, -1, sizeof(cpu_first));
	if (!strcmp(argv[2], "critical")) {
		if (argc != 6)
			die(c, "usage: dpmtrace CASE critical DEVICES LOG async|sync", NULL);
		return critical(c, argv[3], argv[4], !strcmp(argv[5], "sync"));
	}
	workers = argc > 3 && !strcmp(argv[3], "workers");
	f = fopen(argv[2], "r");
	if (!f)
		die(c, "cannot open the trace", argv[2]);
	while (fgets(line, sizeof(line), f)) {
		line_nr++;
		if (line[0] == '#') {
			p = strstr(line, "entries-in-buffer/entries-written:");
			if (p && sscanf(p + 34, "%ld/%ld", &in_buf, &written) != 2)
				die(c, "cannot parse the trace header", line);
			continue;
		}
		if (strstr(line, "LOST") && strstr(line, "EVENTS"))
			die(c, "the trace lost events (raise buffer_size_kb)", line);
		/* "  comm-PID  [CPU] flags  SECONDS.USECS: event: payload" */
		p = strchr(line, '[');
		while (p && !(p[1] >= '0' && p[1] <= '9' && strchr(p, ']')))
			p = strchr(p + 1, '[');
		if (!p)
			continue;
		end = (char *)p;
		while (end > line && end[-1] == ' ')
			end--;
		while (end > line && end[-1] >= '0' && end[-1] <= '9')
			end--;
		pid = strtol(end, NULL, 10);
		cpu = strtol(p + 1, NULL, 10);
		p = strchr(p, ']') + 1;
		/* the timestamp is the first "digits.digits:" token */
		for (;;) {
			p += strspn(p, " ");
			ts = strtod(p, &end);
			if (end != p && *end == ':')
				break;
			p = strchr(p, ' ');
			if (!p)
				break;
		}
		if (!p)
			continue;
		ev = end + 1 + strspn(end + 1, " ");
		payload = strchr(ev, ':');
		if (!payload)
			continue;
		payload++;

		if (!strncmp(ev, "suspend_resume:", 15)) {
			if (sscanf(payload, " %63[^[]", name) != 1)
				die(c, "cannot parse", line);
			begin = !!strstr(payload, "] begin");
			if (!strcmp(name, "dpm_suspend") && begin && dpm_suspend < 0)
				dpm_suspend = ts;
			else if (!strcmp(name, "dpm_suspend_noirq") && !begin)
				suspend_noirq_end = ts;
			else if (!strcmp(name, "dpm_resume_noirq") && begin && resume_noirq < 0)
				resume_noirq = ts;
			else if (!strcmp(name, "dpm_resume") && !begin)
				dpm_resume_end = ts;
			continue;
		}
		if (!workers)
			continue;
		if (!strncmp(ev, "workqueue_execute_start:", 24)) {
			if (!strstr(payload, "function async_run_entry_fn") &&
			    !strstr(payload, "function dpm_async_work_fn"))
				continue;
			t = task(pid);
			if (t) {
				change(t, 1, -1, 0);
				items++;
			}
		} else if (!strncmp(ev, "workqueue_execute_end:", 22)) {
			t = task(pid);
			if (t)
				change(t, 0, -1, 0);
		} else if (!strncmp(ev, "device_pm_callback_start:", 25)) {
			t = task(pid);
			if (t)
				change(t, -1, -1, 1);
		} else if (!strncmp(ev, "device_pm_callback_end:", 23)) {
			t = task(pid);
			if (t)
				change(t, -1, -1, -1);
		} else if (!strncmp(ev, "sched_switch:", 13)) {
			/* pid 0 is the idle task of every CPU */
			p = strstr(payload, "prev_state=");
			pid = field_long(payload, "prev_pid=");
			cpu_switch(ts, cpu, pid == 0, field_long(payload, "next_pid=") == 0);
			t = pid > 0 ? task(pid) : NULL;
			if (t && p)
				change(t, -1, p[11] != 'R', 0);
			pid = field_long(payload, "next_pid=");
			t = pid > 0 ? task(pid) : NULL;
			if (t)
				change(t, -1, 0, 0);
		}
	}
	fclose(f);
	if (in_buf < 0)
		die(c, "no entries-in-buffer/entries-written header in the trace", NULL);
	if (in_buf != written) {
		snprintf(line, sizeof(line), "%ld of %ld events in the buffer", in_buf, written);
		die(c, "the trace lost events (raise buffer_size_kb)", line);
	}
	if (dpm_suspend < 0 || suspend_noirq_end < 0 || resume_noirq < 0 || dpm_resume_end < 0)
		die(c, "no dpm_suspend, dpm_suspend_noirq, dpm_resume_noirq or dpm_resume event",
		    NULL);
	printf("LSX-BENCH %s suspend_us us %.1f\n", c, (suspend_noirq_end - dpm_suspend) * 1e6);
	printf("LSX-BENCH %s resume_us us %.1f\n", c, (dpm_resume_end - resume_noirq) * 1e6);
	if (workers) {
		if (!items)
			die(c, "no async device work items in the trace", NULL);
		printf("LSX-BENCH %s sleeping_workers_peak count %ld\n", c, peak);
		p = getenv("DPMTRACE_NCPUS");	/* the host's tests */
		ncpus = p ? atoi(p) : sysconf(_SC_NPROCESSORS_ONLN);
		if (ncpus < 1 || !nr_switches)
			die(c, "no sched_switch events or no CPU count", NULL);
		busy = cpu_busy(dpm_suspend, suspend_noirq_end) * 1e6;
		printf("LSX-BENCH %s cpu_busy_suspend_us us %.1f\n", c, busy);
		printf("LSX-BENCH %s cpu_share_suspend_us us %.1f\n", c, busy / ncpus);
		busy = cpu_busy(resume_noirq, dpm_resume_end) * 1e6;
		printf("LSX-BENCH %s cpu_busy_resume_us us %.1f\n", c, busy);
		printf("LSX-BENCH %s cpu_share_resume_us us %.1f\n", c, busy / ncpus);
		printf("dpm-async: %s: %ld trace lines, %ld async work items\n", c, line_nr,
		       items);
	}
	return 0;
}
