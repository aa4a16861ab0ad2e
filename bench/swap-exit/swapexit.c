// SPDX-License-Identifier: GPL-2.0
/*
 * Exit of killed processes whose memory is in swap.  Runs in the guest,
 * started by guest.sh as
 *
 *	swapexit CASE REPS ZRAM
 *
 * with ZRAM the zram device guest.sh set up as the only swap (zram0).
 * CASE is
 *
 *   sMIB-N	N "victims", each with MIB MiB of anonymous memory paged out
 *		to swap with MADV_PAGEOUT, killed at once
 *   sMIB-floor	one victim with MIB MiB mapped but only read-faulted, so
 *		every PTE maps the shared zero page: the exit walks as many
 *		page tables and frees nothing, the floor of any exit
 *   mMIB-N	N victims confined by the memory.max (MEMCG_MAX_MIB) of
 *		their cgroup: memcg reclaim pushes what they write to swap,
 *		and the swap is charged to that memcg
 *
 * Every victim runs in the cgroup CGROUP (memory controller enabled,
 * memory.max only for mMIB-N), pinned to the CPU it started on while it
 * writes and pages out (a folio still in another CPU's LRU add batch is
 * skipped by MADV_PAGEOUT), and repeats MADV_PAGEOUT over its whole range
 * until its VmSwap is at least TARGET_PCT of its size; then its CPU mask
 * is given back.  It never outlives this program: PR_SET_PDEATHSIG, and
 * it waits for its end on a pipe whose other end only this program holds
 * (EOF: it exits).  Every page a victim writes holds its own offset and a
 * hash of it in a few words (the rest zero), so zram stores a small
 * compressed object per page, not a "same-filled" page.
 *
 * One warm-up round is not reported, then REPS rounds print
 *
 *	LSX-BENCH CASE METRIC UNIT VALUE
 *
 *   exit_latency_us	from the kill() of the first victim until wait4()
 *			has reaped the last one
 *   swap_release_ms	from the kill until the free swap (sysinfo) is back
 *			to its value before the victims swapped out, less
 *			what the per-CPU swap slot caches may hold (2 x 64
 *			slots per CPU); not for the floor
 *   memory_back_ms	from the kill until, in the same sample, the free
 *			swap is back as above AND the zram memory
 *			(mm_stat mem_used_total) is back to its value before
 *			the victims swapped out, plus what the freed slots
 *			waiting in the per-CPU caches can pin (64 slots per
 *			CPU, one zspage of at most 4 pages each); not for
 *			the floor
 *   cpu_total_ms	CPU time from the kill until the memory is back (and
 *			the last victim reaped) of the victims, from their
 *			cgroup's cpu.stat usage_usec, which keeps counting a
 *			task after exit_notify() (a release after the exit is
 *			in it), and of every kernel thread (per-task CPU
 *			clocks: kswapd, ksoftirqd, kworkers...)
 *   cpu_killed_ms	the victims' share of cpu_total_ms
 *   pending_peak_mib	peak of swap_exit_deferred - swap_exit_released
 *			(/proc/vmstat, slots) over the samples from the kill
 *			until the memory is back, in MiB; 0 on a kernel
 *			without these counters
 *   pending_bound_mib	total swap x vm.swap_exit_ratio / 100, in MiB; 0 on
 *			a kernel without the sysctl
 *   deferred_mib, fallback_mib, direct_mib
 *			how much of the victims' swap the kernel deferred,
 *			released at once because the bound was reached, and
 *			released during a teardown beside other killed tasks'
 *			(swap_exit_deferred, swap_exit_fallback and
 *			swap_exit_direct deltas over the round); 0 on a kernel
 *			without them
 *   zram_mib		not for the floor: what the victims' swap holds in
 *			zram at the kill (mem_used_total above its value
 *			before they swapped out): the size of the memory
 *			memory_back_ms waits for, against its slack
 *   sampler_cpu_ms	the sampler's own CPU time over the round (below)
 *   probe_slowdown_pct	N > 1 only: a probe process does a fixed amount of
 *			arithmetic (about 200 ms alone) starting at the kill;
 *			its wall time against the same work done alone just
 *			before, in percent
 *
 * The free swap and the zram memory are sampled by a separate process
 * every SAMPLE_US from the kill on (the vmstat counters every VMSTAT_EVERY
 * samples: read every millisecond, /proc/vmstat took a share of a vCPU
 * that the probe felt), with CLOCK_MONOTONIC
 * timestamps taken after each sample's reads, in the same way on every
 * kernel: on the baseline the release happens before the victim is
 * reaped, while this process sits in wait4(), and the sampler sees it as
 * it sees the release after the exit on the patched kernel.  The sampler's
 * own CPU time is not in cpu_total_ms (it is the same on every kernel).
 * process_mrelease() is not used: on the baseline it would reap the
 * victims itself and change what is measured.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/types.h>
#include <sys/wait.h>

#define MIB		(1024LL * 1024)
#define CHUNK		(32 * MIB)
#define MAX_VICTIMS	8
#define MAX_KTHREADS	1024
#define SLOT_CACHE	64		/* swap slots per per-CPU cache (6.12) */
#define ZSPAGE_PAGES	4		/* most pages in a zsmalloc zspage */
#define RELEASE_LIMIT_S	60
#define SAMPLE_US	1000
#define VMSTAT_EVERY	5		/* samples per read of /proc/vmstat */
#define TARGET_PCT	99		/* VmSwap a victim must reach, % */
#define PAGEOUT_PASSES	10		/* MADV_PAGEOUT passes at most */
#define MEMCG_MAX_MIB	64		/* memory.max of the mMIB-N victims */
#define CGROUP		"/sys/fs/cgroup/lsx-swapexit"
#define RATIO_FILE	"/proc/sys/vm/swap_exit_ratio"

