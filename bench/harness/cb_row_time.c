/* cb_row_time: busy, wait and barrier time of a row, its straggler, and
 * every rank's iterations for --json (contract in cb_row_time.h). */
#define _GNU_SOURCE
#include "cb_row_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cb_world.h"

/* Each rank's means sent to rank 0: busy, wait, barrier, active, busy CPU */
#define NCOL 5

/* MPI_DOUBLE_INT's layout, for MPI_MAXLOC */
struct val_rank {
	double v;
	int rank;
};

static double mean_of(const double *x, size_t k)
{
	double sum = 0;

	for (size_t i = 0; i < k; i++)
		sum += x[i];
	return k ? sum / (double)k : NAN;
}

/* Time not spent waiting for peers in iteration i: its time less its wait
 * where wait is measured, else its time. */
static double active(const struct cb_measure *m, int measured, size_t i)
{
	return measured ? m->times[i] - m->wait[i] : m->times[i];
}

/* The straggler columns on rank 0 from each iteration's slowest rank
 * (m->slowest) and each rank's mean active time act[w]. */
static void straggler_columns(const struct cb_measure *m, const double *act, size_t k,
			      struct cb_summary *s)
{
	int w = m->be->world_size, best = 0, *count = calloc((size_t)w, sizeof(int));
	double others = 0;

	if (!count || w < 2 || k == 0) {
		free(count);
		return;
	}
	for (size_t i = 0; i < k; i++)
		if (m->slowest[i] >= 0 && m->slowest[i] < w)
			count[m->slowest[i]]++;
	for (int r = 1; r < w; r++)
		if (count[r] > count[best])
			best = r;
	for (int r = 0; r < w; r++)
		if (r != best)
			others += act[r] / (w - 1);
	s->straggler_rank = best;
	s->straggler_share = (double)count[best] / (double)k;
	s->straggler_ratio = others > 0 ? act[best] / others : NAN;
	free(count);
}

/* Each iteration's slowest rank (MAXLOC of active time) into m->slowest on
 * rank 0. */
static enum cb_status slowest(struct cb_measure *m, int measured, size_t k)
{
	struct val_rank *in = calloc(k ? k : 1, sizeof(*in)), *out = calloc(k ? k : 1, sizeof(*out));
	enum cb_status st = CB_ERR_NOMEM;

	if (in && out) {
		for (size_t i = 0; i < k; i++) {
			in[i].v = active(m, measured, i);
			in[i].rank = m->be->world_rank;
		}
		st = cb_world_reduce(m->be, in, out, (int)k, MPI_DOUBLE_INT, MPI_MAXLOC, 0);
		for (size_t i = 0; st == CB_OK && i < k; i++)
			m->slowest[i] = out[i].rank;
	}
	free(in);
	free(out);
	return st;
}

/* With --json on rank 0: every rank's iterations into m->iters. */
static enum cb_status keep_iterations(struct cb_measure *m, int measured, size_t k)
{
	const struct cb_backend *be = m->be;
	int wu = m->o->warmup, ik = (int)k;
	enum cb_status st;

	st = cb_world_gather(be, m->times, ik, MPI_DOUBLE, m->all_time, 0);
	if (st == CB_OK)
		st = cb_world_gather(be, m->busy, ik, MPI_DOUBLE, m->all_busy, 0);
	if (st == CB_OK)
		st = cb_world_gather(be, m->wait, ik, MPI_DOUBLE, m->all_wait, 0);
	if (st == CB_OK)
		st = cb_world_gather(be, m->warm, wu, MPI_DOUBLE, m->all_warm, 0);
	if (st == CB_OK)
		st = cb_world_reduce(be, m->warm, m->warm_max, wu, MPI_DOUBLE, MPI_MAX, 0);
	if (st != CB_OK || m->be->world_rank != 0)
		return st;
	m->iters = (struct cb_iter_values){
		.k = ik, .warmup = wu, .nranks = m->be->world_size,
		.time_us = m->tmax, .warmup_us = m->warm_max,
		.rank_time_us = m->all_time, .rank_warmup_us = m->all_warm,
		.rank_busy_us = measured ? m->all_busy : NULL,
		.rank_wait_us = measured ? m->all_wait : NULL,
		.slowest = m->slowest,
	};
	return CB_OK;
}

