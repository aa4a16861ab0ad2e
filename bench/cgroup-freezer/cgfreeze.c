// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v2 freezer latency on a wide tree.  Runs in the guest, started by
 * guest.sh as
 *
 *	cgfreeze CASE REPS
 *
 * CASE is all-nN, top-nN, top-tasks-nN or depth-dN; the program builds the
 * tree
 *
 *	A -> {B, C}, B -> {D, E, F}, C -> {G}, each of D..G -> N leaves
 *
 * (depth-dN: a chain of N cgroups instead, see below)
 * under /sys/fs/cgroup/lsx-cgfreeze/, runs one warm-up round that is not
 * reported and REPS reported rounds, prints one line per sample
 *
 *	LSX-BENCH CASE freeze_thaw_us us VALUE
 *
 * and removes the tree again (tasks killed and reaped, rmdir deepest
 * first), so every case starts from nothing.  The metric is kernel-side
 * latency: CLOCK_MONOTONIC around each write() to cgroup.freeze.
 *
 *   all-nN	write 1 to cgroup.freeze of A, B, C, D, E, F, G in this order,
 *		then 0 to A..G in the same order; the sample is the sum of
 *		the 14 write latencies.  All leaves are empty.
 *   top-nN	D..G are frozen before measuring (not timed); freeze A, thaw
 *		A; the sample is the sum of the 2 write latencies.  A pair
 *		costs only tens of microseconds once the freezer skips the
 *		frozen subtrees, so to beat noise each reported sample is the
 *		median of PAIRS (51) back-to-back freeze/thaw pairs.
 *   top-tasks-nN
 *		one sleeping process (pause()) in every leaf, 4 * N tasks.
 *		D..G are NOT frozen beforehand: this case measures a real
 *		freeze in which every task must stop, to show that there is
 *		no regression there (with D..G pre-frozen it would only repeat
 *		top-nN).  The sample is the time from the start of the write
 *		of 1 to A's cgroup.freeze until A's cgroup.events reads
 *		"frozen 1", plus the time from the start of the write of 0
 *		until it reads "frozen 0".  Also prints the number of tasks
 *		found in the leaves once: LSX-BENCH CASE tasks count 4N.
 *   depth-dN	a chain of N cgroups, lsx-cgfreeze/d/d/.../d, with
 *		DEPTH_TASKS (10) sleeping processes in the bottom one and
 *		none elsewhere; freeze and thaw the top one as in
 *		top-tasks-nN (write 1 until the top reads "frozen 1", write 0
 *		until it reads "frozen 0").  Every one of the N cgroups
 *		changes state, bottom-up when the last task stops and
 *		top-down on the thaw, so the case shows the cost of carrying
 *		the frozen state up and down a deep hierarchy next to that
 *		of stopping real tasks.  A single pair is timed with about a
 *		millisecond of resolution (see below), so each sample is the
 *		median of DEPTH_PAIRS (11) pairs.  Also prints the number of
 *		tasks found in the bottom cgroup once.
 *
 * After every freeze and thaw the "frozen" values in cgroup.events of A..G
 * are checked, and those of all leaves after every freeze and thaw of
 * all-nN and top-tasks-nN and after the last pair of each top-nN sample
 * (untimed); a wrong state, like any other failure, prints
 * "LSX-ERROR cgroup-freezer: CASE: ..." and exits with 1 after killing the
 * tasks and removing the tree.
 *
 * The sleepers are started with clone3(CLONE_INTO_CGROUP) directly in their
 * leaf: moving 4000 tasks by writing cgroup.procs would take the threadgroup
 * rwsem for writing, an RCU grace period each.  Before the first round and
 * after every thaw the program waits until nothing but itself is runnable
 * (/proc/loadavg), so each freeze finds all sleepers back in pause().
 *
 * Waiting for "frozen 1" uses poll() on cgroup.events (POLLPRI): kernfs
 * wakes pollers on a change, but cgroup_file_notify() sends at most one
 * notification per CGROUP_FILE_NOTIFY_MIN_INTV (HZ/100 rounded up to
 * jiffies: 12 ms at HZ=250) and delays the rest with a timer.  So the file
 * is read again after every wakeup and after a 1 ms poll timeout: a
 * notification held back by the rate limit costs at most ~1 ms of
 * resolution, not 12 ms.  30 s without the expected state fail the run.
 * Rounds are separated by a pause longer than the rate limit so that every
 * round starts with the notification timers idle.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/sched.h>	/* struct clone_args, CLONE_INTO_CGROUP */

