/* cb_model_fit: least squares for alpha, beta, gamma (contract in
 * cb_model_fit.h): the problem (the parameters, the design matrix, which
 * parameters may be held at 0), tiers, the fit and its uncertainty; the
 * solver: cb_model_lsq.c. Parameters x = (overhead, alpha, 1/beta_1..K,
 * 1/gamma_1..K, 1/fused_1..K, 1/fresh), rows scaled by their measured time
 * (relative error). A one-sided step's fused bytes cost max(1/beta, 1/fused) each:
 * 1/fused where that is the larger, else 1/beta (the tier's bit in
 * fused_at_beta), so the problem stays linear. */
#include "cb_model_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model_lsq.h"
#include "cb_model_params.h"
#include "cb_status.h"

#define MAXP (3 + 3 * CB_FIT_MAX_TIERS) /* the parameters, at most */
#define IX_T0 0                          /* per-call overhead, s */
#define IX_A 1                           /* alpha, s */
#define IX_U(pb, t) (2 + (t))            /* 1/beta of tier t, s/B */
#define IX_V(pb, t) (2 + (pb)->k + (t))  /* 1/gamma of tier t, s/B */
#define IX_W(pb, t) (2 + 2 * (pb)->k + (t)) /* 1/fused rate of tier t, s/B */
#define IX_F(pb) (2 + 3 * (pb)->k)       /* 1/fresh, the fresh reads' extra, s/B */
/* The most variance inflation of 1/fresh that counts as determined by the
 * rows: its standard error at most ~30x what an independent column's would
 * be (a variance inflation of 10 is the usual warning, 1000 near-collinear). */
#define FRESH_VIF_MAX 1000.0
/* The most tier boundaries the automatic search chooses among (candidates):
 * every measured size of a factor-2 sweep of 1 B .. 4 GiB. The search fits
 * 1 + C + C(C, 2) tier sets for up to three tiers: at most 529, whatever
 * the number of sizes. */
#define CAND_MAX 32

/* A problem: the rows, the tier boundaries, which parameters it has. */
struct prob {
	const struct cb_fit_obs *obs;
	size_t m;
	int k;                    /* tiers */
	double brk[CB_FIT_MAX_TIERS - 1];
	int fit_gamma;
	int no_fresh;             /* the fresh reads' extra left out (cb_fit_opts) */
	int with_t0;              /* some row sends no message (copy, n = 1) */
	unsigned has_fused;       /* bit t: tier t has rows with fused bytes */
	unsigned has_reduce;      /* bit t: tier t has rows with reduce bytes */
	unsigned fused_at_beta;   /* bit t: tier t's fused bytes cost 1/beta */
	int has_fresh;            /* some row reads fresh bytes (cb_model_terms) */
	int drop_fresh;           /* their extra is not determined: held at 0 (free) */
	int *tier_of;             /* [m] */
	size_t tried;             /* tier sets fitted (search) */
};

_Static_assert(MAXP <= CB_LSQ_MAXP, "the solver takes every parameter of the fit");

/* Mask of the parameters the problem has, and their number. */
static unsigned present(const struct prob *pb)
{
	unsigned m = 1u << IX_A;

	if (pb->with_t0)
		m |= 1u << IX_T0;
	for (int t = 0; t < pb->k; t++) {
		m |= 1u << IX_U(pb, t);
		if (pb->fit_gamma && (pb->has_reduce >> t & 1))
			m |= 1u << IX_V(pb, t);
		if (pb->fit_gamma && (pb->has_fused >> t & 1) && !(pb->fused_at_beta >> t & 1))
			m |= 1u << IX_W(pb, t);
	}
	if (pb->has_fresh && !pb->drop_fresh)
		m |= 1u << IX_F(pb);
	return m;
}

static int np(const struct prob *pb)
{
	return __builtin_popcount(present(pb));
}

/* Tier of a message size for boundaries brk[0..k-2]. */
static int tier_index(const double *brk, int k, double bytes)
{
	int i = 0;

	while (i < k - 1 && bytes >= brk[i])
		i++;
	return i;
}

