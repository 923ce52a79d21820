/* cb_row: measuring one row and its statistics (contract in cb_row.h); where
 * its time went, per rank: cb_row_time.c. */
#define _GNU_SOURCE
#include "cb_row.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cb_nccl_choice.h"
#include "cb_hwtraffic.h"
#include "cb_row_time.h"
#include "cb_stats.h"
#include "cb_watchdog.h"
#include "cb_world.h"

enum cb_status cb_measure_init(struct cb_measure *m, size_t alloc_bytes)
{
	size_t k = (size_t)m->o->repeat * (size_t)m->o->iters, wu = (size_t)m->o->warmup;
	size_t w = (size_t)m->be->world_size;

	m->times = calloc(k, sizeof(double));
	m->tmax = calloc(k, sizeof(double));
	m->tx_sum = calloc(w, sizeof(uint64_t));
	m->rx_sum = calloc(w, sizeof(uint64_t));
	m->busy = calloc(k, sizeof(double));
	m->busy_cpu = calloc(k, sizeof(double));
	m->wait = calloc(k, sizeof(double));
	m->barrier = calloc(k, sizeof(double));
	m->warm = calloc(wu + 1, sizeof(double));
	m->slowest = calloc(k, sizeof(int));
	m->done = calloc(k, sizeof(double));
	m->done_max = calloc(k, sizeof(double));
	if (!m->done || !m->done_max || !m->times || !m->tmax || !m->tx_sum || !m->rx_sum || !m->busy || !m->busy_cpu || !m->wait ||
	    !m->barrier || !m->warm || !m->slowest)
		return CB_ERR_NOMEM;
	/* --json and -J are rank 0's options alone (CB_OPT_LOCAL): every rank follows */
	m->keep_iters = m->o->json[0] != 0 || m->o->output_file[0] != 0;
	if (cb_world_bcast(m->be, &m->keep_iters, 1, MPI_INT, 0) != CB_OK)
		return CB_ERR_MPI;
	if (m->keep_iters && m->be->world_rank == 0) {
		m->all_time = calloc(w * k, sizeof(double));
		m->all_busy = calloc(w * k, sizeof(double));
		m->all_wait = calloc(w * k, sizeof(double));
		m->all_warm = calloc(w * wu + 1, sizeof(double));
		m->warm_max = calloc(wu + 1, sizeof(double));
		if (!m->all_time || !m->all_busy || !m->all_wait || !m->all_warm || !m->warm_max)
			return CB_ERR_NOMEM;
	}
	if (cb_verify_init(&m->verify, m->be, alloc_bytes) != CB_OK)
		return CB_ERR_NOMEM;
	return CB_OK; /* the collective and mode: the harness's set_mode */
}

void cb_measure_fini(struct cb_measure *m)
{
	cb_verify_fini(&m->verify);
	free(m->times);
	free(m->tmax);
	free(m->tx_sum);
	free(m->rx_sum);
	free(m->busy);
	free(m->busy_cpu);
	free(m->wait);
	free(m->barrier);
	free(m->warm);
	free(m->slowest);
	free(m->done);
	free(m->done_max);
	free(m->all_time);
	free(m->all_busy);
	free(m->all_wait);
	free(m->all_warm);
	free(m->warm_max);
}

enum cb_status cb_row_init(struct cb_row *row, int nranks)
{
	size_t n = (size_t)nranks;

	memset(row, 0, sizeof(*row));
	row->tx = calloc(n, sizeof(uint64_t));
	row->rx = calloc(n, sizeof(uint64_t));
	row->rank_time_us = calloc(n, sizeof(double));
	row->rank_busy_us = calloc(n, sizeof(double));
	row->rank_busy_cpu_us = calloc(n, sizeof(double));
	row->rank_wait_us = calloc(n, sizeof(double));
	row->rank_barrier_us = calloc(n, sizeof(double));
	row->hw_tx = calloc(n, sizeof(uint64_t));
	row->hw_rx = calloc(n, sizeof(uint64_t));
	return row->hw_tx && row->hw_rx && row->tx && row->rx && row->rank_time_us &&
			       row->rank_busy_us && row->rank_busy_cpu_us && row->rank_wait_us &&
			       row->rank_barrier_us ?
		       CB_OK :
		       CB_ERR_NOMEM;
}