#define ROOT		"/sys/fs/cgroup/lsx-cgfreeze"
#define PAIRS		51		/* freeze/thaw pairs per top-nN sample */
#define WAIT_NS		30000000000LL	/* give up waiting for a state */
#define POLL_MS		1		/* re-read cgroup.events at least this often */
#define GAP_MS		20		/* pause between rounds, > rate limit */
#define MAX_N		100000
#define MAX_DEPTH	200		/* cgroup nesting is not limited, paths are */
#define DEPTH_TASKS	10		/* sleepers in the bottom of the chain */
#define DEPTH_PAIRS	11		/* freeze/thaw pairs per depth-dN sample */

enum kind { ALL, TOP, TOP_TASKS, DEPTH };

/* The inner cgroups, in the order the all-nN case writes them. */
enum { A, B, C, D, E, F, G, NR_INNER };

static const char *const inner_path[NR_INNER] = {
	[A] = ROOT "/A",
	[B] = ROOT "/A/B",
	[C] = ROOT "/A/C",
	[D] = ROOT "/A/B/D",
	[E] = ROOT "/A/B/E",
	[F] = ROOT "/A/B/F",
	[G] = ROOT "/A/C/G",
};

static const char *case_name;
static int freeze_fd[NR_INNER] = { -1, -1, -1, -1, -1, -1, -1 };
static int events_fd[NR_INNER] = { -1, -1, -1, -1, -1, -1, -1 };
static pid_t *tasks;		/* top-tasks: one sleeper per leaf */
static int nr_tasks;
static int tree_made;		/* ROOT is ours to remove on failure */
static int chain_len;		/* depth-dN: cgroups in the chain */

static void cleanup(void);

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	printf("LSX-ERROR cgroup-freezer: %s: ", case_name ? case_name : "setup");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	cleanup();
	exit(1);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static const char *leaf_path(int parent, int i)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/l%d", inner_path[parent], i);
	return buf;
}

static int open_file(const char *dir, const char *file, int flags)
{
	char p[300];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return open(p, flags | O_CLOEXEC);
}

/* The "frozen" value of an open cgroup.events, or -1. */
static int read_frozen(int fd)
{
	char buf[128], *s;
	ssize_t r;

	r = pread(fd, buf, sizeof(buf) - 1, 0);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	s = strstr(buf, "frozen ");
	if (!s)
		return -1;
	return s[7] == '1';
}

static int read_frozen_path(const char *dir)
{
	int fd = open_file(dir, "cgroup.events", O_RDONLY);
	int v;

	if (fd < 0)
		return -1;
	v = read_frozen(fd);
	close(fd);
	return v;
}

/* Timed write of "1" or "0" to an inner cgroup's cgroup.freeze, in ns. */
static int64_t write_freeze(int node, int freeze)
{
	int64_t t0, t1;
	ssize_t r;

	t0 = now_ns();
	r = write(freeze_fd[node], freeze ? "1" : "0", 1);
	t1 = now_ns();
	if (r != 1)
		fail("write %d to %s/cgroup.freeze: %s", freeze, inner_path[node],
		     r < 0 ? strerror(errno) : "short write");
	return t1 - t0;
}

/*
 * Write to an inner cgroup's cgroup.freeze and wait until its
 * cgroup.events shows the same frozen value; the time from the start of
 * the write, in ns.
 */