enum kind { SWAP, FLOOR, MEMCG };

static const char *case_name;
static long page_size;
static char mm_stat_path[128];

/* What fail() kills before it exits (the victims would die anyway) */
static pid_t live[MAX_VICTIMS + 2];

static void kill_live(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] > 0) {
			kill(live[i], SIGKILL);
			live[i] = 0;
		}
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail(const char *fmt, ...)
{
	va_list ap;

	kill_live();
	printf("LSX-ERROR swap-exit: %s: ", case_name ? case_name : "setup");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Free and total swap in pages; -1 on error (no fail(): the sampler uses it) */
static long long swap_pages(long long *total)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return -1;
	if (total)
		*total = (long long)si.totalswap * si.mem_unit / page_size;
	return (long long)si.freeswap * si.mem_unit / page_size;
}

/* Read a whole small file from offset 0 of @fd into @buf; bytes or -1 */
static ssize_t pread_all(int fd, char *buf, size_t size)
{
	size_t n = 0;

	while (n < size - 1) {
		ssize_t r = pread(fd, buf + n, size - 1 - n, n);

		if (r < 0)
			return -1;
		if (!r)
			break;
		n += r;
	}
	buf[n] = '\0';
	return n;
}

static long long read_ll(const char *path)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = pread_all(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* The value after "\nNAME " in @buf, 0 if there is none */
static long long field(const char *buf, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", name);
	p = strstr(buf, key);
	return p ? strtoll(p + strlen(key), NULL, 10) : 0;
}

struct counters {
	long long deferred, released, fallback, direct;
};

/* The swap_exit_* counters of /proc/vmstat (0 without them); -1 on error */
static int read_counters(int fd, struct counters *c)
{
	char buf[16384];

	buf[0] = '\n';
	if (pread_all(fd, buf + 1, sizeof(buf) - 1) <= 0)
		return -1;
	c->deferred = field(buf, "swap_exit_deferred");
	c->released = field(buf, "swap_exit_released");
	c->fallback = field(buf, "swap_exit_fallback");
	c->direct = field(buf, "swap_exit_direct");
	return 0;
}

/* zram mm_stat mem_used_total, bytes; -1 on error */
static long long zram_used(int fd)
{
	char buf[256];
	long long orig, compr, used;

	if (pread_all(fd, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%lld %lld %lld", &orig, &compr, &used) != 3)
		return -1;
	return used;
}

static int open_or_fail(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	return fd;
}

/* The victims' cgroup's cpu.stat usage_usec */
static long long cgroup_usage_us(void)
{
	char buf[1024];
	ssize_t n;
	int fd;

	fd = open_or_fail(CGROUP "/cpu.stat");
	buf[0] = '\n';
	n = pread_all(fd, buf + 1, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || !strstr(buf, "\nusage_usec "))
		fail("no usage_usec in " CGROUP "/cpu.stat");
	return field(buf, "usage_usec");
}

/* A "Name: N kB" line of /proc/PID/status, -1 if there is none */
static long long status_kib(pid_t pid, const char *name)
{
	char path[64], line[128];
	long long kib = -1;
	size_t len = strlen(name);
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':')
			kib = atoll(line + len + 1);
	if (f)
		fclose(f);
	return kib;
}

/* CPU time of a task in ns through its CPU clock, -1 if it is gone */
static long long task_cpu_ns(pid_t pid)
{
	struct timespec ts;
	clockid_t clk;

	if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
		return -1;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Kernel threads: the children of kthreadd (pid 2), and kthreadd */
struct kthreads {
	int n;
	pid_t pid[MAX_KTHREADS];
	long long cpu[MAX_KTHREADS];
};

static void kthreads_scan(struct kthreads *k)
{
	struct dirent *d;
	DIR *dir;

	k->n = 0;
	dir = opendir("/proc");
	if (!dir)
		fail("opendir /proc: %s", strerror(errno));
	while ((d = readdir(dir)) && k->n < MAX_KTHREADS) {
		char path[64], buf[512], *p;
		pid_t pid = atoi(d->d_name);
		int fd, ppid;
		ssize_t n;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 2, "%*c %d", &ppid) != 1)
			continue;
		if (pid != 2 && ppid != 2)
			continue;
		k->pid[k->n] = pid;
		k->cpu[k->n] = task_cpu_ns(pid);
		k->n++;
	}
	closedir(dir);
}

/* CPU the kernel threads used between two scans (new threads count whole) */
static long long kthreads_delta(const struct kthreads *a, const struct kthreads *b)
{
	long long sum = 0;
	int i, j;

	for (j = 0; j < b->n; j++) {
		long long before = 0;

		if (b->cpu[j] < 0)
			continue;
		for (i = 0; i < a->n; i++)
			if (a->pid[i] == b->pid[j] && a->cpu[i] >= 0)
				before = a->cpu[i];
		sum += b->cpu[j] - before;
	}
	return sum;
}

/* A child of ours dies with us, and not later if we are already gone */
static void child_of(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
}

/* What a victim reports when it is ready (err 0) or gave up */
enum { V_OK, V_MMAP, V_MADVISE, V_CGROUP, V_AFFINITY, V_TARGET };

struct ready_msg {
	int err;
	int passes;		/* MADV_PAGEOUT passes over the whole range */
	long long swap_kib;	/* VmSwap when ready */
	long long rss_kib;	/* VmRSS when ready */
};

static void fill(char *mem, long long bytes, int pageout)
{
	long long off, p;

	for (off = 0; off < bytes; off += CHUNK) {
		long long len = bytes - off < CHUNK ? bytes - off : CHUNK;

		for (p = 0; p < len; p += page_size) {
			uint64_t *w = (uint64_t *)(mem + off + p);

			w[0] = off + p;
			w[1] = (off + p) * 2654435761ULL;
			w[7] = ~w[1];
		}
		/* Errors show in the passes that follow */
		if (pageout)
			madvise(mem + off, len, MADV_PAGEOUT);
	}
}

static void read_fault(volatile char *mem, long long bytes)
{
	long long p;
	char sum = 0;

	for (p = 0; p < bytes; p += page_size)
		sum += mem[p];
	if (sum)
		_exit(4);
}

static void victim_report(int fd, struct ready_msg *m, int err)
{
	m->err = err;
	m->swap_kib = status_kib(0, "VmSwap");
	m->rss_kib = status_kib(0, "VmRSS");
	if (write(fd, m, sizeof(*m)) != sizeof(*m) || err)
		_exit(10 + err);
}

/* The victim, in the child: never returns */
static void victim_main(long long mib, enum kind kind, int ready_w, int hold_r)
{
	long long bytes = mib * MIB, target = mib * 1024 * TARGET_PCT / 100;
	struct ready_msg m = { 0 };
	cpu_set_t all, one;
	char pid[32], *mem, c;
	int cpu;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(CGROUP "/cgroup.procs", pid))
		victim_report(ready_w, &m, V_CGROUP);
	cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu < 0 ? 0 : cpu, &one);
	if (sched_getaffinity(0, sizeof(all), &all) ||
	    sched_setaffinity(0, sizeof(one), &one))
		victim_report(ready_w, &m, V_AFFINITY);
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		victim_report(ready_w, &m, V_MMAP);
	if (kind == FLOOR) {
		read_fault(mem, bytes);
	} else {
		/* mMIB-N: memory.max sends it to swap while it is written */
		fill(mem, bytes, kind == SWAP);
		while (status_kib(0, "VmSwap") < target) {
			if (m.passes == PAGEOUT_PASSES)
				victim_report(ready_w, &m, V_TARGET);
			if (m.passes)
				usleep(2000);
			m.passes++;
			if (madvise(mem, bytes, MADV_PAGEOUT))
				victim_report(ready_w, &m, V_MADVISE);
		}
	}
	if (sched_setaffinity(0, sizeof(all), &all))
		victim_report(ready_w, &m, V_AFFINITY);
	victim_report(ready_w, &m, V_OK);
	close(ready_w);
	/* Until SIGKILL; EOF when this program is gone */
	for (;;) {
		ssize_t n = read(hold_r, &c, 1);

		if (!n || (n < 0 && errno != EINTR))
			_exit(0);
	}
}

