/* cb_selflaunch_run: the launch under mpirun, its signals and its end
 * (contract in cb_selflaunch.h). */
#define _GNU_SOURCE
#include "cb_selflaunch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cb_watchdog.h" /* CB_EXIT_ABORTED */

static volatile pid_t child;
static volatile sig_atomic_t last_sig;
static struct timespec last_at;

/* Forwards sig to the launcher, once: a repeat of the last signal within a
 * second (timeout(1) signals its child and then its process group) is
 * dropped; Open MPI's mpirun takes a second SIGINT as "kill now". */
static void forward(int sig)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (sig == last_sig && (now.tv_sec - last_at.tv_sec) * 1000000000L +
				       (now.tv_nsec - last_at.tv_nsec) < 1000000000L)
		return;
	last_sig = sig;
	last_at = now;
	if (child > 0)
		kill(child, sig);
}

void cb_stop_signals_set(void (*handler)(int))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* In the forked child: its own process group (a terminal's ^C reaches this
 * process only, which forwards it once), ended with its parent, stdin from
 * /dev/null (mpirun forwards stdin to rank 0; in a background group a read
 * of the terminal would stop it), default signal actions; then the exec. */
static void exec_launcher(const struct cb_selflaunch *sl, pid_t parent)
{
	int fd = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(CB_EXIT_ABORTED);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	cb_stop_signals_set(SIG_DFL);
	execv(sl->mpirun, sl->argv);
	cb_log("cannot run %s: %s", sl->mpirun, strerror(errno));
	_exit(127);
}

/* The command as typed, words joined by spaces (as the metadata's
 * command_line), into buf (len bytes, truncated). */
static void typed_line(const struct cb_selflaunch *sl, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < sl->typed_argc && k < len - 1; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "", sl->typed_argv[i]);
}

/* The marker and record for the ranks: "NP\tFROM\tCOMMAND\tNOTES\tTYPED"
 * (tabs in the texts become spaces). */
static int set_marker(const struct cb_selflaunch *sl)
{
	char line[2048], typed[2048], *v = NULL;
	int rc;

	cb_selflaunch_line(sl, line, sizeof(line));
	typed_line(sl, typed, sizeof(typed));
	for (char *p = line; *p; p++)
		*p = *p == '\t' ? ' ' : *p;
	for (char *p = typed; *p; p++)
		*p = *p == '\t' ? ' ' : *p;
	if (asprintf(&v, "%d\t%s\t%s\t%s\t%s", sl->np, sl->from, line, sl->notes, typed) < 0)
		return -1;
	rc = setenv("CB_SELFLAUNCH", v, 1);
	free(v);
	return rc;
}

/* The launcher's end as an exit status. */
static int end_status(const struct cb_selflaunch *sl, int ws)
{
	/* mpirun stopped by a forwarded signal exits 1 whatever the ranks
	 * said: the run was aborted (exit 3), as a rank so stopped says */
	if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0 && last_sig) {
		cb_log("%s: stopped by signal %d (%s), forwarded to %s (its exit status: %d)",
		       sl->from, (int)last_sig, strsignal(last_sig), sl->mpirun, WEXITSTATUS(ws));
		return CB_EXIT_ABORTED;
	}
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	cb_log("%s: %s was ended by signal %d (%s)", sl->from, sl->mpirun, WTERMSIG(ws),
	       strsignal(WTERMSIG(ws)));
	return CB_EXIT_ABORTED;
}

int cb_selflaunch_run(struct cb_selflaunch *sl)
{
	pid_t parent = getpid(), pid;
	int ws = 0;

	if (set_marker(sl) != 0) {
		cb_log("%s: cannot set CB_SELFLAUNCH for the ranks: %s", sl->from, strerror(errno));
		return CB_EXIT_ABORTED;
	}
	cb_stop_signals_set(forward);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		cb_log("%s: cannot start %s: %s", sl->from, sl->mpirun, strerror(errno));
		return CB_EXIT_ABORTED;
	}
	if (pid == 0)
		exec_launcher(sl, parent);
	child = pid;
	setpgid(pid, pid); /* as the child does: whichever runs first */
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR) {
			cb_log("%s: lost %s: %s", sl->from, sl->mpirun, strerror(errno));
			return CB_EXIT_ABORTED;
		}
	child = 0;
	return end_status(sl, ws);
}