static int64_t freeze_wait_node(int node, const char *path, int freeze)
{
	struct pollfd pfd = { .fd = events_fd[node], .events = POLLPRI | POLLERR };
	int64_t t0 = now_ns(), t;
	int v;

	if (write(freeze_fd[node], freeze ? "1" : "0", 1) != 1)
		fail("write %d to %s/cgroup.freeze: %s", freeze, path,
		     strerror(errno));
	for (;;) {
		v = read_frozen(events_fd[node]);
		t = now_ns();
		if (v < 0)
			fail("cannot read %s/cgroup.events", path);
		if (v == freeze)
			return t - t0;
		if (t - t0 > WAIT_NS)
			fail("%s still reads frozen %d %.1f s after writing %d",
			     path, v, (t - t0) / 1e9, freeze);
		if (poll(&pfd, 1, POLL_MS) < 0 && errno != EINTR)
			fail("poll %s/cgroup.events: %s", path, strerror(errno));
	}
}

/* The same for A. */
static int64_t freeze_wait(int freeze)
{
	return freeze_wait_node(A, inner_path[A], freeze);
}

/* Check the frozen state of A..G against want[]; @when names the step. */
static void check_inner(const int want[NR_INNER], const char *when)
{
	int i, v;

	for (i = 0; i < NR_INNER; i++) {
		v = read_frozen(events_fd[i]);
		if (v != want[i])
			fail("after %s: %s reads frozen %d, expected %d", when,
			     inner_path[i], v, want[i]);
	}
}

/* Check that every leaf reads frozen @want. */
static void check_leaves(int n, int want, const char *when)
{
	int p, i, v;

	for (p = D; p <= G; p++)
		for (i = 0; i < n; i++) {
			v = read_frozen_path(leaf_path(p, i));
			if (v != want)
				fail("after %s: %s reads frozen %d, expected %d",
				     when, leaf_path(p, i), v, want);
		}
}

static void make_dir(const char *p)
{
	if (mkdir(p, 0755) && errno != EEXIST)
		fail("mkdir %s: %s", p, strerror(errno));
}

/* rmdir a cgroup; retry briefly while its last tasks are on their way out. */
static int remove_dir(const char *p)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (!rmdir(p) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		sleep_ms(10);
	}
	return -1;
}

/* Remove a cgroup tree depth first; for a tree left behind by a crash. */
static int remove_tree(const char *p)
{
	struct dirent *de;
	char sub[512];
	DIR *d;
	int ret = 0;

	d = opendir(p);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", p, de->d_name);
		ret |= remove_tree(sub);
	}
	closedir(d);
	return ret | remove_dir(p);
}

static void build_tree(int n)
{
	int i, p;

	if (remove_tree(ROOT))
		fail("cannot remove an old %s: %s", ROOT, strerror(errno));
	tree_made = 1;
	make_dir(ROOT);
	for (i = A; i < NR_INNER; i++)
		make_dir(inner_path[i]);
	for (p = D; p <= G; p++)
		for (i = 0; i < n; i++)
			make_dir(leaf_path(p, i));
	for (i = A; i < NR_INNER; i++) {
		freeze_fd[i] = open_file(inner_path[i], "cgroup.freeze", O_WRONLY);
		events_fd[i] = open_file(inner_path[i], "cgroup.events", O_RDONLY);
		if (freeze_fd[i] < 0 || events_fd[i] < 0)
			fail("cannot open %s/cgroup.{freeze,events}: %s",
			     inner_path[i], strerror(errno));
	}
}

/* The cgroup at @level (1 = the top) of the depth-dN chain. */
static const char *chain_path(int level)
{
	static char buf[sizeof(ROOT) + 2 * MAX_DEPTH + 1];
	int i, len;

	len = snprintf(buf, sizeof(buf), "%s", ROOT);
	for (i = 0; i < level; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "/d");
	return buf;
}

/*
 * Build the chain of @n cgroups under ROOT; the top one's files take the
 * slots of A, which this case does not make.
 */