enum cb_status cb_row_gather_time(struct cb_measure *m, const struct cb_algo_slot *slot,
				  struct cb_row *row)
{
	struct cb_backend *be = m->be;
	size_t k = (size_t)m->o->repeat * (size_t)m->o->iters, w = (size_t)be->world_size;
	int measured = be->acct.on && slot->ops->desc->time_measured;
	double mine[NCOL], *all = calloc(NCOL * w, sizeof(double)), *act = all + 3 * w;
	enum cb_status st;

	if (!all)
		return CB_ERR_NOMEM;
	for (size_t i = 0; !measured && i < k; i++)
		m->busy[i] = m->wait[i] = m->busy_cpu[i] = NAN;
	mine[0] = mean_of(m->busy, k);
	mine[1] = mean_of(m->wait, k);
	mine[2] = mean_of(m->barrier, k);
	mine[3] = 0;
	for (size_t i = 0; i < k; i++)
		mine[3] += active(m, measured, i) / (double)k;
	mine[4] = mean_of(m->busy_cpu, k);
	/* transposed on rank 0: all[c * w + r] = rank r's mine[c] */
	st = cb_world_gather(be, mine, NCOL, MPI_DOUBLE, be->world_rank == 0 ? all : NULL, 0);
	if (st == CB_OK)
		st = slowest(m, measured, k);
	if (st == CB_OK && m->keep_iters)
		st = keep_iterations(m, measured, k);
	if (st == CB_OK && be->world_rank == 0) {
		double *t = malloc(NCOL * w * sizeof(double));

		if (!t) {
			free(all);
			return CB_ERR_NOMEM;
		}
		for (size_t r = 0; r < w; r++)
			for (size_t c = 0; c < NCOL; c++)
				t[c * w + r] = all[r * NCOL + c];
		memcpy(all, t, NCOL * w * sizeof(double));
		free(t);
		memcpy(row->rank_busy_us, all, w * sizeof(double));
		memcpy(row->rank_wait_us, all + w, w * sizeof(double));
		memcpy(row->rank_barrier_us, all + 2 * w, w * sizeof(double));
		memcpy(row->rank_busy_cpu_us, all + 4 * w, w * sizeof(double));
		row->acct = measured;
		row->kept = m->keep_iters;
		straggler_columns(m, act, k, &row->s);
	}
	free(all);
	return st;
}

/* MPI_Ibarrier completed by MPI_Test (cb_world_wait), which progresses (and,
 * oversubscribed, yields) as MPI_Barrier does, but lets a rank whose peer
 * died see the abort flag (the others get mpirun's SIGTERM) instead of
 * blocking until SIGKILL. */
enum cb_status cb_row_barrier(struct cb_backend *be, uint64_t *ns)
{
	uint64_t t0 = cb_acct_now(be);
	MPI_Request req;
	enum cb_status st = CB_MPI(MPI_Ibarrier(be->world, &req));

	if (st == CB_OK)
		st = cb_world_wait(be, &req);
	if (st != CB_OK)
		return st;
	*ns = t0 ? cb_acct_now(be) - t0 : 0;
	return st;
}

enum cb_status cb_row_calls(struct cb_measure *m, const struct cb_algo_slot *slot,
			    const struct cb_run_args *a, int ncalls)
{
	struct cb_backend *be = m->be;
	const struct cb_options *o = m->o;
	enum cb_status st = CB_OK;
	uint64_t ns;

	for (int c = 0; c < ncalls && st == CB_OK; c++) {
		st = m->graph ? cb_row_graph_run(m) : slot->ops->run(slot->state, a);
		if (st == CB_OK && (o->blocking == 1 || o->blocking == 2) && be->ops->sync)
			st = be->ops->sync(be);
		if (st == CB_OK && o->blocking == 1)
			st = cb_row_barrier(be, &ns);
	}
	return st;
}

