/* The plan check's own failures (cb_plan_finish, cb_plan_file_check):
 * - a plan that reads a STAGE slot nothing wrote is refused for every dtype
 *   and op, min and max included, in both modes, naming the round, step,
 *   rank and slot: the schedule shows it, whatever the filler's value (a
 *   NaN or a very negative integer loses every min or max, and so hid it);
 * - a plan that reads another rank's RECV before anything wrote it, too;
 * - a plan at the format's limits (1024 ranks, 65536 chunks) is refused
 *   from its ranges, in little CPU time and memory: the result of rank 1
 *   never written, or, valid, too large to simulate (the check's limits:
 *   its STAGE alone 16 GiB), never after minutes of simulating every rank
 *   at every dtype;
 * - a valid plan of 64 ranks is still checked, and accepted. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cb_plan_exec.h"
#include "cb_plan_file.h"

static char tmpdir[] = "/tmp/cb_plan_check_XXXXXX";

/* Writes text to name in the temporary folder and loads it. */
static struct cb_plan_file *load_text(const char *name, const char *text)
{
	char path[1024], err[512] = "";
	struct cb_plan_file *f = NULL;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	if (cb_plan_file_load(path, &f, err, sizeof(err)) != CB_OK)
		fail_msg("%s", err);
	return f;
}

/* Each rank pulls the peer's input into stage slot 0 and reduces it with its
 * own into slot 2; the last step reads slot 1, which nothing wrote. */
static const char uninit[] =
	"{\"collbench_plan\": 1, \"name\": \"uninit\", \"ranks\": 2, \"chunks\": 1, \"rounds\": ["
	"[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [0, \"stage\", 0], \"a\": [1, \"send\"]},"
	" {\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"stage\", 0], \"a\": [0, \"send\"]}],"
	"[{\"op\": \"reduce\", \"chunk\": 0, \"dst\": [0, \"stage\", 2], \"a\": [0, \"stage\", 0], "
	"\"b\": [0, \"send\"]},"
	" {\"op\": \"reduce\", \"chunk\": 0, \"dst\": [1, \"stage\", 2], \"a\": [1, \"stage\", 0], "
	"\"b\": [1, \"send\"]}],"
	"[{\"op\": \"reduce\", \"chunk\": 0, \"dst\": [0, \"recv\"], \"a\": [0, \"stage\", 1], "
	"\"b\": [0, \"stage\", 2], \"final\": true},"
	" {\"op\": \"reduce\", \"chunk\": 0, \"dst\": [1, \"recv\"], \"a\": [1, \"stage\", 1], "
	"\"b\": [1, \"stage\", 2], \"final\": true}]]}";

static void test_uninit_stage_every_dtype_op(void **state)
{
	static const size_t counts[] = { 1, 4, 64, 1001 };
	struct cb_plan_file *f = load_text("uninit.json", uninit);
	struct cb_plan_algo al = cb_plan_file_algo(f);
	char err[512];

	(void)state;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (int d = 0; d < CB_DTYPE_COUNT; d++)
			for (int o = 0; o < CB_OP_COUNT; o++)
				for (unsigned mode = 1; mode <= 2; mode++) {
					struct cb_plan_args a = { .n = 2, .count = counts[c],
								  .esize = cb_dtype_size((enum cb_dtype)d) };
					struct cb_plan p;
					enum cb_status st;

					assert_int_equal(cb_plan_make(&al, &a, &p), CB_OK);
					*err = '\0';
					st = cb_plan_validate(&p, (enum cb_dtype)d, (enum cb_op)o, mode, err,
							      sizeof(err));
					cb_plan_free(&p);
					if (st != CB_ERR_ARG || !strstr(err, "round 2, step 4: its a reads "
									"rank 0's stage") ||
					    !strstr(err, "(stage slot 1), which nothing wrote before"))
						fail_msg("count %zu, %s %s, mode %u: status %d, '%s'", counts[c],
							 cb_dtype_name((enum cb_dtype)d),
							 cb_op_name((enum cb_op)o), mode, st, err);
				}
	/* and the file's check, for every op in both modes */
	for (int o = 0; o < CB_OP_COUNT; o++)
		for (unsigned mode = 1; mode <= 2; mode++) {
			assert_int_equal(cb_plan_file_check(f, 1u << o, mode, err, sizeof(err)),
					 CB_ERR_ARG);
			assert_non_null(strstr(err, "plan uninit on 2 ranks, count 1"));
			assert_non_null(strstr(err, "(stage slot 1), which nothing wrote before"));
		}
	cb_plan_file_free(f);
}

/* Rank 0 reads rank 1's recv in round 0, before anything wrote it. */
static void test_unwritten_recv(void **state)
{
	struct cb_plan_file *f = load_text(
		"recv.json",
		"{\"collbench_plan\": 1, \"name\": \"early\", \"ranks\": 2, \"chunks\": 1, \"rounds\": ["
		"[{\"op\": \"reduce\", \"chunk\": 0, \"dst\": [0, \"recv\"], \"a\": [1, \"recv\"], "
		"\"b\": [0, \"send\"], \"final\": true}],"
		"[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"recv\"], \"a\": [0, \"recv\"]}]]}");
	char err[512];

	(void)state;
	for (int o = 0; o < CB_OP_COUNT; o++) {
		assert_int_equal(cb_plan_file_check(f, 1u << o, 1, err, sizeof(err)), CB_ERR_ARG);
		assert_non_null(strstr(err, "round 0, step 0: its a reads rank 1's recv [0, 1), which "
					    "nothing wrote before"));
	}
	cb_plan_file_free(f);
}