static void build_chain(int n)
{
	int i;

	if (remove_tree(ROOT))
		fail("cannot remove an old %s: %s", ROOT, strerror(errno));
	tree_made = 1;
	make_dir(ROOT);
	for (i = 1; i <= n; i++)
		make_dir(chain_path(i));
	chain_len = n;
	freeze_fd[A] = open_file(chain_path(1), "cgroup.freeze", O_WRONLY);
	events_fd[A] = open_file(chain_path(1), "cgroup.events", O_RDONLY);
	if (freeze_fd[A] < 0 || events_fd[A] < 0)
		fail("cannot open %s/cgroup.{freeze,events}: %s", chain_path(1),
		     strerror(errno));
}

/* Start one sleeping process in cgroup @dir (clone3 into the cgroup). */
static void spawn_one(const char *dir)
{
	struct clone_args args;
	long pid;
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fail("open %s: %s", dir, strerror(errno));
	memset(&args, 0, sizeof(args));
	args.flags = CLONE_INTO_CGROUP;
	args.exit_signal = SIGCHLD;
	args.cgroup = fd;
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		for (;;)
			pause();
	}
	close(fd);
	if (pid < 0)
		fail("clone3 into %s: %s", dir, strerror(errno));
	tasks[nr_tasks++] = pid;
}

/* depth-dN: DEPTH_TASKS sleepers in the bottom cgroup of the chain. */
static void spawn_chain_tasks(void)
{
	int i;

	tasks = calloc(DEPTH_TASKS, sizeof(*tasks));
	if (!tasks)
		fail("out of memory");
	fflush(stdout);
	for (i = 0; i < DEPTH_TASKS; i++)
		spawn_one(chain_path(chain_len));
}

/* Check that every cgroup of the chain reads frozen @want. */
static void check_chain(int want, const char *when)
{
	int i, v;

	for (i = 1; i <= chain_len; i++) {
		v = read_frozen_path(chain_path(i));
		if (v != want)
			fail("after %s: %s reads frozen %d, expected %d", when,
			     chain_path(i), v, want);
	}
}

/* Start one sleeping process directly in each leaf (clone3 into the cgroup). */
static void spawn_tasks(int n)
{
	int p, i;

	tasks = calloc(4 * (size_t)n, sizeof(*tasks));
	if (!tasks)
		fail("out of memory");
	fflush(stdout);
	for (p = D; p <= G; p++)
		for (i = 0; i < n; i++)
			spawn_one(leaf_path(p, i));
}

/* Processes listed in the leaves' cgroup.procs; each leaf must hold one. */
static int count_tasks(int n)
{
	char buf[4096];
	int p, i, fd, c, total = 0;
	ssize_t r, j;

	for (p = D; p <= G; p++)
		for (i = 0; i < n; i++) {
			fd = open_file(leaf_path(p, i), "cgroup.procs", O_RDONLY);
			if (fd < 0)
				fail("open %s/cgroup.procs: %s", leaf_path(p, i),
				     strerror(errno));
			c = 0;
			while ((r = read(fd, buf, sizeof(buf))) > 0)
				for (j = 0; j < r; j++)
					c += buf[j] == '\n';
			close(fd);
			if (c != 1)
				fail("%s holds %d processes, expected 1", leaf_path(p, i), c);
			total += c;
		}
	return total;
}

/* Processes listed in the chain's bottom cgroup.procs. */
static int count_chain_tasks(void)
{
	char buf[4096];
	int fd, c = 0;
	ssize_t r, j;

	fd = open_file(chain_path(chain_len), "cgroup.procs", O_RDONLY);
	if (fd < 0)
		fail("open %s/cgroup.procs: %s", chain_path(chain_len),
		     strerror(errno));
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (j = 0; j < r; j++)
			c += buf[j] == '\n';
	close(fd);
	return c;
}

/*
 * Wait until no task but ourselves is runnable (the sleepers are back in
 * pause() after a thaw or after their start), at most 5 s; no error when
 * it is never reached (a busy kworker), the round is just less quiet.
 */
