/* cb_meta: the run's metadata sidecar: what it holds (with its busy and wait
 * time entry), writing it, and the run header printed from it (contract in
 * cb_meta.h). */
#define _GNU_SOURCE
#include "cb_meta.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cb_algo.h"
#include "cb_env.h"
#include "cb_machine.h"
#include "cb_mcafiles.h"
#include "cb_output.h"
#include "cb_p2p.h"
#include "cb_plan_file.h"
#include "cb_selflaunch.h"
#include "cb_slurm.h"
#include "cb_straggler.h"
#include "cb_text.h"
#include "cb_version.h"

/* The "time_accounting" entry: {"on", "cpu": whether busy and wait (and the
 * CPU time of busy spans) were measured (cb_backend.h, struct cb_time_acct),
 * "busy", "wait", "straggler": how, "unmeasured": why not, or null}; NULL
 * for no memory. */
static json_t *time_acct(const struct cb_backend *be)
{
	const char *why = be->ops->desc->time_unmeasured;
	const char *busy =
		be->acct.spans
			? "CLOCK_MONOTONIC around each copy, reduce and finalize of the backend and "
			  "each p2p send/receive posting, summed per iteration (--time-acct 2)"
			: "the iteration's own time less its wait: the rank working, not waiting "
			  "(copies, reduces, posting; --time-acct 1: no clock read per copy)";

	return json_pack(
		"{s:b,s:b,s:s,s:s,s:s,s:s,s:s?}", "on", be->acct.on, "cpu", be->acct.spans,
		"busy", busy,
		"busy_cpu", "CLOCK_THREAD_CPUTIME_ID over the busy spans (--time-acct 2): the "
			    "busy time less the time the rank was descheduled in them",
		"wait", "CLOCK_MONOTONIC around each wait for a peer's progress flag that was not "
			"already there (none read for one that was) and each p2p round wait (MPI "
			"moves the bytes there); the barrier before an iteration apart (barrier_us, "
			"not in time_us)",
		"straggler", "per iteration the rank with the largest time not spent waiting for "
			     "peers (time - wait; time where wait is unmeasured); library "
			     "algorithms (mpi, nccl): busy and wait empty",
		"unmeasured", why ? why : be->acct.on ? NULL : "turned off (--time-acct 0)");
}

/* The header's line on busy and wait time, from the entry t. */
static void print_time_acct(FILE *f, const json_t *t)
{
	const char *why = json_string_value(json_object_get(t, "unmeasured"));

	if (why)
		fprintf(f, "# busy/wait: not measured: %s\n", why);
	else
		fprintf(f, "# busy/wait: per rank, CLOCK_MONOTONIC inside peer waits (wait) and %s "
			"(busy); straggler: most often the slowest not waiting, named where its "
			"share beats chance (binomial, p < %g) and it is >= %.2fx the others\n",
			json_is_true(json_object_get(t, "cpu")) ? "inside copy/reduce"
								: "the rest of the iteration",
			CB_STRAGGLER_ALPHA, CB_STRAGGLER_RATIO);
}

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* entry's value as JSON text (cb_text's rule), or null for NULL */
static json_t *env_value(const char *entry)
{
	return entry ? cb_json_text(entry + strcspn(entry, "=") + 1) : json_null();
}

/* Whether entry (a variable of rank 0) has one value on every rank. */
static int env_same_everywhere(const struct cb_preflight *pf, const char *entry)
{
	for (int r = 1; r < pf->nranks; r++) {
		const char *e = cb_env_find(pf->env + pf->env_off[r], (size_t)pf->env_len[r], entry);

		if (!e || strcmp(e, entry) != 0)
			return 0;
	}
	return 1;
}

/* Into env (NAME: value) each setting of cb_env.h that has one value on
 * every rank (the pre-flight made sure of it for every CB_ENV_AGREE one);
 * into by_rank (NAME: [value or null, by world rank]) each CB_ENV_PER_RANK
 * one that differs. Names and values under cb_text's rule. */
