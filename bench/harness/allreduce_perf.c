/* allreduce_perf: ps, ring and library allreduce side by side, launched with
 * `mpirun -np N allreduce_perf [options]` (see --help).
 *
 * main() is the only place that decides how the job ends: a clean non-zero
 * exit on every rank when all ranks agree something is wrong (bad arguments,
 * wrong results), MPI_Abort when one rank failed and the others may be stuck.
 * Exit status: 0 ok; 1 wrong results or failed rows, or the average busbw
 * below NCCL_TESTS_MIN_BW (cb_nctests.h); 2 bad arguments or an
 * output that cannot be written at the start; 3 aborted run (error, timeout,
 * dead peer, a stop signal: TERM, INT, HUP, USR1, USR2) or results lost (a
 * write to stdout, CSV, JSON, -J or metadata failed). */
#define _GNU_SOURCE
#include <mpi.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cb_harness.h"
#include "cb_hwtraffic.h"
#include "cb_mcafiles.h"
#include "cb_meta.h"
#include "cb_nctests.h"
#include "cb_options.h"
#include "cb_peers.h"
#include "cb_preflight.h"
#include "cb_report.h"
#include "cb_selflaunch.h"
#include "cb_watchdog.h"

#define EXIT_FAILED_ROWS 1
#define EXIT_ABORTED CB_EXIT_ABORTED /* cb_watchdog.h */

static volatile int abort_flag;
static volatile sig_atomic_t stop_signal; /* the signal that stopped the run, or 0 */
static volatile sig_atomic_t stop_count;
static volatile sig_atomic_t aborting; /* abort_run has begun: the rank is not stuck */

/* Stop signals: SIGTERM, SIGINT, SIGHUP, and the warning signals schedulers
 * send before a time limit, SIGUSR1 and SIGUSR2 (`sbatch --signal=USR1@60`
 * sends it to every task of the job step; mpirun forwards both to the
 * ranks), whose default action would end a rank without a word. mpirun sends
 * SIGTERM to every rank when one dies (or when it is stopped itself). Each
 * stops the run as when the watchdog fires (the backend's waits and
 * cb_world's collectives see the abort flag), so rank 0's metadata says
 * "aborted" whatever the transport. A second signal changes nothing (mpirun
 * sends another when a rank that stopped first calls MPI_Abort, while rank 0
 * is still writing; SIGKILL follows 1 s later, odls_base_sigkill_timeout); a
 * third ends the process at once (stuck where the flag is not read), unless
 * the rank is already in abort_run (one SIGTERM per rank's MPI_Abort could
 * otherwise end rank 0 before its metadata is written). */
static void on_stop(int sig)
{
	if (aborting)
		return;
	if (++stop_count >= 3)
		_exit(128 + sig);
	if (!stop_signal)
		stop_signal = sig;
	if (!abort_flag) /* the first cause is the one to tell */
		abort_flag = CB_ABORT_SIGNAL;
}

/* The longest name of the algorithms the run selects (as the harness does:
 * --algo's, else every one on the backend not run on request only), for the
 * table's algo column. */
static int algo_width(const struct cb_options *o, const struct cb_backend *be)
{
	size_t n, w = 0;
	const struct cb_algo_ops *const *reg = cb_algo_registry_coll(o->coll, &n);

	for (size_t i = 0; i < n; i++) {
		const char *name = reg[i]->desc->name;

		if (*o->algos ? cb_list_selects(o->algos, name) :
				cb_algo_runs_on(reg[i], be->ops) && !reg[i]->desc->on_request)
			w = strlen(name) > w ? strlen(name) : w;
	}
	return (int)w;
}

/* The run's topology stamp (cb_hwtraffic.h: every rank takes part in
 * finding it, rank 0 writes it into the metadata as "topology") */
static struct cb_topo run_topo;
static json_t *run_near; /* and what sits near each rank's GPU: "gpu_locality" */