static void settle(void)
{
	int64_t t0 = now_ns();
	unsigned int run;
	FILE *f;
	int ok;

	do {
		f = fopen("/proc/loadavg", "re");
		if (!f)
			return;
		ok = fscanf(f, "%*s %*s %*s %u/", &run) == 1 && run <= 1;
		fclose(f);
		if (ok)
			return;
		sleep_ms(2);
	} while (now_ns() - t0 < 5000000000LL);
}

static void kill_tasks(void)
{
	int i;

	for (i = 0; i < nr_tasks; i++)
		kill(tasks[i], SIGKILL);
	for (i = 0; i < nr_tasks; i++)
		while (waitpid(tasks[i], NULL, 0) < 0 && errno == EINTR)
			;
	nr_tasks = 0;
}

static void close_files(void)
{
	int i;

	for (i = A; i < NR_INNER; i++) {
		if (freeze_fd[i] >= 0)
			close(freeze_fd[i]);
		if (events_fd[i] >= 0)
			close(events_fd[i]);
		freeze_fd[i] = -1;
		events_fd[i] = -1;
	}
}

/* Best effort on the way out: no tasks, no tree, no open files. */
static void cleanup(void)
{
	kill_tasks();
	close_files();
	if (tree_made)
		remove_tree(ROOT);
}

static void teardown_chain(void)
{
	int i;

	kill_tasks();
	close_files();
	for (i = chain_len; i >= 1; i--)
		if (remove_dir(chain_path(i)))
			fail("rmdir %s: %s", chain_path(i), strerror(errno));
	if (remove_dir(ROOT))
		fail("rmdir %s: %s", ROOT, strerror(errno));
	tree_made = 0;
}

static void teardown(int n)
{
	int i, p;

	kill_tasks();
	close_files();
	for (p = D; p <= G; p++)
		for (i = 0; i < n; i++)
			if (remove_dir(leaf_path(p, i)))
				fail("rmdir %s: %s", leaf_path(p, i), strerror(errno));
	for (i = NR_INNER - 1; i >= A; i--)
		if (remove_dir(inner_path[i]))
			fail("rmdir %s: %s", inner_path[i], strerror(errno));
	if (remove_dir(ROOT))
		fail("rmdir %s: %s", ROOT, strerror(errno));
	tree_made = 0;
}

static const int all_frozen[NR_INNER] = { 1, 1, 1, 1, 1, 1, 1 };
static const int none_frozen[NR_INNER] = { 0, 0, 0, 0, 0, 0, 0 };
static const int leaves_frozen[NR_INNER] = { 0, 0, 0, 1, 1, 1, 1 };