double cb_row_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

/* The call's traffic: the counters' difference across the capture (the
 * bytes are counted where a call enqueues them, once, while recording). */
static void graph_traffic(struct cb_measure *m, int after)
{
	for (int r = 0; r < m->be->world_size; r++) {
		m->graph_tx[r] = after ? m->be->tx[r] - m->graph_tx[r] : m->be->tx[r];
		m->graph_rx[r] = after ? m->be->rx[r] - m->graph_rx[r] : m->be->rx[r];
	}
}

/* This rank's capture of one call: *g on success; why filled where the
 * backend refused it. */
static enum cb_status capture(struct cb_measure *m, const struct cb_algo_slot *slot,
			      const struct cb_run_args *a, void **g)
{
	struct cb_backend *be = m->be;
	enum cb_status st = be->ops->graph_begin(be), run;

	*g = NULL;
	if (st != CB_OK)
		return st;
	graph_traffic(m, 0);
	run = slot->ops->run(slot->state, a);
	graph_traffic(m, 1);
	st = be->ops->graph_end(be, g, m->graph_why, sizeof(m->graph_why));
	if (st == CB_OK && run != CB_OK) {
		be->ops->graph_free(be, *g);
		*g = NULL;
		st = run;
	}
	return st;
}

enum cb_status cb_row_graph_make(struct cb_measure *m, const struct cb_algo_slot *slot,
				 const struct cb_run_args *a)
{
	struct cb_backend *be = m->be;
	size_t w = (size_t)be->world_size;
	int bad, any = 1;
	void *g = NULL;
	enum cb_status st;

	m->graph_why[0] = 0;
	m->graph_tx = calloc(w, sizeof(uint64_t));
	m->graph_rx = calloc(w, sizeof(uint64_t));
	st = m->graph_tx && m->graph_rx ? capture(m, slot, a, &g) : CB_ERR_NOMEM;
	if (st == CB_ERR_UNSUPPORTED && m->graph_why[0])
		cb_log("%s: -G: no CUDA graph of a call: %s", slot->ops->desc->name, m->graph_why);
	bad = st != CB_OK;
	if (cb_world_allreduce(be, &bad, &any, 1, MPI_INT, MPI_MAX) != CB_OK)
		st = CB_ERR_MPI;
	if (st == CB_OK && !any) {
		m->graph = g;
		m->launches = m->o->cudagraph;
		return CB_OK;
	}
	be->ops->graph_free(be, g);
	if (st == CB_OK || (st == CB_ERR_UNSUPPORTED && !m->graph_why[0]))
		snprintf(m->graph_why, sizeof(m->graph_why), "a peer's CUDA graph of a call was "
			 "refused (its reason on stderr)");
	return st == CB_OK || st == CB_ERR_UNSUPPORTED ? CB_ERR_UNSUPPORTED : st;
}

enum cb_status cb_row_graph_run(struct cb_measure *m)
{
	struct cb_backend *be = m->be;
	enum cb_status st = CB_OK;

	for (int i = 0; i < m->launches && st == CB_OK; i++)
		st = be->ops->graph_launch(be, m->graph);
	/* one operation's bytes, as the call's time is one operation's */
	for (int r = 0; st == CB_OK && r < be->world_size; r++) {
		be->tx[r] += m->graph_tx[r];
		be->rx[r] += m->graph_rx[r];
	}
	return st;
}

void cb_row_graph_free(struct cb_measure *m)
{
	if (m->graph)
		m->be->ops->graph_free(m->be, m->graph);
	free(m->graph_tx);
	free(m->graph_rx);
	m->graph = NULL;
	m->graph_tx = m->graph_rx = NULL;
	m->launches = 0;
}
