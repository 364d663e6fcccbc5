/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Agents: the roles of an rxe guest program as processes of their own,
 * each opening the device itself (libibverbs does not support verbs
 * across fork()), driven by the parent over a socketpair with one-line
 * commands that each get one reply: "ok <hex value> [text]" or
 * "err <errno> <why>". The program gives the loop that serves them.
 *
 * Include after common.h.
 */
#ifndef RXE_GUEST_AGENT_H
#define RXE_GUEST_AGENT_H

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

/* An agent that does not answer within this is killed */
#define ASK_TIMEOUT_S	120

struct agent {
	char name[16];
	pid_t pid;
	int sock;
	char reply[512];
};

/* must() counts its successes as checks ("ok" lines) unless this is set */
static int must_quiet;

/* Fork an agent that runs serve(its end of the socketpair) */
static void start(struct agent *a, void (*serve)(int sock), const char *fmt, ...)
	__attribute__((format(printf, 3, 4), unused));
static void start(struct agent *a, void (*serve)(int sock), const char *fmt, ...)
{
	struct timeval tv = { .tv_sec = ASK_TIMEOUT_S };
	va_list ap;
	int sv[2];

	va_start(ap, fmt);
	vsnprintf(a->name, sizeof(a->name), fmt, ap);
	va_end(ap);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv)) {
		perror("socketpair");
		exit(2);
	}
	fflush(stdout);
	a->pid = fork();
	if (a->pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!a->pid) {
		/* none of the parent's other sockets: their EOF must come */
		if (sv[1] != 3 && dup2(sv[1], 3) < 0)
			_exit(2);
		close_range(4, ~0U, 0);
		serve(3);
		_exit(0);
	}
	close(sv[1]);
	a->sock = sv[0];
	if (setsockopt(a->sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		perror("SO_RCVTIMEO");
		exit(2);
	}
}

/*
 * Run a command in an agent; returns the errno it reported (0: success)
 * and leaves its value in *val, its whole reply in a->reply. Every agent
 * command bounds its own waits; an agent stuck anyway (in a verb) gets
 * ASK_TIMEOUT_S, then SIGKILL.
 */
static int ask(struct agent *a, uint32_t *val, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), unused));
static int ask(struct agent *a, uint32_t *val, const char *fmt, ...)
{
	char cmd[256];
	unsigned int v = 0;
	int err = EPIPE;
	va_list ap;
	ssize_t r;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	a->reply[0] = 0;
	if (write(a->sock, cmd, strlen(cmd)) < 0)
		return EPIPE;
	r = read(a->sock, a->reply, sizeof(a->reply) - 1);
	if (r < 0 && errno == EAGAIN) {
		snprintf(a->reply, sizeof(a->reply), "no reply to \"%.64s\" in %d s: killed",
			 cmd, ASK_TIMEOUT_S);
		kill(a->pid, SIGKILL);
		return ETIMEDOUT;
	}
	if (r <= 0)
		return EPIPE;
	a->reply[r] = 0;
	if (sscanf(a->reply, "ok %x", &v) == 1)
		err = 0;
	else
		sscanf(a->reply, "err %d", &err);
	if (val)
		*val = v;
	return err;
}

/*
 * ask() that must succeed; "not ok" with the agent's words otherwise. The
 * command is formatted here, so that a call reads as the command it sends.
 */
static int must(struct agent *a, uint32_t *val, const char *what,
		const char *fmt, ...) __attribute__((format(printf, 4, 5), unused));
static int must(struct agent *a, uint32_t *val, const char *what,
		const char *fmt, ...)
{
	char cmd[256];
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	err = ask(a, val, "%s", cmd);
	if (err || !must_quiet)
		check(!err, "%s: %s%s%s", a->name, what, err ? ": " : "",
		      err ? a->reply : "");
	return err;
}

/* An agent that will not answer any more: its socket closed */
static inline void agent_forget(struct agent *a)
{
	if (a->sock > 0)
		close(a->sock);
	a->sock = -1;
	a->pid = 0;
}

/* A wait status as a shell says it: the exit status, 128 + the signal */
static inline int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Wait for a process, REAP_TIMEOUT_S at most: its exit status, 128 + the
 * signal that ended it, or -1 if it did not end (its kernel stack and the
 * blocked tasks are then dumped to the log: a process that cannot die is
 * what a lifetime bug looks like)
 */
#define REAP_TIMEOUT_S	60
static inline int reap(pid_t pid)
{
	long end = now_ms() + REAP_TIMEOUT_S * 1000;
	char path[64], line[256];
	int status;
	FILE *f;

	do {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return exit_code(status);
		if (r < 0)
			return -1;
		usleep(10000);
	} while (now_ms() < end);
	printf("# process %d has not ended in %d s; its kernel stack:\n",
	       (int)pid, REAP_TIMEOUT_S);
	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		printf("#   %s", line);
	if (f)
		fclose(f);
	f = fopen("/proc/sysrq-trigger", "w");
	if (f) {
		fputs("w", f);
		fclose(f);
	}
	fflush(stdout);
	return -1;
}

/*
 * Whether rdma resource lists QP qpn on dev's port 1: 1 yes, 0 no, -1 the
 * tool did not answer (a check on it must not pass by default).
 */
static inline int qp_listed(const char *dev, uint32_t qpn)
{
	char cmd[128], line[512], want[32];
	int listed = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "rdma resource show qp link %s/1 lqpn %u 2>&1",
		 dev, qpn);
	snprintf(want, sizeof(want), "lqpn %u ", qpn);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, want))
			listed = 1;
	return pclose(p) ? -1 : listed;
}

#endif /* RXE_GUEST_AGENT_H */