/* Rank 0: result files, metadata and the run header. */
static enum cb_status open_outputs(struct cb_options *o, struct cb_backend *be,
				   const struct cb_preflight *pf, const struct cb_layout *lay,
				   int argc, char **argv, struct cb_report **rep, json_t **meta)
{
	enum cb_status st;

	/* every path is checked before any file changes: a run that cannot write
	 * one of them leaves an earlier run's results and metadata as they were */
	st = cb_report_open(rep, o->csv, o->rank_csv, o->json, o->quiet ? NULL : stdout);
	if (st != CB_OK)
		return st;
	cb_report_set_algo_width(*rep, algo_width(o, be));
	cb_report_set_modes(*rep, o->in_place == CB_INPLACE_BOTH);
	*meta = cb_meta_collect(o, be, pf, lay->transport, argc, argv);
	if (*meta) {
		json_object_set_new(*meta, "topology", cb_topo_json(&run_topo));
		json_object_set_new(*meta, "gpu_locality", run_near ? run_near : json_null());
		run_near = NULL;
	}
	if (!*meta)
		cb_log("cannot build the run metadata: out of memory");
	st = *meta ? CB_OK : CB_ERR_NOMEM;
	/* the header and the table's column names first: stdout is a results
	 * stream too, and one that cannot be written changes no file */
	if (st == CB_OK)
		st = cb_meta_print_header(stdout, *meta);
	if (st == CB_OK)
		st = cb_report_table_header(*rep);
	if (st == CB_OK)
		st = cb_meta_write(o->meta, *meta, "incomplete", NULL);
	if (st == CB_OK)
		st = cb_report_start(*rep);
	if (st != CB_OK) {
		json_decref(*meta);
		*meta = NULL; /* not written again at the end */
		return st;
	}
	return CB_OK;
}

/* Before a rank other than 0 calls MPI_Abort for a stop signal: the signal
 * stops the whole job (mpirun forwards it to every rank, Slurm sends it to
 * every task, mpirun sends SIGTERM to every rank when one dies), and the
 * first MPI_Abort makes mpirun SIGTERM every rank and SIGKILL them
 * odls_base_sigkill_timeout (1 s) later, so a rank 0 slowed by load could be
 * killed before its metadata says "aborted". Rank 0's own MPI_Abort ends the
 * wait at once; CB_ABORT_GRACE_S bounds it where rank 0 is gone or stuck. */
#define CB_ABORT_GRACE_S 3

static void leave_rank0_first(void)
{
	struct timespec end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += CB_ABORT_GRACE_S;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
		;
}

/* A rank failed mid-run or mid-set-up: its peers may be stuck in a wait or a
 * collective, so the job ends here, with the metadata saying so. */
static void abort_run(const struct cb_options *o, json_t *meta, enum cb_status st, int rank,
		      MPI_Comm world, const struct cb_peers *peers)
{
	char why[320], gone[160], sig[64] = "";

	aborting = 1;
	if (stop_signal)
		snprintf(sig, sizeof(sig), "signal %d (%s)", (int)stop_signal, strsignal(stop_signal));
	/* a peer of this host that is gone is why, whatever stopped this rank
	 * (mpirun's SIGTERM after a rank died, or a wait that gave up) */
	if (cb_peers_gone(peers, gone, sizeof(gone)))
		snprintf(why, sizeof(why), "peer failed: %s ended%s%s", gone,
			 *sig ? ", then this rank was stopped by " : "", sig);
	else if (*sig)
		snprintf(why, sizeof(why), "stopped by %s", sig);
	else
		snprintf(why, sizeof(why), "%s", cb_status_str(st));
	cb_log("run aborted: %s", why);
	if (rank == 0)
		cb_meta_write(o->meta, meta, "aborted", why);
	fflush(NULL);
	if (rank != 0 && stop_signal)
		leave_rank0_first();
	MPI_Abort(world, EXIT_ABORTED);
}

/* The end of a run: rank 0 closes the results and writes the metadata's
 * last word (a run that lost output or overran its teardown never says
 * "complete"); every rank returns its exit status. nct: cb_nctests_finish's
 * result (-1: the footer or -J lost, > 0: below NCCL_TESTS_MIN_BW). */
static int outcome(const struct cb_options *o, struct cb_report *rep, json_t *meta, enum cb_status st,
		   int failed, int late, int nct, int rank)
{
	int lost = 0;

	if (rank == 0) {
		lost = (cb_report_close(rep) != CB_OK || nct < 0) && st == CB_OK; /* logged */
		json_object_set_new(meta, "failed_rows", json_integer(failed));
		if (cb_meta_write(o->meta, meta, st != CB_OK || lost || late ? "error" : "complete",
				  st != CB_OK ? cb_status_str(st) : lost ? "writing the results failed" :
				  late ? "teardown did not end within --setup-timeout" : NULL) != CB_OK)
			lost = 1; /* logged */
		json_decref(meta);
		if (failed)
			cb_log("%d row(s) had wrong results or errors", failed);
	}
	if (st != CB_OK) { /* agreed before any timed work: arguments or output paths */
		if (rank == 0)
			cb_log("the run did not start: %s", cb_status_str(st));
		return st == CB_ERR_ARG || st == CB_ERR_IO ? CB_EXIT_USAGE : EXIT_ABORTED;
	}
	if (lost) /* as when a write fails mid-run (the job is aborted then) */
		return EXIT_ABORTED;
	if (late) {
		cb_log("the rows are complete, but teardown did not end within --setup-timeout");
		return EXIT_ABORTED;
	}
	return failed ? EXIT_FAILED_ROWS : nct > 0 ? nct : 0;
}