static void env_settings(const struct cb_preflight *pf, json_t *env, json_t *by_rank)
{
	for (int r = 0; r < pf->nranks; r++) {
		const char *buf = pf->env + pf->env_off[r];
		size_t len = (size_t)pf->env_len[r];

		for (const char *e = cb_env_next(buf, len, NULL); e; e = cb_env_next(buf, len, e)) {
			char key[256], *k;
			json_t *values;

			snprintf(key, sizeof(key), "%.*s", (int)strcspn(e, "="), e);
			k = cb_text_escape(key);
			if (!k || json_object_get(env, k) || json_object_get(by_rank, k)) {
				free(k);
				continue;
			}
			if (r == 0 && env_same_everywhere(pf, e)) {
				json_object_set_new(env, k, env_value(e));
			} else {
				values = json_array();
				for (int q = 0; q < pf->nranks; q++)
					json_array_append_new(values, env_value(cb_env_find(
						pf->env + pf->env_off[q], (size_t)pf->env_len[q], e)));
				json_object_set_new(by_rank, k, values);
			}
			free(k);
		}
	}
}

/* The command line: the words of argv joined by spaces; in a rank that -g
 * started without mpirun, the command the user typed (cb_selflaunch.h). */
static json_t *command_line(int argc, char **argv)
{
	char buf[4096] = "";
	size_t k = 0;
	json_t *self = cb_selflaunch_meta(), *typed = json_object_get(self, "typed");

	if (typed) {
		json_incref(typed);
		json_decref(self);
		return typed;
	}
	json_decref(self);

	for (int i = 0; i < argc && k < sizeof(buf) - 1; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? " " : "", argv[i]);
	return cb_json_text(buf); /* paths and arguments are bytes, not UTF-8 */
}

/* What --timing means, for the metadata and the header. */
static const char *timing_text(enum cb_timing t)
{
	if (t == CB_TIMING_LOOP)
		return "--timing loop: after one barrier (MPI_Ibarrier completed by MPI_Test) each rank times the -n calls of a "
		       "block back to back between two timestamps (host: CLOCK_MONOTONIC; cuda: "
		       "events on the rank's stream), as nccl-tests does; each call's time is the "
		       "block's mean, max over ranks; time_us is the mean over blocks' calls "
		       "(median, min and max spread only across --repeat blocks)";
	return "--timing iter: each rank times each iteration after a barrier (MPI_Ibarrier completed by MPI_Test) "
	       "(host: CLOCK_MONOTONIC; cuda: events on the rank's stream); "
	       "an iteration's time is the max over ranks; time_us is the "
	       "mean over iterations, with median, min and max";
}

/* What -z N (nccl-tests' blocking modes) adds to the timed iterations. */
static const char *blocking_text(int z)
{
	static const char *const text[] = {
		"the iterations back to back, nothing after each call (nccl-tests' default)",
		"after each call a wait (cuda: the rank's stream synchronised; host: none, a call has "
		"completed when it returns) and a barrier, both inside the time",
		"after each call a wait (cuda: the rank's stream synchronised; host: none, a call has "
		"completed when it returns), inside the time",
		"each iteration timed to its completion, then a barrier outside the time (as "
		"--timing iter, whose barrier before an iteration is that barrier)",
	};

	return z >= 0 && z <= 3 ? text[z] : "";
}

/* nccl-tests' timing modes in force (-m, -z, -C), appended to buf. */
static void modes_text(const struct cb_options *o, char *buf, size_t len)
{
	size_t k = strlen(buf);

	if (o->agg_iters > 1 && k < len)
		k += (size_t)snprintf(buf + k, len - k, "; -m %d: %d calls back to back per timed "
				      "iteration, each call's time (and busy, wait, barrier) the "
				      "iteration's / %d: per-operation throughput, not a single call's "
				      "latency; the check is one call", o->agg_iters, o->agg_iters,
				      o->agg_iters);
	if (o->blocking >= 0 && k < len)
		k += (size_t)snprintf(buf + k, len - k, "; -z %d (nccl-tests' blocking mode): %s",
				      o->blocking, blocking_text(o->blocking));
	if (o->report_cputime && k < len)
		snprintf(buf + k, len - k, "; -C 1: time_us, its median, min and max are the host's "
			 "time to issue a call (CLOCK_MONOTONIC from the start of the timing until the "
			 "last call returned, before waiting for the device; -z 3: until completion), "
			 "max over ranks; algbw and busbw stay from the time to completion (the mean "
			 "of each iteration's max over ranks), as nccl-tests; on host a call has "
			 "completed when it returns: the two times agree");
}

