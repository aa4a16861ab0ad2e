// SPDX-License-Identifier: GPL-2.0
/*
 * Exit latency of killed processes whose memory is in swap.  Runs in the
 * guest, started by guest.sh as
 *
 *	swapexit CASE REPS
 *
 * CASE is sMIB-N (N processes, each with MIB MiB of anonymous memory
 * paged out to swap with MADV_PAGEOUT, killed at once) or sMIB-floor (one
 * process with MIB MiB mapped but only read-faulted, so every PTE maps the
 * shared zero page: the exit walks as many page tables and frees nothing,
 * the floor of any exit).  One warm-up round is not reported, then REPS
 * rounds print
 *
 *	LSX-BENCH CASE METRIC UNIT VALUE
 *
 *   exit_latency_us	from the kill() of the first process until waitpid()
 *			has reaped the last one
 *   swap_release_ms	from the kill() until the free swap (sysinfo) is back
 *			to its value before the processes swapped out, less
 *			what the per-CPU swap slot caches may hold (2 x 64
 *			slots per CPU); swap cases only
 *   cpu_total_ms	CPU time, over the same interval, of the killed
 *			processes and of every kernel thread (the workers
 *			that release swap entries, kswapd, ksoftirqd...):
 *			per-task CPU clocks, so nanosecond exact; the killed
 *			processes' share comes from wait4()
 *   cpu_killed_ms	the killed processes' share of cpu_total_ms
 *   batch_peak_kib	peak memory held by swap entry batches
 *			(/sys/kernel/debug/swap_defer/peak_kib; 0 on a kernel
 *			without it); swap cases only
 *   probe_slowdown_pct	N > 1 only: a probe process does a fixed amount of
 *			arithmetic (about 200 ms alone) starting at the kill;
 *			its wall time against the same work done alone just
 *			before, in percent
 *
 * Every page a victim writes holds its own offset and a hash of it in a
 * few words (the rest zero), so zram stores a small compressed object per
 * page, as it would for real data, not a "same-filled" page.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/types.h>
#include <sys/wait.h>

#define MIB		(1024UL * 1024)
#define CHUNK		(32 * MIB)
#define MAX_VICTIMS	8
#define MAX_KTHREADS	1024
#define SLOT_CACHE	64
#define RELEASE_LIMIT_US	(60 * 1000000LL)
#define PEAK_FILE	"/sys/kernel/debug/swap_defer/peak_kib"

static const char *case_name;
static long page_size;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail(const char *fmt, ...)
{
	va_list ap;

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

static long long swap_free_pages(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		fail("sysinfo: %s", strerror(errno));
	return (long long)si.freeswap * si.mem_unit / page_size;
}

static long long read_ll(const char *path)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

static void write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			fail("write %s: %s", path, strerror(errno));
		close(fd);
	}
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

struct victim {
	pid_t pid;
	long long cpu_before;	/* ns, just before the kill */
};

static void fill_and_page_out(char *mem, size_t bytes)
{
	size_t off, p;

	for (off = 0; off < bytes; off += CHUNK) {
		size_t len = bytes - off < CHUNK ? bytes - off : CHUNK;

		for (p = 0; p < len; p += page_size) {
			uint64_t *w = (uint64_t *)(mem + off + p);

			w[0] = off + p;
			w[1] = (off + p) * 2654435761ULL;
			w[7] = ~w[1];
		}
		if (madvise(mem + off, len, MADV_PAGEOUT))
			_exit(3);
	}
}

static void read_fault(volatile char *mem, size_t bytes)
{
	size_t p;
	char sum = 0;

	for (p = 0; p < bytes; p += page_size)
		sum += mem[p];
	if (sum)
		_exit(4);
}

