#define _GNU_SOURCE
#include "cb_row.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cb_stats.h"
#include "cb_watchdog.h"

enum cb_status cb_row_prepare(struct cb_harness *h, enum cb_dtype dt, enum cb_op op,
			      size_t largest_bytes)
{
	size_t count = largest_bytes / cb_dtype_size(dt);
	enum cb_status st = CB_OK;

	cb_watchdog_phase("input upload", cb_dtype_name(dt), largest_bytes, -1);
	if (!h->o->in_place)
		st = cb_verify_fill_input(&h->verify, h->send, count, dt, op);
	if (st == CB_OK && h->o->check) {
		cb_watchdog_phase("reference", cb_dtype_name(dt), largest_bytes, -1);
		st = cb_verify_prepare(&h->verify, dt, op, count);
	}
	return st;
}

static void row_init(const struct cb_harness *h, size_t ai, size_t bytes, enum cb_dtype dt,
		     enum cb_op op, struct cb_row *row)
{
	memset(row, 0, sizeof(*row));
	row->backend = h->o->backend;
	row->algo = h->algo[ai]->name;
	row->nranks = h->be->world_size;
	row->bytes = bytes;
	row->count = bytes / cb_dtype_size(dt);
	row->dt = dt;
	row->op = op;
	row->in_place = h->o->in_place;
	row->iters = h->o->iters;
	row->warmup = h->o->warmup;
	row->repeats = h->o->repeat;
	row->time_us.mean = row->time_us.median = row->time_us.min = row->time_us.max = NAN;
	row->time_us_rep_min = row->time_us_rep_max = NAN;
	row->time_us_median_rep_min = row->time_us_median_rep_max = NAN;
	row->algbw = row->busbw = row->busbw_rep_min = row->busbw_rep_max = NAN;
	row->imbalance = row->minflt_per_iter = NAN;
	row->wrong = -1;
	snprintf(row->status, sizeof(row->status), "ok");
}