/* The timing text t (taken), with -G K what a call's time is. */
static json_t *with_graph(const struct cb_options *o, json_t *t)
{
	char buf[2048];

	if (o->cudagraph <= 0 || !t)
		return t;
	snprintf(buf, sizeof(buf), "%s; -G %d: each rank's stream captured one call in a CUDA graph, "
		 "and each timed call is %d launches of it back to back, its time the launches' time "
		 "/ %d: time per operation when operations follow one another (throughput), not the "
		 "latency of one call alone (the check launches the graph once)",
		 json_string_value(t), o->cudagraph, o->cudagraph, o->cudagraph);
	json_decref(t);
	return json_string(buf);
}

/* timing_text, with -a how time_us comes from the ranks' own means, and
 * nccl-tests' timing modes (-m, -z, -C). */
static json_t *timing_json(const struct cb_options *o)
{
	static const char *const how[] = { "rank 0's own mean time", "the mean of the ranks' own mean times",
					   "the min of the ranks' own mean times",
					   "the max of the ranks' own mean times" };
	char buf[2048];

	if (o->average < CB_AVG_RANK0 || o->average > CB_AVG_MAX)
		snprintf(buf, sizeof(buf), "%s", timing_text(o->timing));
	else
		snprintf(buf, sizeof(buf), "%s; but -a %d (nccl-tests' --average): time_us, algbw and "
			 "busbw are %s (median, min and max stay those of each iteration's max over "
			 "ranks)", timing_text(o->timing), o->average, how[o->average]);
	modes_text(o, buf, sizeof(buf));
	return json_string(buf);
}

/* The MPI library, the ranks and their hosts: "hosts" (distinct names, first
 * rank first), "rank_host" (each world rank's index in it). */
static json_t *mpi_info(const struct cb_backend *be, const struct cb_preflight *pf)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0, ver, sub;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	json_t *h = json_array(), *rh = json_array();

	MPI_Get_library_version(lib, &len);
	lib[strcspn(lib, "\n")] = '\0';
	MPI_Get_version(&ver, &sub);
	for (int i = 0; i < pf->nhosts; i++)
		json_array_append_new(h, cb_json_text(pf->distinct[i]));
	for (int r = 0; r < pf->nranks; r++)
		json_array_append_new(rh, json_integer(pf->host_of[r]));
	return json_pack("{s:o,s:s,s:i,s:i,s:i,s:o,s:o,s:b}", "library", cb_json_text(lib),
			 "standard", ver == 3 ? (sub == 1 ? "3.1" : "3.0") : "other", "nranks",
			 be->world_size, "nnodes", pf->nhosts, "ranks_per_node", pf->ranks_per_node,
			 "hosts", h, "rank_host", rh, "oversubscribed", pf->ranks_per_node > cpus);
}

/* --transport as given and as used, and what carries p2p on this backend. */
static json_t *transport_info(const struct cb_options *o, const struct cb_backend *be,
			      enum cb_transport_id used)
{
	const struct cb_p2p_ops *p2p = be->ops->p2p;

	return json_pack("{s:s,s:s,s:s,s:s}", "requested", cb_transport_get(o->transport)->name,
			 "used", cb_transport_get(used)->name, "description",
			 cb_transport_get(used)->description, "p2p",
			 p2p ? p2p->name : "none");
}

/* How the ranks were started, from the environment rank 0 inherited:
 * "mpirun" (Open MPI's launcher sets OMPI_COMM_WORLD_SIZE), else "srun" (a
 * Slurm job step: SLURM_STEP_ID, with srun --mpi=pmix), else "singleton" (one
 * rank started without a launcher) or "other". job_id: SLURM_JOB_ID, also
 * under mpirun inside a Slurm allocation; step_id: SLURM_STEP_ID; each a
 * string, null outside Slurm, and null with "slurm_ignored" saying why when
 * the job is not confirmed (cb_slurm.h: variables a finished job left). */
static json_t *launcher_info(const struct cb_backend *be)
{
	const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");
	const char *name = "other";
	char why[256] = "";
	json_t *l, *self = cb_selflaunch_meta();

	if (job && *job && !cb_slurm_job_confirmed(job, why, sizeof(why)))
		job = step = NULL;
	if (getenv("OMPI_COMM_WORLD_SIZE"))
		name = "mpirun";
	else if (step)
		name = "srun";
	else if (be->world_size == 1)
		name = "singleton";

	l = json_pack("{s:s,s:o,s:o,s:o}", "name", name, "job_id",
		      job ? cb_json_text(job) : json_null(), "step_id",
		      step ? cb_json_text(step) : json_null(), "slurm_ignored",
		      *why ? cb_json_text(why) : json_null());
	if (l && self) /* -g/-t started without mpirun (cb_selflaunch.h) */
		json_object_set_new(l, "self_launch", self);
	else
		json_decref(self);
	return l;
}