void cb_row_fini(struct cb_row *row)
{
	free(row->tx);
	free(row->rx);
	free(row->rank_time_us);
	free(row->rank_busy_us);
	free(row->rank_busy_cpu_us);
	free(row->rank_wait_us);
	free(row->rank_barrier_us);
	free(row->hw_tx);
	free(row->hw_rx);
	memset(row, 0, sizeof(*row));
}

enum cb_status cb_row_prepare(struct cb_measure *m, enum cb_dtype dt, enum cb_op op,
			      size_t largest_bytes)
{
	size_t count = largest_bytes / cb_dtype_size(dt);
	enum cb_status st = CB_OK;

	cb_watchdog_setup("input upload", cb_dtype_name(dt), largest_bytes);
	if (m->o->in_place != CB_INPLACE_IN)
		st = cb_verify_fill_input(&m->verify, m->send, count, dt, op);
	if (st == CB_OK && m->o->check) {
		cb_watchdog_setup("reference", cb_dtype_name(dt), largest_bytes);
		st = cb_verify_prepare(&m->verify, dt, op, count);
	}
	return st;
}

/* The row's key and settings; every measured column empty, status ok. */
static void row_start(const struct cb_measure *m, const struct cb_algo_slot *slot, size_t bytes,
		      enum cb_dtype dt, enum cb_op op, struct cb_row *row)
{
	struct cb_summary *s = &row->s;

	cb_schema_clear(&cb_schema_summary, s);
	s->nccl_note[0] = '\0';
	row->measured = row->traffic = row->acct = row->kept = row->hw = 0;
	snprintf(s->backend, sizeof(s->backend), "%s", m->o->backend);
	snprintf(s->algo, sizeof(s->algo), "%s", slot->ops->desc->name);
	snprintf(s->collective, sizeof(s->collective), "%s",
		 cb_coll_get(slot->ops->desc->coll)->name);
	snprintf(s->transport, sizeof(s->transport), "%s", slot->transport);
	s->nhosts = m->lay->nhosts;
	s->nranks = m->be->world_size;
	s->bytes = bytes;
	s->count = bytes / cb_dtype_size(dt);
	snprintf(s->dtype, sizeof(s->dtype), "%s", cb_dtype_name(dt));
	/* nccl-tests' "none" where the collective does not reduce */
	snprintf(s->op, sizeof(s->op), "%s",
		 cb_coll_get(slot->ops->desc->coll)->reduces ? cb_op_name(op) : "none");
	s->in_place = m->in_place;
	s->iters = m->o->iters;
	s->warmup_iters = m->o->warmup;
	s->repeats = m->o->repeat;
	snprintf(s->hw_traffic, sizeof(s->hw_traffic), "none"); /* cb_hw_gather: measured rows */
}

static long minflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* Where an iteration's numbers go (us per call: the iteration's / its
 * calls), each [n] or NULL: its time (-C 1: the host's time to issue its
 * calls), and its busy (wall), wait, barrier and busy CPU time (NaN where
 * the accounting is off), and its time to completion. */
struct iter_out {
	double *time, *busy, *wait, *barrier, *busy_cpu, *done;
};

/* The accounting's sums now. */
static struct cb_time_acct acct_mark(const struct cb_backend *be)
{
	return be->acct;
}

/* Iterations i .. i+n-1 of out share the busy and wait time since m0,
 * barrier_ns and us, the time the backend measured for them (a block timed
 * as one: n > 1), each of `calls` calls (-m), per call. Busy: the spans' sum
 * at --time-acct 2, else the time not waiting (cb_backend.h, struct
 * cb_time_acct). */
