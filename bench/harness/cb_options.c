/* cb_options: the table, the setters of the rows that check more than their
 * kind can (--counts, --algo against the algorithm registry, -B against the
 * backend table), the checks across options, parsing and canonical form
 * (contract in cb_options.h). The size list: cb_sweep.c; nccl-tests' rows
 * that need more than their kind: cb_options_nccl.c; --help:
 * cb_options_usage.c. */
#define _GNU_SOURCE
#include "cb_options.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_options_nccl.h"
#include "cb_options_usage.h"
#include "cb_output.h"
#include "cb_plan_file.h"

/* ENUM rows store through an int */
_Static_assert(sizeof(enum cb_timing) == sizeof(int), "enum cb_timing is int-sized");
_Static_assert(sizeof(enum cb_wait_mode) == sizeof(int), "enum cb_wait_mode is int-sized");
_Static_assert(sizeof(enum cb_transport_id) == sizeof(int), "enum cb_transport_id is int-sized");
_Static_assert(sizeof(enum cb_inplace) == sizeof(int), "enum cb_inplace is int-sized");

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

static const char *inplace_name(int i)
{
	static const char *const names[] = { "0", "1", "both" };

	return i >= 0 && i <= CB_INPLACE_BOTH ? names[i] : NULL;
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

/* The custom rows' setters: --counts, --algo, -B. */
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

/* --algo's list, stored; its names are checked after --plan added its
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

/* Every name of --algo known, none twice, at most CB_MAX_ALGOS. */
static enum cb_status check_algos(const struct cb_options *o, char *e, size_t n)
{
	char buf[sizeof(o->algos)], *save = NULL, *tok;
	const struct cb_algo_ops *seen[CB_MAX_ALGOS];
	int k = 0;

	strcpy(buf, o->algos);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct cb_algo_ops *a = cb_algo_find_coll(o->coll, tok);

		if (!a) {
			snprintf(e, n, "--algo: unknown algorithm '%s' of %s (see --help%s)", tok,
				 cb_coll_get(o->coll)->name,
				 *o->plan ? "; a plan file's is its \"name\"" : "");
			return CB_ERR_ARG;
		}
		for (int i = 0; i < k; i++)
			if (seen[i] == a) {
				snprintf(e, n, "--algo: '%s' is listed twice", tok);
				return CB_ERR_ARG;
			}
		if (k == CB_MAX_ALGOS) {
			snprintf(e, n, "--algo: more than %d algorithms", CB_MAX_ALGOS);
			return CB_ERR_ARG;
		}
		seen[k++] = a;
	}
	return CB_OK;
}

/* --plan: the file read, added to the algorithms and to --algo's list when
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

static enum cb_status set_backend(const struct cb_optdef *row, void *target, const char *v,
				  char *e, size_t n)
{
	const struct cb_backend_ops *be = cb_backend_find(v);
	char names[128];

	if (!be) {
		cb_join_names(names, sizeof(names), cb_options_known_backend, NULL, cb_options_nbackends(), ", ", " or ");
		return cb_opt_refuse(row, e, n, "unknown backend '%s' (%s)", v, names);
	}
	if (be->missing) {
		cb_join_names(names, sizeof(names), cb_options_built_backend, NULL, cb_options_nbackends(), ",", ",");
		return cb_opt_refuse(row, e, n, "backend '%s' is not built into this binary (built: %s)",
			   v, names);
	}
	snprintf((char *)target + row->offset, row->size, "%s", v);
	return CB_OK;
}

#define OFF(field) CB_OPT_FIELD(struct cb_options, field)
#define RANGE(l, h) .lo = (l), .hi = (h)
#define LOCAL CB_OPT_LOCAL
#define NCCL CB_OPT_NCCL_TESTS
/* an nccl-tests option taken at its default value only, refused otherwise
 * with why (cb_opt_set_fixed) */
#define FIXED(l, s, arg, def, field, why, text)                                              \
	{ .lname = l, .sname = s, .argname = arg, .defval = def, .kind = CB_OPT_INT,         \
	  OFF(fixed.field), .what = why, .flags = LOCAL | NCCL, .set = cb_opt_set_fixed,      \
	  .help = text ": only " def " is taken (" why ")" }