/* all-nN: freeze A..G, thaw A..G; sum of the 14 write latencies. */
static int64_t round_all(int n)
{
	int64_t sum = 0;
	int i;

	for (i = A; i < NR_INNER; i++)
		sum += write_freeze(i, 1);
	check_inner(all_frozen, "freezing A..G");
	check_leaves(n, 1, "freezing A..G");
	for (i = A; i < NR_INNER; i++)
		sum += write_freeze(i, 0);
	check_inner(none_frozen, "thawing A..G");
	check_leaves(n, 0, "thawing A..G");
	return sum;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* top-nN: median over PAIRS of (freeze A + thaw A), D..G staying frozen. */
static int64_t round_top(int n)
{
	int64_t pair[PAIRS];
	int i;

	for (i = 0; i < PAIRS; i++) {
		pair[i] = write_freeze(A, 1);
		check_inner(all_frozen, "freezing A");
		pair[i] += write_freeze(A, 0);
		check_inner(leaves_frozen, "thawing A");
	}
	check_leaves(n, 1, "thawing A");
	qsort(pair, PAIRS, sizeof(pair[0]), cmp_i64);
	return pair[PAIRS / 2];
}

/* top-tasks-nN: freeze A until frozen 1, thaw A until frozen 0. */
static int64_t round_tasks(int n)
{
	int64_t sum;

	sum = freeze_wait(1);
	check_inner(all_frozen, "freezing A");
	check_leaves(n, 1, "freezing A");
	sum += freeze_wait(0);
	check_inner(none_frozen, "thawing A");
	check_leaves(n, 0, "thawing A");
	settle();
	return sum;
}

/*
 * depth-dN: median over DEPTH_PAIRS of (freeze the top until it reads
 * frozen 1 + thaw it until it reads frozen 0).
 */
static int64_t round_depth(void)
{
	int64_t pair[DEPTH_PAIRS];
	int i;

	for (i = 0; i < DEPTH_PAIRS; i++) {
		pair[i] = freeze_wait_node(A, chain_path(1), 1);
		check_chain(1, "freezing the top");
		pair[i] += freeze_wait_node(A, chain_path(1), 0);
		check_chain(0, "thawing the top");
		settle();
		sleep_ms(GAP_MS);
	}
	qsort(pair, DEPTH_PAIRS, sizeof(pair[0]), cmp_i64);
	return pair[DEPTH_PAIRS / 2];
}

int main(int argc, char **argv)
{
	enum kind kind;
	const char *s;
	int n, reps, r, i;
	int64_t v;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3) {
		printf("LSX-ERROR cgroup-freezer: usage: cgfreeze CASE REPS\n");
		return 2;
	}
	case_name = argv[1];
	reps = atoi(argv[2]);
	if (!strncmp(case_name, "all-n", 5)) {
		kind = ALL;
		s = case_name + 5;
	} else if (!strncmp(case_name, "top-n", 5)) {
		kind = TOP;
		s = case_name + 5;
	} else if (!strncmp(case_name, "top-tasks-n", 11)) {
		kind = TOP_TASKS;
		s = case_name + 11;
	} else if (!strncmp(case_name, "depth-d", 7)) {
		kind = DEPTH;
		s = case_name + 7;
	} else {
		fail("unknown case (all-nN, top-nN, top-tasks-nN or depth-dN)");
	}
	n = atoi(s);
	if (n < 1 || n > (kind == DEPTH ? MAX_DEPTH : MAX_N) || reps < 1)
		fail("bad N (%s) or REPS (%s)", s, argv[2]);
	if (access("/sys/fs/cgroup/cgroup.subtree_control", F_OK))
		fail("no cgroup2 at /sys/fs/cgroup");

	if (kind == DEPTH) {
		build_chain(n);
		spawn_chain_tasks();
		r = count_chain_tasks();
		if (r != DEPTH_TASKS)
			fail("%d tasks in %s, expected %d", r, chain_path(n),
			     DEPTH_TASKS);
		printf("LSX-BENCH %s tasks count %d\n", case_name, r);
		settle();
	} else {
		build_tree(n);
	}
	if (kind == TOP) {
		/* Freeze D..G beforehand, not timed. */
		for (i = D; i <= G; i++)
			write_freeze(i, 1);
		check_inner(leaves_frozen, "freezing D..G");
		check_leaves(n, 1, "freezing D..G");
	} else if (kind == TOP_TASKS) {
		spawn_tasks(n);
		r = count_tasks(n);
		if (r != 4 * n)
			fail("%d tasks in the leaves, expected %d", r, 4 * n);
		printf("LSX-BENCH %s tasks count %d\n", case_name, r);
		settle();
	}

	/* Round 0 is the warm-up. */
	for (r = 0; r <= reps; r++) {
		sleep_ms(GAP_MS);
		switch (kind) {
		case ALL:
			v = round_all(n);
			break;
		case TOP:
			v = round_top(n);
			break;
		case DEPTH:
			v = round_depth();
			break;
		default:
			v = round_tasks(n);
			break;
		}
		if (r > 0)
			printf("LSX-BENCH %s freeze_thaw_us us %.1f\n", case_name, v / 1e3);
	}

	if (kind == TOP) {
		for (i = D; i <= G; i++)
			write_freeze(i, 0);
		check_inner(none_frozen, "thawing D..G");
	}
	if (kind == DEPTH)
		teardown_chain();
	else
		teardown(n);
	return 0;
}
