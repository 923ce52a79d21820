/* Unit tests: option parsing (good and bad values), size suffixes, the size
 * sweep, the canonical form compared across ranks, output names that cannot
 * exist, two outputs that name one file however spelled. */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

#include "cb_options.h"

static enum cb_status parse(struct cb_options *o, char *err, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"allreduce_perf";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	err[0] = '\0';
	cb_options_free(o); /* the previous parse's sweep; o starts zeroed */
	return cb_options_parse(argc, argv, o, err, 256);
}

#define PARSE(o, err, ...) parse(o, err, (const char *const[]){ __VA_ARGS__, NULL })

static void test_parse_size(void **state)
{
	size_t v = 7;

	(void)state;
	assert_int_equal(cb_parse_size("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(cb_parse_size("8", &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(cb_parse_size("4K", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cb_parse_size("64M", &v), 0);
	assert_int_equal(v, (size_t)64 << 20);
	assert_int_equal(cb_parse_size("2G", &v), 0);
	assert_int_equal(v, (size_t)2 << 30);
	assert_int_equal(cb_parse_size("1KiB", &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(cb_parse_size("16B", &v), 0);
	assert_int_equal(v, 16);
	v = 99;
	assert_int_equal(cb_parse_size("-8", &v), -1);
	assert_int_equal(cb_parse_size("", &v), -1);
	assert_int_equal(cb_parse_size("abc", &v), -1);
	assert_int_equal(cb_parse_size("12X", &v), -1);
	assert_int_equal(cb_parse_size("1.5M", &v), -1);
	assert_int_equal(cb_parse_size(" 8", &v), -1);
	assert_int_equal(cb_parse_size("99999999999999999999", &v), -1);
	assert_int_equal(cb_parse_size("17179869184G", &v), -1); /* 2^64 bytes */
	assert_int_equal(v, 99);
}

static void test_format_size(void **state)
{
	char b[16];

	(void)state;
	cb_format_size(8, b, sizeof(b));
	assert_string_equal(b, "8");
	cb_format_size(1024, b, sizeof(b));
	assert_string_equal(b, "1K");
	cb_format_size((size_t)64 << 20, b, sizeof(b));
	assert_string_equal(b, "64M");
	cb_format_size((size_t)3 << 29, b, sizeof(b));
	assert_string_equal(b, "1.5G");
	cb_format_size(1048572, b, sizeof(b)); /* 4 B short of 1M: no "1.02e+03K" */
	assert_string_equal(b, "1023.996K");
}

static void test_defaults_and_good_values(void **state)
{
	struct cb_options o = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&o, err, "-q"), CB_OK);
	assert_int_equal(o.minbytes, (size_t)32 << 20);
	assert_int_equal(o.iters, 20);
	assert_int_equal(o.check, 1);
	assert_int_equal(o.dtype_mask, 1u << CB_FLOAT);
	assert_int_equal(o.op_mask, 1u << CB_SUM);
	assert_string_equal(o.backend, "host");
	assert_int_equal(o.wait, CB_WAIT_FUTEX);
	assert_int_equal(o.in_place, CB_INPLACE_BOTH); /* both modes unless told */
	assert_int_equal(PARSE(&o, err, "--wait", "spin"), CB_OK);
	assert_int_equal(o.wait, CB_WAIT_SPIN);
	assert_int_equal(PARSE(&o, err, "-b", "8", "-e", "64M", "-f", "2", "-n", "5", "-w", "0",
			       "-c", "0", "-d", "all", "-o", "sum,max", "--algo", "ring,ps", "-r", "3",
			       "--inplace", "1", "-T", "2.5", "--csv", "/tmp/x.csv", "--repeat", "3"),
			 CB_OK);
	assert_int_equal(o.minbytes, 8);
	assert_int_equal(o.maxbytes, (size_t)64 << 20);
	assert_int_equal(o.stepfactor, 2);
	assert_int_equal(o.dtype_mask, (1u << CB_DTYPE_COUNT) - 1);
	assert_int_equal(o.op_mask, (1u << CB_SUM) | (1u << CB_MAX));
	assert_string_equal(o.algos, "ring,ps");
	assert_int_equal(o.root, 3);
	assert_int_equal(o.in_place, CB_INPLACE_IN);
	assert_near(o.timeout_s, 2.5, 0);
	assert_string_equal(o.csv, "/tmp/x.csv");
	assert_int_equal(o.repeat, 3);
	assert_int_equal(PARSE(&o, err, "--counts", "0,1,7,1048573", "-d", "double"), CB_OK);
	assert_int_equal(o.counts.n, 4);
	assert_int_equal(o.counts.v[3], 1048573);
	assert_int_equal(PARSE(&o, err, "--help"), CB_OK);
	assert_int_equal(o.help, 1);
	cb_options_free(&o);
}

static void expect_error(const char *const *args, const char *needle)
{
	struct cb_options o = { 0 };
	char err[256];

	assert_int_equal(parse(&o, err, args), CB_ERR_ARG);
	if (!strstr(err, needle))
		fail_msg("expected '%s' in: %s", needle, err);
}

#define EXPECT_ERROR(needle, ...) expect_error((const char *const[]){ __VA_ARGS__, NULL }, needle)

static void test_bad_values(void **state)
{
	(void)state;
	EXPECT_ERROR("unknown algorithm 'tree'", "--algo", "ring,tree");
	EXPECT_ERROR("unknown name 'float16'", "-d", "float16");
	EXPECT_ERROR("unknown name 'mean'", "-o", "mean");
	EXPECT_ERROR("larger than -e", "-b", "64M", "-e", "8");
	EXPECT_ERROR("is not a size", "-b", "-8");
	EXPECT_ERROR("is not a size", "-e", "lots");
	EXPECT_ERROR("not a multiple of float", "-b", "6", "-e", "6");
	EXPECT_ERROR("not a multiple of int64", "-b", "8", "-e", "64", "-i", "4", "-d", "all");
	EXPECT_ERROR("expected an integer in [1,", "-n", "0");
	EXPECT_ERROR("-c/--check: expected an integer in [0, 1000000]", "-c", "-1");
	EXPECT_ERROR("--inplace: 'yes' is not 0, 1 or both", "--inplace", "yes");
	EXPECT_ERROR("-T/--timeout", "-T", "-1");
	EXPECT_ERROR("-T/--timeout", "-T", "nan");
	EXPECT_ERROR("unknown backend", "-B", "tpu");
	EXPECT_ERROR("--wait: unknown strategy 'sleep'", "--wait", "sleep");
	EXPECT_ERROR("is not a known option", "--bogus");
	EXPECT_ERROR("needs a value", "-b");
	EXPECT_ERROR("unexpected argument", "stray");
	EXPECT_ERROR("never reaches", "-b", "8", "-e", "64", "-i", "0");
	EXPECT_ERROR("is not an element count", "--counts", "1,x");
	EXPECT_ERROR("more than 4096 message sizes", "-b", "0", "-e", "1G", "-i", "4");
}

/* The sweep is made once, per dtype of the run, when the options are parsed. */
static void test_sizes(void **state)
{
	struct cb_options o = { 0 };
	const struct cb_sweep *sw = &o.sweep;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&o, err, "-b", "8", "-e", "64M", "-f", "4"), CB_OK);
	assert_int_equal(sw->n[CB_FLOAT], 12); /* 8 .. 32M by x4 */
	assert_int_equal(sw->bytes[CB_FLOAT][0], 8);
	assert_int_equal(sw->bytes[CB_FLOAT][11], (size_t)32 << 20);
	assert_null(sw->bytes[CB_INT32]); /* not a dtype of the run */
	assert_int_equal(sw->max_bytes, (size_t)32 << 20);
	assert_int_equal(PARSE(&o, err, "-b", "0", "-e", "16", "-f", "2", "-d", "int32,int8"), CB_OK);
	assert_int_equal(sw->n[CB_INT32], 4); /* 0, then one element, doubling */
	assert_int_equal(sw->bytes[CB_INT32][1], 4);
	assert_int_equal(sw->bytes[CB_INT32][3], 16);
	assert_int_equal(sw->n[CB_INT8], 6); /* 0, 1, 2, 4, 8, 16 */
	assert_int_equal(PARSE(&o, err, "-b", "1M", "-e", "3M"), CB_OK);
	assert_int_equal(sw->n[CB_FLOAT], 3); /* default step +1M */
	assert_int_equal(PARSE(&o, err, "--counts", "3,0", "-d", "half,double"), CB_OK);
	assert_int_equal(sw->n[CB_HALF], 2);
	assert_int_equal(sw->bytes[CB_HALF][0], 6);
	assert_int_equal(sw->max_bytes, 24); /* 3 doubles */
	cb_options_free(&o);
}

