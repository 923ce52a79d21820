/* cb_row: the statistics of a measured row on rank 0 (contract in
 * cb_row.h): times over iterations and repeats, bandwidths (cb_stats.h:
 * nccl-tests' formulas) and traffic per allreduce. */
#include <math.h>

#include "cb_row.h"
#include "cb_stats.h"

/* Per-allreduce traffic from the counters of k allreduces, into the row's
 * own arrays. */
static void traffic_summary(const struct cb_measure *m, const struct cb_algo_slot *slot,
			    struct cb_row *row)
{
	uint64_t k = (uint64_t)m->o->repeat * (uint64_t)m->o->iters;
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

void cb_row_summarize(const struct cb_measure *m, const struct cb_algo_slot *slot,
		      struct cb_row *row)
{
	struct cb_summary *s = &row->s;
	double factor = slot->ops->desc->result == CB_RESULT_ALLREDUCE ?
				cb_allreduce_bus_factor(s->nranks) : NAN;
	struct cb_stats t;

	cb_stats_compute(m->tmax, (size_t)(m->o->repeat * m->o->iters), &t);
	s->time_us = t.mean;
	s->time_us_median = t.median;
	s->time_us_min = t.min;
	s->time_us_max = t.max;
	s->time_us_p90 = t.p90;
	s->time_us_p99 = t.p99;
	s->time_us_cv = t.cv;
	repeat_bands(m, s);
	s->algbw = cb_algbw_GBps(s->bytes, s->time_us);
	s->busbw = s->algbw * factor;
	s->busbw_rep_min = cb_algbw_GBps(s->bytes, s->time_us_rep_max) * factor;
	s->busbw_rep_max = cb_algbw_GBps(s->bytes, s->time_us_rep_min) * factor;
	row->measured = 1;
	traffic_summary(m, slot, row);
	if (row->acct)
		s->busy_imbalance = busy_imbalance(row->rank_busy_us, s->nranks);
}
