/* cb_model_lib: the library algorithms (mpi, nccl) in closed form, and the
 * names of the model's algorithms (contract in cb_model_lib.h).
 *
 * mpi: Open MPI 4.1.4's coll/tuned component, which serves MPI_Allreduce on
 * one host by default, picks an algorithm from the rank count and the message
 * size with a fixed table (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_allreduce_intra_dec_fixed, tag v4.1.4; commutative ops,
 * which every collbench op is). Its algorithms (ompi/mca/coll/base/
 * coll_base_allreduce.c) cost, with p' the largest power of two <= n and
 * Thakur, Rabenseifner and Gropp 2005's accounting per step:
 *   recursive doubling: lg p' steps exchanging S and reducing S, plus, when
 *     n is not a power of two, one step before (S in, reduced) and one after;
 *   ring (and segmented ring, which the table calls with segment size 0, the
 *     plain ring): 2(n-1) steps of one block, ceil(count/n) elements; below
 *     n elements Open MPI runs recursive doubling instead;
 *   Rabenseifner (recursive halving reduce-scatter, recursive doubling
 *     all-gather): 2 lg p' steps moving (p'-1)/p' S each way and reducing
 *     (p'-1)/p' S, plus two steps before (halves exchanged, S/2 reduced; S/2
 *     back) and one after (S) when n is not a power of two; below p' elements
 *     recursive doubling;
 *   nonoverlapping (reduce, then bcast): not modelled.
 * Open MPI moves bytes two-sided (they land in a buffer, then are reduced):
 * link and reduce terms add up.
 * nccl: modelled as NCCL's ring (2(n-1) steps of S/n), reducing as data
 * arrives (its reduce-scatter steps cost the slower of moving and reducing,
 * as collbench's one-sided ring); its tuner may choose
 * a tree, NVLS or CollNet and protocols (LL, LL128, Simple) the model does
 * not follow. Both are modelled on one host only, with the topology's
 * intra-host link; their per-rank traffic is not modelled (NaN). With more
 * ranks than CPUs (cb_model.h, time slicing; mpi and nccl alike) every step
 * waits for a message from one peer and every rank does the same work: each
 * step's bytes are q times a rank's (q ranks per CPU), and each step adds
 * q + 1 / CPUs to the waits term and the call's time divided by its steps,
 * up to the scheduler's slice, to wait_time (at wait_frac). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cb_model_lib.h"
#include "cb_model_tslice.h"

static const char *const algo_names[] = { "ps", "ring", "copy", "mpi", "nccl" };

int cb_model_algo_find(const char *name, enum cb_model_algo *out)
{
	for (int a = 0; a < 5; a++)
		if (strcmp(name, algo_names[a]) == 0) {
			*out = (enum cb_model_algo)a;
			return 0;
		}
	return -1;
}

const char *cb_model_algo_name(enum cb_model_algo a)
{
	return (unsigned)a < 5 ? algo_names[a] : "?";
}

enum ompi_alg { OMPI_NONOVERLAP = 2, OMPI_RDOUBLING = 3, OMPI_RING = 4, OMPI_SEGRING = 5,
		OMPI_RABENSEIFNER = 6 };

/* The commutative branch of the v4.1.4 table: for n < below, the first
 * (bytes < lt) entry wins; lt 0 ends a row (its alg is the "else"). */
static const struct {
	int below;
	struct { size_t lt; int alg; } e[7];
} ompi_table[] = {
	{ 4, { { 8, 4 }, { 4096, 3 }, { 8192, 4 }, { 16384, 3 }, { 65536, 4 }, { 262144, 5 },
	       { 0, 6 } } },
	{ 8, { { 16, 4 }, { 8192, 3 }, { 0, 6 } } },
	{ 16, { { 8192, 3 }, { 0, 6 } } },
	{ 32, { { 64, 5 }, { 4096, 3 }, { 0, 6 } } },
	{ 64, { { 128, 5 }, { 0, 6 } } },
	{ 128, { { 262144, 3 }, { 0, 6 } } },
	{ 256, { { 131072, 2 }, { 262144, 3 }, { 0, 6 } } },
	{ 512, { { 4096, 2 }, { 0, 6 } } },
	{ 2048, { { 2048, 2 }, { 16384, 3 }, { 0, 6 } } },
	{ 4096, { { 2048, 2 }, { 4096, 5 }, { 16384, 3 }, { 0, 6 } } },
	{ 1 << 30, { { 2048, 2 }, { 16384, 5 }, { 32768, 3 }, { 0, 6 } } },
};

/* Open MPI 4.1.4's choice for n ranks and bytes per rank (commutative op). */
static int ompi_choice(int n, size_t bytes)
{
	size_t i = 0, k = 0;

	while (n >= ompi_table[i].below)
		i++;
	while (ompi_table[i].e[k].lt && bytes >= ompi_table[i].e[k].lt)
		k++;
	return ompi_table[i].e[k].alg;
}