static const char *const victim_errors[] = {
	[V_MMAP] = "mmap failed",
	[V_MADVISE] = "MADV_PAGEOUT failed",
	[V_CGROUP] = "cannot join " CGROUP,
	[V_AFFINITY] = "sched_setaffinity failed",
	[V_TARGET] = "VmSwap below the target after all MADV_PAGEOUT passes",
};

/* Start victim @i of @mib MiB; returns once it is ready */
static void victim_start(int i, long long mib, enum kind kind, int hold[2])
{
	struct ready_msg m;
	pid_t parent = getpid(), pid;
	int ready[2], status = 0;
	ssize_t n;

	if (pipe(ready))
		fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		child_of(parent);
		close(ready[0]);
		close(hold[1]);
		victim_main(mib, kind, ready[1], hold[0]);
	}
	live[i] = pid;
	close(ready[1]);
	n = read(ready[0], &m, sizeof(m));
	close(ready[0]);
	if (n != sizeof(m)) {
		waitpid(pid, &status, 0);
		live[i] = 0;
		fail("victim %d died before it was ready (status 0x%x)", i, status);
	}
	if (m.err)
		fail("victim %d: %s (VmSwap %lld KiB, VmRSS %lld KiB of %lld MiB, %d passes)",
		     i, m.err < (int)(sizeof(victim_errors) / sizeof(victim_errors[0])) ?
		     victim_errors[m.err] : "?", m.swap_kib, m.rss_kib, mib, m.passes);
}