static void acct_put(const struct cb_backend *be, const struct cb_time_acct *m0,
		     uint64_t barrier_ns, double us, const struct iter_out *out, int i, int n,
		     int calls)
{
	double busy = NAN, wait = NAN, bar = NAN, cpu = NAN, per = (double)n * calls;

	if (be->acct.on) {
		wait = (double)(be->acct.wait_ns - m0->wait_ns) / 1e3 / per;
		busy = fmax(us / per - wait, 0); /* both clocks' reads lie in us: >= 0 but rounding */
		if (be->acct.spans) {
			busy = (double)(be->acct.busy_ns - m0->busy_ns) / 1e3 / per;
			cpu = (double)(be->acct.busy_cpu_ns - m0->busy_cpu_ns) / 1e3 / per;
		}
		bar = (double)barrier_ns / 1e3 / per;
	}
	for (int j = i; j < i + n; j++) {
		if (out->busy)
			out->busy[j] = busy;
		if (out->wait)
			out->wait[j] = wait;
		if (out->barrier)
			out->barrier[j] = bar;
		if (out->busy_cpu)
			out->busy_cpu[j] = cpu;
	}
}

/* CB_ERR_TIMEOUT once the abort flag is set (the watchdog, or a signal:
 * allreduce_perf.c), checked before each iteration: rows of a library
 * algorithm (MPI_Barrier, MPI_Allreduce) have no backend wait that reads it. */
static enum cb_status stop_check(const struct cb_backend *be)
{
	return *be->abort_flag ? CB_ERR_TIMEOUT : CB_OK;
}

/* A time of launches per operation: with -G a call is m->launches launches
 * of its graph. */
static double per_op(const struct cb_measure *m, double us)
{
	return m->graph ? us / m->launches : us;
}

/* --timing loop: one barrier, then n iterations of `calls` calls (-m) back
 * to back between two timestamps of the backend (nccl-tests' way); every
 * call of the block gets the block's mean (-C 1: of the host's time until
 * the last call returned). */
static enum cb_status iterate_loop(struct cb_measure *m, const struct cb_algo_slot *slot,
				   const struct cb_run_args *a, const char *what, int n, int calls,
				   const struct iter_out *out)
{
	struct cb_backend *be = m->be;
	size_t bytes = a->count * cb_dtype_size(a->dt);
	struct cb_time_acct m0 = acct_mark(be);
	uint64_t bar_ns = 0;
	double us = 0, t0 = 0, t1 = 0;
	enum cb_status st = cb_row_barrier(be, &bar_ns);

	/* the phase named once: per call a store and a load, nothing a
	 * sub-microsecond call would feel (no lock, no formatting) */
	cb_watchdog_loop(what, slot->ops->desc->name, bytes, 0);
	if (st == CB_OK)
		st = be->ops->time_begin(be);
	t0 = cb_row_now_us();
	for (int i = 0; i < n && st == CB_OK; i++) {
		cb_watchdog_tick(i);
		st = stop_check(be);
		if (st == CB_OK)
			st = cb_row_calls(m, slot, a, calls);
	}
	t1 = cb_row_now_us();
	if (st == CB_OK)
		st = be->ops->time_end(be, &us);
	us = per_op(m, us);
	for (int i = 0; i < n; i++) {
		if (out->time)
			out->time[i] = (m->o->report_cputime ? per_op(m, t1 - t0) : us) / n / calls;
		if (out->done)
			out->done[i] = us / n / calls;
	}
	acct_put(be, &m0, bar_ns, us, out, 0, n, calls);
	if (st != CB_OK)
		cb_log("%s failed in %s (back to back) at %zu B: %s", slot->ops->desc->name, what, bytes,
		       cb_abort_why(*be->abort_flag, st));
	return st;
}

/* n iterations of `calls` calls each (-m), each after a barrier, each
 * timed by the backend to its completion (-C 1: the host's time until its
 * last call returned; with -z 3 until it completed, as nccl-tests); with
 * --timing loop (and more than the checked single call), back to back. */