static const struct cb_optdef table[] = {
	{ .lname = "nthreads", .sname = 't', .argname = "N", .defval = "1", .kind = CB_OPT_INT,
	  OFF(nthreads), RANGE(1, 1024), .flags = LOCAL | NCCL,
	  .help = "threads per process, -g GPUs each: T*N ranks, started as -g's are" },
	{ .lname = "ngpus", .sname = 'g', .argname = "N", .defval = "1", .kind = CB_OPT_INT,
	  OFF(ngpus), RANGE(1, 1024), .flags = LOCAL | NCCL,
	  .help = "GPUs per thread: N ranks on this host, one GPU each; started alone, runs "
	          "them under mpirun itself; under a launcher 1 (above: refused)" },
	{ .lname = "minbytes", .flags = NCCL, .sname = 'b', .argname = "SIZE", .defval = "32M",
	  .kind = CB_OPT_SIZE, OFF(minbytes),
	  .help = "smallest message per rank (K, M, G: powers of 1024)" },
	{ .lname = "maxbytes", .flags = NCCL, .sname = 'e', .argname = "SIZE", .defval = "32M",
	  .kind = CB_OPT_SIZE, OFF(maxbytes), .help = "largest message per rank" },
	{ .lname = "stepfactor", .flags = NCCL, .sname = 'f', .argname = "N", .defval = "1", .kind = CB_OPT_INT,
	  OFF(stepfactor), RANGE(1, 1024),
	  .help = "multiply the size by N each step; 1: add --stepbytes" },
	{ .lname = "stepbytes", .flags = NCCL, .sname = 'i', .argname = "SIZE", .defval = "1M",
	  .kind = CB_OPT_SIZE, OFF(stepbytes), .help = "size increment when --stepfactor is 1" },
	{ .lname = "counts", .argname = "LIST", .kind = CB_OPT_SIZES, OFF(counts),
	  .set = set_counts, .help = "element counts to run instead of -b/-e, e.g. 0,1,7,1000" },
	{ .lname = "iters", .flags = NCCL, .sname = 'n', .argname = "N", .defval = "20", .kind = CB_OPT_INT,
	  OFF(iters), RANGE(1, 1000000), .help = "timed iterations per row" },
	{ .lname = "warmup_iters", .flags = NCCL, .sname = 'w', .argname = "N", .defval = "5", .kind = CB_OPT_INT,
	  OFF(warmup), RANGE(0, 1000000), .help = "untimed iterations before them" },
	{ .lname = "agg_iters", .flags = NCCL, .sname = 'm', .argname = "K", .defval = "1",
	  .kind = CB_OPT_INT, OFF(agg_iters), RANGE(1, 1000000),
	  .help = "K calls back to back per timed iteration; a call's time is the iteration's / K: "
	          "per-operation throughput, not a single call's latency" },
	FIXED("run_cycles", 'N', "K", "1", run_cycles, "each launch runs the sweep once; "
	      "run the command K times", "times the sweep is run and printed"),
	{ .lname = "parallel_init", .sname = 'p', .argname = "0|1", .defval = "0",
	  .kind = CB_OPT_INT, OFF(parallel_init), RANGE(0, 1), .flags = LOCAL | NCCL,
	  .help = "initialise in parallel threads: taken, no effect (one rank per process)" },
	{ .lname = "check", .flags = NCCL, .sname = 'c', .argname = "N", .defval = "1",
	  .kind = CB_OPT_INT, OFF(check), RANGE(0, 1000000),
	  .help = "N > 0: after a row's timed calls, N calls checked (outputs poisoned first, "
	          "every element of every rank compared with the reference; the same inputs "
	          "each time); 0: none" },
	{ .lname = "repeat", .argname = "K", .defval = "1", .kind = CB_OPT_INT,
	  OFF(repeat), RANGE(1, 1000),
	  .help = "K independent timed blocks per row (noise estimate)" },
	{ .lname = "average", .sname = 'a', .argname = "0|1|2|3", .defval = "", .kind = CB_OPT_INT,
	  OFF(average), .flags = NCCL, .set = cb_opt_set_average,
	  .help = "a row's time from the ranks' own mean times: 0 rank 0's, 1 their mean, 2 "
	          "min, 3 max (not given: each iteration's max over ranks, then the mean)" },
	{ .lname = "blocking", .sname = 'z', .argname = "0|1|2|3", .defval = "", .kind = CB_OPT_INT,
	  OFF(blocking), .flags = NCCL, .set = cb_opt_set_blocking,
	  .help = "0: the iterations back to back between two timestamps (--timing loop); 1: the same, "
	          "a wait and a barrier after each call (timed); 2: the same, a wait after each call; 3: each "
	          "iteration timed to its completion, then a barrier (--timing iter); a wait: the "
	          "rank's stream synchronised on cuda, nothing on host (a call completes on return)" },
	FIXED("stream_null", 'y', "0", "0", stream_null, "the calls run on the rank's own "
	      "stream on cuda, on its CPU on host", "calls on the default stream"),
	{ .lname = "cudagraph", .sname = 'G', .argname = "K", .defval = "0", .kind = CB_OPT_INT,
	  OFF(cudagraph), RANGE(0, 1000000), .flags = NCCL,
	  .help = "cuda: each call captured in a CUDA graph, launched K times per timed call: "
	          "times per operation (throughput, not one call's latency); rows that wait on "
	          "the host skip; 0: no graph; host backend: refused (no stream)" },
	{ .lname = "report_cputime", .flags = NCCL, .sname = 'C', .argname = "0|1", .defval = "0",
	  .kind = CB_OPT_INT, OFF(report_cputime), RANGE(0, 1),
	  .help = "1: a call's time is the host's time to issue it (CLOCK_MONOTONIC until the "
	          "last call returns, before waiting for the device; on host, where a call "
	          "completes on return, its time), max over ranks; algbw and busbw stay from "
	          "completion" },
	FIXED("report_timestamps", 'S', "0", "0", report_timestamps, "result lines carry no "
	      "timestamp", "a timestamp on each result line"),
	FIXED("local_register", 'R', "0", "0", local_register, "NCCL buffer registration, local "
	      "or symmetric, is not implemented", "register the buffers with NCCL"),
	FIXED("cta_policy", 'x', "N", "-1", cta_policy, "NCCL's CTA policy is not set by "
	      "collbench", "NCCL's CTA policy (-1: not set)"),
	FIXED("device_implementation", 'D', "N", "0", device_impl, "NCCL's device API "
	      "implementations are not offered", "a device API implementation"),
	FIXED("device_cta_count", 'V', "N", "16", device_cta_count, "it applies to -D's device API "
	      "implementation, which is not offered", "CTAs of -D's implementation"),
	FIXED("memory", 'M', "0", "0", memory, "the memory usage report is not printed",
	      "a memory usage report"),
	FIXED("unalign", 'u', "N", "0", unalign, "misaligned buffers are not offered",
	      "misalign the buffers by N elements"),
	FIXED("per_iter_timing", 'I', "0", "0", per_iter_timing, "the per-iteration summary "
	      "columns are not printed; each iteration's time is in --json",
	      "per-iteration timing columns"),
	FIXED("per_iter_skip", 'K', "N", "0", per_iter_skip, "it only applies to -I",
	      "leading iterations left out of -I's columns"),
	{ .lname = "datatype", .flags = NCCL, .sname = 'd', .argname = "TYPE", .defval = "float",
	  .kind = CB_OPT_MASK, OFF(dtype_mask), .name = dtype_name, .count = CB_DTYPE_COUNT,
	  .what = "nccl-tests' fp8 types, f8e4m3 and f8e5m2, are not supported",
	  .help = "int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double; comma list "
	          "or all" },
	{ .lname = "op", .flags = NCCL, .sname = 'o', .argname = "OP", .defval = "sum", .kind = CB_OPT_MASK,
	  OFF(op_mask), .name = op_name, .count = CB_OP_COUNT,
	  .what = "nccl-tests' mulsum is not supported",
	  .help = "sum prod min max avg; comma list or all" },
	{ .lname = "coll", .argname = "NAME", .defval = "allreduce", .kind = CB_OPT_ENUM, OFF(coll),
	  .name = coll_name, .count = CB_COLL_COUNT, .what = "collective",
	  .help = "the collective, one of those listed below with their algorithms (the "
	          "binaries named as nccl-tests', reduce_scatter_perf ..., set it)" },
	{ .lname = "algo", .argname = "LIST", .defval = "", .kind = CB_OPT_TEXT,
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
	  OFF(root), .flags = NCCL, .set = cb_opt_set_root,
	  .help = "root rank: ps's (its first server), the ps-style plans', broadcast's and reduce's" },
	{ .lname = "servers", .argname = "K", .defval = "1", .kind = CB_OPT_INT,
	  OFF(servers), RANGE(1, 1 << 20),
	  .help = "ps: K servers, each reducing 1/K of the buffer (BytePS); at most the ranks" },
	{ .lname = "inplace", .argname = "0|1|both", .defval = "both", .kind = CB_OPT_ENUM,
	  OFF(in_place), .name = inplace_name, .count = CB_INPLACE_BOTH + 1, .what = "",
	  .help = "0: out of place; 1: in place, one buffer (all_gather's send and "
	          "reduce_scatter's receive: the rank's block in it); both: each row out of place, "
	          "then in place, side by side in the table as nccl-tests prints them" },
	{ .lname = "timeout", .sname = 'T', .argname = "SEC", .defval = "300",
	  .kind = CB_OPT_DOUBLE, OFF(timeout_s), .flags = LOCAL | NCCL, .set = cb_opt_set_timeout,
	  .help = "watchdog: abort when an iteration, or a wait for peers between iterations, "
	          "makes no progress for SEC s (set-up steps: --setup-timeout); 0: no limit" },
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
	          "timed; --algo may name it" },
	{ .lname = "csv", .argname = "PATH", .kind = CB_OPT_TEXT, OFF(csv), .what = "path",
	  .flags = LOCAL, .help = "write summary rows to PATH (CSV)" },
	{ .lname = "rank-csv", .argname = "PATH", .kind = CB_OPT_TEXT, OFF(rank_csv),
	  .what = "path", .flags = LOCAL, .help = "write per-rank rows to PATH (CSV)" },
	{ .lname = "json", .argname = "PATH", .kind = CB_OPT_TEXT, OFF(json), .what = "path",
	  .flags = LOCAL, .help = "write summary rows to PATH (JSON)" },
	{ .lname = "output_file", .sname = 'J', .argname = "FILE", .kind = CB_OPT_TEXT,
	  OFF(output_file), .what = "path", .flags = LOCAL | NCCL,
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
	{ .lname = "help", .sname = 'h', .kind = CB_OPT_FLAG, OFF(help), .flags = NCCL,
	  .help = "print this help" },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

/* --meta defaults to --csv with .csv replaced by .meta.json; every output's
 * name must fit the file system (cb_path_fits: the metadata is written at
 * the start and again at the end of a run); no two outputs may name one file
 * however spelled (cb_path_same_file: they would overwrite one another). */
static enum cb_status check_paths(struct cb_options *o, char *err, size_t n)
{
	const char *names[] = { "--csv", "--rank-csv", "--json", "--meta", "-J/--output_file" };
	const char *paths[] = { o->csv, o->rank_csv, o->json, o->meta, o->output_file };
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
	/* every file a run writes can exist (--meta and -J through cb_replace_open's
	 * temporary) */
	for (int i = 0; i < 5; i++)
		if (*paths[i] && cb_path_fits(i == 3 && derived ? "--csv (its metadata file, "
					      "X.meta.json)" : names[i], paths[i],
					      i >= 3 ? CB_PATH_REPLACE_SUFFIX : 0, err, n) != CB_OK)
			return CB_ERR_ARG;
	for (int i = 0; i < 5; i++)
		for (int j = i + 1; j < 5; j++)
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
	if (o->cudagraph > 0 && !cb_backend_find(o->backend)->graph_begin) {
		snprintf(err, n, "-G/--cudagraph %d: the %s backend has no stream to capture in a CUDA "
			 "graph (-G is the cuda backend's)", o->cudagraph, o->backend);
		return CB_ERR_ARG;
	}
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
	unsigned char given[NOPTS];
	size_t timing = 0;
	enum cb_status st;

	memset(o, 0, sizeof(*o));
	st = cb_optable_parse_given(table, NOPTS, o, argc, argv, given, err, errlen);
	if (st != CB_OK)
		return st;
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		return CB_ERR_ARG;
	}
	if (o->help)
		return CB_OK;
	while (strcmp(table[timing].lname, "timing") != 0)
		timing++;
	st = cb_options_nccl_check(o, given[timing], argc, argv, err, errlen);
	return st != CB_OK ? st : check(o, err, errlen);
}