static long minflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* --timing loop: one barrier, then n calls back to back between two
 * timestamps of the backend (nccl-tests' way); every call of the block gets
 * the block's mean. */
static enum cb_status iterate_loop(struct cb_harness *h, size_t ai, const struct cb_run_args *a,
				   const char *what, int n, double *times)
{
	struct cb_backend *be = h->be;
	size_t bytes = a->count * cb_dtype_size(a->dt);
	double us = 0;
	enum cb_status st = CB_MPI(MPI_Barrier(be->world));

	if (st == CB_OK)
		st = be->ops->time_begin(be);
	for (int i = 0; i < n && st == CB_OK; i++) {
		cb_watchdog_phase(what, h->algo[ai]->name, bytes, i);
		st = h->algo[ai]->run(h->state[ai], a);
	}
	if (st == CB_OK)
		st = be->ops->time_end(be, &us);
	for (int i = 0; i < n && times; i++)
		times[i] = us / n;
	if (st != CB_OK)
		cb_log("%s failed in %s (back to back) at %zu B: %s", h->algo[ai]->name, what,
		       bytes, cb_status_str(st));
	return st;
}

/* n iterations, each after a barrier, each timed by the backend; with
 * --timing loop (and more than the checked single call), back to back. */
static enum cb_status iterate(struct cb_harness *h, size_t ai, const struct cb_run_args *a,
			      const char *what, int n, double *times)
{
	struct cb_backend *be = h->be;
	enum cb_status st = CB_OK;

	if (h->o->timing == CB_TIMING_LOOP && n > 1)
		return iterate_loop(h, ai, a, what, n, times);
	for (int i = 0; i < n && st == CB_OK; i++) {
		double us = 0;

		cb_watchdog_phase(what, h->algo[ai]->name, a->count * cb_dtype_size(a->dt), i);
		st = CB_MPI(MPI_Barrier(be->world));
		if (st == CB_OK)
			st = be->ops->time_begin(be);
		if (st == CB_OK)
			st = h->algo[ai]->run(h->state[ai], a);
		if (st == CB_OK)
			st = be->ops->time_end(be, &us);
		if (times)
			times[i] = us;
	}
	if (st != CB_OK)
		cb_log("%s failed in %s at %zu B: %s", h->algo[ai]->name, what,
		       a->count * cb_dtype_size(a->dt), cb_status_str(st));
	return st;
}

/* Warm-up, then repeat x iters timed iterations; counts traffic and faults. */
static enum cb_status timed(struct cb_harness *h, size_t ai, const struct cb_run_args *a,
			    long *minflt)
{
	enum cb_status st;
	long f0;

	if (h->o->in_place) {
		st = cb_verify_fill_input(&h->verify, a->recv, a->count, a->dt, a->op);
		if (st != CB_OK)
			return st;
	}
	st = iterate(h, ai, a, "warm-up", h->o->warmup, NULL);
	cb_traffic_reset(h->be);
	f0 = minflt_now();
	for (int r = 0; r < h->o->repeat && st == CB_OK; r++)
		st = iterate(h, ai, a, "timed", h->o->iters, h->times + (size_t)r * h->o->iters);
	*minflt = minflt_now() - f0;
	return st;
}

/* One more iteration on fresh inputs, compared element by element. On rank 0
 * *wrong is the sum over ranks; *differ is set on every rank when outputs
 * differ between ranks. */
static enum cb_status check(struct cb_harness *h, size_t ai, const struct cb_run_args *a,
			    long long *wrong, int *differ)
{
	long long mine = 0;
	uint64_t hash = 0, hmin, hmax;
	enum cb_status st;

	if (h->o->in_place)
		st = cb_verify_fill_input(&h->verify, a->recv, a->count, a->dt, a->op);
	else
		st = cb_verify_poison(&h->verify, a->recv, a->count, a->dt);
	if (st == CB_OK)
		st = iterate(h, ai, a, "check", 1, NULL);
	if (st != CB_OK)
		return st;
	cb_watchdog_phase("compare", h->algo[ai]->name, a->count * cb_dtype_size(a->dt), -1);
	st = cb_verify_check(&h->verify, a->recv, a->count, a->dt, a->op, h->algo[ai]->result,
			     &mine, &hash);
	if (st == CB_OK)
		st = CB_MPI(MPI_Reduce(&mine, wrong, 1, MPI_LONG_LONG, MPI_SUM, 0, h->be->world));
	if (st == CB_OK)
		st = CB_MPI(MPI_Allreduce(&hash, &hmin, 1, MPI_UINT64_T, MPI_MIN, h->be->world));
	if (st == CB_OK)
		st = CB_MPI(MPI_Allreduce(&hash, &hmax, 1, MPI_UINT64_T, MPI_MAX, h->be->world));
	*differ = h->algo[ai]->result == CB_RESULT_ALLREDUCE && hmin != hmax;
	return st;
}

/* Max over ranks of each iteration, per-rank means, faults and traffic to rank 0. */
static enum cb_status gather(struct cb_harness *h, size_t ai, long minflt, double *flt_max)
{
	struct cb_backend *be = h->be;
	int k = h->o->repeat * h->o->iters;
	double mean = 0, flt = (double)minflt / k;
	uint64_t tx = 0, rx = 0;
	enum cb_status st;

	for (int i = 0; i < k; i++)
		mean += h->times[i] / k;
	st = CB_MPI(MPI_Reduce(h->times, h->tmax, k, MPI_DOUBLE, MPI_MAX, 0, be->world));
	if (st == CB_OK)
		st = CB_MPI(MPI_Gather(&mean, 1, MPI_DOUBLE, h->rank_time, 1, MPI_DOUBLE, 0, be->world));
	if (st == CB_OK)
		st = CB_MPI(MPI_Reduce(&flt, flt_max, 1, MPI_DOUBLE, MPI_MAX, 0, be->world));
	if (st != CB_OK || !h->algo[ai]->traffic_measured)
		return st;
	st = cb_traffic_collect(be, h->node_tx, h->node_rx);
	tx = h->node_tx[be->rank];
	rx = h->node_rx[be->rank];
	if (st == CB_OK)
		st = CB_MPI(MPI_Gather(&tx, 1, MPI_UINT64_T, h->tx, 1, MPI_UINT64_T, 0, be->world));
	if (st == CB_OK)
		st = CB_MPI(MPI_Gather(&rx, 1, MPI_UINT64_T, h->rx, 1, MPI_UINT64_T, 0, be->world));
	return st;
}

/* Per-allreduce traffic from the counters of k allreduces (rank 0). */
static void traffic_summary(struct cb_harness *h, size_t ai, struct cb_row *row)
{
	uint64_t k = (uint64_t)h->o->repeat * (uint64_t)h->o->iters;

	if (!h->algo[ai]->traffic_measured)
		return;
	row->traffic_measured = 1;
	for (int r = 0; r < row->nranks; r++) {
		if (h->tx[r] % k || h->rx[r] % k)
			snprintf(row->status, sizeof(row->status),
				 "error:traffic differs between iterations");
		h->tx[r] /= k;
		h->rx[r] /= k;
		row->tx_total += h->tx[r];
		if (h->tx[r] + h->rx[r] > row->txrx_max)
			row->txrx_max = h->tx[r] + h->rx[r];
	}
	row->tx = h->tx;
	row->rx = h->rx;
	row->imbalance = cb_imbalance(h->tx, h->rx, row->nranks);
}

/* Times, bandwidths and status on rank 0. */
static void summarize(struct cb_harness *h, size_t ai, struct cb_row *row)
{
	int iters = h->o->iters;
	double factor = h->algo[ai]->result == CB_RESULT_ALLREDUCE ?
				cb_allreduce_bus_factor(row->nranks) : NAN;

	cb_stats_compute(h->tmax, (size_t)(h->o->repeat * iters), &row->time_us);
	row->time_us_rep_min = row->time_us_median_rep_min = INFINITY;
	row->time_us_rep_max = row->time_us_median_rep_max = 0;
	for (int r = 0; r < h->o->repeat; r++) { /* each repeat's mean and median */
		struct cb_stats rs;

		cb_stats_compute(h->tmax + (size_t)r * iters, (size_t)iters, &rs);
		row->time_us_rep_min = fmin(row->time_us_rep_min, rs.mean);
		row->time_us_rep_max = fmax(row->time_us_rep_max, rs.mean);
		row->time_us_median_rep_min = fmin(row->time_us_median_rep_min, rs.median);
		row->time_us_median_rep_max = fmax(row->time_us_median_rep_max, rs.median);
	}
	row->algbw = cb_algbw_GBps(row->bytes, row->time_us.mean);
	row->busbw = row->algbw * factor;
	row->busbw_rep_min = cb_algbw_GBps(row->bytes, row->time_us_rep_max) * factor;
	row->busbw_rep_max = cb_algbw_GBps(row->bytes, row->time_us_rep_min) * factor;
	row->rank_time_us = h->rank_time;
	traffic_summary(h, ai, row);
}

enum cb_status cb_row_measure(struct cb_harness *h, size_t ai, size_t bytes, enum cb_dtype dt,
			      enum cb_op op, struct cb_row *row)
{
	struct cb_run_args a = { h->send, h->recv, bytes / cb_dtype_size(dt), dt, op };
	const char *why;
	long long wrong = 0;
	int differ = 0;
	long minflt = 0;
	enum cb_status st;

	row_init(h, ai, bytes, dt, op, row);
	why = h->algo[ai]->supports(h->be, dt, op, h->o->in_place);
	if (why || h->setup_error[ai][0]) {
		if (why)
			snprintf(row->status, sizeof(row->status), "skipped:%s", why);
		else
			snprintf(row->status, sizeof(row->status), "%s", h->setup_error[ai]);
		return CB_OK;
	}
	st = timed(h, ai, &a, &minflt);
	if (st == CB_OK)
		st = gather(h, ai, minflt, &row->minflt_per_iter);
	if (st == CB_OK && h->o->check)
		st = check(h, ai, &a, &wrong, &differ);
	if (st != CB_OK)
		return st;
	if (h->be->world_rank != 0)
		return CB_OK;
	summarize(h, ai, row);
	if (h->o->check) {
		row->wrong = wrong;
		if (wrong)
			snprintf(row->status, sizeof(row->status), "error:%lld wrong elements", wrong);
		else if (differ)
			snprintf(row->status, sizeof(row->status), "error:outputs differ across ranks");
	}
	return CB_OK;
}