static enum cb_status iterate(struct cb_measure *m, const struct cb_algo_slot *slot,
			      const struct cb_run_args *a, const char *what, int n, int calls,
			      const struct iter_out *out)
{
	struct cb_backend *be = m->be;
	size_t bytes = a->count * cb_dtype_size(a->dt);
	enum cb_status st = CB_OK;

	if (m->o->timing == CB_TIMING_LOOP && n > 1)
		return iterate_loop(m, slot, a, what, n, calls, out);
	for (int i = 0; i < n && st == CB_OK; i++) {
		struct cb_time_acct m0 = acct_mark(be);
		uint64_t bar_ns = 0;
		double us = 0, t0 = 0, t1 = 0;

		cb_watchdog_phase(what, slot->ops->desc->name, bytes, i);
		st = stop_check(be);
		if (st == CB_OK)
			st = cb_row_barrier(be, &bar_ns);
		if (st == CB_OK)
			st = be->ops->time_begin(be);
		t0 = cb_row_now_us();
		if (st == CB_OK)
			st = cb_row_calls(m, slot, a, calls);
		t1 = cb_row_now_us();
		if (st == CB_OK)
			st = be->ops->time_end(be, &us);
		if (m->o->blocking == 3)
			t1 = cb_row_now_us();
		us = per_op(m, us);
		if (out->time)
			out->time[i] = (m->o->report_cputime ? per_op(m, t1 - t0) : us) / calls;
		if (out->done)
			out->done[i] = us / calls;
		acct_put(be, &m0, bar_ns, us, out, i, 1, calls);
	}
	if (st != CB_OK)
		cb_log("%s failed in %s at %zu B: %s", slot->ops->desc->name, what, bytes, cb_abort_why(*be->abort_flag, st));
	return st;
}

/* Warm-up, then repeat x iters timed iterations; counts traffic and faults. */
static enum cb_status timed(struct cb_measure *m, const struct cb_algo_slot *slot,
			    const struct cb_run_args *a, long *minflt)
{
	struct iter_out warm = { m->warm, NULL, NULL, NULL, NULL, NULL };
	enum cb_status st;
	long f0;

	if (m->in_place) {
		cb_watchdog_setup("input fill", slot->ops->desc->name, a->count * cb_dtype_size(a->dt));
		st = cb_verify_fill_input(&m->verify, a->recv, a->count, a->dt, a->op);
		if (st != CB_OK)
			return st;
	}
	st = iterate(m, slot, a, "warm-up", m->o->warmup, 1, &warm);
	cb_nccl_choice_clear(); /* NCCL's choices in the timed calls only */
	if (st == CB_OK && m->o->cudagraph > 0)
		st = cb_row_graph_make(m, slot, a); /* -G: the timed calls launch it */
	cb_traffic_reset(m->be);
	if (st == CB_OK) /* outside the timed iterations */
		st = cb_hw_mark_begin(m->be, &m->hw);
	f0 = minflt_now();
	for (int r = 0; r < m->o->repeat && st == CB_OK; r++) {
		size_t at = (size_t)r * (size_t)m->o->iters;
		struct iter_out out = { m->times + at, m->busy + at, m->wait + at, m->barrier + at,
					m->busy_cpu + at, m->done + at };

		st = iterate(m, slot, a, "timed", m->o->iters, m->o->agg_iters, &out);
	}
	*minflt = minflt_now() - f0;
	if (st == CB_OK)
		st = cb_hw_mark_end(m->be, &m->hw);
	return st;
}

/* One more iteration on fresh inputs, compared element by element. On rank 0
 * *wrong is the sum over ranks; *differ is set on every rank when outputs
 * differ between ranks. */
