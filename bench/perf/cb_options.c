#define _GNU_SOURCE
#include "cb_options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_optable.h"
#include "cb_options_int.h"

static enum cb_status bad(char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum cb_status bad(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return CB_ERR_ARG;
}

static enum cb_status set_size(size_t *dst, const char *opt, const char *v, char *err, size_t n)
{
	if (cb_parse_size(v, dst) != 0)
		return bad(err, n, "%s: '%s' is not a size (digits with an optional K, M or G suffix)",
			   opt, v);
	return CB_OK;
}

static enum cb_status set_int(int *dst, int lo, int hi, const char *opt, const char *v, char *err,
			      size_t n)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi) {
		char range[64];

		snprintf(range, sizeof(range), "an integer in [%d, %d]", lo, hi);
		return bad(err, n, "%s: expected %s", opt, range);
	}
	*dst = (int)x;
	return CB_OK;
}

static enum cb_status set_minbytes(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_size(&o->minbytes, "-b/--minbytes", v, e, n);
}

static enum cb_status set_maxbytes(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_size(&o->maxbytes, "-e/--maxbytes", v, e, n);
}

static enum cb_status set_stepbytes(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_size(&o->stepbytes, "-i/--stepbytes", v, e, n);
}

static enum cb_status set_slicebytes(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_size(&o->slice_bytes, "--slicebytes", v, e, n);
}

static enum cb_status set_stepfactor(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;
	int f = 1;
	enum cb_status st = set_int(&f, 1, 1024, "-f/--stepfactor", v, e, n);

	if (st == CB_OK)
		o->stepfactor = (unsigned long)f;
	return st;
}

static enum cb_status set_counts(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;
	char buf[1024], *save = NULL, *tok;

	if (strlen(v) >= sizeof(buf))
		return bad(e, n, "--counts: list too long");
	if (cb_list_has_empty(v))
		return bad(e, n, "-N/--counts: '%s' has an empty entry", v);
	strcpy(buf, v);
	o->ncounts = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t c;

		if (o->ncounts == CB_MAX_COUNTS)
			return bad(e, n, "--counts: more than 64 counts");
		if (cb_parse_size(tok, &c) != 0)
			return bad(e, n, "--counts: '%s' is not an element count", tok);
		o->counts[o->ncounts++] = c;
	}
	if (o->ncounts == 0)
		return bad(e, n, "--counts: empty list");
	return CB_OK;
}

static enum cb_status set_iters(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_int(&o->iters, 1, 1000000, "-n/--iters", v, e, n);
}

static enum cb_status set_warmup(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_int(&o->warmup, 0, 1000000, "-w/--warmup_iters", v, e, n);
}

static enum cb_status set_check(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_int(&o->check, 0, 1, "-c/--check", v, e, n);
}

static enum cb_status set_repeat(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_int(&o->repeat, 1, 1000, "-R/--repeat", v, e, n);
}

static enum cb_status set_root(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_int(&o->root, 0, 1 << 20, "-r/--root", v, e, n);
}

static enum cb_status set_inplace(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_int(&o->in_place, 0, 1, "--inplace", v, e, n);
}

/* A comma list of names, or "all", into a bit mask via parse(). */
static enum cb_status set_mask(unsigned *mask, const char *v, int all_count, const char *opt,
			       int (*parse)(const char *, int *), char *e, size_t n)
{
	char buf[256], *save = NULL, *tok;

	if (strcmp(v, "all") == 0) {
		*mask = (1u << all_count) - 1;
		return CB_OK;
	}
	if (strlen(v) >= sizeof(buf) || !*v)
		return bad(e, n, "%s: '%s' is not a valid list", opt, v);
	if (cb_list_has_empty(v))
		return bad(e, n, "%s: '%s' has an empty entry", opt, v);
	strcpy(buf, v);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int x;

		if (parse(tok, &x) != 0)
			return bad(e, n, "%s: unknown name '%s' (see --help)", opt, tok);
		*mask |= 1u << x;
	}
	return *mask ? CB_OK : bad(e, n, "%s: '%s' is not a valid list", opt, v);
}

static int parse_dtype_int(const char *s, int *x)
{
	enum cb_dtype dt;

	if (cb_dtype_parse(s, &dt) != 0)
		return -1;
	*x = (int)dt;
	return 0;
}

static int parse_op_int(const char *s, int *x)
{
	enum cb_op op;

	if (cb_op_parse(s, &op) != 0)
		return -1;
	*x = (int)op;
	return 0;
}

static enum cb_status set_dtype(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_mask(&o->dtype_mask, v, CB_DTYPE_COUNT, "-d/--datatype", parse_dtype_int, e, n);
}

static enum cb_status set_op(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_mask(&o->op_mask, v, CB_OP_COUNT, "-o/--op", parse_op_int, e, n);
}