/* The run proper, once arguments and the backend are settled. Returns the
 * exit status, or aborts the job when a rank failed mid-run. */
static int run(struct cb_options *o, struct cb_backend *be, const struct cb_preflight *pf,
	       int argc, char **argv)
{
	/* the same on every rank: --transport agreed, and single_node */
	struct cb_layout lay = { cb_transport_resolve(o->transport, be->ops->desc, be->single_node), pf->nhosts, pf->host_of };
	struct cb_report *rep = NULL;
	json_t *meta = NULL;
	struct cb_harness h;
	struct cb_peers peers;
	struct cb_nctests nct;
	enum cb_status st = CB_OK;
	int late = 0, rank = be->world_rank, ends[2] = { 0, 0 }; /* failed rows, nct */

	memset(&h, 0, sizeof(h));
	memset(&nct, 0, sizeof(nct));
	if (cb_peers_init(&peers, be->world, pf) != CB_OK)
		cb_log("the ranks' process ids are unknown: a rank that dies will not be named");
	st = cb_hw_topo(be, &run_topo, &run_near);
	if (rank == 0 && st == CB_OK)
		st = cb_nctests_start(&nct, o, stdout);
	if (rank == 0 && st == CB_OK)
		st = open_outputs(o, be, pf, &lay, argc, argv, &rep, &meta);
	if (rep)
		cb_report_set_nct(rep, &nct.tally);
	st = cb_agree(st, be->world);
	if (st == CB_OK) {
		/* CB_ERR_ARG (an algorithm not on this backend) is the same on every
		 * rank; any other failure may leave peers inside a collective */
		st = cb_harness_init(&h, o, be, &lay, rep);
		if (st != CB_OK && st != CB_ERR_ARG)
			abort_run(o, meta, st, rank, be->world, &peers);
		if (run_topo.known || run_topo.why_unknown[0])
			h.topo = run_topo; /* the bound of every row's pct_line */
	}
	if (st == CB_OK) {
		st = cb_harness_run(&h);
		if (st != CB_OK)
			abort_run(o, meta, st, rank, be->world, &peers);
	}
	/* teardown under the watchdog too (its set-up bound): an algorithm's
	 * teardown drains streams and finalizes NCCL communicators, and the
	 * backend's (main) does the same; main stops the watchdog after both */
	cb_watchdog_setup("the algorithms' teardown", "", 0);
	ends[0] = h.failed_rows;
	if (rank == 0 && st == CB_OK) { /* the footer, the NCCL_TESTS_MIN_BW gate, -J */
		ends[1] = cb_nctests_finish(&nct, o, pf, &peers, argc, argv, stdout);
		json_object_set_new(meta, "nccl_tests", cb_nctests_meta(&nct));
	}
	MPI_Bcast(ends, 2, MPI_INT, 0, be->world);
	cb_harness_fini(&h);
	late = st == CB_OK && abort_flag; /* the watchdog fired in teardown: it said so */
	cb_peers_free(&peers);
	cb_nctests_free(&nct);
	return outcome(o, rep, meta, st, ends[0], late, ends[1], rank);
}

/* The backend's teardown, watched as a set-up step (--setup-timeout), then
 * the watchdog stopped. Returns rc, or the aborted status when the teardown
 * overran (the watchdog said so). */
static int end_backend(struct cb_backend *be, int rc)
{
	cb_watchdog_setup("the backend's teardown", "", 0);
	cb_backend_fini(be);
	cb_watchdog_stop();
	if (rc == 0 && abort_flag) {
		cb_log("the rows are complete, but this rank's teardown did not end within --setup-timeout");
		return EXIT_ABORTED;
	}
	return rc;
}

/* The program's name as nccl-tests' binary of a collective
 * (reduce_scatter_perf, ...: links to this binary) puts "--coll=NAME"
 * first among the arguments, so that a later --coll still wins: the new
 * argc, argv in *nargv (the caller frees it), or argc and argv as they are. */
