/* Unit test: cb_selflaunch's decisions before any launch: what -g/-t ask
 * for (and the ranks' arguments without them), a launcher's variables, the
 * GPUs known without CUDA, the launch's words and their shell quoting. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cb_selflaunch.h"

#define ARGV(...) ((char *[]){ "prog", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "prog", __VA_ARGS__ }) / sizeof(char *)))
#define WANTED(sl, ...) cb_selflaunch_wanted(sl, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void clear_launchers(void)
{
	static const char *const vars[] = { "CB_SELFLAUNCH", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
					    "PMI_RANK", "PMI_SIZE", "MV2_COMM_WORLD_RANK",
					    "SLURM_PROCID", "SLURM_STEP_ID", "SLURM_STEP_NUM_TASKS" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
}

static void test_wanted(void **state)
{
	struct cb_selflaunch sl;

	(void)state;
	clear_launchers();
	assert_int_equal(WANTED(&sl, "-b", "8", "-g", "2", "-e", "1K"), 1);
	assert_int_equal(sl.np, 2);
	assert_string_equal(sl.from, "-g 2");
	assert_int_equal(sl.rank_argc, 5);
	assert_string_equal(sl.rank_argv[3], "-e");
	assert_null(sl.rank_argv[5]);
	cb_selflaunch_free(&sl);
	assert_int_equal(WANTED(&sl, "-g8", "-t", "2", "--ngpus=3"), 1); /* the last -g wins */
	assert_int_equal(sl.np, 6);
	assert_string_equal(sl.from, "-t 2 -g 3");
	assert_int_equal(sl.rank_argc, 1);
	cb_selflaunch_free(&sl);
	assert_int_equal(WANTED(&sl, "--nthreads", "4"), 1);
	assert_string_equal(sl.from, "-t 4");
	cb_selflaunch_free(&sl);
	/* one rank, values the parser refuses, words after "--": no launch */
	assert_int_equal(WANTED(&sl, "-g", "1", "-t", "1"), 0);
	assert_int_equal(WANTED(&sl, "-g", "x"), 0);
	assert_int_equal(WANTED(&sl, "-g", "2000"), 0);
	assert_int_equal(WANTED(&sl, "-t", "64", "-g", "64"), 0);
	assert_int_equal(WANTED(&sl, "-g"), 0);
	assert_int_equal(WANTED(&sl, "--", "-g", "2"), 0);
}

static void test_launchers(void **state)
{
	struct cb_selflaunch sl;

	(void)state;
	clear_launchers();
	assert_null(cb_selflaunch_launcher_var());
	setenv("PMI_RANK", "0", 1);
	assert_string_equal(cb_selflaunch_launcher_var(), "PMI_RANK");
	assert_int_equal(WANTED(&sl, "-g", "2"), 0);
	clear_launchers();
	/* a Slurm step of one task is a shell; of two, a launch */
	setenv("SLURM_PROCID", "0", 1);
	setenv("SLURM_STEP_ID", "0", 1);
	setenv("SLURM_STEP_NUM_TASKS", "1", 1);
	assert_null(cb_selflaunch_launcher_var());
	setenv("SLURM_STEP_NUM_TASKS", "2", 1);
	assert_string_equal(cb_selflaunch_launcher_var(), "SLURM_PROCID");
	clear_launchers();
	setenv("CB_SELFLAUNCH", "2\t-g 2\tmpirun -np 2 prog\t\tprog -g 2", 1); /* the guard */
	assert_int_equal(WANTED(&sl, "-g", "2"), 0);
	assert_null(cb_selflaunch_meta()); /* the marker alone is no launch */
	setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
	json_t *m = cb_selflaunch_meta();
	assert_non_null(m);
	assert_int_equal(json_integer_value(json_object_get(m, "ranks")), 2);
	assert_string_equal(json_string_value(json_object_get(m, "from")), "-g 2");
	assert_string_equal(json_string_value(json_object_get(m, "notes")), "");
	assert_string_equal(json_string_value(json_object_get(m, "typed")), "prog -g 2");
	json_decref(m);
	clear_launchers();
}

static void test_gpus(void **state)
{
	struct cb_selflaunch sl;
	char err[256];

	(void)state;
	clear_launchers();
	assert_int_equal(WANTED(&sl, "-g", "3"), 1);
	setenv("CUDA_VISIBLE_DEVICES", "0,1", 1);
	assert_int_equal(cb_selflaunch_check_gpus(&sl, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "shows 2 GPU(s) (CUDA_VISIBLE_DEVICES)"));
	setenv("CUDA_VISIBLE_DEVICES", "0,1,2", 1);
	assert_int_equal(cb_selflaunch_check_gpus(&sl, err, sizeof(err)), CB_OK);
	setenv("CUDA_VISIBLE_DEVICES", "0,-1,2,3", 1); /* CUDA stops at -1 */
	assert_int_equal(cb_selflaunch_check_gpus(&sl, err, sizeof(err)), CB_ERR_ARG);
	unsetenv("CUDA_VISIBLE_DEVICES");
	cb_selflaunch_free(&sl);
}

static void test_launch_line(void **state)
{
	struct cb_selflaunch sl;
	char err[512] = "", line[512];

	(void)state;
	clear_launchers();
	setenv("CB_MPIRUN", "/bin/true", 1);
	assert_int_equal(WANTED(&sl, "-g", "2", "--csv", "a b.csv", "--check-args"), 1);
	assert_int_equal(cb_selflaunch_prepare(&sl, err, sizeof(err)), CB_OK);
	cb_selflaunch_drop(&sl, "--check-args");
	cb_selflaunch_line(&sl, line, sizeof(line));
	/* --oversubscribe only where this machine has fewer cores */
	assert_true(strcmp(line, "/bin/true -np 2 prog --csv 'a b.csv'") == 0 ||
		    strcmp(line, "/bin/true -np 2 --oversubscribe prog --csv 'a b.csv'") == 0);
	cb_selflaunch_free(&sl);
	setenv("CB_MPIRUN", "/nonexistent/mpirun", 1);
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(WANTED(&sl, "-t", "2"), 1);
	assert_int_equal(cb_selflaunch_prepare(&sl, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "no mpirun found: /nonexistent/mpirun (CB_MPIRUN)"));
	assert_non_null(strstr(err, "start the ranks yourself: mpirun -np 2 "));
	cb_selflaunch_free(&sl);
	unsetenv("CB_MPIRUN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_launchers),
		cmocka_unit_test(test_gpus),
		cmocka_unit_test(test_launch_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