static enum cb_status set_algos(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;
	char buf[sizeof(o->algos)], *save = NULL, *tok;
	const struct cb_algo_ops *seen[CB_MAX_ALGOS];
	int k = 0;

	if (strlen(v) >= sizeof(buf))
		return bad(e, n, "%s: list too long", "-a/--algo");
	if (*v && cb_list_has_empty(v))
		return bad(e, n, "-a/--algo: '%s' has an empty entry", v);
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct cb_algo_ops *a = cb_algo_find(tok);

		if (!a)
			return bad(e, n, "-a/--algo: unknown algorithm '%s' (see --help)", tok);
		for (int i = 0; i < k; i++)
			if (seen[i] == a)
				return bad(e, n, "-a/--algo: '%s' is listed twice", tok);
		if (k == CB_MAX_ALGOS)
			return bad(e, n, "-a/--algo: more than %d algorithms", CB_MAX_ALGOS);
		seen[k++] = a;
	}
	if (!k)
		return bad(e, n, "-a/--algo: '%s' names no algorithm", v);
	strcpy(o->algos, v);
	return CB_OK;
}

/* Backend i of the table, by name: every one, or only those built. */
static const char *known_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return (size_t)i < n ? reg[i]->name : NULL;
}

static const char *built_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return (size_t)i < n && !reg[i]->missing ? reg[i]->name : NULL;
}

static int nbackends(void)
{
	size_t n;

	cb_backend_registry(&n);
	return (int)n;
}

static enum cb_status set_backend(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;
	const struct cb_backend_ops *be = cb_backend_find(v);
	char names[128];

	if (!be) {
		cb_join_names(names, sizeof(names), known_backend, NULL, nbackends(), ", ", " or ");
		return bad(e, n, "-B/--backend: unknown backend '%s' (%s)", v, names);
	}
	if (be->missing) {
		cb_join_names(names, sizeof(names), built_backend, NULL, nbackends(), ",", ",");
		return bad(e, n, "-B/--backend: backend '%s' is not built into this binary (built: %s)",
			   v, names);
	}
	snprintf(o->backend, sizeof(o->backend), "%s", v);
	return CB_OK;
}

static enum cb_status set_timeout(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;
	char *end;

	errno = 0;
	o->timeout_s = strtod(v, &end);
	if (errno || end == v || *end || !(o->timeout_s > 0 && o->timeout_s <= 1e6))
		return bad(e, n, "-T/--timeout: '%s' is not a number of seconds in (0, 1e6]", v);
	return CB_OK;
}

static enum cb_status set_timing(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	for (int t = CB_TIMING_ITER; t <= CB_TIMING_LOOP; t++)
		if (strcmp(v, cb_timing_name((enum cb_timing)t)) == 0) {
			o->timing = (enum cb_timing)t;
			return CB_OK;
		}
	return bad(e, n, "--timing: '%s' is not iter or loop", v);
}

static enum cb_status set_wait(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	if (cb_wait_mode_parse(v, &o->wait) != 0)
		return bad(e, n, "--wait: unknown strategy '%s' (futex, yield or spin)", v);
	return CB_OK;
}

static enum cb_status set_path(char *dst, const char *opt, const char *v, char *e, size_t n)
{
	if (strlen(v) >= CB_PATH_MAX)
		return bad(e, n, "%s: path too long", opt);
	strcpy(dst, v);
	return CB_OK;
}

static enum cb_status set_csv(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_path(o->csv, "--csv", v, e, n);
}

static enum cb_status set_rank_csv(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_path(o->rank_csv, "--rank-csv", v, e, n);
}

static enum cb_status set_json(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_path(o->json, "--json", v, e, n);
}

static enum cb_status set_meta(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	return set_path(o->meta, "--meta", v, e, n);
}

static enum cb_status set_quiet(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	(void)v, (void)e, (void)n;
	o->quiet = 1;
	return CB_OK;
}

static enum cb_status set_help(void *target, const char *v, char *e, size_t n)
{
	struct cb_options *o = target;

	(void)v, (void)e, (void)n;
	o->help = 1;
	return CB_OK;
}