/* Start a victim of @mib MiB; returns once it is ready */
static void victim_start(struct victim *v, size_t mib, int floor)
{
	size_t bytes = mib * MIB;
	int ready[2];
	char c;

	if (pipe(ready))
		fail("pipe: %s", strerror(errno));
	v->pid = fork();
	if (v->pid < 0)
		fail("fork: %s", strerror(errno));
	if (!v->pid) {
		char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (mem == MAP_FAILED)
			_exit(2);
		if (floor)
			read_fault(mem, bytes);
		else
			fill_and_page_out(mem, bytes);
		c = 'r';
		if (write(ready[1], &c, 1) != 1)
			_exit(5);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		fail("victim %d did not get ready", v->pid);
	close(ready[0]);
	if (!floor) {
		char path[64], line[128];
		long long kib = -1;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/status", v->pid);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "VmSwap:", 7))
				kib = atoll(line + 7);
		if (f)
			fclose(f);
		if (kib < (long long)mib * 1024 * 9 / 10)
			fail("victim has only %lld of %zu MiB in swap", kib / 1024, mib);
	}
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
static pid_t probe_start(int *go_w, int *res_r)
{
	int go[2], res[2];
	pid_t pid;
	char c;

	if (pipe(go) || pipe(res))
		fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		long long t;

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

static void one_round(size_t mib, int nr, int floor, int report)
{
	long long swap0, exit_ns, release_ns = -1, cpu_ns, victims_ns = 0;
	long long t0, t, probe_alone = 0, probe_loaded = 0, slack;
	struct kthreads *k0, *k1;
	struct victim v[MAX_VICTIMS];
	int go = -1, res = -1, i;
	pid_t probe = 0;
	char c = 'g';

	k0 = malloc(sizeof(*k0));
	k1 = malloc(sizeof(*k1));
	if (!k0 || !k1)
		fail("out of memory");
	slack = 2LL * SLOT_CACHE * sysconf(_SC_NPROCESSORS_CONF);
	swap0 = swap_free_pages();
	for (i = 0; i < nr; i++)
		victim_start(&v[i], mib, floor);
	if (nr > 1) {
		/* The same work alone, just before, on the same system */
		probe_alone = probe_run(probe_iters);
		probe = probe_start(&go, &res);
	}
	write_str(PEAK_FILE, "0");
	usleep(20000);

	for (i = 0; i < nr; i++)
		v[i].cpu_before = task_cpu_ns(v[i].pid);
	kthreads_scan(k0);
	t0 = now_ns();
	if (probe && write(go, &c, 1) != 1)
		fail("probe: %s", strerror(errno));
	for (i = 0; i < nr; i++)
		kill(v[i].pid, SIGKILL);
	for (i = 0; i < nr; i++) {
		struct rusage ru;
		int status;

		if (wait4(v[i].pid, &status, 0, &ru) != v[i].pid)
			fail("wait4: %s", strerror(errno));
		victims_ns += (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
			      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL -
			      v[i].cpu_before;
	}
	exit_ns = now_ns() - t0;
	if (!floor) {
		/*
		 * 5 ms between polls (5% of a 512 MiB release): polling more
		 * often keeps the other vCPU busy while the patched kernel's
		 * worker releases swap, and under TCG on a 2-core host that
		 * slows the worker's vCPU, which the baseline's release (done
		 * before the reap, with this process blocked) never sees.
		 */
		struct timespec nap = { 0, 5000000 };

		for (;;) {
			t = now_ns();
			if (swap_free_pages() >= swap0 - slack) {
				release_ns = t - t0;
				break;
			}
			if (t - t0 > RELEASE_LIMIT_US * 1000)
				fail("swap not released after %lld s: %lld of %lld pages free",
				     RELEASE_LIMIT_US / 1000000, swap_free_pages(), swap0);
			nanosleep(&nap, NULL);
		}
	} else {
		usleep(50000);
	}
	kthreads_scan(k1);
	cpu_ns = victims_ns + kthreads_delta(k0, k1);
	if (probe) {
		if (read(res, &probe_loaded, sizeof(probe_loaded)) != sizeof(probe_loaded))
			fail("probe did not report");
		waitpid(probe, NULL, 0);
		close(go);
		close(res);
	}

	if (report) {
		printf("LSX-BENCH %s exit_latency_us us %.1f\n", case_name, exit_ns / 1e3);
		printf("LSX-BENCH %s cpu_total_ms ms %.2f\n", case_name, cpu_ns / 1e6);
		printf("LSX-BENCH %s cpu_killed_ms ms %.2f\n", case_name, victims_ns / 1e6);
		if (!floor) {
			long long peak = read_ll(PEAK_FILE);

			printf("LSX-BENCH %s swap_release_ms ms %.2f\n", case_name,
			       release_ns / 1e6);
			printf("LSX-BENCH %s batch_peak_kib KiB %lld\n", case_name,
			       peak < 0 ? 0 : peak);
		}
		if (probe)
			printf("LSX-BENCH %s probe_slowdown_pct %% %.1f\n", case_name,
			       100.0 * (probe_loaded - probe_alone) / probe_alone);
		fflush(stdout);
	}
	free(k0);
	free(k1);
}

int main(int argc, char **argv)
{
	int reps, nr = 1, floor = 0, r;
	char tail[16] = "";
	size_t mib;

	page_size = sysconf(_SC_PAGESIZE);
	if (argc != 3 || sscanf(argv[1], "s%zu-%15s", &mib, tail) != 2) {
		printf("LSX-ERROR swap-exit: usage: swapexit sMIB-N|sMIB-floor REPS\n");
		return 1;
	}
	case_name = argv[1];
	reps = atoi(argv[2]);
	if (!strcmp(tail, "floor"))
		floor = 1;
	else
		nr = atoi(tail);
	if (nr < 1 || nr > MAX_VICTIMS || !mib || reps < 1)
		fail("bad case or REPS");
	if (nr > 1)
		probe_calibrate();
	for (r = 0; r <= reps; r++)
		one_round(mib, nr, floor, r > 0);
	return 0;
}
