/* cb_options: the table, the setters of the rows that check more than their
 * kind can (--counts, -a against the algorithm registry, -B against the
 * backend table), the checks across options, parsing, usage text and
 * canonical form (contract in cb_options.h). The size list: cb_sweep.c. */
#define _GNU_SOURCE
#include "cb_options.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_output.h"
#include "cb_plan_file.h"

/* ENUM rows store through an int */
_Static_assert(sizeof(enum cb_timing) == sizeof(int), "enum cb_timing is int-sized");
_Static_assert(sizeof(enum cb_wait_mode) == sizeof(int), "enum cb_wait_mode is int-sized");
_Static_assert(sizeof(enum cb_transport_id) == sizeof(int), "enum cb_transport_id is int-sized");

const char *cb_timing_name(enum cb_timing t)
{
	return t == CB_TIMING_LOOP ? "loop" : "iter";
}

/* The names of the ENUM and MASK rows, by index (NULL past the end). */
static const char *dtype_name(int i)
{
	return i >= 0 && i < CB_DTYPE_COUNT ? cb_dtype_name((enum cb_dtype)i) : NULL;
}

static const char *op_name(int i)
{
	return i >= 0 && i < CB_OP_COUNT ? cb_op_name((enum cb_op)i) : NULL;
}

static const char *timing_name(int i)
{
	return cb_timing_name((enum cb_timing)i);
}

static const char *wait_name(int i)
{
	return cb_wait_mode_name((enum cb_wait_mode)i);
}

static const char *coll_name(int i)
{
	const struct cb_coll_desc *c = cb_coll_get((enum cb_coll)i);

	return c ? c->name : NULL;
}

static const char *transport_name(int i)
{
	const struct cb_transport *t = cb_transport_get(i);

	return t ? t->name : NULL;
}

/* The custom rows' setters: --counts, -a, -B. */
static enum cb_status set_counts(const struct cb_optdef *row, void *target, const char *v,
				 char *e, size_t n)
{
	struct cb_size_list *l = (struct cb_size_list *)(void *)((char *)target + row->offset);
	char buf[1024], *save = NULL, *tok;

	if (strlen(v) >= sizeof(buf))
		return cb_opt_refuse(row, e, n, "list too long");
	if (cb_list_has_empty(v))
		return cb_opt_refuse(row, e, n, "'%s' has an empty entry", v);
	strcpy(buf, v);
	l->n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t c;

		if (l->n == CB_SIZE_LIST_MAX)
			return cb_opt_refuse(row, e, n, "more than %d counts", CB_SIZE_LIST_MAX);
		if (cb_parse_size(tok, &c) != 0)
			return cb_opt_refuse(row, e, n, "'%s' is not an element count", tok);
		l->v[l->n++] = c;
	}
	if (l->n == 0)
		return cb_opt_refuse(row, e, n, "empty list");
	return CB_OK;
}

/* -a's list, stored; its names are checked after --plan added its
 * algorithm (check_algos). */
static enum cb_status set_algos(const struct cb_optdef *row, void *target, const char *v,
				char *e, size_t n)
{
	/* room for ",NAME" of a --plan */
	if (strlen(v) + 33 >= row->size)
		return cb_opt_refuse(row, e, n, "list too long");
	if (*v && cb_list_has_empty(v))
		return cb_opt_refuse(row, e, n, "'%s' has an empty entry", v);
	if (!*v) /* the default "" is applied without a check: every algorithm */
		return cb_opt_refuse(row, e, n, "'%s' names no algorithm", v);
	strcpy((char *)target + row->offset, v);
	return CB_OK;
}

/* Every name of -a known, none twice, at most CB_MAX_ALGOS. */
static enum cb_status check_algos(const struct cb_options *o, char *e, size_t n)
{
	char buf[sizeof(o->algos)], *save = NULL, *tok;
	const struct cb_algo_ops *seen[CB_MAX_ALGOS];
	int k = 0;

	strcpy(buf, o->algos);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct cb_algo_ops *a = cb_algo_find_coll(o->coll, tok);

