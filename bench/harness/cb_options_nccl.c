/* cb_options_nccl: nccl-tests' options that need more than their row's
 * kind (contract in cb_options_nccl.h). Their meanings are nccl-tests
 * 2.19's (README.md "Arguments", src/common.cu's option parsing). */
#define _GNU_SOURCE
#include "cb_options_nccl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_selflaunch.h"

#define FIELD(row, target, type) ((type *)(void *)((char *)(target) + (row)->offset))

/* An integer as nccl-tests reads it (strtol base 0), the whole text. */
static int parse_long(const char *v, long *x)
{
	char *end;

	errno = 0;
	*x = strtol(v, &end, 0);
	return errno || end == v || *end ? -1 : 0;
}

enum cb_status cb_opt_set_average(const struct cb_optdef *row, void *target, const char *v,
				  char *err, size_t errlen)
{
	long x;

	if (!*v) {
		*FIELD(row, target, int) = CB_AVG_NONE;
		return CB_OK;
	}
	if (parse_long(v, &x) != 0 || x < 0 || x > 3)
		return cb_opt_refuse(row, err, errlen, "'%s' is not 0 (rank 0), 1 (mean), 2 (min) or 3 "
				     "(max over ranks)", v);
	*FIELD(row, target, int) = (int)x;
	return CB_OK;
}

enum cb_status cb_opt_set_blocking(const struct cb_optdef *row, void *target, const char *v,
				   char *err, size_t errlen)
{
	long x;

	if (!*v) {
		*FIELD(row, target, int) = -1;
		return CB_OK;
	}
	if (parse_long(v, &x) != 0 || x < 0 || x > 3)
		return cb_opt_refuse(row, err, errlen, "'%s' is not 0, 1, 2 or 3", v);
	*FIELD(row, target, int) = (int)x;
	return CB_OK;
}

enum cb_status cb_opt_set_timeout(const struct cb_optdef *row, void *target, const char *v,
				  char *err, size_t errlen)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	/* a NaN fails both comparisons: refused */
	if (errno || end == v || *end || !(x >= 0 && x <= 1e6))
		return cb_opt_refuse(row, err, errlen, "'%s' is not a number of seconds in [0, 1e6] "
				     "(0: no limit)", v);
	*FIELD(row, target, double) = x > 0 ? x : 1e6;
	return CB_OK;
}

enum cb_status cb_opt_set_root(const struct cb_optdef *row, void *target, const char *v,
			       char *err, size_t errlen)
{
	long x;

	if (strcmp(v, "all") == 0 || (parse_long(v, &x) == 0 && x == -1))
		return cb_opt_refuse(row, err, errlen, "%s (every root in turn) is not supported: one "
				     "launch per root (-r 0, -r 1, ...)", v);
	if (parse_long(v, &x) != 0 || x < 0 || x > 1 << 20)
		return cb_opt_refuse(row, err, errlen, "expected a rank in [0, %d]", 1 << 20);
	*FIELD(row, target, int) = (int)x;
	return CB_OK;
}

/* Whether argv[i] is -t or -g (or their long names), alone (1: its value
 * follows) or with its value (2: "-g8", "--ngpus=8"); else 0. */
static int procs_word(const char *w)
{
	static const char *const names[] = { "-t", "-g", "--nthreads", "--ngpus" };

	for (int k = 0; k < 4; k++) {
		size_t n = strlen(names[k]);

		if (strcmp(w, names[k]) == 0)
			return 1;
		if (strncmp(w, names[k], n) == 0 && (k < 2 || w[n] == '='))
			return 2;
	}
	return 0;
}

/* "mpirun -np N PROG ARGS" with argv less -t, -g and the --coll that the
 * program's name put first (argv[1], "--coll=..."), into buf. */
static void mpirun_line(int np, int argc, char **argv, char *buf, size_t len)
{
	size_t k;

	snprintf(buf, len, "mpirun -np %d %s", np, argv[0]);
	for (int i = 1; i < argc && (k = strlen(buf)) + 1 < len; i++) {
		int w = procs_word(argv[i]);

		if (w) {
			i += w == 1;
			continue;
		}
		if ((i == 1 && strncmp(argv[i], "--coll=", 7) == 0) ||
		    strcmp(argv[i], "--check-args") == 0)
			continue;
		snprintf(buf + k, len - k, " %s", argv[i]);
	}
}

enum cb_status cb_options_nccl_check(struct cb_options *o, int timing_given, int argc,
				     char **argv, char *err, size_t errlen)
{
	char line[512];

	if (o->nthreads > 1 || o->ngpus > 1) {
		const char *launcher = cb_selflaunch_launcher_var();
		char what[64], why[96];

		if (o->nthreads > 1 && o->ngpus > 1)
			snprintf(what, sizeof(what), "-t/--nthreads %d with -g/--ngpus %d", o->nthreads,
				 o->ngpus);
		else if (o->ngpus > 1)
			snprintf(what, sizeof(what), "-g/--ngpus %d", o->ngpus);
		else
			snprintf(what, sizeof(what), "-t/--nthreads %d", o->nthreads);
		mpirun_line(o->nthreads * o->ngpus, argc, argv, line, sizeof(line));
		if (launcher)
			snprintf(why, sizeof(why), "under a launcher (%s is set)", launcher);
		else if (o->nthreads * o->ngpus > CB_SELFLAUNCH_MAX_RANKS)
			snprintf(why, sizeof(why), "above %d ranks", CB_SELFLAUNCH_MAX_RANKS);
		else
			snprintf(why, sizeof(why), "in this process");
		snprintf(err, errlen, "%s: not supported %s: collbench runs one rank per process, "
			 "one GPU each, and starts them itself only when started without a launcher; "
			 "start the same ranks with the launcher: %s (under mpirun -np P: -np %d*P)",
			 what, why, line, o->nthreads * o->ngpus);
		return CB_ERR_ARG;
	}
	if (o->blocking >= 0) {
		/* 0..2: nccl-tests' one timer around the iterations; 3: each
		 * iteration to its completion, the barrier after it untimed */
		enum cb_timing t = o->blocking == 3 ? CB_TIMING_ITER : CB_TIMING_LOOP;

		if (timing_given && o->timing != t) {
			snprintf(err, errlen, "-z/--blocking %d (%s) and --timing %s contradict each other",
				 o->blocking, t == CB_TIMING_LOOP ? "the iterations back to back, --timing loop" :
				 "each iteration timed alone, --timing iter",
				 o->timing == CB_TIMING_LOOP ? "loop" : "iter");
			return CB_ERR_ARG;
		}
		o->timing = t;
	}
	return CB_OK;
}
