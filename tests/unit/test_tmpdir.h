/* test_tmpdir.h: a cmocka group fixture for tests that write files: a fresh
 * folder (dir, made from TEST_TMPDIR, a mkdtemp template the test defines
 * before including this) for the whole group, removed with its contents after
 * it. Pass tmpdir_setup and tmpdir_teardown to cmocka_run_group_tests. */
#ifndef TEST_TMPDIR_H
#define TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

static char dir[] = TEST_TMPDIR;

static int tmpdir_setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int tmpdir_teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