/* CPU seconds this process used so far. */
static double cpu_s(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
	       (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/* The largest resident set so far, MiB. */
static double max_rss_mib(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_maxrss / 1024;
}

/* A valid allreduce plan on n ranks and c chunks, as JSON (free it): rank 0
 * reduces each rank's input into its recv and stage in turn (n - 1 rounds),
 * then every rank copies rank 0's recv. hog: the other ranks also copy a
 * chunk of their input into their last stage slot (64 buffers' worth of
 * STAGE each). */
static char *chain_plan(int n, int c, int hog)
{
	size_t cap = 4096 + (size_t)n * 384, len = 0;
	char *s = malloc(cap);
	const char *cur = "[0, \"recv\"]", *nxt;

	assert_non_null(s);
#define PUT(...) (len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__))
	PUT("{\"collbench_plan\": 1, \"name\": \"chain\", \"ranks\": %d, \"chunks\": %d, "
	    "\"rounds\": [[{\"op\": \"reduce\", \"chunk\": 0, \"nchunks\": %d, \"dst\": [0, \"recv\"], "
	    "\"a\": [1, \"send\"], \"b\": [0, \"send\"], \"final\": %s}", n, c, c,
	    n == 2 ? "true" : "false");
	for (int r = 1; r < n && hog; r++)
		PUT(", {\"op\": \"copy\", \"chunk\": 0, \"dst\": [%d, \"stage\", %d], "
		    "\"a\": [%d, \"send\"]}", r, 64 * c - 1, r);
	PUT("]");
	for (int k = 2; k < n; k++) {
		nxt = k % 2 ? "[0, \"recv\"]" : "[0, \"stage\", 0]";
		PUT(", [{\"op\": \"reduce\", \"chunk\": 0, \"nchunks\": %d, \"dst\": %s, \"a\": [%d, "
		    "\"send\"], \"b\": %s, \"final\": %s}]", c, nxt, k, cur,
		    k == n - 1 ? "true" : "false");
		cur = nxt;
	}
	if (strstr(cur, "stage"))
		PUT(", [{\"op\": \"copy\", \"chunk\": 0, \"nchunks\": %d, \"dst\": [0, \"recv\"], "
		    "\"a\": [0, \"stage\", 0]}]", c);
	PUT(", [");
	for (int r = 1; r < n; r++)
		PUT("%s{\"op\": \"copy\", \"chunk\": 0, \"nchunks\": %d, \"dst\": [%d, \"recv\"], "
		    "\"a\": [0, \"recv\"]}", r > 1 ? ", " : "", c, r);
	PUT("]]}");
#undef PUT
	assert_true(len < cap);
	return s;
}

/* The check of f for every op in both modes: its status, err its message;
 * fails when it took more than 1 CPU second or grew the resident set by
 * more than 64 MiB. */
static enum cb_status check_cheaply(const struct cb_plan_file *f, char *err, size_t errlen)
{
	double t0 = cpu_s(), m0 = max_rss_mib();
	enum cb_status st = cb_plan_file_check(f, (1u << CB_OP_COUNT) - 1, 3, err, errlen);
	double t = cpu_s() - t0, m = max_rss_mib() - m0;

	if (t > 1.0 || m > 64)
		fail_msg("the check took %.2f CPU s and %.0f MiB more memory (status %d, '%s')", t, m,
			 st, err);
	return st;
}

static void test_wide_fast(void **state)
{
	/* 167 bytes: rank 0 copies its input, nobody else gets a result */
	struct cb_plan_file *wide = load_text(
		"wide.json",
		"{\"collbench_plan\": 1, \"name\": \"wide\", \"ranks\": 1024, \"chunks\": 65536, "
		"\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"nchunks\": 65536, \"dst\": [0, "
		"\"recv\"], \"a\": [0, \"send\"]}]]}");
	char *text = chain_plan(1024, 65536, 1), err[512];
	struct cb_plan_file *chain = load_text("chain.json", text);

	(void)state;
	free(text);
	assert_int_equal(check_cheaply(wide, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "rank 1's result, recv [0, 65536) of [0, 65536), is never "
				    "written"));
	/* valid, but its check would hold 1024 ranks' 64 buffers of STAGE:
	 * refused as such */
	assert_int_equal(check_cheaply(chain, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "the plan is too large to check: at count 65536 its check "
				    "holds 1024 ranks' buffers in one process, 16."));
	assert_non_null(strstr(err, "(the limit is 2 GiB)"));
	cb_plan_file_free(wide);
	cb_plan_file_free(chain);
}

static void test_valid_checked(void **state)
{
	char *text = chain_plan(64, 64, 1), err[512] = "";
	struct cb_plan_file *f = load_text("chain64.json", text);

	(void)state;
	free(text);
	if (cb_plan_file_check(f, (1u << CB_OP_COUNT) - 1, 3, err, sizeof(err)) != CB_OK)
		fail_msg("%s", err);
	cb_plan_file_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wide_fast), /* first: the resident set is still small */
		cmocka_unit_test(test_uninit_stage_every_dtype_op),
		cmocka_unit_test(test_unwritten_recv),
		cmocka_unit_test(test_valid_checked),
	};
	char cmd[1100];
	int rc;

	if (!mkdtemp(tmpdir))
		return 2;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return rc;
}
