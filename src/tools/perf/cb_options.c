/* Options: the table, parsing, usage text and canonical form (contract in
 * cb_options.h). Checks across options: cb_options_check.c; the setters of
 * the custom rows: cb_options_set.c; the size list: cb_sweep.c. */
#define _GNU_SOURCE
#include "cb_options.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_options_int.h"

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

static const char *transport_name(int i)
{
	const struct cb_transport *t = cb_transport_get(i);

	return t ? t->name : NULL;
}

#define OFF(field) .offset = offsetof(struct cb_options, field), \
	.size = sizeof(((struct cb_options *)0)->field)
#define RANGE(l, h) .lo = (l), .hi = (h)
#define LOCAL CB_OPT_LOCAL

static const struct cb_optdef table[] = {
	{ "minbytes", 'b', "SIZE", "32M", "smallest message per rank (K, M, G: powers of 1024)", .kind = CB_OPT_SIZE, OFF(minbytes) },
	{ "maxbytes", 'e', "SIZE", "32M", "largest message per rank", .kind = CB_OPT_SIZE, OFF(maxbytes) },
	{ "stepfactor", 'f', "N", "1", "multiply the size by N each step; 1: add --stepbytes", .kind = CB_OPT_INT, OFF(stepfactor), RANGE(1, 1024) },
	{ "stepbytes", 'i', "SIZE", "1M", "size increment when --stepfactor is 1", .kind = CB_OPT_SIZE, OFF(stepbytes) },
	{ "counts", 'N', "LIST", NULL, "element counts to run instead of -b/-e, e.g. 0,1,7,1000", .kind = CB_OPT_SIZES, OFF(counts), .set = cb_set_counts },
	{ "iters", 'n', "N", "20", "timed iterations per row", .kind = CB_OPT_INT, OFF(iters), RANGE(1, 1000000) },
	{ "warmup_iters", 'w', "N", "5", "untimed iterations before them", .kind = CB_OPT_INT, OFF(warmup), RANGE(0, 1000000) },
	{ "check", 'c', "0|1", "1", "check every element of every rank's result", .kind = CB_OPT_INT, OFF(check), RANGE(0, 1) },
	{ "repeat", 'R', "K", "1", "K independent timed blocks per row (noise estimate)", .kind = CB_OPT_INT, OFF(repeat), RANGE(1, 1000) },
	{ "datatype", 'd', "TYPE", "float", "int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double; comma list or all", .kind = CB_OPT_MASK, OFF(dtype_mask), .name = dtype_name, .count = CB_DTYPE_COUNT },
	{ "op", 'o', "OP", "sum", "sum prod min max avg; comma list or all", .kind = CB_OPT_MASK, OFF(op_mask), .name = op_name, .count = CB_OP_COUNT },
	{ "algo", 'a', "LIST", "", "comma list of algorithms (default: all on the backend)", .kind = CB_OPT_TEXT, OFF(algos), .set = cb_set_algos },
	{ "backend", 'B', "NAME", "host", "where buffers live: a backend built into this binary (listed below)", .kind = CB_OPT_TEXT, OFF(backend), .set = cb_set_backend },
	{ "transport", 0, "NAME", "auto", "where bytes move between ranks (ps, ring): auto, shm, ipc or p2p (listed below)", .kind = CB_OPT_ENUM, OFF(transport), .name = transport_name, .count = CB_TRANSPORT_COUNT, .what = "transport" },
	{ "root", 'r', "RANK", "0", "root rank of ps", .kind = CB_OPT_INT, OFF(root), RANGE(0, 1 << 20) },
	{ "inplace", 0, "0|1", "0", "1: send buffer = receive buffer", .kind = CB_OPT_INT, OFF(in_place), RANGE(0, 1) },
	{ "timeout", 'T', "SEC", "300", "watchdog: abort when an iteration, or a wait for peers between iterations, makes no progress for SEC s (set-up steps: --setup-timeout)", .kind = CB_OPT_DOUBLE, OFF(timeout_s), RANGE(0, 1e6), .what = "a number of seconds in (0, 1e6]", .flags = CB_OPT_LO_OPEN | LOCAL },
	{ "setup-timeout", 0, "SEC", "600", "watchdog of a set-up step (start-up, allocating and pre-faulting the buffers, an algorithm's set-up, filling inputs, the reference, comparing a result): abort when one takes more than SEC s", .kind = CB_OPT_DOUBLE, OFF(setup_timeout_s), RANGE(0, 1e6), .what = "a number of seconds in (0, 1e6]", .flags = CB_OPT_LO_OPEN | LOCAL },
	{ "slicebytes", 0, "SIZE", "0", "ring pipelining slice, and ps's over p2p (0: the backend's, host 256K, cuda 16M)", .kind = CB_OPT_SIZE, OFF(slice_bytes) },
	{ "timing", 0, "MODE", "iter", "iter: barrier, then each call timed, max over ranks; loop: -n calls back to back between two timestamps (nccl-tests' way), their mean, max over ranks", .kind = CB_OPT_ENUM, OFF(timing), .name = timing_name, .count = CB_TIMING_LOOP + 1, .what = "" },
	{ "wait", 0, "MODE", "futex", "how a rank waits for a peer on the host: futex (poll, yield, then sleep until woken), yield (poll, then sched_yield), spin (0.1's: 4000 pauses, then sched_yield)", .kind = CB_OPT_ENUM, OFF(wait), .name = wait_name, .count = CB_WAIT_MODE_COUNT, .what = "strategy" },
	{ "time-acct", 0, "0|1|2", "1", "1: each rank's wait time (peers, barrier) and busy time (the iteration's time less its wait) where the backend can (per-rank CSV busy_us, wait_us, barrier_us); 2: busy timed around every copy and reduce instead, with its CPU time (busy_cpu_us; clock reads and a system call per span); 0: no clock reads besides the iteration's", .kind = CB_OPT_INT, OFF(time_acct), RANGE(0, 2) },
	{ "csv", 0, "PATH", NULL, "write summary rows to PATH (CSV)", .kind = CB_OPT_TEXT, OFF(csv), .what = "path", .flags = LOCAL },
	{ "rank-csv", 0, "PATH", NULL, "write per-rank rows to PATH (CSV)", .kind = CB_OPT_TEXT, OFF(rank_csv), .what = "path", .flags = LOCAL },
	{ "json", 0, "PATH", NULL, "write summary rows to PATH (JSON)", .kind = CB_OPT_TEXT, OFF(json), .what = "path", .flags = LOCAL },
	{ "meta", 0, "PATH", NULL, "run metadata (JSON); default: --csv with .meta.json", .kind = CB_OPT_TEXT, OFF(meta), .what = "path", .flags = LOCAL },
	{ "quiet", 'q', NULL, NULL, "no result table on stdout", .kind = CB_OPT_FLAG, OFF(quiet), .flags = LOCAL },
	{ "check-args", 0, NULL, NULL, "check the options as a run would (not those that need the world size: --root) and exit 0, or 2 with the message; no MPI, no mpirun (scripts/sweep.sh's check)", .kind = CB_OPT_FLAG, OFF(check_args), .flags = LOCAL },
	{ "help", 'h', NULL, NULL, "print this help", .kind = CB_OPT_FLAG, OFF(help) },
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

void cb_options_free(struct cb_options *o)
{
	for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
		free(o->sweep.bytes[dt]);
	memset(&o->sweep, 0, sizeof(o->sweep));
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

/* One line per algorithm, with the backends it runs on (built or not) when
 * not every one. */
static void usage_algos(FILE *f)
{
	size_t n;
	const struct cb_algo_ops *const *reg = cb_algo_registry(&n);
	char every[128], names[128];

	cb_join_names(every, sizeof(every), cb_known_backend, NULL, cb_nbackends(), ",", ",");
	cb_join_names(names, sizeof(names), cb_built_backend, NULL, cb_nbackends(), ",", ",");
	fprintf(f, "\nalgorithms (backends built: %s):\n", names);
	for (size_t i = 0; i < n; i++) {
		int some;

		cb_join_names(names, sizeof(names), algo_backend, reg[i], cb_nbackends(), ",", ",");
		some = strcmp(names, every) != 0;
		fprintf(f, "  %-6s %s%s%s%s\n", reg[i]->desc->name, reg[i]->desc->description, some ? " [" : "",
			some ? names : "", some ? "]" : "");
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
		"Allreduce benchmark: ps, ring and library allreduce side by side.\n\noptions:\n", prog);
	cb_optable_usage(f, table, NOPTS, 28);
	usage_algos(f);
	usage_transports(f);
	fprintf(f, "\nSizes are bytes per rank. Results: table on stdout, diagnostics on stderr.\n"
		"Times: each rank times each iteration after a barrier; an iteration's time is\n"
		"the max over ranks; a row's time (time_us) is the mean over its timed iterations\n"
		"(all -R repeats together), with their median, min and max; algbw and busbw\n"
		"come from the mean. The per-rank CSV's time_us is that rank's own mean.\n"
		"Environment: CB_MACHINE names the machine in the metadata (default: the host\n"
		"name); baselines are matched on it with the CPU, memory and GPU model.\n");
}