		if (!a) {
			snprintf(e, n, "-a/--algo: unknown algorithm '%s' of %s (see --help%s)", tok,
				 cb_coll_get(o->coll)->name,
				 *o->plan ? "; a plan file's is its \"name\"" : "");
			return CB_ERR_ARG;
		}
		for (int i = 0; i < k; i++)
			if (seen[i] == a) {
				snprintf(e, n, "-a/--algo: '%s' is listed twice", tok);
				return CB_ERR_ARG;
			}
		if (k == CB_MAX_ALGOS) {
			snprintf(e, n, "-a/--algo: more than %d algorithms", CB_MAX_ALGOS);
			return CB_ERR_ARG;
		}
		seen[k++] = a;
	}
	return CB_OK;
}

/* --plan: the file read, added to the algorithms and to -a's list when
 * that names others; its check on the in-memory executor is
 * cb_options_check_plan's. */
static enum cb_status load_plan(struct cb_options *o, char *e, size_t n)
{
	struct cb_plan_file *f;
	const struct cb_algo_desc *d;
	enum cb_status st = cb_plan_file_load(o->plan, &f, e, n);

	if (st != CB_OK)
		return st;
	d = cb_catalog_coll_algo(o->coll, cb_plan_file_name(f));
	if (cb_plan_file_coll(f) != o->coll) {
		snprintf(e, n, "--plan: %s is a plan of %s; --coll is %s (run it with --coll %s or "
			 "%s)", o->plan, cb_coll_get(cb_plan_file_coll(f))->name,
			 cb_coll_get(o->coll)->name, cb_coll_get(cb_plan_file_coll(f))->name,
			 cb_coll_get(cb_plan_file_coll(f))->perf_name);
		st = CB_ERR_ARG;
	} else if (d && (!d->plan || !d->plan->data)) {
		snprintf(e, n, "%s: plan name '%s' is a built-in algorithm's", o->plan,
			 cb_plan_file_name(f));
		st = CB_ERR_ARG;
	}
	if (st == CB_OK)
		st = cb_plan_file_add(f, e, n);
	if (st != CB_OK) {
		cb_plan_file_free(f);
		return st;
	}
	snprintf(o->plan_name, sizeof(o->plan_name), "%s", cb_plan_file_name(f));
	o->plan_ranks = cb_plan_file_ranks(f);
	snprintf(o->plan_digest, sizeof(o->plan_digest), "%s", cb_plan_file_digest(f));
	o->plan_file = f;
	if (*o->algos && !cb_list_selects(o->algos, cb_plan_file_name(f)))
		snprintf(o->algos + strlen(o->algos), sizeof(o->algos) - strlen(o->algos), ",%s",
			 cb_plan_file_name(f));
	return CB_OK;
}

/* Backend i of the backend table by name (ctx unused): every one, or only
 * those built into this binary; NULL past the end. For cb_join_names. */
static const char *known_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return i >= 0 && (size_t)i < n ? reg[i]->desc->name : NULL;
}

static const char *built_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return i >= 0 && (size_t)i < n && !reg[i]->missing ? reg[i]->desc->name : NULL;
}

static int nbackends(void)
{
	size_t n;

	cb_backend_registry(&n);
	return (int)n;
}

static enum cb_status set_backend(const struct cb_optdef *row, void *target, const char *v,
				  char *e, size_t n)
{
	const struct cb_backend_ops *be = cb_backend_find(v);
	char names[128];

	if (!be) {
		cb_join_names(names, sizeof(names), known_backend, NULL, nbackends(), ", ", " or ");
		return cb_opt_refuse(row, e, n, "unknown backend '%s' (%s)", v, names);
	}
	if (be->missing) {
		cb_join_names(names, sizeof(names), built_backend, NULL, nbackends(), ",", ",");
		return cb_opt_refuse(row, e, n, "backend '%s' is not built into this binary (built: %s)",
			   v, names);
	}
	snprintf((char *)target + row->offset, row->size, "%s", v);
	return CB_OK;
}

#define OFF(field) CB_OPT_FIELD(struct cb_options, field)
#define RANGE(l, h) .lo = (l), .hi = (h)
#define LOCAL CB_OPT_LOCAL