enum cb_status cb_options_check_plan(const struct cb_options *o, char *err, size_t errlen)
{
	if (!*o->plan || !o->plan_file)
		return CB_OK;
	unsigned modes = o->in_place == CB_INPLACE_BOTH ? 3u : 1u << o->in_place;
	enum cb_status st = cb_plan_file_check(o->plan_file, o->op_mask, modes, err, errlen);
	char other[8];

	/* both modes (the default): say when the plan works out of place */
	if (st == CB_ERR_ARG && modes == 3u &&
	    cb_plan_file_check(o->plan_file, o->op_mask, 1u, other, sizeof(other)) == CB_OK) {
		size_t k = strlen(err);

		snprintf(err + k, errlen - k, " (--inplace 0 runs it out of place only)");
	}
	return st;
}

void cb_options_free(struct cb_options *o)
{
	cb_sweep_free(&o->sweep);
}

void cb_options_canonical(const struct cb_options *o, char *buf, size_t len)
{
	cb_optable_canonical(table, NOPTS, o, buf, len);
}

void cb_options_print(FILE *f, const struct cb_options *o)
{
	cb_optable_print(f, table, NOPTS, o);
}

void cb_options_usage(FILE *f, const char *prog)
{
	cb_options_usage_table(f, prog, table, NOPTS);
}