static int prog_coll(int argc, char **argv, char ***nargv)
{
	static char opt[48];
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	char **v;

	*nargv = argv;
	for (int c = 0; c < CB_COLL_COUNT; c++) {
		if (strcmp(base, cb_coll_get((enum cb_coll)c)->perf_name) != 0)
			continue;
		v = calloc((size_t)argc + 2, sizeof(*v));
		if (!v)
			return argc; /* the allreduce default: --coll says otherwise */
		snprintf(opt, sizeof(opt), "--coll=%s", cb_coll_get((enum cb_coll)c)->name);
		v[0] = argv[0], v[1] = opt;
		memcpy(v + 2, argv + 1, (size_t)(argc - 1) * sizeof(*v));
		*nargv = v;
		return argc + 1;
	}
	return argc;
}

/* cb_options_parse of argv with prog_coll's --coll. */
static enum cb_status parse_options(int argc, char **argv, struct cb_options *o, char *err,
				    size_t len)
{
	char **pargv;
	int pargc = prog_coll(argc, argv, &pargv);
	enum cb_status st = cb_options_parse(pargc, pargv, o, err, len);

	if (pargv != argv)
		free(pargv);
	return st;
}

/* --check-args: the options parsed and checked as a run would, before and
 * without MPI_Init (no mpirun needed): 0, 2 with the message, or 3 when the
 * set-up watchdog (--setup-timeout) ends --plan's check. Checks that need the
 * world size (--root, --servers, --plan's ranks) are the run's pre-flight's,
 * and made here, first, for --world-size N; then --plan's check. Accepted:
 * every option's value on stdout, "name=value" one a line. */
static int check_args(int argc, char **argv)
{
	struct cb_options o;
	char err[1024] = "";
	enum cb_status st = parse_options(argc, argv, &o, err, sizeof(err));

	if (st != CB_OK) {
		cb_log("%s", err);
		return CB_EXIT_USAGE;
	}
	st = o.world_size ? cb_preflight_world_size(&o, o.world_size, 1) : CB_OK;
	if (st == CB_OK && *o.plan) {
		if (cb_watchdog_start(o.timeout_s, o.setup_timeout_s, &abort_flag) != CB_OK) {
			cb_options_free(&o);
			return EXIT_ABORTED;
		}
		cb_watchdog_setup("checking the plan file", o.plan_name, 0);
		if ((st = cb_options_check_plan(&o, err, sizeof(err))) != CB_OK)
			cb_log("%s", err);
		cb_watchdog_stop();
	}
	if (st == CB_OK)
		cb_options_print(stdout, &o); /* the settings as parsed, for scripts and tests */
	cb_options_free(&o);
	return st == CB_OK ? 0 : CB_EXIT_USAGE;
}

/* --plan's check (cb_options_check_plan), once the pre-flight found the
 * world size the plan's: rank 0 runs it in a set-up step of the watchdog
 * (--setup-timeout) and says what it found; the others wait for that
 * without spinning (on a shared host their CPUs are rank 0's). Returns the
 * verdict (rank 0 printed why), CB_ERR_TIMEOUT when the watchdog or a stop
 * signal set the abort flag meanwhile, or CB_ERR_MPI. */
static enum cb_status check_plan(const struct cb_options *o, int rank)
{
	const struct timespec nap = { 0, 1000000 };
	char err[1024] = "";
	int verdict = CB_OK, done = 0;
	MPI_Request req;
	enum cb_status st;

	if (!*o->plan)
		return CB_OK;
	cb_watchdog_setup("checking the plan file", o->plan_name, 0);
	if (rank == 0 && (verdict = (int)cb_options_check_plan(o, err, sizeof(err))) != CB_OK)
		cb_log("%s", err);
	st = CB_MPI(MPI_Ibcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD, &req));
	while (st == CB_OK && !done) {
		st = CB_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
		if (st == CB_OK && !done && abort_flag)
			return CB_ERR_TIMEOUT; /* the job ends: the request is left */
		if (st == CB_OK && !done)
			nanosleep(&nap, NULL);
	}
	return st != CB_OK ? st : (enum cb_status)verdict;
}

/* Whether argv asks for --check-args (before a "--"). */
static int wants_check_args(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--check-args") == 0)
			return 1;
	return 0;
}

/* -g/-t above 1 started without a launcher (cb_selflaunch.h): each rank's
 * arguments checked here first (a bad one: exit 2, nothing started), then
 * the ranks started under mpirun; with --check-args the launch's line
 * ("launch=...") and a rank's settings instead, with --help the usage. */