static const struct cb_optdef table[] = {
	{ .lname = "minbytes", .sname = 'b', .argname = "SIZE", .defval = "32M",
	  .kind = CB_OPT_SIZE, OFF(minbytes),
	  .help = "smallest message per rank (K, M, G: powers of 1024)" },
	{ .lname = "maxbytes", .sname = 'e', .argname = "SIZE", .defval = "32M",
	  .kind = CB_OPT_SIZE, OFF(maxbytes), .help = "largest message per rank" },
	{ .lname = "stepfactor", .sname = 'f', .argname = "N", .defval = "1", .kind = CB_OPT_INT,
	  OFF(stepfactor), RANGE(1, 1024),
	  .help = "multiply the size by N each step; 1: add --stepbytes" },
	{ .lname = "stepbytes", .sname = 'i', .argname = "SIZE", .defval = "1M",
	  .kind = CB_OPT_SIZE, OFF(stepbytes), .help = "size increment when --stepfactor is 1" },
	{ .lname = "counts", .sname = 'N', .argname = "LIST", .kind = CB_OPT_SIZES, OFF(counts),
	  .set = set_counts, .help = "element counts to run instead of -b/-e, e.g. 0,1,7,1000" },
	{ .lname = "iters", .sname = 'n', .argname = "N", .defval = "20", .kind = CB_OPT_INT,
	  OFF(iters), RANGE(1, 1000000), .help = "timed iterations per row" },
	{ .lname = "warmup_iters", .sname = 'w', .argname = "N", .defval = "5", .kind = CB_OPT_INT,
	  OFF(warmup), RANGE(0, 1000000), .help = "untimed iterations before them" },
	{ .lname = "check", .sname = 'c', .argname = "0|1", .defval = "1", .kind = CB_OPT_INT,
	  OFF(check), RANGE(0, 1), .help = "check every element of every rank's result" },
	{ .lname = "repeat", .sname = 'R', .argname = "K", .defval = "1", .kind = CB_OPT_INT,
	  OFF(repeat), RANGE(1, 1000),
	  .help = "K independent timed blocks per row (noise estimate)" },
	{ .lname = "datatype", .sname = 'd', .argname = "TYPE", .defval = "float",
	  .kind = CB_OPT_MASK, OFF(dtype_mask), .name = dtype_name, .count = CB_DTYPE_COUNT,
	  .help = "int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double; comma list "
	          "or all" },
	{ .lname = "op", .sname = 'o', .argname = "OP", .defval = "sum", .kind = CB_OPT_MASK,
	  OFF(op_mask), .name = op_name, .count = CB_OP_COUNT,
	  .help = "sum prod min max avg; comma list or all" },
	{ .lname = "coll", .argname = "NAME", .defval = "allreduce", .kind = CB_OPT_ENUM, OFF(coll),
	  .name = coll_name, .count = CB_COLL_COUNT, .what = "collective",
	  .help = "the collective, one of those listed below with their algorithms (the "
	          "binaries named as nccl-tests', reduce_scatter_perf ..., set it)" },
	{ .lname = "algo", .sname = 'a', .argname = "LIST", .defval = "", .kind = CB_OPT_TEXT,
	  OFF(algos), .set = set_algos,
	  .help = "comma list of algorithms (default: all on the backend but mpi.*)" },
	{ .lname = "backend", .sname = 'B', .argname = "NAME", .defval = "host",
	  .kind = CB_OPT_TEXT, OFF(backend), .set = set_backend,
	  .help = "where buffers live: a backend built into this binary (listed below)" },
	{ .lname = "transport", .argname = "NAME", .defval = "auto", .kind = CB_OPT_ENUM,
	  OFF(transport), .name = transport_name, .count = CB_TRANSPORT_COUNT, .what = "transport",
	  .help = "where bytes move between ranks (ps, ring): auto, shm, ipc or p2p (listed "
	          "below)" },
	{ .lname = "root", .sname = 'r', .argname = "RANK", .defval = "0", .kind = CB_OPT_INT,
	  OFF(root), RANGE(0, 1 << 20),
	  .help = "root rank: ps's (its first server), the ps-style plans', broadcast's and reduce's" },
	{ .lname = "servers", .argname = "K", .defval = "1", .kind = CB_OPT_INT,
	  OFF(servers), RANGE(1, 1 << 20),
	  .help = "ps: K servers, each reducing 1/K of the buffer (BytePS); at most the ranks" },
	{ .lname = "inplace", .argname = "0|1", .defval = "0", .kind = CB_OPT_INT, OFF(in_place),
	  RANGE(0, 1),
	  .help = "1: one buffer (all_gather's send and reduce_scatter's receive: the rank's block in it)" },
	{ .lname = "timeout", .sname = 'T', .argname = "SEC", .defval = "300",
	  .kind = CB_OPT_DOUBLE, OFF(timeout_s), RANGE(0, 1e6),
	  .what = "a number of seconds in (0, 1e6]", .flags = CB_OPT_LO_OPEN | LOCAL,
	  .help = "watchdog: abort when an iteration, or a wait for peers between iterations, "
	          "makes no progress for SEC s (set-up steps: --setup-timeout)" },
	{ .lname = "setup-timeout", .argname = "SEC", .defval = "600", .kind = CB_OPT_DOUBLE,
	  OFF(setup_timeout_s), RANGE(0, 1e6), .what = "a number of seconds in (0, 1e6]",
	  .flags = CB_OPT_LO_OPEN | LOCAL,
	  .help = "watchdog of a set-up step (start-up, checking --plan's file, allocating "
	          "and pre-faulting the buffers, an algorithm's set-up, filling inputs, the "
	          "reference, comparing a result): abort when one takes more than SEC s" },
	{ .lname = "slicebytes", .argname = "SIZE", .defval = "0", .kind = CB_OPT_SIZE,
	  OFF(slice_bytes),
	  .help = "ring pipelining slice, and ps's over p2p (0: the backend's, host 256K, cuda "
	          "16M)" },
	{ .lname = "timing", .argname = "MODE", .defval = "iter", .kind = CB_OPT_ENUM, OFF(timing),
	  .name = timing_name, .count = CB_TIMING_LOOP + 1, .what = "",
	  .help = "iter: barrier, then each call timed, max over ranks; loop: -n calls back to "
	          "back between two timestamps (nccl-tests' way), their mean, max over ranks" },
	{ .lname = "wait", .argname = "MODE", .defval = "futex", .kind = CB_OPT_ENUM, OFF(wait),
	  .name = wait_name, .count = CB_WAIT_MODE_COUNT, .what = "strategy",
	  .help = "how a rank waits for a peer on the host: futex (poll, yield, then sleep "
	          "until woken), yield (poll, then sched_yield), spin (0.1's: 4000 pauses, then "
	          "sched_yield)" },
	{ .lname = "time-acct", .argname = "0|1|2", .defval = "1", .kind = CB_OPT_INT,
	  OFF(time_acct), RANGE(0, 2),
	  .help = "1: each rank's wait time (peers, barrier) and busy time (the iteration's "
	          "time less its wait) where the backend can (per-rank CSV busy_us, wait_us, "
	          "barrier_us); 2: busy timed around every copy and reduce instead, with its "
	          "CPU time (busy_cpu_us; clock reads and a system call per span); 0: no clock "
	          "reads besides the iteration's" },
	{ .lname = "plan", .argname = "FILE", .kind = CB_OPT_TEXT, OFF(plan), .what = "path",
	  .help = "also run the plan in FILE (JSON, docs/plans.md), checked before anything is "
	          "timed; -a may name it" },
	{ .lname = "csv", .argname = "PATH", .kind = CB_OPT_TEXT, OFF(csv), .what = "path",
	  .flags = LOCAL, .help = "write summary rows to PATH (CSV)" },
	{ .lname = "rank-csv", .argname = "PATH", .kind = CB_OPT_TEXT, OFF(rank_csv),
	  .what = "path", .flags = LOCAL, .help = "write per-rank rows to PATH (CSV)" },
	{ .lname = "json", .argname = "PATH", .kind = CB_OPT_TEXT, OFF(json), .what = "path",
	  .flags = LOCAL, .help = "write summary rows to PATH (JSON)" },
	{ .lname = "output_file", .sname = 'J', .argname = "FILE", .kind = CB_OPT_TEXT,
	  OFF(output_file), .what = "path", .flags = LOCAL,
	  .help = "write the results in nccl-tests' JSON layout to FILE (its -J; rank 0, "
	          "replaced whole at the end; collbench's own JSON is --json)" },
	{ .lname = "meta", .argname = "PATH", .kind = CB_OPT_TEXT, OFF(meta), .what = "path",
	  .flags = LOCAL, .help = "run metadata (JSON); default: --csv with .meta.json" },
	{ .lname = "quiet", .sname = 'q', .kind = CB_OPT_FLAG, OFF(quiet), .flags = LOCAL,
	  .help = "no result table on stdout" },
	{ .lname = "check-args", .kind = CB_OPT_FLAG, OFF(check_args), .flags = LOCAL,
	  .help = "check the options as a run would (those that need the world size, --root, "
	          "--servers and --plan's ranks, only with --world-size) and exit 0, or 2 with "
	          "the message; no MPI, no mpirun (scripts/sweep.sh's check)" },
	{ .lname = "world-size", .argname = "N", .defval = "0", .kind = CB_OPT_INT,
	  OFF(world_size), RANGE(0, 1 << 24), .flags = LOCAL,
	  .help = "the world size the options are for: --check-args checks --root, --servers "
	          "and --plan's ranks for N ranks (scripts/sweep.sh: each --ranks); a run "
	          "refuses another (0: not given)" },
	{ .lname = "help", .sname = 'h', .kind = CB_OPT_FLAG, OFF(help),
	  .help = "print this help" },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

/* --meta defaults to --csv with .csv replaced by .meta.json; every output's
 * name must fit the file system (cb_path_fits: the metadata is written at
 * the start and again at the end of a run); no two outputs may name one file
 * however spelled (cb_path_same_file: they would overwrite one another). */
static enum cb_status check_paths(struct cb_options *o, char *err, size_t n)
{
	const char *names[] = { "--csv", "--rank-csv", "--json", "--meta" };
	const char *paths[] = { o->csv, o->rank_csv, o->json, o->meta };
	size_t len = strlen(o->csv);
	int derived = !o->meta[0] && len;

	if (derived) {
		if (len > 4 && strcmp(o->csv + len - 4, ".csv") == 0)
			len -= 4;
		if (len + sizeof(".meta.json") > sizeof(o->meta)) {
			snprintf(err, n, "--csv: path too long to derive the metadata path (give --meta)");
			return CB_ERR_ARG;
		}
		snprintf(o->meta, sizeof(o->meta), "%.*s.meta.json", (int)len, o->csv);
	}
	/* every file a run writes can exist (--meta through cb_replace_open's temporary) */
	for (int i = 0; i < 4; i++)
		if (*paths[i] && cb_path_fits(i == 3 && derived ? "--csv (its metadata file, "
					      "X.meta.json)" : names[i], paths[i],
					      i == 3 ? CB_PATH_REPLACE_SUFFIX : 0, err, n) != CB_OK)
			return CB_ERR_ARG;
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (*paths[i] && *paths[j] && (strcmp(paths[i], paths[j]) == 0 ||
						       cb_path_same_file(paths[i], paths[j]))) {
				snprintf(err, n, "%s '%s' and %s '%s' name the same file", names[i],
					 paths[i], names[j], paths[j]);
				return CB_ERR_ARG;
			}
	return CB_OK;
}

/* Checks that need several options together (-b <= -e, distinct output
 * paths), derives --meta from --csv and makes o->sweep. Returns CB_ERR_ARG
 * with a message in err, with nothing allocated. */
static enum cb_status check(struct cb_options *o, char *err, size_t n)
{
	enum cb_status st;

	if (o->minbytes > o->maxbytes) {
		snprintf(err, n, "-b/--minbytes (%zu) is larger than -e/--maxbytes (%zu)",
			 o->minbytes, o->maxbytes);
		return CB_ERR_ARG;
	}
	if (o->stepfactor <= 1 && o->stepbytes == 0 && o->minbytes < o->maxbytes) {
		snprintf(err, n, "-i/--stepbytes 0 with -f 1 never reaches -e/--maxbytes");
		return CB_ERR_ARG;
	}
	if (*o->plan && (st = load_plan(o, err, n)) != CB_OK)
		return st;
	if ((st = check_algos(o, err, n)) != CB_OK)
		return st;
	/* -B was checked by its setter: a known backend built into this binary */
	if (cb_transport_refuses(o->transport, cb_catalog_backend(o->backend), err, n))
		return CB_ERR_ARG;
	st = cb_sweep_build(&o->sweep, o, err, n);
	if (st == CB_OK)
		st = check_paths(o, err, n);
	if (st != CB_OK)
		cb_options_free(o);
	return st;
}

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
	return check(o, err, errlen);
}