/* Row i of the design for time t: coefficients of x, divided by t. */
static void design_row(const struct prob *pb, size_t i, double t, double *row)
{
	const struct cb_model_terms *tm = &pb->obs[i].terms;
	int tr = pb->tier_of[i];
	unsigned pr = present(pb);
	int own = pr >> IX_W(pb, tr) & 1; /* fused bytes at their own rate */

	memset(row, 0, MAXP * sizeof(double));
	row[IX_T0] = tm->calls / t;
	row[IX_A] = tm->msgs / t;
	row[IX_U(pb, tr)] = (tm->link_bytes + (own ? 0 : tm->fused_bytes)) / t;
	if (pr >> IX_V(pb, tr) & 1)
		row[IX_V(pb, tr)] = tm->reduce_bytes / t;
	if (own)
		row[IX_W(pb, tr)] = tm->fused_bytes / t;
	if (pr >> IX_F(pb) & 1)
		row[IX_F(pb)] = tm->fresh_bytes / t;
}

/* Which parameters the active-set search may hold at 0: the overhead, alpha,
 * every 1/gamma and 1/fresh; a bandwidth must come out of the rows. */
static unsigned clampable(const struct prob *pb)
{
	unsigned c = 1u << IX_A | 1u << IX_T0 | 1u << IX_F(pb);

	for (int t = 0; t < pb->k; t++)
		c |= 1u << IX_V(pb, t);
	return c & present(pb);
}

/* The least time per byte a fit may hold, s/B: the fastest rate a fit file
 * may hold (cb_fit_params_check), CB_MODEL_MAX_GBPS. */
#define U_MIN (1 / (CB_MODEL_MAX_GBPS * 1e9))

/* The rows' times in column `which` (0 median, 1 fastest, 2 slowest repeat)
 * as the design A (m x MAXP) and its right-hand side b: 1 less the part of
 * the columns in hold, which are held at U_MIN. Returns -2 out of memory. */
static int design(const struct prob *pb, int which, unsigned hold, double **A, double **b)
{
	*A = malloc(pb->m * (MAXP + 1) * sizeof(double));
	if (!*A)
		return -2;
	*b = *A + pb->m * MAXP;
	for (size_t i = 0; i < pb->m; i++) {
		const struct cb_fit_obs *o = &pb->obs[i];
		double t = which == 1 && o->t_lo > 0 ? o->t_lo : which == 2 && o->t_hi > 0 ? o->t_hi
											 : o->t;
		double *row = *A + i * MAXP;

		design_row(pb, i, t, row);
		(*b)[i] = 1;
		for (int j = 0; j < MAXP; j++)
			if (hold >> j & 1)
				(*b)[i] -= row[j] * U_MIN;
	}
	return 0;
}

/* Non-negative least squares on time column `which` (design): alpha, the
 * overhead and every 1/gamma may be held at 0, each 1/beta must come out > 0;
 * the columns in hold are held at U_MIN, those in drop at 0 (cb_lsq_nnls:
 * the same returns, with covd, *used and *bad over the parameters above;
 * neither hold nor drop is in *used; x0 the unconstrained solution). */
static int nnls(const struct prob *pb, int which, unsigned hold, unsigned drop, double *x,
		double *rss, double *covd, unsigned *used, int *bad, double *x0)
{
	unsigned use = present(pb) & ~hold & ~drop;
	double *A, *b;
	int rc = design(pb, which, hold, &A, &b);

	if (rc != 0)
		return rc;
	rc = cb_lsq_nnls(A, b, pb->m, MAXP, use, clampable(pb) & use, x, rss, covd, used, bad,
			 x0);
	for (int j = 0; rc == 0 && j < MAXP; j++)
		if (hold >> j & 1)
			x[j] = U_MIN;
	free(A);
	return rc;
}