/* How host-side waits waited (cb_wait.h), e.g. for comparing strategies. */
static json_t *wait_info(const struct cb_wait_cfg *w)
{
	char text[192];

	cb_wait_describe(w, text, sizeof(text));
	return json_pack("{s:s,s:I,s:I,s:I,s:s}", "strategy", cb_wait_mode_name(w->mode),
			 "spin_ns", (json_int_t)w->spin_ns, "yield_ns", (json_int_t)w->yield_ns,
			 "tick_ms", (json_int_t)w->tick_ms, "description", text);
}

/* host: name, CPU, CPUs online, memory; and "machine", the identity
 * collbench-compare matches baselines on (cb_machine.h). */
static int add_host(json_t *m, const struct cb_backend *be)
{
	struct cb_machine_host h;
	json_t *machine;

	cb_machine_host_read(&h);
	machine = cb_machine_json(&h, be->device_model);
	if (!machine)
		return -1;
	if (json_object_set_new(m, "host", json_pack("{s:o,s:o,s:I,s:I}", "hostname",
						     cb_json_text(h.hostname), "cpu_model",
						     h.cpu_known ? cb_json_text(h.cpu_model) :
								   json_null(),
						     "cpus_online", (json_int_t)h.cpus,
						     "mem_bytes", (json_int_t)h.mem_bytes)) != 0) {
		json_decref(machine);
		return -1;
	}
	return json_object_set_new(m, "machine", machine);
}

/* --plan: the file's name, path (under the \xHH rule, as command_line), its
 * digest (cb_plan_file.h: what collbench-compare tells plans of one name
 * apart by), shape and the plan itself as the run read it, so that a
 * results folder says what its rows of that name ran. */
static json_t *plan_info(const struct cb_options *o)
{
	const struct cb_plan_algo *al = cb_plan_coll_find(o->coll, o->plan_name);
	size_t chunks, rounds, steps;

	if (!*o->plan || !al || !al->data)
		return json_null();
	cb_plan_file_shape(al->data, &chunks, &rounds, &steps);
	return json_pack("{s:s,s:o,s:s,s:i,s:I,s:I,s:I,s:O*}", "name", o->plan_name, "path",
			 cb_json_text(o->plan), "digest", cb_plan_file_digest(al->data), "ranks",
			 o->plan_ranks, "chunks", (json_int_t)chunks, "rounds", (json_int_t)rounds,
			 "steps", (json_int_t)steps, "plan", cb_plan_file_json(al->data));
}

/* The backend's device text, then the library of each algorithm that runs on
 * the backend and names one ("..., sync stream, NCCL 2.28.3"), of the
 * run's collective. */
static json_t *device_text(const struct cb_backend *be, enum cb_coll o_coll)
{
	size_t n, k = strlen(be->device_desc);
	const struct cb_algo_ops *const *reg = cb_algo_registry_coll(o_coll, &n);
	char text[sizeof(be->device_desc) + 256];

	memcpy(text, be->device_desc, k + 1);
	for (size_t i = 0; i < n; i++) {
		if (!reg[i]->describe || !cb_algo_runs_on(reg[i], be->ops))
			continue;
		snprintf(text + k, sizeof(text) - k, "%s", k ? ", " : "");
		k = strlen(text);
		reg[i]->describe(text + k, sizeof(text) - k);
		k = strlen(text);
	}
	return cb_json_text(text);
}