static enum cb_status check(struct cb_measure *m, const struct cb_algo_slot *slot,
			    const struct cb_run_args *a, long long *wrong, int *differ)
{
	const struct iter_out none = { NULL, NULL, NULL, NULL, NULL, NULL };
	long long mine = 0;
	uint64_t hash = 0, hmin, hmax;
	size_t bytes = a->count * cb_dtype_size(a->dt);
	enum cb_status st;

	cb_watchdog_setup("input fill", slot->ops->desc->name, bytes);
	/* in place: poison first, then the input over its part (all_gather's
	 * own block: the other blocks must not keep an earlier call's result) */
	st = cb_verify_poison(&m->verify, a->recv, a->count, a->dt);
	if (st == CB_OK && m->in_place)
		st = cb_verify_fill_input(&m->verify, a->recv, a->count, a->dt, a->op);
	m->launches = m->graph ? 1 : 0; /* -G: its graph checked, launched once */
	if (st == CB_OK)
		st = iterate(m, slot, a, "check", 1, 1, &none);
	if (st != CB_OK)
		return st;
	cb_watchdog_setup("compare", slot->ops->desc->name, bytes);
	st = cb_verify_check(&m->verify, a->recv, a->count, a->dt, a->op, slot->ops->desc->result,
			     &mine, &hash);
	cb_watchdog_phase("check results", slot->ops->desc->name, bytes, -1); /* peers: -T */
	if (st == CB_OK)
		st = cb_world_reduce(m->be, &mine, wrong, 1, MPI_LONG_LONG, MPI_SUM, 0);
	if (st == CB_OK)
		st = cb_world_allreduce(m->be, &hash, &hmin, 1, MPI_UINT64_T, MPI_MIN);
	if (st == CB_OK)
		st = cb_world_allreduce(m->be, &hash, &hmax, 1, MPI_UINT64_T, MPI_MAX);
	*differ = slot->ops->desc->result == CB_RESULT_ALLREDUCE &&
		  cb_coll_get(slot->ops->desc->coll)->same_result && hmin != hmax;
	return st;
}

/* The calls of a row's timed iterations (with -G each is m->launches
 * operations, as its time and traffic are one operation's). */
static uint64_t calls_of(const struct cb_measure *m)
{
	return (uint64_t)m->o->repeat * (uint64_t)m->o->iters * (uint64_t)m->o->agg_iters;
}

/* To rank 0: the max over ranks of each iteration, each rank's mean (into
 * the row), the faults and, where measured, each rank's traffic. */
static enum cb_status gather(struct cb_measure *m, const struct cb_algo_slot *slot, long minflt,
			     struct cb_row *row)
{
	struct cb_backend *be = m->be;
	int k = m->o->repeat * m->o->iters;
	double mean = 0, flt = (double)minflt / k / m->o->agg_iters;
	enum cb_status st;

	for (int i = 0; i < k; i++)
		mean += m->times[i] / k;
	st = cb_world_reduce(be, m->times, m->tmax, k, MPI_DOUBLE, MPI_MAX, 0);
	if (st == CB_OK && m->o->report_cputime)
		st = cb_world_reduce(be, m->done, m->done_max, k, MPI_DOUBLE, MPI_MAX, 0);
	if (st == CB_OK)
		st = cb_world_gather(be, &mean, 1, MPI_DOUBLE, row->rank_time_us, 0);
	if (st == CB_OK)
		st = cb_world_reduce(be, &flt, &row->s.minflt_per_iter, 1, MPI_DOUBLE, MPI_MAX, 0);
	if (st == CB_OK)
		st = cb_row_gather_time(m, slot, row);
	if (st == CB_OK)
		st = cb_hw_gather(be, &m->hw, calls_of(m) * (m->graph ? (uint64_t)m->launches : 1), row);
	if (st != CB_OK || !slot->ops->desc->traffic_measured)
		return st;
	/* counters are by world rank: the sum over processes is each rank's */
	return cb_traffic_collect(be, m->tx_sum, m->rx_sum);
}

/* The status of a measured row on rank 0, from its check. */
/* Per-allreduce traffic from the counters of k allreduces, into the row's
 * own arrays. */
