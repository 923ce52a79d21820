/* cb_slurm: a Slurm job confirmed by this process's ancestry (contract in
 * cb_slurm.h). */
#define _GNU_SOURCE
#include "cb_slurm.h"

#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_DEPTH 64 /* ancestors looked at: deeper than any launch */

/* The parent of pid from /proc/pid/stat (its 4th field, after the name in
 * parentheses, which may hold spaces), or 0. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *close;
	FILE *f;
	int ppid = 0;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	close = strrchr(buf, ')');
	if (!close || sscanf(close + 1, " %*c %d", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/* Whether pid is a slurmstepd whose title names job: its command name is
 * slurmstepd and its command line holds "[job." or "[job]". */
static int is_step_of(pid_t pid, const char *job)
{
	char path[64], buf[256], want[80];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strcmp(buf, "slurmstepd\n") != 0 && strcmp(buf, "slurmstepd") != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	snprintf(want, sizeof(want), "[%s.", job);
	if (strstr(buf, want))
		return 1;
	snprintf(want, sizeof(want), "[%s]", job);
	return strstr(buf, want) != NULL;
}

int cb_slurm_job_confirmed(const char *job, char *why, size_t len)
{
	pid_t pid = getppid();

	for (int depth = 0; pid > 1 && depth < MAX_DEPTH; depth++) {
		if (is_step_of(pid, job))
			return 1;
		pid = parent_of(pid);
	}
	snprintf(why, len, "SLURM_JOB_ID=%.32s is set, but no slurmstepd of job %.32s is among "
		 "this process's ancestors: not inside that job (variables left by a finished job, "
		 "e.g. in a tmux started inside one?)", job, job);
	return 0;
}