enum cb_status cb_options_check_plan(const struct cb_options *o, char *err, size_t errlen)
{
	if (!*o->plan || !o->plan_file)
		return CB_OK;
	return cb_plan_file_check(o->plan_file, o->op_mask, 1u << o->in_place, err, errlen);
}

void cb_options_free(struct cb_options *o)
{
	cb_sweep_free(&o->sweep);
}

void cb_options_canonical(const struct cb_options *o, char *buf, size_t len)
{
	cb_optable_canonical(table, NOPTS, o, buf, len);
}

/* Backend i of the table when algorithm ctx runs on it. */
static const char *algo_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	return cb_algo_runs_on(ctx, reg[i]) ? reg[i]->desc->name : NULL;
}

/* One line per algorithm of reg, with the backends it runs on (built or
 * not) when not every one. */
static void usage_coll_algos(FILE *f, const struct cb_algo_ops *const *reg, size_t n,
			     const char *every)
{
	char names[128];

	for (size_t i = 0; i < n; i++) {
		int some;

		cb_join_names(names, sizeof(names), algo_backend, reg[i], nbackends(), ",", ",");
		some = strcmp(names, every) != 0;
		fprintf(f, "  %-6s %s%s%s%s\n", reg[i]->desc->name, reg[i]->desc->description, some ? " [" : "",
			some ? names : "", some ? "]" : "");
	}
}