/* The probe: fixed arithmetic, returns the wall time in ns */
static volatile uint64_t probe_sink;

static long long probe_run(long long iters)
{
	long long t0 = now_ns();
	uint64_t x = 88172645463325252ULL;
	long long i;

	for (i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	probe_sink = x;
	return now_ns() - t0;
}

static long long probe_iters;

/* About 200 ms of probe work on an idle system */
static void probe_calibrate(void)
{
	long long n = 1 << 16, t;

	for (;;) {
		t = probe_run(n);
		if (t > 20000000LL)
			break;
		n *= 2;
	}
	probe_iters = n * (200000000LL / t);
}

/* Fork the probe; it starts when @go is written, reports on @res */
static pid_t probe_start(int *go_w, int *res_r, int hold_w)
{
	pid_t parent = getpid(), pid;
	int go[2], res[2];
	char c;

	if (pipe(go) || pipe(res))
		fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		long long t;

		child_of(parent);
		close(hold_w);
		close(go[1]);
		close(res[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		t = probe_run(probe_iters);
		if (write(res[1], &t, sizeof(t)) != sizeof(t))
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(res[1]);
	*go_w = go[1];
	*res_r = res[0];
	return pid;
}

/* The sampler's report */
enum { S_OK, S_LIMIT, S_READ };

struct sample_res {
	int err;
	long long swap_ns;	/* kill to the first sample with the swap back */
	long long mem_ns;	/* kill to the first with swap and zram back */
	long long peak_slots;	/* peak of deferred - released */
	long long samples;
	long long free_pages, mem_used;	/* in the last sample */
	long long cpu_ns;	/* the sampler's own CPU time */
};

/*
 * Fork the sampler: once it reads the kill time from @go, it samples the
 * free swap and zram's mem_used_total every SAMPLE_US, and the vmstat
 * counters every VMSTAT_EVERY samples (formatting /proc/vmstat is the
 * costly read, and the pending swap it gives changes slowly), until the
 * free swap is at least @swap_floor pages and, in the same sample,
 * mem_used_total at most @mem_ceil bytes; reports on @res.
 */
static pid_t sampler_start(int *go_w, int *res_r, int hold_w,
			   long long swap_floor, long long mem_ceil)
{
	pid_t parent = getpid(), pid;
	int go[2], res[2];

	if (pipe(go) || pipe(res))
		fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		struct timespec nap = { 0, SAMPLE_US * 1000L };
		struct sample_res r = { .swap_ns = -1, .mem_ns = -1 };
		struct rusage ru;
		int vm, zs;
		long long t0, t;

		child_of(parent);
		close(hold_w);
		close(go[1]);
		close(res[0]);
		vm = open("/proc/vmstat", O_RDONLY);
		zs = open(mm_stat_path, O_RDONLY);
		if (read(go[0], &t0, sizeof(t0)) != sizeof(t0))
			_exit(1);
		for (;;) {
			struct counters c = { 0 };

			if (vm < 0 || zs < 0 ||
			    (!(r.samples % VMSTAT_EVERY) && read_counters(vm, &c)) ||
			    (r.mem_used = zram_used(zs)) < 0 ||
			    (r.free_pages = swap_pages(NULL)) < 0) {
				r.err = S_READ;
				break;
			}
			t = now_ns();
			if (!(r.samples % VMSTAT_EVERY) &&
			    c.deferred - c.released > r.peak_slots)
				r.peak_slots = c.deferred - c.released;
			r.samples++;
			if (r.free_pages >= swap_floor && r.swap_ns < 0)
				r.swap_ns = t - t0;
			if (r.free_pages >= swap_floor && r.mem_used <= mem_ceil) {
				r.mem_ns = t - t0;
				break;
			}
			if (t - t0 > RELEASE_LIMIT_S * 1000000000LL) {
				r.err = S_LIMIT;
				break;
			}
			nanosleep(&nap, NULL);
		}
		if (!getrusage(RUSAGE_SELF, &ru))
			r.cpu_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
				   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
		if (write(res[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(res[1]);
	*go_w = go[1];
	*res_r = res[0];
	return pid;
}

static void one_round(long long mib, int nr, enum kind kind, int report)
{
	long long swap0, total, mem0, mem_kill, exit_ns, cpu0, cpu1, victims_ns, cpu_ns;
	long long slot_slack, mem_slack, swap_kib = 0, ratio, t0;
	long long probe_alone = 0, probe_loaded = 0;
	struct counters c0, c1;
	struct sample_res sr;
	struct kthreads *k0, *k1;
	int hold[2], go = -1, res = -1, sgo, sres, vm, zs, i;
	pid_t probe = 0, sampler, pid[MAX_VICTIMS];
	double mib_per_slot = (double)page_size / MIB;
	char c = 'g';

	k0 = malloc(sizeof(*k0));
	k1 = malloc(sizeof(*k1));
	if (!k0 || !k1)
		fail("out of memory");
	vm = open_or_fail("/proc/vmstat");
	zs = open_or_fail(mm_stat_path);
	slot_slack = 2LL * SLOT_CACHE * sysconf(_SC_NPROCESSORS_CONF);
	mem_slack = (long long)SLOT_CACHE * sysconf(_SC_NPROCESSORS_CONF) *
		    ZSPAGE_PAGES * page_size;
	/* The values before the victims swap out */
	swap0 = swap_pages(&total);
	mem0 = zram_used(zs);
	if (swap0 < 0 || mem0 < 0)
		fail("cannot read the free swap or %s", mm_stat_path);
	if (kind != FLOOR && swap0 < mib * nr * MIB / page_size * 5 / 4 + 64 * MIB / page_size)
		fail("%lld MiB of swap free, the case needs %lld MiB and a quarter more",
		     swap0 * page_size / MIB, mib * nr);

	if (pipe(hold))
		fail("pipe: %s", strerror(errno));
	for (i = 0; i < nr; i++)
		victim_start(i, mib, kind, hold);
	close(hold[0]);
	for (i = 0; i < nr; i++) {
		long long kib = status_kib(live[i], "VmSwap");

		if (kind != FLOOR && kib < mib * 1024 * TARGET_PCT / 100)
			fail("victim %d: VmSwap %lld KiB of %lld MiB before the kill", i, kib, mib);
		swap_kib += kib;
		pid[i] = live[i];
	}
	if (kind == MEMCG) {
		long long charged = read_ll(CGROUP "/memory.swap.current");

		if (charged < swap_kib * 1024 * 9 / 10)
			fail("memory.swap.current %lld KiB, the victims have %lld KiB in swap",
			     charged / 1024, swap_kib);
	}
	mem_kill = zram_used(zs);
	if (nr > 1) {
		/* The same work alone, just before, on the same system */
		probe_alone = probe_run(probe_iters);
		probe = probe_start(&go, &res, hold[1]);
		live[MAX_VICTIMS] = probe;
	}
	sampler = sampler_start(&sgo, &sres, hold[1],
				kind == FLOOR ? 0 : swap0 - slot_slack, mem0 + mem_slack);
	live[MAX_VICTIMS + 1] = sampler;
	usleep(20000);

	ratio = read_ll(RATIO_FILE);
	if (read_counters(vm, &c0))
		fail("cannot read /proc/vmstat");
	cpu0 = cgroup_usage_us();
	kthreads_scan(k0);
	t0 = now_ns();
	if (probe && write(go, &c, 1) != 1)
		fail("probe: %s", strerror(errno));
	for (i = 0; i < nr; i++)
		kill(pid[i], SIGKILL);
	/* After the kills, so that waking it does not delay them */
	if (write(sgo, &t0, sizeof(t0)) != sizeof(t0))
		fail("sampler: %s", strerror(errno));
	for (i = 0; i < nr; i++) {
		int status;

		if (wait4(pid[i], &status, 0, NULL) != pid[i])
			fail("wait4: %s", strerror(errno));
		live[i] = 0;
	}
	exit_ns = now_ns() - t0;
	if (read(sres, &sr, sizeof(sr)) != sizeof(sr))
		fail("the sampler did not report");
	if (sr.err == S_LIMIT)
		fail("memory not back after %d s: %lld of %lld swap pages free (need %lld), "
		     "zram mem_used_total %lld (need at most %lld)", RELEASE_LIMIT_S,
		     sr.free_pages, swap0, swap0 - slot_slack, sr.mem_used, mem0 + mem_slack);
	if (sr.err)
		fail("the sampler cannot read /proc/vmstat, %s or sysinfo", mm_stat_path);
	if (kind == FLOOR)
		usleep(50000);
	/*
	 * The memory is back: let the last release finish counting (its
	 * task's swap_exit_released comes after the slots are free), so
	 * that its CPU time and the counters are whole.
	 */
	for (i = 0; i < 1000; i++) {
		if (read_counters(vm, &c1))
			fail("cannot read /proc/vmstat");
		if (c1.deferred - c1.released <= c0.deferred - c0.released)
			break;
		usleep(1000);
	}
	cpu1 = cgroup_usage_us();
	kthreads_scan(k1);
	if (read_counters(vm, &c1))
		fail("cannot read /proc/vmstat");
	victims_ns = (cpu1 - cpu0) * 1000;
	cpu_ns = victims_ns + kthreads_delta(k0, k1);
	waitpid(sampler, NULL, 0);
	live[MAX_VICTIMS + 1] = 0;
	close(sgo);
	close(sres);
	if (probe) {
		if (read(res, &probe_loaded, sizeof(probe_loaded)) != sizeof(probe_loaded))
			fail("probe did not report");
		waitpid(probe, NULL, 0);
		live[MAX_VICTIMS] = 0;
		close(go);
		close(res);
	}
	close(hold[1]);
	close(vm);
	close(zs);

	if (report) {
		printf("LSX-BENCH %s exit_latency_us us %.1f\n", case_name, exit_ns / 1e3);
		printf("LSX-BENCH %s cpu_total_ms ms %.2f\n", case_name, cpu_ns / 1e6);
		printf("LSX-BENCH %s cpu_killed_ms ms %.2f\n", case_name, victims_ns / 1e6);
		if (kind != FLOOR) {
			printf("LSX-BENCH %s swap_release_ms ms %.2f\n", case_name,
			       sr.swap_ns / 1e6);
			printf("LSX-BENCH %s memory_back_ms ms %.2f\n", case_name,
			       sr.mem_ns / 1e6);
			printf("LSX-BENCH %s zram_mib MiB %.2f\n", case_name,
			       (double)(mem_kill - mem0) / MIB);
		}
		printf("LSX-BENCH %s sampler_cpu_ms ms %.2f\n", case_name, sr.cpu_ns / 1e6);
		printf("LSX-BENCH %s pending_peak_mib MiB %.1f\n", case_name,
		       sr.peak_slots * mib_per_slot);
		printf("LSX-BENCH %s pending_bound_mib MiB %.1f\n", case_name,
		       ratio < 0 ? 0.0 : total * ratio / 100 * mib_per_slot);
		printf("LSX-BENCH %s deferred_mib MiB %.1f\n", case_name,
		       (c1.deferred - c0.deferred) * mib_per_slot);
		printf("LSX-BENCH %s fallback_mib MiB %.1f\n", case_name,
		       (c1.fallback - c0.fallback) * mib_per_slot);
		printf("LSX-BENCH %s direct_mib MiB %.1f\n", case_name,
		       (c1.direct - c0.direct) * mib_per_slot);
		if (probe)
			printf("LSX-BENCH %s probe_slowdown_pct %% %.1f\n", case_name,
			       100.0 * (probe_loaded - probe_alone) / probe_alone);
		fflush(stdout);
	}
	free(k0);
	free(k1);
}

/* The victims' cgroup, memory controller on; memory.max for mMIB-N */
static void cgroup_setup(enum kind kind)
{
	char max[32];

	if (write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory"))
		fail("cannot enable the memory controller: %s", strerror(errno));
	rmdir(CGROUP);
	if (mkdir(CGROUP, 0755))
		fail("mkdir " CGROUP ": %s", strerror(errno));
	snprintf(max, sizeof(max), "%lld", kind == MEMCG ? MEMCG_MAX_MIB * MIB : -1LL);
	if (write_str(CGROUP "/memory.max", kind == MEMCG ? max : "max"))
		fail("cannot set " CGROUP "/memory.max");
}

int main(int argc, char **argv)
{
	int reps, nr = 1, r;
	enum kind kind;
	char tail[16] = "", type;
	long long mib;

	setvbuf(stdout, NULL, _IOLBF, 0);
	page_size = sysconf(_SC_PAGESIZE);
	if (argc != 4 || sscanf(argv[1], "%c%lld-%15s", &type, &mib, tail) != 3 ||
	    (type != 's' && type != 'm')) {
		printf("LSX-ERROR swap-exit: usage: swapexit sMIB-N|sMIB-floor|mMIB-N REPS ZRAM\n");
		return 1;
	}
	case_name = argv[1];
	reps = atoi(argv[2]);
	snprintf(mm_stat_path, sizeof(mm_stat_path), "/sys/block/%s/mm_stat", argv[3]);
	kind = type == 'm' ? MEMCG : SWAP;
	if (!strcmp(tail, "floor") && type == 's')
		kind = FLOOR;
	else
		nr = atoi(tail);
	if (nr < 1 || nr > MAX_VICTIMS || mib < 1 || reps < 1)
		fail("bad case or REPS");
	cgroup_setup(kind);
	if (nr > 1)
		probe_calibrate();
	for (r = 0; r <= reps; r++)
		one_round(mib, nr, kind, r > 0);
	if (rmdir(CGROUP))
		fail("rmdir " CGROUP ": %s", strerror(errno));
	return 0;
}
