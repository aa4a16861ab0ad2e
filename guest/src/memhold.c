// SPDX-License-Identifier: GPL-2.0
/*
 * memhold MIB pageout|keep STATUSFILE
 *
 * Hold MIB MiB of anonymous memory filled with a pattern that depends on
 * each page's index, and stay in the background.  With "pageout" the
 * memory is pushed out to swap (MADV_PAGEOUT) once filled, so that a
 * hibernation image and a resume have to bring it back, and again after
 * every check.  The pid is
 * written to STATUSFILE as "pid N" once the memory is ready.  On SIGUSR1
 * the holder reads every page back and rewrites STATUSFILE with
 * "ok CHECKS" or "bad PAGE GOT WANT"; SIGTERM ends it.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static volatile sig_atomic_t check, stop;

static void on_usr1(int sig)
{
	check = 1;
}

static void on_term(int sig)
{
	stop = 1;
}

static uint64_t pattern(size_t page, size_t word)
{
	return 0x9e3779b97f4a7c15ULL * (page + 1) ^ word;
}

static void status(const char *file, const char *fmt, ...)
{
	char tmp[4096];
	va_list ap;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
	rename(tmp, file);
}

int main(int argc, char **argv)
{
	size_t pages, words, p, w, ps = sysconf(_SC_PAGESIZE);
	unsigned long checks = 0;
	int pageout;
	uint64_t *mem;
	sigset_t none, block;

	if (argc != 4 || (strcmp(argv[2], "pageout") && strcmp(argv[2], "keep"))) {
		fprintf(stderr, "usage: memhold MIB pageout|keep STATUSFILE\n");
		return 2;
	}
	pages = strtoul(argv[1], NULL, 0) * (1024 * 1024 / ps);
	words = ps / sizeof(uint64_t);
	mem = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("memhold: mmap");
		return 1;
	}
	for (p = 0; p < pages; p++)
		for (w = 0; w < words; w++)
			mem[p * words + w] = pattern(p, w);
	pageout = !strcmp(argv[2], "pageout");
	if (pageout && madvise(mem, pages * ps, MADV_PAGEOUT))
		perror("memhold: MADV_PAGEOUT");

	/* The signals only arrive inside sigsuspend(): none is lost. */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &none);
	signal(SIGUSR1, on_usr1);
	signal(SIGTERM, on_term);
	status(argv[3], "pid %d\n", (int)getpid());
	while (!stop) {
		if (!check) {
			sigsuspend(&none);
			continue;
		}
		check = 0;
		checks++;
		for (p = 0; p < pages; p++)
			for (w = 0; w < words; w++)
				if (mem[p * words + w] != pattern(p, w)) {
					status(argv[3], "bad %zu %llx %llx\n", p,
					       (unsigned long long)mem[p * words + w],
					       (unsigned long long)pattern(p, w));
					goto next;
				}
		status(argv[3], "ok %lu\n", checks);
next:
		/* back to swap: the next check reads it from there again */
		if (pageout && madvise(mem, pages * ps, MADV_PAGEOUT))
			perror("memhold: MADV_PAGEOUT");
	}
	return 0;
}