/* The rates that the rows do not determine, as a mask of columns. A tier
 * whose beta or fused rate the unconstrained least squares (x0) puts beyond
 * any machine's (a time per byte below U_MIN: 0 or negative) is suspect;
 * where the fit with the suspect tiers' times per byte taken out (beta and
 * fused at the bound, gamma free) is no worse than the fit found (rc, rss,
 * used: nnls's result, rc -3 none), their times do not grow with the bytes
 * and their rates are no measured rates. Returns 0 where all are
 * determined, or where nnls's solution is the unconstrained one
 * (cb_fit_params_check names a rate beyond the bound). */
static unsigned at_bound(const struct prob *pb, const double *x0, int rc, double rss,
			 unsigned used)
{
	double x[MAXP], cd[MAXP], r2;
	unsigned hold = 0, drop = 0, u2, pr = present(pb);
	int bad;

	if (rc == 0 && used == pr)
		return 0;
	for (int t = 0; t < pb->k; t++) {
		unsigned rates = (1u << IX_U(pb, t) | 1u << IX_W(pb, t)) & pr;

		for (int j = 0; j < MAXP; j++)
			if ((rates >> j & 1) && !(x0[j] >= U_MIN)) {
				hold |= rates;
				drop |= 1u << IX_V(pb, t) & pr;
			}
	}
	if (hold && nnls(pb, 0, hold, drop, x, &r2, cd, &u2, &bad, NULL) == 0 &&
	    (rc != 0 || r2 <= rss))
		return hold;
	return 0;
}

/* "alpha", "beta of tier 2 (from 1048576 bytes)", ... for messages. */
static void param_name(const struct prob *pb, int j, char *buf, size_t len)
{
	int t = j < 2 ? 0 : (j - 2) % pb->k;
	char range[64] = "";

	if (j < 2 || j == IX_F(pb)) {
		snprintf(buf, len, "%s", j == IX_A ? "alpha" : j == IX_T0 ? "the per-call overhead"
				     : "the fresh reads' rate (fresh)");
		return;
	}
	if (pb->k > 1)
		snprintf(range, sizeof(range), " of tier %d (from %.0f bytes)", t + 1,
			 t ? pb->brk[t - 1] : 0.0);
	snprintf(buf, len, "%s%s", j < IX_V(pb, 0) ? "beta" : j < IX_W(pb, 0) ? "gamma"
				   : "the one-sided reduce rate (fused)", range);
}

static enum cb_status explain(const struct prob *pb, int rc, int bad, char *why, size_t whylen)
{
	char name[96];

	if (rc == -2)
		return CB_ERR_NOMEM;
	param_name(pb, bad < 0 ? IX_U(pb, 0) : bad, name, sizeof(name));
	if (rc == -4)
		snprintf(why, whylen, "%s is not determined: the rows' times do not grow with "
			 "their bytes, and a fit with no time per byte in them (beta at its bound, "
			 "%g GB/s) fits them as well as any bandwidth (--min-bytes leaves "
			 "latency-bound sizes out)", name, CB_MODEL_MAX_GBPS);
	else if (rc == -3)
		snprintf(why, whylen, "%s comes out negative (a time per byte below 0): the rows "
			 "are too noisy or too few sizes cover it", name);
	else if (bad < 2)
		snprintf(why, whylen, "%s is not determined: no row's message count varies "
			 "independently of its other terms (add small messages, or copy rows)", name);
	else if (bad < IX_V(pb, 0))
		snprintf(why, whylen, "%s is not determined: its rows' bytes move in step with "
			 "their message counts (add more message sizes)", name);
	else if (bad < IX_W(pb, 0))
		snprintf(why, whylen, "%s is not determined: every row reduces the same multiple "
			 "of the bytes it moves (e.g. one algorithm at one rank count); add copy "
			 "rows or another rank count, or leave gamma out (--no-gamma)", name);
	else
		snprintf(why, whylen, "%s is not determined: every row's bytes that move and "
			 "reduce at once come with a fixed multiple of bytes that only move (e.g. "
			 "one algorithm); add copy rows or another algorithm, or leave gamma out "
			 "(--no-gamma)", name);
	return CB_ERR_ARG;
}