static void test_canonical_differs(void **state)
{
	struct cb_options a = { 0 }, b = { 0 };
	char err[256], ca[1024], cb[1024];

	(void)state;
	assert_int_equal(PARSE(&a, err, "-e", "64M", "--csv", "/tmp/a.csv"), CB_OK);
	assert_int_equal(PARSE(&b, err, "-e", "64M", "--csv", "/tmp/b.csv", "-q"), CB_OK);
	cb_options_canonical(&a, ca, sizeof(ca));
	cb_options_canonical(&b, cb, sizeof(cb));
	assert_string_equal(ca, cb); /* output paths need not agree */
	assert_int_equal(PARSE(&b, err, "-e", "32M"), CB_OK);
	cb_options_canonical(&b, cb, sizeof(cb));
	assert_string_not_equal(ca, cb);
	assert_int_equal(PARSE(&b, err, "-e", "64M", "--wait", "yield"), CB_OK);
	cb_options_canonical(&b, cb, sizeof(cb));
	assert_string_not_equal(ca, cb); /* the wait strategy must agree */
	assert_int_equal(PARSE(&b, err, "-e", "64M", "-T", "9"), CB_OK);
	cb_options_canonical(&b, cb, sizeof(cb));
	assert_string_equal(ca, cb); /* the watchdog is each rank's own */
	cb_options_free(&a);
	cb_options_free(&b);
}

