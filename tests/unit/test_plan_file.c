/* Plan files (cb_plan_file.h): the shipped examples read, checked for every
 * op in both modes, their traffic equal to closed forms; every
 * kind of malformed file refused with a message naming where; a plan that
 * computes something else refused with its first wrong element; the
 * registry's rules for added plans.
 *   test_plan_file EXAMPLES_DIR */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_pattern.h"
#include "cb_plan_file.h"

/* cb_plan_make of allreduce's plan algorithm named name (CB_ERR_ARG: none). */
static enum cb_status make_named(const char *name, const struct cb_plan_args *a, struct cb_plan *p)
{
	return cb_plan_make(cb_plan_coll_find(CB_COLL_ALLREDUCE, name), a, p);
}


static const char *examples;
static char tmpdir[] = "/tmp/cb_plan_file_XXXXXX";

static struct cb_plan_file *load_example(const char *name)
{
	char path[1024], err[512] = "";
	struct cb_plan_file *f;

	snprintf(path, sizeof(path), "%s/%s", examples, name);
	if (cb_plan_file_load(path, &f, err, sizeof(err)) != CB_OK)
		fail_msg("%s", err);
	return f;
}

/* f's per-rank traffic at count elements of 4 bytes. */
static void traffic(const struct cb_plan_file *f, size_t count, uint64_t *tx, uint64_t *rx)
{
	struct cb_plan_algo al = cb_plan_file_algo(f);
	struct cb_plan_args a = { .n = cb_plan_file_ranks(f), .count = count, .esize = 4 };
	struct cb_plan p;

	assert_int_equal(cb_plan_make(&al, &a, &p), CB_OK);
	cb_plan_traffic(&p, 4, tx, rx);
	cb_plan_free(&p);
}

static void test_examples(void **state)
{
	static const size_t counts[] = { 0, 1, 2, 3, 7, 1000, 65539 };
	struct cb_plan_file *bin = load_example("binomial4.json"), *ring = load_example("ring3.json");
	char err[512] = "";

	(void)state;
	assert_string_equal(cb_plan_file_name(bin), "binomial4");
	assert_int_equal(cb_plan_file_ranks(ring), 3);
	assert_int_equal(cb_plan_file_check(bin, (1u << CB_OP_COUNT) - 1, 3, err, sizeof(err)),
			 CB_OK);
	assert_int_equal(cb_plan_file_check(ring, (1u << CB_OP_COUNT) - 1, 3, err, sizeof(err)),
			 CB_OK);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		uint64_t tx[4], rx[4], S = counts[i] * 4;

		/* binomial tree: 0 and 2 receive two buffers and send two, 1 and 3 one */
		traffic(bin, counts[i], tx, rx);
		for (int r = 0; r < 4; r++) {
			assert_int_equal(tx[r], r % 2 ? S : 2 * S);
			assert_int_equal(rx[r], r % 2 ? S : 2 * S);
		}
		/* the ring's closed form: rx_r = 2S - |chunk r| - |chunk r+1| (docs/output.md) */
		traffic(ring, counts[i], tx, rx);
		for (int r = 0; r < 3; r++) {
			size_t o, c1, c2, c3;

			cb_chunk(counts[i], 3, r, &o, &c1);
			cb_chunk(counts[i], 3, (r + 1) % 3, &o, &c2);
			cb_chunk(counts[i], 3, (r + 2) % 3, &o, &c3);
			assert_int_equal(rx[r], 2 * S - 4 * (c1 + c2));
			assert_int_equal(tx[r], 2 * S - 4 * (c2 + c3));
		}
	}
	cb_plan_file_free(bin);
	cb_plan_file_free(ring);
}