/* Checks that each tier has rows of two sizes and the problem enough rows. */
static enum cb_status check_tiers(const struct prob *pb, char *why, size_t whylen)
{
	for (int t = 0; t < pb->k; t++) {
		double first = 0;
		int sizes = 0;

		for (size_t i = 0; i < pb->m && sizes < 2; i++) {
			if (pb->tier_of[i] != t)
				continue;
			if (sizes == 0)
				first = pb->obs[i].bytes;
			if (sizes == 0 || pb->obs[i].bytes != first)
				sizes++;
		}
		if (sizes < 2) {
			snprintf(why, whylen, "tier %d (from %.0f bytes) holds %s: bandwidth cannot "
				 "be told from latency", t + 1, t ? pb->brk[t - 1] : 0.0,
				 sizes ? "one message size" : "no rows");
			return CB_ERR_ARG;
		}
	}
	if (pb->m < (size_t)np(pb) + 2) {
		snprintf(why, whylen, "too few rows: %zu for %d parameters (need at least %d)", pb->m,
			 np(pb), np(pb) + 2);
		return CB_ERR_ARG;
	}
	return CB_OK;
}

static double inv_or_inf(double u)
{
	return u > 0 ? 1 / u : INFINITY;
}

/* The fresh reads' rate of solution x: free where the fit held it at 0,
 * or where it came out faster than any rate a fit may hold (numerical
 * noise around a 0 that the rows ask for). */
static double fresh_of(const struct prob *pb, const double *x, unsigned used)
{
	double u = x[IX_F(pb)];

	return (used >> IX_F(pb) & 1) && u * CB_MODEL_MAX_GBPS * 1e9 > 1 ? 1 / u : INFINITY;
}

/* The fused rate of tier t: its own, beta where the fit put fused bytes at
 * beta, NaN where no row has fused bytes or gamma is not fitted. */
static void fused_of(const struct prob *pb, const double *x, int t, double *out)
{
	if (!pb->fit_gamma || !(pb->has_fused >> t & 1))
		*out = NAN;
	else if (pb->fused_at_beta >> t & 1)
		*out = 1 / x[IX_U(pb, t)];
	else
		*out = 1 / x[IX_W(pb, t)];
}

/* The tier whose gamma tier t takes: its own where some row of it reduces
 * bytes apart from moving them (one-sided plans fuse most of their reduces
 * with moving: fused bytes), else the nearest tier below that has such rows,
 * else the nearest above; t itself (1/gamma 0: free) when none has. */
static int gamma_tier(const struct prob *pb, int t)
{
	for (int d = 0; d < pb->k; d++) {
		if (t - d >= 0 && (pb->has_reduce >> (t - d) & 1))
			return t - d;
		if (t + d < pb->k && (pb->has_reduce >> (t + d) & 1))
			return t + d;
	}
	return t;
}

