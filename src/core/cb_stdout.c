/* cb_stdout: closing a results stream (contract in cb_stdout.h). */
#include "cb_stdout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cb_close_stdout(const char *prog, int rc, int fail_rc)
{
	errno = 0;
	if (fclose(stdout) != 0 && rc != fail_rc) {
		fprintf(stderr, "%s: cannot write stdout: %s\n", prog,
			errno ? strerror(errno) : "write error");
		return fail_rc;
	}
	return rc;
}
