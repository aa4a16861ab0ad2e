// SPDX-License-Identifier: GPL-2.0
/*
 * spawn zombies|sleepers|forkstorm N
 *
 * Start a holder process that owns N children, then print the holder's
 * pid and exit.  With "zombies" every child exits at once and stays a
 * zombie (the holder never reaps it); with "sleepers" every child sleeps
 * in pause(); with "forkstorm" every child forks short-lived children
 * (which exit at once) and reaps them, as fast as it can, for ever.  The
 * pid is printed only when all N children are in that state.  SIGTERM to
 * the holder kills and reaps the children, then the holder exits.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	stop = 1;
}

enum kind { ZOMBIES, SLEEPERS, FORKSTORM };

static void forkstorm(void)
{
	pid_t c;

	for (;;) {
		c = fork();
		if (c == 0)
			_exit(0);
		if (c > 0)
			waitpid(c, NULL, 0);
	}
}

static int holder(int n, enum kind kind, int fd)
{
	struct sigaction sa = { .sa_handler = on_term };
	pid_t *pids = calloc(n, sizeof(*pids));
	int i;

	if (!pids)
		return 1;
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			fprintf(stderr, "spawn: fork %d of %d: %s\n", i, n, strerror(errno));
			kill(0, SIGKILL);
			return 1;
		}
		if (pids[i] == 0) {
			if (kind == ZOMBIES)
				_exit(0);
			if (kind == FORKSTORM)
				forkstorm();
			for (;;)
				pause();
		}
	}
	for (i = 0; i < n; i++) {
		siginfo_t si;

		if (kind == ZOMBIES) {
			/* Wait until the child is a zombie, but leave it one. */
			while (waitid(P_PID, pids[i], &si, WEXITED | WNOWAIT) < 0 &&
			       errno == EINTR)
				;
		}
	}
	if (kind == SLEEPERS) {
		/* Sleepers: wait until each is asleep in pause(). */
		for (i = 0; i < n; i++) {
			char path[64], buf[512], *s;
			FILE *f;

			snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
			for (;;) {
				f = fopen(path, "r");
				if (!f)
					break;
				s = fgets(buf, sizeof(buf), f);
				fclose(f);
				s = s ? strrchr(buf, ')') : NULL;
				if (!s || s[2] == 'S')
					break;
				usleep(1000);
			}
		}
	}
	dprintf(fd, "%d\n", getpid());
	close(fd);
	while (!stop)
		pause();
	for (i = 0; i < n; i++)
		if (kind != ZOMBIES)
			kill(pids[i], SIGKILL);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}

int main(int argc, char **argv)
{
	int p[2], n;
	enum kind kind;
	char buf[32];
	ssize_t len;
	pid_t pid;

	if (argc != 3 || (strcmp(argv[1], "zombies") && strcmp(argv[1], "sleepers") &&
			  strcmp(argv[1], "forkstorm"))) {
		fprintf(stderr, "usage: spawn zombies|sleepers|forkstorm N\n");
		return 2;
	}
	n = atoi(argv[2]);
	kind = !strcmp(argv[1], "zombies") ? ZOMBIES :
	       !strcmp(argv[1], "sleepers") ? SLEEPERS : FORKSTORM;
	if (pipe(p))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(p[0]);
		setsid();
		/* Do not keep the caller's stdout open: $(spawn ...) must return. */
		freopen("/dev/null", "w", stdout);
		_exit(holder(n, kind, p[1]));
	}
	close(p[1]);
	len = read(p[0], buf, sizeof(buf) - 1);
	if (len <= 0) {
		fprintf(stderr, "spawn: holder failed\n");
		return 1;
	}
	buf[len] = 0;
	fputs(buf, stdout);
	return 0;
}