/* The canonical text is generated from the table: every option that must
 * agree, by its long name, in table order. */
static void test_canonical_text(void **state)
{
	struct cb_options o = { 0 };
	char err[256], c[1024];

	(void)state;
	assert_int_equal(PARSE(&o, err, "-b", "8", "-e", "1K", "-f", "2", "--counts", "0,7", "-d",
			       "int8,float", "-o", "all", "--algo", "ring,ps", "--wait", "spin"),
			 CB_OK);
	cb_options_canonical(&o, c, sizeof(c));
	assert_ptr_equal(strstr(c, "minbytes=8;maxbytes=1024;stepfactor=2;stepbytes=1048576;"
				"counts=0,7;iters=20;warmup_iters=5;"), c);
	assert_non_null(strstr(c, ";datatype=int8,float;op=sum,prod,min,max,avg;coll=allreduce;algo=ring,ps;"
				  "backend=host;transport=auto;root=0;servers=1;inplace=both;slicebytes=0;timing=iter;"
				  "wait=spin;"));
	assert_non_null(strstr(c, ";help=0"));
	/* each rank's own: the watchdog and the output paths */
	assert_null(strstr(c, "timeout="));
	assert_null(strstr(c, "csv="));
	assert_null(strstr(c, "quiet="));
	cb_options_free(&o);
}

/* --timing: iter by default, loop on request, anything else refused; the
 * mode is part of what ranks must agree on. */
/* --coll: the collective, its algorithms only, no plan file */
static void test_coll(void **state)
{
	struct cb_options o = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&o, err, "--coll", "all_gather", "--algo", "ring,direct,mpi"), CB_OK);
	assert_int_equal(o.coll, CB_COLL_ALL_GATHER);
	cb_options_free(&o);
	assert_int_equal(PARSE(&o, err, "--algo", "twoshot"), CB_OK);
	assert_int_equal(o.coll, CB_COLL_ALLREDUCE);
	cb_options_free(&o);
	EXPECT_ERROR("unknown algorithm 'twoshot' of reduce", "--coll", "reduce", "--algo", "twoshot");
	EXPECT_ERROR("unknown algorithm 'copy' of broadcast", "--coll", "broadcast", "--algo", "copy");
	EXPECT_ERROR("unknown collective 'gather'", "--coll", "gather");
	/* a plan file of any collective: read (its collective checked then) */
	EXPECT_ERROR("/: cannot read the plan", "--coll", "reduce_scatter", "--plan", "/");
}