/* One line per algorithm of each collective, with the backends it runs on
 * (built or not) when not every one. */
static void usage_algos(FILE *f)
{
	char every[128], names[128];

	cb_join_names(every, sizeof(every), known_backend, NULL, nbackends(), ",", ",");
	cb_join_names(names, sizeof(names), built_backend, NULL, nbackends(), ",", ",");
	for (int c = 0; c < CB_COLL_COUNT; c++) {
		size_t n;
		const struct cb_algo_ops *const *reg = cb_algo_registry_coll((enum cb_coll)c, &n);

		fprintf(f, "\nalgorithms of --coll %s (%s; backends built: %s):\n",
			cb_coll_get((enum cb_coll)c)->name, cb_coll_get((enum cb_coll)c)->perf_name,
			names);
		usage_coll_algos(f, reg, n, every);
	}
}

/* One line per transport (--transport). */
static void usage_transports(FILE *f)
{
	fprintf(f, "\ntransports (--transport; the rows of mpi and nccl say library, copy local):\n");
	for (int i = 0; i < CB_TRANSPORT_COUNT; i++)
		fprintf(f, "  %-6s %s\n", cb_transport_get(i)->name, cb_transport_get(i)->description);
}

void cb_options_usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: mpirun -np N %s [options]\n\n"
		"Collective benchmark (--coll: the collectives below): plans and the library's\n"
		"call side by side.\n\noptions:\n", prog);
	cb_optable_usage(f, table, NOPTS, 28);
	usage_algos(f);
	usage_transports(f);
	fprintf(f, "\nSizes are bytes per rank. Results: table on stdout, diagnostics on stderr.\n"
		"Times: each rank times each iteration after a barrier; an iteration's time is\n"
		"the max over ranks; a row's time (time_us) is the mean over its timed iterations\n"
		"(all -R repeats together), with their median, min and max; algbw and busbw\n"
		"come from the mean. The per-rank CSV's time_us is that rank's own mean.\n"
		"Environment: CB_MACHINE names the machine in the metadata (default: the host\n"
		"name); baselines are matched on it with the CPU model, CPU count and GPU model.\n");
}