static void traffic_summary(const struct cb_measure *m, const struct cb_algo_slot *slot,
			    struct cb_row *row)
{
	uint64_t k = (uint64_t)m->o->repeat * (uint64_t)m->o->iters * (uint64_t)m->o->agg_iters;
	struct cb_summary *s = &row->s;

	if (!slot->ops->desc->traffic_measured)
		return;
	row->traffic = 1;
	s->tx_total = s->txrx_max = 0;
	for (int r = 0; r < s->nranks; r++) {
		if (m->tx_sum[r] % k || m->rx_sum[r] % k)
			cb_row_status_set(&s->status, CB_ROW_ERROR,
					  "traffic differs between iterations");
		row->tx[r] = m->tx_sum[r] / k;
		row->rx[r] = m->rx_sum[r] / k;
		s->tx_total += row->tx[r];
		if (row->tx[r] + row->rx[r] > s->txrx_max)
			s->txrx_max = row->tx[r] + row->rx[r];
	}
	s->imbalance = cb_imbalance(row->tx, row->rx, s->nranks);
}

/* max over ranks of busy / their mean; NaN when all are 0 */
static double busy_imbalance(const double *busy, int nranks)
{
	double max = 0, sum = 0;

	for (int r = 0; r < nranks; r++) {
		sum += busy[r];
		max = fmax(max, busy[r]);
	}
	return sum > 0 ? max / (sum / nranks) : NAN;
}

/* Each repeat's mean and median: their extremes. */
static void repeat_bands(const struct cb_measure *m, struct cb_summary *s)
{
	int iters = m->o->iters;

	s->time_us_rep_min = s->time_us_median_rep_min = INFINITY;
	s->time_us_rep_max = s->time_us_median_rep_max = 0;
	for (int r = 0; r < m->o->repeat; r++) {
		struct cb_stats rs;

		cb_stats_compute(m->tmax + (size_t)r * iters, (size_t)iters, &rs);
		s->time_us_rep_min = fmin(s->time_us_rep_min, rs.mean);
		s->time_us_rep_max = fmax(s->time_us_rep_max, rs.mean);
		s->time_us_median_rep_min = fmin(s->time_us_median_rep_min, rs.median);
		s->time_us_median_rep_max = fmax(s->time_us_median_rep_max, rs.median);
	}
}

/* The statistics of a measured row on rank 0: times over iterations and
 * repeats from m->tmax, bandwidths (cb_stats.h: nccl-tests' formulas),
 * per-allreduce traffic from m->tx_sum/rx_sum into the row's own arrays. */
static void summarize(const struct cb_measure *m, const struct cb_algo_slot *slot,
		      struct cb_row *row)
{
	struct cb_summary *s = &row->s;
	double factor = slot->ops->desc->result == CB_RESULT_ALLREDUCE ?
				cb_coll_busbw_factor(slot->ops->desc->coll, s->nranks) : NAN;
	struct cb_stats t;

	cb_stats_compute(m->tmax, (size_t)(m->o->repeat * m->o->iters), &t);
	s->time_us = m->o->average == CB_AVG_NONE ? t.mean :
		     cb_stats_over_ranks(row->rank_time_us, s->nranks, m->o->average);
	s->time_us_median = t.median;
	s->time_us_min = t.min;
	s->time_us_max = t.max;
	s->time_us_p90 = t.p90;
	s->time_us_p99 = t.p99;
	s->time_us_cv = t.cv;
	repeat_bands(m, s);
	s->algbw = cb_algbw_GBps(s->bytes, s->time_us);
	s->busbw_rep_min = cb_algbw_GBps(s->bytes, s->time_us_rep_max) * factor;
	s->busbw_rep_max = cb_algbw_GBps(s->bytes, s->time_us_rep_min) * factor;
	if (m->o->report_cputime) { /* -C 1: bandwidths from completion, as nccl-tests */
		cb_stats_compute(m->done_max, (size_t)(m->o->repeat * m->o->iters), &t);
		s->algbw = cb_algbw_GBps(s->bytes, t.mean);
		s->busbw_rep_min = s->busbw_rep_max = NAN;
	}
	s->busbw = s->algbw * factor;
	row->measured = 1;
	traffic_summary(m, slot, row);
	cb_hw_check(row, calls_of(m));
	if (row->acct)
		s->busy_imbalance = busy_imbalance(row->rank_busy_us, s->nranks);
}