static void test_timing(void **state)
{
	struct cb_options a = { 0 }, b = { 0 };
	char err[256], ca[1024], cb[1024];

	(void)state;
	assert_int_equal(PARSE(&a, err, "-e", "64M"), CB_OK);
	assert_int_equal(a.timing, CB_TIMING_ITER);
	assert_int_equal(PARSE(&b, err, "-e", "64M", "--timing", "loop"), CB_OK);
	assert_int_equal(b.timing, CB_TIMING_LOOP);
	cb_options_canonical(&a, ca, sizeof(ca));
	cb_options_canonical(&b, cb, sizeof(cb));
	assert_non_null(strstr(ca, ";timing=iter;"));
	assert_non_null(strstr(cb, ";timing=loop;"));
	assert_int_equal(PARSE(&b, err, "--timing", "graph"), CB_ERR_ARG);
	assert_string_equal(err, "--timing: 'graph' is not iter or loop");
	cb_options_free(&a);
	cb_options_free(&b);
}

/* Output files whose names are longer than a file name may be are refused
 * with the options, not after the run: --csv (and the metadata file made
 * from it, with its writer's temporary suffix), --json, --meta. */
static void test_long_names(void **state)
{
	char name[300], longer[300], fits[300], csv[320], meta[320], err[256];
	struct cb_options o;

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(name, 'a', 256), name[256] = '\0';   /* one byte over NAME_MAX */
	memset(longer, 'b', 240), longer[240] = '\0'; /* fits; its .meta.json.tmp.<pid> not */
	memset(fits, 'c', 200), fits[200] = '\0';
	snprintf(csv, sizeof(csv), "/tmp/%s.csv", longer);
	assert_int_equal(PARSE(&o, err, "--json", name), CB_ERR_ARG);
	assert_non_null(strstr(err, "--json: the file name"));
	assert_non_null(strstr(err, "would be 256 bytes long"));
	assert_int_equal(PARSE(&o, err, "--csv", csv), CB_ERR_ARG);
	assert_non_null(strstr(err, "--csv (its metadata file"));
	snprintf(meta, sizeof(meta), "/tmp/%s.meta.json", fits);
	/* the .csv itself, 244 bytes, fits: with a --meta that fits, so does the run */
	assert_int_equal(PARSE(&o, err, "--csv", csv, "--meta", meta), CB_OK);
	snprintf(csv, sizeof(csv), "/tmp/%s.csv", fits);
	assert_int_equal(PARSE(&o, err, "--csv", csv), CB_OK);
	cb_options_free(&o);
}

/* Two outputs that name one file are refused however the names are spelled
 * (a relative and an absolute path, "./", "..", a symbolic link, also one
 * whose target does not exist yet, a hard link, the metadata path made from
 * --csv); different files are not. */
