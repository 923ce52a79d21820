/* What the CUDA model's own tests share (contract in cm_child.h). */
#define _GNU_SOURCE
#include "cm_child.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <sys/wait.h>

pid_t cm_child_spawn(void (*fn)(int), int arg, const char *const *env)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (; env && *env; env++)
			putenv((char *)*env);
		fn(arg);
		_exit(0);
	}
	return pid;
}

int cm_child_reap(pid_t pid)
{
	int status = 0;

	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int cm_child_run(void (*fn)(int), int arg, const char *const *env)
{
	return cm_child_reap(cm_child_spawn(fn, arg, env));
}

cm_value_fn cm_child_driver(const char *name)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult q;

	CM_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) == cudaSuccess);
	CM_CHECK(q == cudaDriverEntryPointSuccess && fn);
	return (cm_value_fn)fn;
}