/* Fills p from the solution x (and standard errors from covd and rss). */
static void fill_params(const struct prob *pb, const double *x, const double *covd, double rss,
			unsigned used, struct cb_fit_params *p)
{
	size_t dof = pb->m - (size_t)__builtin_popcount(used);
	double s2 = dof > 0 ? rss / (double)dof : NAN;

	memset(p, 0, sizeof(*p));
	p->ntiers = pb->k;
	p->nobs = pb->m;
	p->gamma_fitted = pb->fit_gamma;
	p->overhead = x[IX_T0];
	p->overhead_se = used & (1u << IX_T0) ? sqrt(s2 * covd[IX_T0]) : NAN;
	p->alpha = x[IX_A];
	p->alpha_se = used & (1u << IX_A) ? sqrt(s2 * covd[IX_A]) : NAN;
	p->fresh = fresh_of(pb, x, used);
	p->fresh_se = isfinite(p->fresh)
			      ? sqrt(s2 * covd[IX_F(pb)]) / (x[IX_F(pb)] * x[IX_F(pb)])
			      : NAN;
	for (int t = 0; t < pb->k; t++) {
		struct cb_fit_tier *tr = &p->tier[t];
		int ju = IX_U(pb, t), jv = IX_V(pb, t);

		tr->lo = t ? pb->brk[t - 1] : 0;
		tr->hi = t < pb->k - 1 ? pb->brk[t] : INFINITY;
		tr->beta = 1 / x[ju];
		tr->beta_se = sqrt(s2 * covd[ju]) / (x[ju] * x[ju]);
		tr->gamma = pb->fit_gamma ? inv_or_inf(x[IX_V(pb, gamma_tier(pb, t))]) : INFINITY;
		tr->gamma_se = pb->fit_gamma && (used & (1u << jv)) && x[jv] > 0
				       ? sqrt(s2 * covd[jv]) / (x[jv] * x[jv])
				       : NAN;
		fused_of(pb, x, t, &tr->fused);
		tr->fused_se = used & (1u << IX_W(pb, t))
				       ? sqrt(s2 * covd[IX_W(pb, t)]) / (x[IX_W(pb, t)] * x[IX_W(pb, t)])
				       : NAN;
		for (size_t i = 0; i < pb->m; i++)
			tr->nobs += pb->tier_of[i] == t;
	}
}

/* The fit on the repeats' fastest (which 1) and slowest (2) times: fills the
 * _rep[which - 1] bands; NaN where no row has repeats or the fit fails. */
static void fit_repeats(const struct prob *pb, struct cb_fit_params *p)
{
	int have = 0;

	for (size_t i = 0; i < pb->m; i++)
		have |= pb->obs[i].t_lo > 0 && pb->obs[i].t_hi > 0;
	for (int w = 1; w <= 2; w++) {
		double x[MAXP], cd[MAXP], rss;
		unsigned used;
		int bad, ok = have && nnls(pb, w, 0, 0, x, &rss, cd, &used, &bad, NULL) == 0;

		p->overhead_rep[w - 1] = ok ? x[IX_T0] : NAN;
		p->alpha_rep[w - 1] = ok ? x[IX_A] : NAN;
		p->fresh_rep[w - 1] = ok ? fresh_of(pb, x, used) : NAN;
		for (int t = 0; t < pb->k; t++) {
			p->tier[t].beta_rep[w - 1] = ok ? 1 / x[IX_U(pb, t)] : NAN;
			p->tier[t].gamma_rep[w - 1] =
				ok && pb->fit_gamma ? inv_or_inf(x[IX_V(pb, t)]) : NAN;
			p->tier[t].fused_rep[w - 1] = NAN;
			if (ok)
				fused_of(pb, x, t, &p->tier[t].fused_rep[w - 1]);
		}
	}
}

/* The fit as a result: what cb_fit_params_check refuses is no result (the
 * readers of the fit file would refuse it), with the likely cause. */
static enum cb_status check_result(const struct cb_fit_params *p, char *why, size_t whylen)
{
	char reason[256];

	if (cb_fit_params_check(p, reason, sizeof(reason)) == CB_OK)
		return CB_OK;
	return cb_refuse(why, whylen, "the fitted parameters are no machine's (%s): the rows' "
			 "times do not determine them (times that do not grow with message "
			 "size give such a bandwidth; --min-bytes leaves latency-bound sizes out)",
			 reason);
}

/* The fresh column's variance inflation in solution (covd, used): its
 * (A^T A)^-1 diagonal times its squared norm, 1 for a column orthogonal to
 * the rest; 0 where the column is not in use. */
static double fresh_vif(const struct prob *pb, const double *covd, unsigned used)
{
	double n2 = 0;

	if (!(used >> IX_F(pb) & 1))
		return 0;
	for (size_t i = 0; i < pb->m; i++) {
		double a = pb->obs[i].terms.fresh_bytes / pb->obs[i].t;

		n2 += a * a;
	}
	return covd[IX_F(pb)] * n2;
}

