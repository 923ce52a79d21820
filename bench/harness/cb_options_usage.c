/* cb_options_usage: --help and the backend names (contract in
 * cb_options_usage.h). */
#define _GNU_SOURCE
#include "cb_options_usage.h"

#include <string.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_catalog.h"

/* Backend i of the backend table by name (ctx unused): every one, or only
 * those built into this binary; NULL past the end. For cb_join_names. */
const char *cb_options_known_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return i >= 0 && (size_t)i < n ? reg[i]->desc->name : NULL;
}

const char *cb_options_built_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return i >= 0 && (size_t)i < n && !reg[i]->missing ? reg[i]->desc->name : NULL;
}

int cb_options_nbackends(void)
{
	size_t n;

	cb_backend_registry(&n);
	return (int)n;
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

		cb_join_names(names, sizeof(names), algo_backend, reg[i], cb_options_nbackends(), ",", ",");
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

	cb_join_names(every, sizeof(every), cb_options_known_backend, NULL, cb_options_nbackends(), ",", ",");
	cb_join_names(names, sizeof(names), cb_options_built_backend, NULL, cb_options_nbackends(), ",", ",");
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

void cb_options_usage_table(FILE *f, const char *prog, const struct cb_optdef *table, size_t n)
{
	fprintf(f, "usage: mpirun -np N %s [options]\n\n"
		"Collective benchmark (--coll: the collectives below): plans and the library's\n"
		"call side by side.\n\nnccl-tests' options (its letters and long names, with its "
		"meanings; a value\ncollbench cannot honour is refused with the reason: "
		"docs/running.md):\n", prog);
	cb_optable_usage_group(f, table, n, 28, CB_OPT_NCCL_TESTS, 1);
	fprintf(f, "\ncollbench's own options:\n");
	cb_optable_usage_group(f, table, n, 28, CB_OPT_NCCL_TESTS, 0);
	usage_algos(f);
	usage_transports(f);
	fprintf(f, "\nSizes are bytes per rank. Results: table on stdout, diagnostics on stderr.\n"
		"Times: each rank times each iteration after a barrier; an iteration's time is\n"
		"the max over ranks; a row's time (time_us) is the mean over its timed iterations\n"
		"(all --repeat blocks together), with their median, min and max; algbw and busbw\n"
		"come from the mean; -a makes time_us (so algbw, busbw) rank 0's, the mean, min\n"
		"or max of the ranks' own means instead, as nccl-tests' -a does. The per-rank\n"
		"CSV's time_us is that rank's own mean.\n"
		"Environment: CB_MACHINE names the machine in the metadata (default: the host\n"
		"name); baselines are matched on it with the CPU model, CPU count and GPU model.\n");
}