static void test_same_file(void **state)
{
	char dir[] = "/tmp/collbench-test-options.XXXXXX", cwd[PATH_MAX], abs[PATH_MAX + 16];
	char err[256], cmd[PATH_MAX + 16];
	struct cb_options o;
	const char *same[][4] = {
		{ "--csv", "clob.csv", "--rank-csv", "./clob.csv" },
		{ "--csv", "clob.csv", "--rank-csv", abs },
		{ "--csv", "clob.csv", "--json", "sub/../clob.csv" },
		{ "--csv", "clob.csv", "--rank-csv", "link.csv" },
		{ "--csv", "clob.csv", "--rank-csv", "hard.csv" },
		{ "--csv", "new.csv", "--json", "dangling.csv" },
		{ "--csv", "sub/a.csv", "--json", "sub/./a.meta.json" },
		{ "--rank-csv", "r.json", "--json", "./r.json" },
		{ "--json", "m.json", "--meta", "sub/../m.json" },
	};

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_non_null(mkdtemp(dir));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	snprintf(abs, sizeof(abs), "%s/clob.csv", dir);
	assert_int_equal(system("mkdir sub && : >clob.csv && ln -s clob.csv link.csv && "
				"ln clob.csv hard.csv && ln -s new.csv dangling.csv"), 0);
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		assert_int_equal(PARSE(&o, err, same[i][0], same[i][1], same[i][2], same[i][3]),
				 CB_ERR_ARG);
		assert_non_null(strstr(err, "name the same file"));
	}
	assert_non_null(strstr(err, "--json 'm.json' and --meta 'sub/../m.json' name the same file"));
	assert_int_equal(PARSE(&o, err, "--csv", "clob.csv", "--rank-csv", "sub/clob.csv"), CB_OK);
	assert_int_equal(PARSE(&o, err, "--csv", "a.csv", "--rank-csv", "b.csv", "--json",
			       "c.json"), CB_OK);
	cb_options_free(&o);
	assert_int_equal(chdir(cwd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* nccl-tests' letters with nccl-tests' meanings: -a, -c N, -z 0 and -T 0
 * taken as there; -t and -g above 1 refused with the mpirun line; the rest
 * at their default only, refused otherwise with the reason. */
static void test_nccl_tests_options(void **state)
{
	struct cb_options o = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&o, err, "-b", "8"), CB_OK);
	assert_int_equal(o.average, CB_AVG_NONE);
	assert_int_equal(o.blocking, -1);
	assert_int_equal(o.timing, CB_TIMING_ITER);
	assert_int_equal(o.fixed.device_cta_count, 16);
	assert_int_equal(o.fixed.cta_policy, -1);
	assert_int_equal(PARSE(&o, err, "-a", "2", "-c", "7", "-z", "0", "-T", "0", "-p", "1", "-N", "1",
			       "-g", "1", "-t", "1", "-G", "0", "-R", "0", "-x", "-1", "-V", "16"), CB_OK);
	assert_int_equal(o.average, CB_AVG_MIN);
	assert_int_equal(o.check, 7);
	assert_int_equal(o.timing, CB_TIMING_LOOP);
	assert_near(o.timeout_s, 1e6, 0);
	assert_int_equal(o.parallel_init, 1);
	EXPECT_ERROR("-a/--average: '4' is not 0 (rank 0)", "-a", "4");
	EXPECT_ERROR("contradict", "-z", "0", "--timing", "iter");
	assert_int_equal(PARSE(&o, err, "--timing", "loop", "-z", "0"), CB_OK);
	/* nccl-tests' timing modes: -z 1, 2 back to back, 3 each iteration alone */
	assert_int_equal(o.agg_iters, 1);
	assert_int_equal(o.report_cputime, 0);
	assert_int_equal(PARSE(&o, err, "-z", "2", "-m", "8", "-C", "1"), CB_OK);
	assert_int_equal(o.blocking, 2);
	assert_int_equal(o.timing, CB_TIMING_LOOP);
	assert_int_equal(o.agg_iters, 8);
	assert_int_equal(o.report_cputime, 1);
	assert_int_equal(PARSE(&o, err, "--blocking=3"), CB_OK);
	assert_int_equal(o.timing, CB_TIMING_ITER);
	EXPECT_ERROR("-z/--blocking 3 (each iteration timed alone, --timing iter) and --timing loop contradict",
		     "-z", "3", "--timing", "loop");
	EXPECT_ERROR("-z/--blocking: '4' is not 0, 1, 2 or 3", "-z", "4");
	EXPECT_ERROR("-m/--agg_iters: expected an integer in [1, 1000000]", "-m", "0");
	EXPECT_ERROR("-C/--report_cputime: expected an integer in [0, 1]", "-C", "2");
	EXPECT_ERROR("-g/--ngpus 8: not supported", "-b", "8", "-g", "8");
	EXPECT_ERROR("mpirun -np 8 allreduce_perf -b 8 ", "-b", "8", "-g", "8", "-e", "1K");
	EXPECT_ERROR("mpirun -np 6 allreduce_perf -e 1K ", "-t", "2", "--ngpus=3", "-e", "1K");
	EXPECT_ERROR("-G/--cudagraph 4: the host backend has no stream to capture", "-G", "4");
	EXPECT_ERROR("-G/--cudagraph", "-G", "-1");
	EXPECT_ERROR("-R/--local_register: 1 is not supported", "-R", "1");
	EXPECT_ERROR("-m/--agg_iters: expected an integer", "-m", "x");
	EXPECT_ERROR("-r/--root: all (every root in turn) is not supported", "-r", "all");
	EXPECT_ERROR("-r/--root: -1 (every root", "-r", "-1");
	cb_options_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_defaults_and_good_values),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_canonical_differs),
		cmocka_unit_test(test_canonical_text),
		cmocka_unit_test(test_coll),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_same_file),
		cmocka_unit_test(test_nccl_tests_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