json_t *cb_meta_collect(const struct cb_options *o, const struct cb_backend *be,
			const struct cb_preflight *pf, enum cb_transport_id transport, int argc,
			char **argv)
{
	char start[32], opts[2048];
	json_t *m;

	utc_now(start, sizeof(start));
	cb_options_canonical(o, opts, sizeof(opts));
	m = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:s}", "schema", "collbench-meta-1", "tool",
		      "allreduce_perf", "version", CB_VERSION, "git_commit", CB_GIT_COMMIT,
		      "start_utc", start, "command_line", command_line(argc, argv), "status",
		      "incomplete", "backend", o->backend);
	if (!m)
		return NULL;
	if (add_host(m, be) != 0 ||
	    json_object_set_new(m, "mpi", mpi_info(be, pf)) != 0 ||
	    json_object_set_new(m, "transport", transport_info(o, be, transport)) != 0 ||
	    json_object_set_new(m, "device", device_text(be, o->coll)) != 0 ||
	    /* what collbench-compare matches runs on: the model, not the bus ids */
	    json_object_set_new(m, "gpu_model", cb_json_text(be->device_model)) != 0 ||
	    json_object_set_new(m, "options", cb_json_text(opts)) != 0 ||
	    json_object_set_new(m, "environment", json_object()) != 0 ||
	    json_object_set_new(m, "environment_by_rank", json_object()) != 0) {
		json_decref(m);
		return NULL;
	}
	env_settings(pf, json_object_get(m, "environment"),
		     json_object_get(m, "environment_by_rank"));
	/* Open MPI's settings from its parameter files: library configuration
	 * beside the environment's (bench/format/cb_libconf.h) */
	json_object_set_new(m, "mca_param_files", cb_mcafiles_collect());
	json_object_set_new(m, "launcher", launcher_info(be));
	json_object_set_new(m, "plan_file", plan_info(o));
	json_object_set_new(m, "wait", wait_info(&be->wait));
	json_object_set_new(m, "time_accounting", time_acct(be));
	json_object_set_new(m, "collective", json_string(cb_coll_get(o->coll)->name));
	json_object_set_new(m, "timing_mode", json_string(cb_timing_name(o->timing)));
	json_object_set_new(m, "timing", with_graph(o, timing_json(o)));
	json_object_set_new(m, "agg_iters", json_integer(o->agg_iters));
	json_object_set_new(m, "blocking", o->blocking >= 0 ? json_integer(o->blocking) : json_null());
	json_object_set_new(m, "report_cputime", json_integer(o->report_cputime));
	json_object_set_new(m, "cuda_graph_launches", json_integer(o->cudagraph));
	json_object_set_new(m, "traffic",
			    json_string("tx/rx counted where bytes move, per call of the collective: by the "
					"backend's copies and reduces (shm, ipc) or as bytes handed "
					"to a send and received (p2p); empty for library algorithms "
					"(mpi, nccl)"));
	return m;
}