/* Writes text to a file of the temporary folder; its path. */
static const char *write_file(const char *name, const char *text)
{
	static char path[1024];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

#define HEAD "{\"collbench_plan\": 1, \"name\": \"t\", \"ranks\": 2, \"chunks\": 2, "
#define STEP_R "{\"op\": \"reduce\", \"chunk\": 0, \"nchunks\": 2, \"dst\": [0, \"recv\"], " \
	"\"a\": [1, \"send\"], \"b\": [0, \"send\"], \"final\": true}"
#define STEP_C "{\"op\": \"copy\", \"chunk\": 0, \"nchunks\": 2, \"dst\": [1, \"recv\"], " \
	"\"a\": [0, \"recv\"]}"
/* two rounds: rank 0 reduces, rank 1 copies the result */
#define OK_ROUND "[" STEP_R "], [" STEP_C "]"

static void test_malformed(void **state)
{
	static const struct { const char *text, *says; enum cb_status st; } c[] = {
		{ HEAD "\"rounds\": [" OK_ROUND "]}", NULL, CB_OK },
		{ "{\"collbench_plan\": 1, ", "not JSON: line 1", CB_ERR_ARG },
		{ "[1, 2]", "no JSON object", CB_ERR_ARG },
		{ "{\"collbench_plan\": 2, \"name\": \"t\"}", "'collbench_plan' 2 is not in 1 .. 1",
		  CB_ERR_ARG },
		{ HEAD "\"rounds\": [" OK_ROUND "], \"extra\": 1}", "unknown key 'extra' in the plan",
		  CB_ERR_ARG },
		{ "{\"collbench_plan\": 1, \"name\": \"Bad-name\", \"ranks\": 2, \"chunks\": 1, "
		  "\"rounds\": [[]]}", "'name' is not", CB_ERR_ARG },
		{ "{\"collbench_plan\": 1, \"name\": \"t\", \"ranks\": 0, \"chunks\": 1}",
		  "'ranks' 0 is not in 1 .. 1024", CB_ERR_ARG },
		{ HEAD "\"rounds\": []}", "'rounds' is not a non-empty array", CB_ERR_ARG },
		{ HEAD "\"rounds\": [{}]}", "round 0 is not an array of steps", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"move\"}]]}",
		  "round 0, step 0: 'op' is not \"copy\" or \"reduce\"", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 2, \"dst\": [1, \"recv\"], "
		  "\"a\": [0, \"send\"]}]]}", "round 0, step 0: 'chunk' 2 is not in 0 .. 1", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 1, \"nchunks\": 2, "
		  "\"dst\": [1, \"recv\"], \"a\": [0, \"send\"]}]]}", "'nchunks' 2 is not in 1 .. 1",
		  CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [2, \"recv\"], "
		  "\"a\": [0, \"send\"]}]]}", "'dst': rank 2 is not in 0 .. 1", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"stage\"], "
		  "\"a\": [0, \"send\"]}]]}", "a stage reference needs a slot", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"recv\", 0], "
		  "\"a\": [0, \"send\"]}]]}", "only a stage reference has a slot", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"buf\"], "
		  "\"a\": [0, \"send\"]}]]}", "buffer 'buf' is not send, recv or stage", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"recv\"], "
		  "\"a\": [0, \"send\"], \"b\": [1, \"send\"]}]]}", "a copy has no 'b'", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"reduce\", \"chunk\": 0, \"dst\": [1, \"recv\"], "
		  "\"a\": [0, \"send\"]}]]}", "'b' is not [rank", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"recv\"], "
		  "\"a\": [0, \"send\"], \"final\": 1}]]}", "'final' is not true or false", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"recv\"], "
		  "\"a\": [0, \"send\"], \"exec\": 5}]]}", "'exec' 5 is not in 0 .. 1", CB_ERR_ARG },
		{ HEAD "\"rounds\": [[{\"op\": \"copy\", \"chunk\": 0, \"dst\": [1, \"stage\", 200], "
		  "\"a\": [0, \"send\"]}]]}", "the slot is not an integer in 0 .. 127", CB_ERR_ARG },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cb_plan_file *f = NULL;
		const char *path = write_file("m.json", c[i].text);
		enum cb_status st = cb_plan_file_load(path, &f, err, sizeof(err));

		if (st != c[i].st || (c[i].says && (!strstr(err, c[i].says) || !strstr(err, path))))
			fail_msg("case %zu: status %d, message '%s' (want %d, '%s')", i, st,
				 st == CB_OK ? "" : err, c[i].st, c[i].says ? c[i].says : "");
		assert_true(st == CB_OK ? f != NULL : f == NULL);
		cb_plan_file_free(f);
	}
	assert_int_equal(cb_plan_file_load("/nonexistent/p.json", &(struct cb_plan_file *){ NULL },
					   err, sizeof(err)), CB_ERR_IO);
	assert_non_null(strstr(err, "cannot read the plan"));
}

/* Checks text, a plan that loads; returns the check's status, err its message. */
static enum cb_status check_text(const char *text, unsigned modes, char *err, size_t errlen)
{
	struct cb_plan_file *f;
	enum cb_status st;

	assert_int_equal(cb_plan_file_load(write_file("c.json", text), &f, err, errlen), CB_OK);
	st = cb_plan_file_check(f, (1u << CB_OP_COUNT) - 1, modes, err, errlen);
	cb_plan_file_free(f);
	return st;
}

static void test_wrong_plans(void **state)
{
	char err[512];

	(void)state;
	/* rank 1 never receives the result */
	assert_int_equal(check_text(HEAD "\"rounds\": [[{\"op\": \"reduce\", \"chunk\": 0, "
				    "\"nchunks\": 2, \"dst\": [0, \"recv\"], \"a\": [1, \"send\"], "
				    "\"b\": [0, \"send\"], \"final\": true}]]}", 1, err, sizeof(err)),
			 CB_ERR_ARG);
	assert_non_null(strstr(err, "rank 1's result, recv [0, 2) of [0, 2), is never written"));
	/* no final: avg is a sum there, wrong from round 0 on */
	assert_int_equal(check_text(HEAD "\"rounds\": [[{\"op\": \"reduce\", \"chunk\": 0, "
				    "\"nchunks\": 2, \"dst\": [0, \"recv\"], \"a\": [1, \"send\"], "
				    "\"b\": [0, \"send\"]}], [{\"op\": \"copy\", \"chunk\": 0, "
				    "\"nchunks\": 2, \"dst\": [1, \"recv\"], \"a\": [0, \"recv\"]}]]}",
				    1, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "int32 avg"));
	assert_non_null(strstr(err, "rank 0, element 0 of its result (last written in round 0)"));
	/* a step that reads what another rank writes in the same round */
	assert_int_equal(check_text(HEAD "\"rounds\": [[" STEP_R ", " STEP_C "]]}", 1, err, sizeof(err)),
			 CB_ERR_ARG);
	assert_non_null(strstr(err, "round 0"));
	/* the good one, in both modes */
	assert_int_equal(check_text(HEAD "\"rounds\": [" OK_ROUND "]}", 3, err, sizeof(err)), CB_OK);
}

static void test_registry(void **state)
{
	struct cb_plan_file *a, *b, *ring;
	const char *path = write_file("r.json", HEAD "\"rounds\": [" OK_ROUND "]}");
	char err[512];
	size_t before, after;
	struct cb_plan p;
	struct cb_plan_args args = { .n = 3, .count = 10, .esize = 4 };

	(void)state;
	(void)cb_plan_coll_algos(CB_COLL_ALLREDUCE, &before);
	assert_int_equal(cb_plan_file_load(path, &a, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_plan_file_add(a, err, sizeof(err)), CB_OK);
	assert_non_null(cb_plan_coll_find(CB_COLL_ALLREDUCE, "t"));
	/* the same name again replaces it */
	assert_int_equal(cb_plan_file_load(path, &b, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_plan_file_add(b, err, sizeof(err)), CB_OK);
	(void)cb_plan_coll_algos(CB_COLL_ALLREDUCE, &after);
	assert_int_equal(after, before + 1);
	assert_ptr_equal(cb_plan_coll_find(CB_COLL_ALLREDUCE, "t")->data, b);
	/* a file plan is for its world size only */
	assert_int_equal(make_named("t", &args, &p), CB_ERR_ARG);
	args.n = 2;
	assert_int_equal(make_named("t", &args, &p), CB_OK);
	cb_plan_free(&p);
	/* a built-in's name is refused */
	path = write_file("ring.json", "{\"collbench_plan\": 1, \"name\": \"ring\", \"ranks\": 2, "
			  "\"chunks\": 2, \"rounds\": [" OK_ROUND "]}");
	assert_int_equal(cb_plan_file_load(path, &ring, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_plan_file_add(ring, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "built-in"));
	cb_plan_file_free(ring);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_wrong_plans),
		cmocka_unit_test(test_registry),
	};
	char cmd[1100];
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: test_plan_file EXAMPLES_DIR\n");
		return 2;
	}
	examples = argv[1];
	if (!mkdtemp(tmpdir))
		return 2;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_plan_file: could not remove %s\n", tmpdir);
	return rc;
}