int cb_model_ompi_choice(int n, size_t bytes, size_t count)
{
	int alg = ompi_choice(n, bytes), pp = 1;

	while (2 * pp <= n)
		pp *= 2;
	if ((alg == OMPI_RING || alg == OMPI_SEGRING) && count < (size_t)n)
		alg = OMPI_RDOUBLING;
	if (alg == OMPI_RABENSEIFNER && count < (size_t)pp)
		alg = OMPI_RDOUBLING;
	return alg;
}

static void add(struct cb_model_terms *t, double msgs, double link, double red)
{
	t->msgs += msgs;
	t->link_bytes += link;
	t->reduce_bytes += red;
}

/* Terms of Open MPI's algorithm alg (after its own fall-backs); sets *what. */
static int ompi_terms(int alg, int n, size_t count, double esize, struct cb_model_terms *t,
		      const char **what)
{
	int lg = 0;
	double s = (double)count * esize, pp;

	while ((2 << lg) <= n)
		lg++;
	pp = (double)(1 << lg);
	if ((alg == OMPI_RING || alg == OMPI_SEGRING) && count < (size_t)n)
		alg = OMPI_RDOUBLING;
	if (alg == OMPI_RABENSEIFNER && count < (size_t)pp)
		alg = OMPI_RDOUBLING;
	if (alg == OMPI_RING || alg == OMPI_SEGRING) {
		double blk = ceil((double)count / n) * esize;

		add(t, 2.0 * (n - 1), 2.0 * (n - 1) * blk, (n - 1) * blk);
		*what = "mpi: Open MPI 4.1 tuned, ring";
	} else if (alg == OMPI_RDOUBLING) {
		add(t, lg, lg * s, lg * s);
		if (n > pp)
			add(t, 2, 2 * s, s);
		*what = "mpi: Open MPI 4.1 tuned, recursive doubling";
	} else if (alg == OMPI_RABENSEIFNER) {
		add(t, 2.0 * lg, 2 * (pp - 1) / pp * s, (pp - 1) / pp * s);
		if (n > pp)
			add(t, 3, 2 * s, s / 2);
		*what = "mpi: Open MPI 4.1 tuned, Rabenseifner";
	} else {
		*what = "mpi: Open MPI 4.1 tuned, nonoverlapping (reduce + bcast): not modelled";
		return -1;
	}
	return 0;
}

/* Seconds of a library call's terms on t's intra-host link. */
static double lib_time(const struct cb_topo *t, const struct cb_model_terms *m)
{
	return m->msgs * t->intra.alpha + m->link_bytes / t->intra.bw + m->reduce_bytes / t->gamma +
	       m->fused_bytes / fmin(t->intra.bw, cb_topo_fused(t));
}

enum cb_status cb_model_eval_lib(const struct cb_topo *t, const struct cb_model_case *c,
				 struct cb_model_result *r, char *why, size_t whylen)
{
	struct cb_model_result res = { .one_class = 1, .txrx_max = NAN, .txrx_min = NAN };
	double esize = (double)c->esize, s = (double)c->count * esize;
	double q = cb_model_ranks_per_cpu(t, c->n);

	if (c->n > t->ranks_per_host) {
		snprintf(why, whylen, "%s across hosts is not modelled", cb_model_algo_name(c->algo));
		return CB_ERR_UNSUPPORTED;
	}
	if (c->n == 1 || c->count == 0) {
		if (c->count > 0 && !c->in_place)
			add(&res.terms, 0, s, 0);
		res.what = "n = 1 or 0 bytes: at most a local copy";
	} else if (c->algo == CB_MODEL_NCCL) {
		double blk = ceil((double)c->count / c->n) * esize;

		/* NCCL's kernels reduce what arrives as it arrives: one-sided-like */
		add(&res.terms, 2.0 * (c->n - 1), (c->n - 1) * blk, 0);
		res.terms.fused_bytes = (c->n - 1) * blk;
		res.what = "nccl: modelled as a ring (tree, NVLS and protocols not modelled)";
	} else if (ompi_terms(ompi_choice(c->n, c->count * c->esize), c->n, c->count, esize,
			      &res.terms, &res.what) != 0) {
		snprintf(why, whylen, "%s", res.what);
		return CB_ERR_UNSUPPORTED;
	}
	res.terms.calls = res.terms.link_bytes > 0;
	if (c->n == 1 || c->count == 0) {
		res.time = res.terms.link_bytes / t->copy_bw;
		*r = res;
		return CB_OK;
	}
	res.time = lib_time(t, &res.terms);
	if (q > 0 && res.terms.msgs > 0) {
		double step = fmin(res.time / res.terms.msgs, cb_model_base_slice(t->cpus_per_host));

		res.terms.link_bytes *= q;
		res.terms.reduce_bytes *= q;
		res.terms.fused_bytes *= q;
		res.terms.waits = res.terms.msgs * (q + 1.0 / t->cpus_per_host);
		res.terms.wait_time = res.terms.msgs * step;
		res.time = lib_time(t, &res.terms) + res.terms.waits * t->switch_s +
			   res.terms.wait_time * t->wait_frac;
	}
	*r = res;
	return CB_OK;
}