static void judge(const struct cb_measure *m, long long wrong, int differ, struct cb_row *row)
{
	if (!m->o->check)
		return;
	row->s.wrong = (unsigned long long)wrong;
	if (wrong)
		cb_row_status_wrong(&row->s.status, wrong);
	else if (differ)
		cb_row_status_set(&row->s.status, CB_ROW_ERROR, "outputs differ across ranks");
}

/* An algorithm with buffers of its own (cb_algo_ops.own_buf) runs on them:
 * out of place, the input cb_row_prepare put in the harness's send buffer is
 * written into its own, before the row and untimed. */
static enum cb_status own_buffers(struct cb_measure *m, const struct cb_algo_slot *slot,
				  struct cb_run_args *a)
{
	a->recv = slot->ops->own_buf(slot->state, 1);
	a->send = m->in_place ? a->recv : slot->ops->own_buf(slot->state, 0);
	if (m->in_place)
		return CB_OK;
	cb_watchdog_setup("input fill", slot->ops->desc->name, a->count * cb_dtype_size(a->dt));
	return cb_verify_fill_input(&m->verify, a->send, a->count, a->dt, a->op);
}

enum cb_status cb_row_measure(struct cb_measure *m, const struct cb_algo_slot *slot,
			      size_t bytes, enum cb_dtype dt, enum cb_op op, struct cb_row *row)
{
	struct cb_run_args a = { m->send, m->recv, bytes / cb_dtype_size(dt), dt, op,
				 slot->ops->desc->coll, m->o->root };
	const char *why = slot->ops->supports(m->be, dt, op, m->in_place);
	long long wrong = 0;
	int differ = 0;
	long minflt = 0;
	enum cb_status st;

	row_start(m, slot, bytes, dt, op, row);
	if (why || slot->setup_st != CB_OK) {
		if (why)
			cb_row_status_set(&row->s.status, CB_ROW_SKIPPED, "%s", why);
		else
			cb_row_status_set(&row->s.status, CB_ROW_ERROR, "set-up failed (%s)",
					  cb_status_str(slot->setup_st));
		return CB_OK;
	}
	if (slot->ops->own_buf && (st = own_buffers(m, slot, &a)) != CB_OK)
		return st;
	if (slot->ops->prepare) { /* local: a plan's schedule for this row */
		cb_watchdog_setup("prepare", slot->ops->desc->name, bytes);
		st = slot->ops->prepare(slot->state, &a);
		if (st != CB_OK) {
			cb_row_status_set(&row->s.status, CB_ROW_ERROR, "no plan (%s)", cb_status_str(st));
			return CB_OK;
		}
	}
	st = timed(m, slot, &a, &minflt);
	if (st == CB_OK && m->be->world_rank == 0)
		cb_nccl_choice_fill(&row->s); /* before the checked calls */
	if (st == CB_ERR_UNSUPPORTED && m->graph_why[0]) { /* every rank: cb_row_graph_make */
		cb_row_graph_free(m);
		cb_row_status_set(&row->s.status, CB_ROW_SKIPPED, "-G: %s", m->graph_why);
		return CB_OK;
	}
	if (st == CB_OK)
		st = gather(m, slot, minflt, row);
	/* -c N: N checked calls, their wrong elements summed */
	for (int c = 0; c < m->o->check && st == CB_OK; c++) {
		long long w = 0;
		int d = 0;

		st = check(m, slot, &a, &w, &d);
		wrong += w;
		differ |= d;
	}
	cb_row_graph_free(m);
	if (st != CB_OK || m->be->world_rank != 0)
		return st;
	summarize(m, slot, row);
	judge(m, wrong, differ, row);
	return CB_OK;
}