static const struct cb_optdef table[] = {
	{ "minbytes", 'b', "SIZE", "32M", "smallest message per rank (K, M, G: powers of 1024)", set_minbytes },
	{ "maxbytes", 'e', "SIZE", "32M", "largest message per rank", set_maxbytes },
	{ "stepfactor", 'f', "N", "1", "multiply the size by N each step; 1: add --stepbytes", set_stepfactor },
	{ "stepbytes", 'i', "SIZE", "1M", "size increment when --stepfactor is 1", set_stepbytes },
	{ "counts", 'N', "LIST", NULL, "element counts to run instead of -b/-e, e.g. 0,1,7,1000", set_counts },
	{ "iters", 'n', "N", "20", "timed iterations per row", set_iters },
	{ "warmup_iters", 'w', "N", "5", "untimed iterations before them", set_warmup },
	{ "check", 'c', "0|1", "1", "check every element of every rank's result", set_check },
	{ "repeat", 'R', "K", "1", "K independent timed blocks per row (noise estimate)", set_repeat },
	{ "datatype", 'd', "TYPE", "float", "int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double; comma list or all", set_dtype },
	{ "op", 'o', "OP", "sum", "sum prod min max avg; comma list or all", set_op },
	{ "algo", 'a', "LIST", "", "comma list of algorithms (default: all on the backend)", set_algos },
	{ "backend", 'B', "NAME", "host", "where buffers live: host or cuda", set_backend },
	{ "root", 'r', "RANK", "0", "root rank of ps", set_root },
	{ "inplace", 0, "0|1", "0", "1: send buffer = receive buffer", set_inplace },
	{ "timeout", 'T', "SEC", "300", "watchdog: abort when an iteration makes no progress for SEC s", set_timeout },
	{ "slicebytes", 0, "SIZE", "0", "ring pipelining slice (0: the backend's, host 256K, cuda 16M)", set_slicebytes },
	{ "timing", 0, "MODE", "iter", "iter: barrier, then each call timed, max over ranks; loop: -n calls back to back between two timestamps (nccl-tests' way), their mean, max over ranks", set_timing },
	{ "wait", 0, "MODE", "futex", "how a rank waits for a peer on the host: futex (poll, yield, then sleep until woken), yield (poll, then sched_yield), spin (0.1's: 4000 pauses, then sched_yield)", set_wait },
	{ "csv", 0, "PATH", NULL, "write summary rows to PATH (CSV)", set_csv },
	{ "rank-csv", 0, "PATH", NULL, "write per-rank rows to PATH (CSV)", set_rank_csv },
	{ "json", 0, "PATH", NULL, "write summary rows to PATH (JSON)", set_json },
	{ "meta", 0, "PATH", NULL, "run metadata (JSON); default: --csv with .meta.json", set_meta },
	{ "quiet", 'q', NULL, NULL, "no result table on stdout", set_quiet },
	{ "help", 'h', NULL, NULL, "print this help", set_help },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

enum cb_status cb_options_parse(int argc, char **argv, struct cb_options *o, char *err,
				size_t errlen)
{
	enum cb_status st;

	memset(o, 0, sizeof(*o));
	st = cb_optable_parse(table, NOPTS, o, argc, argv, err, errlen);
	if (st != CB_OK)
		return st;
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		return CB_ERR_ARG;
	}
	if (o->help)
		return CB_OK;
	return cb_options_check(o, err, errlen);
}

/* Backend i of the table when algorithm ctx runs on it. */
static const char *algo_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	return cb_algo_runs_on(ctx, reg[i]) ? reg[i]->name : NULL;
}

void cb_options_usage(FILE *f, const char *prog)
{
	size_t n;
	const struct cb_algo_ops *const *reg = cb_algo_registry(&n);
	char every[128];

	cb_join_names(every, sizeof(every), known_backend, NULL, nbackends(), ",", ",");
	fprintf(f, "usage: mpirun -np N %s [options]\n\n"
		"Allreduce benchmark: ps, ring and library allreduce side by side.\n\noptions:\n", prog);
	cb_optable_usage(f, table, NOPTS, 28);
	char names[128];

	cb_join_names(names, sizeof(names), built_backend, NULL, nbackends(), ",", ",");
	fprintf(f, "\nalgorithms (backends built: %s):\n", names);
	for (size_t i = 0; i < n; i++) {
		/* the backends it runs on, built or not, when not every one */
		cb_join_names(names, sizeof(names), algo_backend, reg[i], nbackends(), ",", ",");
		fprintf(f, "  %-6s %s%s%s%s\n", reg[i]->name, reg[i]->description,
			strcmp(names, every) ? " [" : "", strcmp(names, every) ? names : "",
			strcmp(names, every) ? "]" : "");
	}
	fprintf(f, "\nSizes are bytes per rank. Results: table on stdout, diagnostics on stderr.\n"
		"Times: each rank times each iteration after a barrier; an iteration's time is\n"
		"the max over ranks; a row's time (time_us) is the mean over its timed iterations\n"
		"(all -R repeats together), with their median, min and max; algbw and busbw\n"
		"come from the mean. The per-rank CSV's time_us is that rank's own mean.\n"
		"Environment: CB_MACHINE names the machine in the metadata (default: the host\n"
		"name); baselines are matched on it with the CPU, memory and GPU model.\n");
}