static int self_launch(struct cb_selflaunch *sl)
{
	struct cb_options o;
	char err[2048] = "", line[2048];
	enum cb_status st = parse_options(sl->rank_argc, sl->rank_argv, &o, err, sizeof(err));
	int rc = CB_EXIT_USAGE, help = st == CB_OK && o.help, dry = st == CB_OK && o.check_args;

	if (st == CB_OK) {
		if (strcmp(o.backend, "cuda") == 0)
			st = cb_selflaunch_check_gpus(sl, err, sizeof(err));
		cb_options_free(&o);
	}
	if (st == CB_OK && !help)
		st = cb_selflaunch_prepare(sl, err, sizeof(err));
	if (st != CB_OK)
		cb_log("%s", st == CB_ERR_NOMEM ? cb_status_str(st) : err);
	else if (help)
		cb_options_usage(stdout, sl->rank_argv[0]), rc = 0;
	if (st != CB_OK || help) {
		cb_selflaunch_free(sl);
		return rc;
	}
	if (dry)
		cb_selflaunch_drop(sl, "--check-args");
	cb_selflaunch_line(sl, line, sizeof(line));
	cb_log("%s: %d ranks on this host, one process each: %s%s%s", sl->from, sl->np, line,
	       *sl->notes ? "; " : "", sl->notes);
	if (dry) {
		printf("launch=%s\n", line);
		rc = check_args(sl->rank_argc, sl->rank_argv);
	} else {
		rc = cb_selflaunch_run(sl);
	}
	cb_selflaunch_free(sl);
	return rc;
}

/* What ends before MPI_Init, which this process then never calls: -g/-t's
 * launch (started alone), --check-args. 1 with the exit status in *rc when
 * the process ends so, else 0. */
static int before_mpi(int argc, char **argv, int *rc)
{
	struct cb_selflaunch sl;
	int w = cb_selflaunch_wanted(&sl, argc, argv);

	if (w != 0)
		*rc = w > 0 ? self_launch(&sl) : (cb_log("out of memory"), CB_EXIT_ABORTED);
	else if (wants_check_args(argc, argv))
		*rc = check_args(argc, argv);
	return w != 0 || wants_check_args(argc, argv);
}

int main(int argc, char **argv)
{
	struct cb_options o;
	struct cb_preflight pf;
	struct cb_backend be;
	char err[512] = "";
	enum cb_status pst, st;
	int rank, rc;

	if (before_mpi(argc, argv, &rc))
		return rc;
	cb_mcafiles_before_init(); /* MPI_T before MPI_Init: cb_mcafiles.h says why */
	MPI_Init(&argc, &argv);
	cb_stop_signals_set(on_stop);
	/* MPI errors come back as codes (CB_MPI logs them) and main decides */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	cb_log_set_rank(rank);
	pst = parse_options(argc, argv, &o, err, sizeof(err));
	st = cb_preflight_run(MPI_COMM_WORLD, pst, err, &o, &pf);
	if (st == CB_OK && !o.help) {
		if (cb_watchdog_start(o.timeout_s, o.setup_timeout_s, &abort_flag) != CB_OK)
			MPI_Abort(MPI_COMM_WORLD, EXIT_ABORTED);
		if ((st = check_plan(&o, rank)) == CB_ERR_TIMEOUT || st == CB_ERR_MPI)
			MPI_Abort(MPI_COMM_WORLD, EXIT_ABORTED);
	}
	if (st != CB_OK || o.help || o.check_args) { /* check_args: given abbreviated */
		cb_watchdog_stop();
		if (st == CB_OK && rank == 0 && o.help) {
			cb_options_usage(stdout, argv[0]);
			if (fflush(stdout) != 0 || ferror(stdout)) {
				cb_log("cannot write the help to stdout: %m");
				st = CB_ERR_IO;
			}
		}
		cb_preflight_free(&pf);
		cb_options_free(&o);
		MPI_Finalize();
		return st == CB_OK ? 0 : CB_EXIT_USAGE;
	}
	st = cb_backend_init(&be, cb_backend_find(o.backend), MPI_COMM_WORLD, &abort_flag);
	if (cb_agree(st, MPI_COMM_WORLD) != CB_OK) {
		if (st != CB_OK && st != CB_ERR_PEER) /* CB_ERR_PEER: another rank says why */
			cb_log("backend %s is not usable here: %s", o.backend, cb_status_str(st));
		cb_watchdog_stop();
		if (st == CB_OK)
			cb_backend_fini(&be);
		cb_preflight_free(&pf);
		cb_options_free(&o);
		MPI_Finalize();
		return EXIT_ABORTED;
	}
	cb_backend_set_wait(&be, o.wait);
	cb_backend_set_acct(&be, o.time_acct);
	rc = end_backend(&be, run(&o, &be, &pf, argc, argv));
	cb_preflight_free(&pf);
	cb_options_free(&o);
	MPI_Finalize();
	return rc;
}