/* Fits with pb's tiers; *rss the relative residual sum of squares. A tier
 * whose fused rate comes out faster than a copy has its fused bytes refitted
 * at beta (moving bounds such a step), at most once per tier. Fresh bytes
 * that move in step with the rest (ps and the ring alone: the bytes they
 * read fresh are their fused bytes but for the pipeline's ends) leave their
 * extra undetermined (a variance inflation above FRESH_VIF_MAX): it is held
 * at 0 (free) and the fit made again. A rate whose best fit is at the bound
 * (at_bound) is refused, not replaced by a worse fit that holds the overhead
 * or alpha at 0. */
static enum cb_status fit_fixed(struct prob *pb, struct cb_fit_params *p, double *rss,
				char *why, size_t whylen)
{
	double x[MAXP], cd[MAXP], x0[MAXP];
	unsigned used, again;
	int bad = -1, rc;
	enum cb_status st;

	pb->has_fused = pb->has_reduce = pb->fused_at_beta = 0;
	pb->has_fresh = 0;
	pb->drop_fresh = pb->no_fresh;
	for (size_t i = 0; i < pb->m; i++) {
		pb->has_fresh |= pb->obs[i].terms.fresh_bytes > 0;
		pb->tier_of[i] = tier_index(pb->brk, pb->k, pb->obs[i].bytes);
		if (pb->obs[i].terms.fused_bytes > 0)
			pb->has_fused |= 1u << pb->tier_of[i];
		if (pb->obs[i].terms.reduce_bytes > 0)
			pb->has_reduce |= 1u << pb->tier_of[i];
	}
	st = check_tiers(pb, why, whylen);
	if (st != CB_OK)
		return st;
	do {
		unsigned hold;

		rc = nnls(pb, 0, 0, 0, x, rss, cd, &used, &bad, x0);
		if (!pb->drop_fresh && ((rc == -1 && bad == IX_F(pb)) ||
					(rc == 0 && fresh_vif(pb, cd, used) > FRESH_VIF_MAX))) {
			pb->drop_fresh = 1;
			again = 1;
			continue;
		}
		hold = rc == 0 || rc == -3 ? at_bound(pb, x0, rc, *rss, used) : 0;
		if (hold)
			rc = -4, bad = __builtin_ctz(hold);
		if (rc != 0)
			return explain(pb, rc, bad, why, whylen);
		again = 0;
		for (int t = 0; t < pb->k; t++)
			if ((used >> IX_W(pb, t) & 1) && x[IX_W(pb, t)] < x[IX_U(pb, t)])
				again |= 1u << t;
		pb->fused_at_beta |= again;
	} while (again);
	fill_params(pb, x, cd, *rss, used, p);
	return CB_OK;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void cb_fit_topo(const struct cb_fit_params *p, double bytes, struct cb_topo *t)
{
	const struct cb_fit_tier *tr = cb_fit_tier_of(p, bytes);

	t->intra.alpha = p->alpha;
	t->intra.bw = tr->beta;
	t->copy_bw = tr->beta;
	t->gamma = tr->gamma;
	t->fused_bw = tr->fused > 0 ? tr->fused : 0;
	t->fresh_bw = p->fresh > 0 && isfinite(p->fresh) ? p->fresh : 0;
	t->switch_s = p->switch_s;
	t->wait_frac = p->wait_frac;
}

double cb_fit_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The distinct message sizes of the rows, ascending; returns their count. */
static size_t distinct_sizes(const struct cb_fit_obs *obs, size_t m, double *d)
{
	size_t nd = 0;

	for (size_t i = 0; i < m; i++)
		d[i] = obs[i].bytes;
	qsort(d, m, sizeof(double), cmp_double);
	for (size_t i = 0; i < m; i++)
		if (nd == 0 || d[i] != d[nd - 1])
			d[nd++] = d[i];
	return nd;
}

/* The boundaries the automatic search chooses among, ascending, into c (at
 * most CAND_MAX): every measured size but the smallest (d, nd: the distinct
 * sizes) where there are up to CAND_MAX of them, else the first measured
 * size at or above each of CAND_MAX sizes spread evenly in log size from the
 * second smallest to the largest (a linear-step sweep's many sizes: fewer at
 * its small end, where the steps are wide in log size). Returns their
 * count. */
static size_t candidates(const double *d, size_t nd, double *c)
{
	size_t nc = 0, i = 1;
	double lo, hi;

	if (nd < 2)
		return 0;
	if (nd - 1 <= CAND_MAX) {
		memcpy(c, d + 1, (nd - 1) * sizeof(double));
		return nd - 1;
	}
	lo = log(d[1]), hi = log(d[nd - 1]);
	for (int j = 0; j < CAND_MAX; j++) {
		double target = exp(lo + (hi - lo) * j / (CAND_MAX - 1)) * (1 - 1e-12);

		while (i < nd - 1 && d[i] < target)
			i++;
		if (nc == 0 || c[nc - 1] != d[i])
			c[nc++] = d[i];
	}
	return nc;
}

/* Tries every choice of k - 1 boundaries among the candidates c[0..nc-1]
 * and keeps the lowest BIC in *best (score *bic); counts the tier sets
 * fitted in pb->tried. Returns CB_ERR_NOMEM or CB_OK. */
static enum cb_status search(struct prob *pb, const double *c, size_t nc, int k,
			     struct cb_fit_params *best, double *bic, char *why, size_t whylen)
{
	size_t idx[CB_FIT_MAX_TIERS] = { 0 };
	int nb = k - 1;

	pb->k = k;
	if (nb > (int)nc)
		return CB_OK; /* not enough sizes for k tiers */
	for (int i = 0; i < nb; i++)
		idx[i] = (size_t)i;
	for (;;) {
		struct cb_fit_params p;
		double rss, score;
		int i;

		for (i = 0; i < nb; i++)
			pb->brk[i] = c[idx[i]];
		enum cb_status st = fit_fixed(pb, &p, &rss, why, whylen);

		pb->tried++;
		if (st == CB_ERR_NOMEM)
			return st;
		score = (double)pb->m * log(fmax(rss, 1e-30 * (double)pb->m) / (double)pb->m) +
			np(pb) * log((double)pb->m);
		if (st == CB_OK && score < *bic) {
			*bic = score;
			*best = p;
		}
		for (i = nb - 1; i >= 0 && idx[i] == nc - (size_t)(nb - i); i--)
			;
		if (i < 0)
			return CB_OK;
		idx[i]++;
		for (int j = i + 1; j < nb; j++)
			idx[j] = idx[j - 1] + 1;
	}
}

/* Modelled seconds of terms at message size bytes under p (time slicing's
 * waits at p->switch_s and wait_time at p->wait_frac). */
static double fit_time(const struct cb_fit_params *p, double bytes, const struct cb_model_terms *t)
{
	const struct cb_fit_tier *tr = cb_fit_tier_of(p, bytes);
	double f = isnan(tr->fused) ? fmin(tr->beta, tr->gamma) : fmin(tr->beta, tr->fused);

	return t->calls * p->overhead + t->msgs * p->alpha + t->link_bytes / tr->beta +
	       t->reduce_bytes / tr->gamma + t->fused_bytes / f + t->fresh_bytes / p->fresh +
	       t->waits * p->switch_s + t->wait_time * p->wait_frac;
}

static void fit_errors(const struct cb_fit_obs *obs, size_t m, struct cb_fit_params *p)
{
	double *e = malloc(m * sizeof(double));

	p->med_abs = p->max_abs = NAN;
	if (!e)
		return;
	for (size_t i = 0; i < m; i++)
		e[i] = fabs(fit_time(p, obs[i].bytes, &obs[i].terms) / obs[i].t - 1);
	p->med_abs = cb_fit_median(e, m);
	p->max_abs = e[m - 1];
	free(e);
}

enum cb_status cb_fit_run(const struct cb_fit_obs *obs, size_t m, const struct cb_fit_opts *o,
			  struct cb_fit_params *p, char *why, size_t whylen)
{
	struct prob pb = { obs, m, 1, { 0 }, o->fit_gamma, o->no_fresh, 0, 0, 0, 0, 0, 0, NULL, 0 };
	struct cb_fit_params best;
	double *d, *c = NULL, bic = INFINITY, rss;
	enum cb_status st = CB_OK;
	size_t nd;

	for (size_t i = 0; i < m; i++) {
		if (!(obs[i].t > 0) || !isfinite(obs[i].t) || !(obs[i].bytes >= 0)) {
			snprintf(why, whylen, "row %zu has no positive measured time", i + 1);
			return CB_ERR_ARG;
		}
		pb.with_t0 |= obs[i].terms.msgs == 0 && obs[i].terms.calls > 0;
	}
	pb.tier_of = malloc((m ? m : 1) * sizeof(int));
	d = malloc((m ? m : 1) * sizeof(double));
	if (!pb.tier_of || !d) {
		st = CB_ERR_NOMEM;
		goto out;
	}
	c = malloc(CAND_MAX * sizeof(double));
	if (!c) {
		st = CB_ERR_NOMEM;
		goto out;
	}
	nd = candidates(d, distinct_sizes(obs, m, d), c);
	if (o->nbreaks >= 0) {
		pb.k = o->nbreaks + 1;
		memcpy(pb.brk, o->breaks, sizeof(pb.brk));
		st = fit_fixed(&pb, &best, &rss, why, whylen);
	} else {
		for (int k = 1; k <= o->max_tiers && st == CB_OK; k++)
			st = search(&pb, c, nd, k, &best, &bic, why, whylen);
		if (st == CB_OK && isinf(bic)) { /* none worked: the one-tier reason */
			pb.k = 1;
			st = fit_fixed(&pb, &best, &rss, why, whylen);
		}
	}
	if (st == CB_OK) {
		pb.k = best.ntiers;
		for (int i = 0; i < pb.k - 1; i++)
			pb.brk[i] = best.tier[i].hi;
		st = fit_fixed(&pb, &best, &rss, why, whylen); /* pb as for the best */
	}
	if (st == CB_OK) /* the best fit, or none: never a worse one that passes */
		st = check_result(&best, why, whylen);
	if (st == CB_OK) {
		fit_repeats(&pb, &best);
		fit_errors(obs, m, &best);
		best.tier_sets = pb.tried ? pb.tried : 1;
		*p = best;
	}
out:
	free(pb.tier_of);
	free(d);
	free(c);
	return st;
}

const struct cb_fit_tier *cb_fit_tier_of(const struct cb_fit_params *p, double bytes)
{
	int i = 0;

	while (i < p->ntiers - 1 && bytes >= p->tier[i].hi)
		i++;
	return &p->tier[i];
}

enum cb_status cb_fit_switch(const double *t, const double *model, const double *waits,
			     const double *wtime, size_t m, double *s, double *f)
{
	/* columns waits / t and wtime / t against (t - model) / t, both kept >= 0
	 * (cb_lsq_nnls); a column that is 0 in every row, or moves in step with
	 * the other, is left out (held at 0) */
	double *A = malloc(3 * (m ? m : 1) * sizeof(double)), *b, x[2], rss, cd[2];
	unsigned use = 3, used;
	int bad, rc = -1;

	*s = *f = 0;
	if (!A)
		return CB_ERR_NOMEM;
	b = A + 2 * m;
	for (size_t i = 0; i < m; i++) {
		A[2 * i] = waits[i] / t[i];
		A[2 * i + 1] = wtime[i] / t[i];
		b[i] = (t[i] - model[i]) / t[i];
	}
	while (m > 0 && use && rc == -1) {
		rc = cb_lsq_nnls(A, b, m, 2, use, use, x, &rss, cd, &used, &bad, NULL);
		use &= rc == -1 ? ~(1u << bad) : use;
	}
	if (rc == 0)
		*s = x[0], *f = x[1];
	free(A);
	return rc == -2 ? CB_ERR_NOMEM : CB_OK;
}