enum cb_status cb_meta_write(const char *path, json_t *meta, const char *status,
			     const char *error)
{
	char tmp[CB_PATH_MAX + 32], end[32], err[CB_PATH_MAX * 4 + 128];
	FILE *f;
	int ok;

	if (!path || !*path || !meta)
		return CB_OK;
	json_object_set_new(meta, "status", json_string(status));
	if (strcmp(status, "incomplete") != 0) {
		utc_now(end, sizeof(end));
		json_object_set_new(meta, "end_utc", json_string(end));
	}
	if (error)
		json_object_set_new(meta, "error", json_string(error));
	/* written by rename: cb_replace_open refuses a device, a link, a FIFO */
	if (cb_replace_open(path, tmp, sizeof(tmp), &f, err, sizeof(err)) != CB_OK) {
		cb_log("metadata: %s", err);
		return CB_ERR_IO;
	}
	/* json_dumpf reports a failed write; cb_replace_commit checks fclose */
	ok = json_dumpf(meta, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0;
	if (cb_replace_commit(f, tmp, path, ok, err, sizeof(err)) != CB_OK) {
		cb_log("metadata: %s", err);
		return CB_ERR_IO;
	}
	return CB_OK;
}

/* "# launcher: srun (Slurm job 12, step 0)", or with why the Slurm variables
 * were ignored */
static void print_launcher(FILE *f, json_t *l)
{
	const char *job = json_string_value(json_object_get(l, "job_id"));
	const char *step = json_string_value(json_object_get(l, "step_id"));

	const char *ignored = json_string_value(json_object_get(l, "slurm_ignored"));

	fprintf(f, "# launcher: %s", json_string_value(json_object_get(l, "name")));
	if (job)
		fprintf(f, " (Slurm job %s%s%s)", job, step ? ", step " : "", step ? step : "");
	if (ignored)
		fprintf(f, " (Slurm variables ignored: %s)", ignored);
	cb_selflaunch_print(f, json_object_get(l, "self_launch"));
	fputc('\n', f);
}

/* The collective and its bandwidths (nccl-tests doc/PERFORMANCE.md: S is
 * count x element size, the whole buffer of the split collectives). */
static void print_bandwidth(FILE *f, const char *coll)
{
	int c = coll ? cb_coll_find(coll) : CB_COLL_ALLREDUCE;
	const struct cb_coll_desc *d = cb_coll_get(c < 0 ? CB_COLL_ALLREDUCE : (enum cb_coll)c);

	fprintf(f, "# collective: %s; bandwidth: algbw = S/t (1 GB = 1e9 B); busbw = algbw * %s "
		"(nccl-tests doc/PERFORMANCE.md)\n", d->name,
		d->split ? "(n-1)/n" : d->rooted ? "1" : "2(n-1)/n");
}

enum cb_status cb_meta_print_header(FILE *f, json_t *meta)
{
	json_t *mpi = json_object_get(meta, "mpi"), *host = json_object_get(meta, "host");
	json_t *machine = json_object_get(meta, "machine");

	fprintf(f, "# collbench allreduce_perf %s (git %s)\n",
		json_string_value(json_object_get(meta, "version")),
		json_string_value(json_object_get(meta, "git_commit")));
	fprintf(f, "# date: %s\n", json_string_value(json_object_get(meta, "start_utc")));
	fprintf(f, "# command: %s\n", json_string_value(json_object_get(meta, "command_line")));
	fprintf(f, "# host: %s, %s, %lld CPUs online\n",
		json_string_value(json_object_get(host, "hostname")),
		json_string_value(json_object_get(host, "cpu_model")) ?: "unknown CPU",
		(long long)json_integer_value(json_object_get(host, "cpus_online")));
	fprintf(f, "# machine: %s (label from %s; baselines belong to one machine)\n",
		json_string_value(json_object_get(machine, "label")),
		json_string_value(json_object_get(machine, "label_from")));
	fprintf(f, "# mpi: %s; %lld ranks on %lld host(s)%s\n",
		json_string_value(json_object_get(mpi, "library")),
		(long long)json_integer_value(json_object_get(mpi, "nranks")),
		(long long)json_integer_value(json_object_get(mpi, "nnodes")),
		json_is_true(json_object_get(mpi, "oversubscribed")) ? ", oversubscribed" : "");
	print_launcher(f, json_object_get(meta, "launcher"));
	fprintf(f, "# backend: %s%s%s\n", json_string_value(json_object_get(meta, "backend")),
		*json_string_value(json_object_get(meta, "device")) ? ", " : "",
		json_string_value(json_object_get(meta, "device")));
	fprintf(f, "# transport: %s (--transport %s): %s\n",
		json_string_value(json_object_get(json_object_get(meta, "transport"), "used")),
		json_string_value(json_object_get(json_object_get(meta, "transport"), "requested")),
		json_string_value(json_object_get(json_object_get(meta, "transport"), "description")));
	fprintf(f, "# wait: %s: %s\n",
		json_string_value(json_object_get(json_object_get(meta, "wait"), "strategy")),
		json_string_value(json_object_get(json_object_get(meta, "wait"), "description")));
	if (json_is_object(json_object_get(meta, "plan_file"))) {
		json_t *pl = json_object_get(meta, "plan_file");

		fprintf(f, "# plan: %s from %s: %lld ranks, %lld chunks, %lld rounds, %lld steps; "
			"checked on the in-memory executor before timing\n",
			json_string_value(json_object_get(pl, "name")),
			json_string_value(json_object_get(pl, "path")),
			(long long)json_integer_value(json_object_get(pl, "ranks")),
			(long long)json_integer_value(json_object_get(pl, "chunks")),
			(long long)json_integer_value(json_object_get(pl, "rounds")),
			(long long)json_integer_value(json_object_get(pl, "steps")));
	}
	fprintf(f, "# timing: %s\n", json_string_value(json_object_get(meta, "timing")));
	print_time_acct(f, json_object_get(meta, "time_accounting"));
	print_bandwidth(f, json_string_value(json_object_get(meta, "collective")));
	if (fflush(f) != 0 || ferror(f)) {
		cb_log("cannot write the run header to stdout: %m");
		return CB_ERR_IO;
	}
	return CB_OK;
}
