/* Unit tests of the cost model's fit: known alpha, beta, gamma recovered from
 * synthetic rows (within 1%, also with noise and with two size tiers), the
 * repeat band, refusal of rows that cannot determine the parameters, and the
 * one check of parameters that the fit and the fit file's readers share. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cb_model.h"
#include "cb_model_fit.h"
#include "cb_model_params.h"
#include "cb_plan_lib.h"

/* An algorithm's plan by name; "copy" (the copy roofline) has none. */
static const struct cb_plan_algo *plan_of(const char *name)
{
	return strcmp(name, "copy") == 0 ? NULL : cb_plan_coll_find(CB_COLL_ALLREDUCE, name);
}

#define TEST_TMPDIR "/tmp/collbench-test-model-fit.XXXXXX"
#include "test_tmpdir.h"

#define MAXOBS 512

struct truth {
	double alpha, beta_lo, beta_hi, gamma, brk; /* beta_hi from brk bytes up */
	double fused;                               /* 0: the default */
	double fresh;                               /* 0: free */
};

/* Rows of algos (a NULL-terminated list) at rank counts 2 (and 4 when
 * two_n), sizes 8 B .. 64 MiB x4, with times from the model under tr, times
 * (1 + noise * a fixed +-1 pattern); repeats at 0.95 and 1.05 x. */
static size_t make_obs(const struct truth *tr, const char *const *algos, int two_n,
		       double noise, struct cb_fit_obs *obs)
{
	size_t m = 0;

	for (int n = 2; n <= (two_n ? 4 : 2); n += 2)
		for (const char *const *a = algos; *a; a++)
			for (size_t b = 8; b <= (64u << 20); b *= 4) {
				struct cb_topo t = { .name = "t", .ranks_per_host = n,
						     .intra = { 1, tr->alpha }, .gamma = tr->gamma,
						     .slice_bytes = 256 * 1024 };
				struct cb_model_case c = { plan_of(*a), n, b / 4, 4, 0, 0, 0, 0, 0, 0, 0 };
				struct cb_model_result r;
				char why[128];

				t.intra.bw = (double)b >= tr->brk ? tr->beta_hi : tr->beta_lo;
				t.copy_bw = t.intra.bw;
				t.fused_bw = tr->fused;
				t.fresh_bw = tr->fresh;
				assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
				obs[m].terms = r.terms;
				obs[m].t = r.time * (1 + noise * ((m % 2) ? 1 : -1));
				obs[m].t_lo = 0.95 * obs[m].t;
				obs[m].t_hi = 1.05 * obs[m].t;
				obs[m].bytes = (double)b;
				m++;
			}
	return m;
}

static const char *const all3[] = { "ps", "ring", "copy", NULL };

static void assert_within(double got, double want, double tol)
{
	if (!(fabs(got / want - 1) <= tol)) {
		fprintf(stderr, "got %.6g, want %.6g (tolerance %g)\n", got, want, tol);
		fail();
	}
}

static struct cb_fit_opts one_tier(void)
{
	struct cb_fit_opts o = { .max_tiers = 1, .nbreaks = 0, .fit_gamma = 1 };
	return o;
}

/* ps, ring and copy at 2 and 4 ranks: alpha, beta, gamma within 1%. */
static void test_recovers_known_params(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	struct truth tr = { 2e-6, 10e9, 10e9, 5e9, INFINITY, 0, 0 };
	struct cb_fit_opts o = one_tier();
	struct cb_fit_params p;
	char why[256] = "";
	size_t m = make_obs(&tr, all3, 1, 0, obs);

	(void)state;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_int_equal(p.ntiers, 1);
	assert_within(p.alpha, 2e-6, 0.01);
	assert_within(p.tier[0].beta, 10e9, 0.01);
	assert_within(p.tier[0].gamma, 5e9, 0.01);
	assert_within(p.tier[0].fused, 5e9, 0.01); /* default: the slower of beta, gamma */
	assert_true(p.max_abs < 1e-6);
	/* repeats at +-5%: every parameter's band holds it */
	assert_true(p.tier[0].beta_rep[0] >= 10e9 && p.tier[0].beta_rep[1] <= 10e9);
	assert_within(p.tier[0].beta_rep[0], 10e9 / 0.95, 0.01);
	/* 2% noise: still within 1% on beta (many rows average it), 2% on gamma:
	 * only ps's rows of one slice reduce apart from moving (a round of its
	 * own), the rest fuse their reduces with moving */
	m = make_obs(&tr, all3, 1, 0.02, obs);
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_within(p.tier[0].beta, 10e9, 0.01);
	assert_within(p.tier[0].gamma, 5e9, 0.02);
	assert_true(p.tier[0].beta_se > 0 && p.tier[0].beta_se < 0.01 * 10e9);
}

/* Two tiers (40 GB/s below 1 MiB, 10 above): the automatic search finds the
 * boundary and both bandwidths. */
static void test_auto_tiers(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	struct truth tr = { 1e-6, 40e9, 10e9, 8e9, 1 << 20, 0, 0 };
	struct cb_fit_opts o = { .max_tiers = 3, .nbreaks = -1, .fit_gamma = 1 };
	struct cb_fit_params p;
	char why[256] = "";
	size_t m = make_obs(&tr, all3, 1, 0, obs);

	(void)state;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_int_equal(p.ntiers, 2);
	assert_true(p.tier[0].hi == (2 << 20)); /* the first measured size above it */
	assert_within(p.tier[0].beta, 40e9, 0.01);
	assert_within(p.tier[1].beta, 10e9, 0.01);
	assert_within(p.alpha, 1e-6, 0.01);
	/* one size tier only when the data has one: */
	tr.brk = INFINITY;
	m = make_obs(&tr, all3, 1, 0, obs);
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_int_equal(p.ntiers, 1);
}

/* The ring alone at one rank count reduces a fixed multiple of what it
 * moves: gamma cannot be told from beta. Refused, saying why; fine without
 * gamma. ps and ring at one rank count give two equations for beta, gamma and
 * the one-sided reduce rate: refused; copy rows settle it, and a one-sided
 * rate of its own (8 GB/s here) is recovered. */
static void test_refuses_collinear_gamma(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	static const char *const two[] = { "ring", NULL };
	static const char *const ps_ring[] = { "ps", "ring", NULL };
	struct truth tr = { 2e-6, 10e9, 10e9, 5e9, INFINITY, 0, 0 };
	struct cb_fit_opts o = one_tier();
	struct cb_fit_params p;
	char why[256] = "";
	size_t m = make_obs(&tr, two, 0, 0, obs);

	(void)state;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "gamma"));
	assert_non_null(strstr(why, "--no-gamma"));
	o.fit_gamma = 0;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_true(isinf(p.tier[0].gamma));
	o.fit_gamma = 1;
	m = make_obs(&tr, ps_ring, 0, 0, obs);
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "copy rows"));
	tr.fused = 8e9;
	m = make_obs(&tr, all3, 0, 0, obs);
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_within(p.tier[0].beta, 10e9, 0.01);
	assert_within(p.tier[0].gamma, 5e9, 0.01);
	assert_within(p.tier[0].fused, 8e9, 0.01);
}

/* One message size, too few rows, a zero time: refused with the reason. */
static void test_refuses_degenerate(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	struct truth tr = { 2e-6, 10e9, 10e9, 5e9, INFINITY, 0, 0 };
	struct cb_fit_opts o = one_tier();
	struct cb_fit_params p;
	char why[256] = "";
	size_t m = make_obs(&tr, all3, 1, 0, obs), k = 0;

	(void)state;
	for (size_t i = 0; i < m; i++) /* keep the 2 MiB rows only */
		if (obs[i].bytes == (2 << 20))
			obs[k++] = obs[i];
	assert_int_equal(cb_fit_run(obs, k, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "one message size"));
	m = make_obs(&tr, all3, 1, 0, obs);
	assert_int_equal(cb_fit_run(obs, 4, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "rows"));
	assert_int_equal(cb_fit_run(obs, 0, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	obs[3].t = 0;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "time"));
}

/* Rows whose time falls as their size grows: no positive bandwidth
 * describes them. The fit with no time per byte (beta at its bound) fits
 * them better than any bandwidth: refused, naming beta, not a fit with alpha
 * held at 0 far off every row. */
static void test_refuses_falling_times(void **state)
{
	struct cb_fit_obs obs[6];
	struct cb_fit_opts o = one_tier();
	struct cb_fit_params p;
	char why[512] = "";

	(void)state;
	o.fit_gamma = 0;
	for (int i = 0; i < 6; i++) {
		memset(&obs[i], 0, sizeof(obs[i]));
		obs[i].bytes = 1024.0 * (1 << i);
		obs[i].terms.msgs = 1;
		obs[i].terms.link_bytes = obs[i].bytes;
		obs[i].t = 1e-3 / (i + 1);
		obs[i].t_lo = obs[i].t_hi = NAN;
	}
	assert_int_equal(cb_fit_run(obs, 6, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "beta is not determined"));
	assert_non_null(strstr(why, "do not grow"));
}

/* Every row at 100 us, copy rows among them (calls with no message: the
 * overhead is fitted): overhead 100 us and no time per byte fit every row,
 * a bandwidth does not. Exactly 100 us, rounding leaves the least squares'
 * time per byte either just above 0 (a rate beyond the bound, which the
 * parameters' check names) or below; with the times falling by 0.1% over
 * the sizes it is below 0, where the fit held the overhead at 0 and wrote a
 * saw-tooth of tiers 60% off every row. Refused with one tier and with the
 * automatic search (no tiers that a bandwidth describes), beta named. */
static void test_refuses_constant_times(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	struct truth tr = { 2e-6, 10e9, 10e9, 5e9, INFINITY, 0, 0 };
	struct cb_fit_params p;
	size_t m = make_obs(&tr, all3, 0, 0, obs), k = 0;

	(void)state;
	for (size_t i = 0; i < m; i++) /* 64 KiB .. 4 MiB, as a sweep of -b 64K -e 4M */
		if (obs[i].bytes >= 65536 && obs[i].bytes <= 4 << 20)
			obs[k++] = obs[i];
	for (int fall = 0; fall <= 1; fall++)
		for (int tiers = 1; tiers <= 3; tiers += 2) {
			struct cb_fit_opts o = { .max_tiers = tiers, .nbreaks = tiers == 1 ? 0 : -1,
						 .fit_gamma = 1 };
			char why[512] = "";

			for (size_t i = 0; i < k; i++) {
				obs[i].t = 100e-6 * (1 - fall * 1e-3 * obs[i].bytes / (4 << 20));
				obs[i].t_lo = 0.98 * obs[i].t;
				obs[i].t_hi = 1.02 * obs[i].t;
			}
			assert_int_equal(cb_fit_run(obs, k, &o, &p, why, sizeof(why)), CB_ERR_ARG);
			assert_non_null(strstr(why, "beta"));
			assert_non_null(strstr(why, "do not grow"));
		}
}

/* Times that hardly grow with size (10 us + 1e-18 s per byte: 1e9 GB/s):
 * the least-squares beta is no machine's. The fit refuses it, with the key
 * and bound its readers would name, instead of returning it. */
static void test_refuses_flat_times(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	struct truth tr = { 2e-6, 10e9, 10e9, 5e9, INFINITY, 0, 0 };
	struct cb_fit_opts o = one_tier();
	struct cb_fit_params p;
	char why[512] = "";
	size_t m = make_obs(&tr, all3, 1, 0, obs);

	(void)state;
	o.fit_gamma = 0;
	for (size_t i = 0; i < m; i++) {
		obs[i].t = 10e-6 + obs[i].bytes * 1e-18;
		obs[i].t_lo = obs[i].t_hi = NAN;
	}
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "beta_GBps must be a number in [1e-06, 1e+07]"));
}

/* cb_fit_params_check: a recovered fit passes and reads back from its file
 * unchanged in kind; each bound is enforced. */
/* Time slicing's switch_s and wait_frac (cb_fit_switch): times made of a
 * model part, 2 us per unit of waits and 0.3 of wtime give them back; with
 * wtime's part negative, wait_frac stays 0 and switch_s is fitted alone;
 * residuals below the model give 0 and 0, and so do no rows. */
static void test_fit_switch(void **state)
{
	double t[6], model[6], waits[6], wtime[6], s, f;

	(void)state;
	for (int i = 0; i < 6; i++) {
		model[i] = 1e-6 * (i + 1);
		waits[i] = 0.5 * (i + 2);
		wtime[i] = 1e-6 * (i % 3 + 0.5);
		t[i] = model[i] + 2e-6 * waits[i] + 0.3 * wtime[i];
	}
	cb_fit_switch(t, model, waits, wtime, 6, &s, &f);
	assert_true(fabs(s / 2e-6 - 1) < 1e-9 && fabs(f / 0.3 - 1) < 1e-9);
	for (int i = 0; i < 6; i++)
		t[i] = model[i] + 2e-6 * waits[i] - 0.3 * wtime[i];
	cb_fit_switch(t, model, waits, wtime, 6, &s, &f);
	assert_true(f == 0 && s > 0);
	for (int i = 0; i < 6; i++)
		t[i] = 0.5 * model[i];
	cb_fit_switch(t, model, waits, wtime, 6, &s, &f);
	assert_true(s == 0 && f == 0);
	cb_fit_switch(t, model, waits, wtime, 0, &s, &f);
	assert_true(s == 0 && f == 0);
}

static void test_params_check(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	static struct cb_fit_set set, back;
	struct truth tr = { 2e-6, 10e9, 10e9, 5e9, INFINITY, 0, 0 };
	struct cb_fit_opts o = one_tier();
	struct cb_fit_params p, q;
	char why[512] = "", path[sizeof(dir) + 16];
	size_t m = make_obs(&tr, all3, 1, 0, obs);
	FILE *f;

	(void)state;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_int_equal(cb_fit_params_check(&p, why, sizeof(why)), CB_OK);
	q = p, q.tier[0].beta = 2e16; /* 2e7 GB/s */
	assert_int_equal(cb_fit_params_check(&q, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "beta_GBps must be a number in"));
	q = p, q.tier[0].gamma = 1e-7; /* slower than 1 kB/s */
	assert_int_equal(cb_fit_params_check(&q, why, sizeof(why)), CB_ERR_ARG);
	q = p, q.tier[0].gamma = INFINITY, q.tier[0].fused = NAN; /* free; none seen */
	assert_int_equal(cb_fit_params_check(&q, why, sizeof(why)), CB_OK);
	q = p, q.alpha = 11; /* 11 s */
	assert_int_equal(cb_fit_params_check(&q, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "alpha_us"));
	q = p, q.tier[0].hi = 1e6; /* the last tier must reach every size */
	assert_int_equal(cb_fit_params_check(&q, why, sizeof(why)), CB_ERR_ARG);
	/* what passes is what the reader takes back */
	memset(&set, 0, sizeof(set));
	set.ngroups = 1;
	strcpy(set.groups[0].backend, "host");
	strcpy(set.groups[0].transport, "shm");
	set.groups[0].fitted = 1;
	set.groups[0].p = p;
	snprintf(path, sizeof(path), "%s/fit.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(cb_fit_set_write(f, &set), CB_OK);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(cb_fit_set_read(path, &back, why, sizeof(why)), CB_OK);
	assert_true(back.groups[0].fitted);
	assert_within(back.groups[0].p.tier[0].beta, p.tier[0].beta, 1e-12);
	assert_true(isinf(back.groups[0].p.fresh)); /* free: written null, read back free */
	/* the fresh reads' rate: in range or free, and kept by the file */
	q = p, q.fresh = 1e-7;
	assert_int_equal(cb_fit_params_check(&q, why, sizeof(why)), CB_ERR_ARG);
	assert_non_null(strstr(why, "fresh_GBps"));
	set.groups[0].p.fresh = 3e9;
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(cb_fit_set_write(f, &set), CB_OK);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(cb_fit_set_read(path, &back, why, sizeof(why)), CB_OK);
	assert_within(back.groups[0].p.fresh, 3e9, 1e-12);
}

/* Rows the model makes of ring, one-shot, recursive doubling and copy at 2
 * and 4 ranks with the fresh reads at fresh (0: free); sizes 8 B .. 64 MiB
 * x4. */
static size_t make_fresh_obs(double fresh, struct cb_fit_obs *obs)
{
	static const char *const algos[] = { "ring", "oneshot", "rd", "copy" };
	size_t m = 0;

	for (int n = 2; n <= 4; n += 2)
		for (size_t a = 0; a < 4; a++)
			for (size_t b = 8; b <= (64u << 20); b *= 4) {
				struct cb_topo t = { .name = "t", .ranks_per_host = n,
						     .intra = { 10e9, 2e-6 }, .gamma = 5e9,
						     .copy_bw = 10e9, .fresh_bw = fresh,
						     .slice_bytes = 256 * 1024 };
				struct cb_model_case c = { a == 3 ? NULL : cb_plan_coll_find(CB_COLL_ALLREDUCE, algos[a]),
							   n, b / 4, 4, 0, 0, 0, 0, 0, 0, 0 };
				struct cb_model_result r;
				char why[128];

				assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
				obs[m].terms = r.terms;
				obs[m].t = r.time;
				obs[m].t_lo = obs[m].t_hi = NAN;
				obs[m].bytes = (double)b;
				m++;
			}
	return m;
}

/* The fresh reads' rate (cb_model_fit.h): recovered within 1% beside alpha,
 * beta and the fused rate from rows that read fresh bytes and rows that do not;
 * free with --no-fresh (the rows then far off), and where the rows have no
 * extra to price (made with fresh free: the family's, and ps's and the
 * ring's, beside alpha, beta and gamma); from ps, the ring and copy at 2
 * ranks too; held free where it is not determined (the ring and copy). */
static void test_fresh(void **state)
{
	static struct cb_fit_obs obs[MAXOBS];
	struct truth tr = { 2e-6, 10e9, 10e9, 5e9, INFINITY, 0, 0 };
	static const char *const psring[] = { "ps", "ring", NULL };
	static const char *const ringcopy[] = { "ring", "copy", NULL };
	struct cb_fit_opts o = one_tier();
	struct cb_fit_params p;
	char why[256] = "";
	size_t m = make_fresh_obs(3e9, obs);

	(void)state;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_within(p.fresh, 3e9, 0.01);
	assert_within(p.alpha, 2e-6, 0.01);
	assert_within(p.tier[0].beta, 10e9, 0.01);
	assert_within(p.tier[0].fused, 5e9, 0.01); /* these plans fuse every reduce */
	assert_true(p.max_abs < 1e-6);
	o.no_fresh = 1;
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_true(isinf(p.fresh));
	assert_true(p.max_abs > 0.01); /* the rows' fresh reads unpriced */
	o.no_fresh = 0;
	m = make_fresh_obs(0, obs);
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_true(isinf(p.fresh));
	assert_within(p.tier[0].beta, 10e9, 0.01);
	m = make_obs(&tr, psring, 1, 0, obs); /* fresh free in them */
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_true(isinf(p.fresh));
	assert_within(p.tier[0].gamma, 5e9, 0.01);
	assert_within(p.alpha, 2e-6, 0.01);
	/* ps, the ring and copy at 2 ranks alone tell the rate apart */
	tr.fresh = 3e9;
	m = make_obs(&tr, all3, 0, 0, obs);
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_within(p.fresh, 3e9, 0.01);
	assert_within(p.tier[0].gamma, 5e9, 0.01);
	/* the ring and copy do not: at 2 ranks the ring reads fresh exactly the
	 * bytes it fuses (its second half), so the rate is held free and the
	 * fused rate takes both (1/fused + 1/fresh) */
	m = make_obs(&tr, ringcopy, 0, 0, obs);
	assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
	assert_true(isinf(p.fresh));
	assert_within(p.tier[0].fused, 1 / (1 / 5e9 + 1 / 3e9), 0.01);
}

/* Rows of ps, ring and copy at 2 ranks, sizes 1 KiB .. nsizes KiB in steps
 * of 1 KiB (a linear-step sweep: allreduce_perf -i 1K), timed by the model
 * with alpha 1 us, gamma 4 GB/s and beta 40 GB/s below brk bytes, 10 from
 * there. */
static size_t make_linear(size_t nsizes, double brk, struct cb_fit_obs *obs)
{
	size_t m = 0;

	for (const char *const *a = all3; *a; a++)
		for (size_t j = 1; j <= nsizes; j++) {
			size_t b = 1024 * j;
			struct cb_topo t = { .name = "t", .ranks_per_host = 2, .intra = { 1, 1e-6 },
					     .gamma = 4e9, .slice_bytes = 256 * 1024 };
			struct cb_model_case c = { plan_of(*a), 2, b / 4, 4, 0, 0, 0, 0, 0, 0, 0 };
			struct cb_model_result r;
			char why[128];

			t.intra.bw = t.copy_bw = (double)b >= brk ? 10e9 : 40e9;
			assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
			obs[m].terms = r.terms;
			obs[m].t = r.time;
			obs[m].t_lo = obs[m].t_hi = NAN;
			obs[m].bytes = (double)b;
			m++;
		}
	return m;
}

/* The automatic tier search on a linear-step sweep: its tier sets are
 * chosen among at most 32 candidate boundaries, so it fits at most
 * 1 + 32 + C(32, 2) = 529 of them for three tiers however many sizes the run
 * has (choosing among every measured size, 300 sizes took minutes and 1000
 * did not finish). It still finds the tiers: boundaries at the candidates
 * around 64 KiB, and both bandwidths away from them. */
static void test_tier_search_bounded(void **state)
{
	static struct cb_fit_obs obs[3 * 400];
	const size_t nsizes[] = { 100, 400 };
	struct cb_fit_opts o = { .max_tiers = 3, .nbreaks = -1, .fit_gamma = 1 };

	(void)state;
	for (size_t r = 0; r < sizeof(nsizes) / sizeof(nsizes[0]); r++) {
		struct cb_fit_params p;
		char why[512] = "";
		size_t m = make_linear(nsizes[r], 64 * 1024, obs);

		assert_int_equal(cb_fit_run(obs, m, &o, &p, why, sizeof(why)), CB_OK);
		assert_true(p.tier_sets >= 1 && p.tier_sets <= 529);
		assert_true(p.ntiers >= 2);
		assert_within(cb_fit_tier_of(&p, 32 * 1024)->beta, 40e9, 0.01);
		assert_within(cb_fit_tier_of(&p, 1024.0 * nsizes[r])->beta, 10e9, 0.01);
		for (int t = 0; t < p.ntiers - 1; t++) /* the boundaries near 64 KiB */
			assert_true(p.tier[t].hi > 48 * 1024 && p.tier[t].hi < 96 * 1024);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recovers_known_params),
		cmocka_unit_test(test_auto_tiers),
		cmocka_unit_test(test_refuses_collinear_gamma),
		cmocka_unit_test(test_refuses_degenerate),
		cmocka_unit_test(test_refuses_falling_times),
		cmocka_unit_test(test_refuses_constant_times),
		cmocka_unit_test(test_refuses_flat_times),
		cmocka_unit_test(test_params_check),
		cmocka_unit_test(test_fit_switch),
		cmocka_unit_test(test_fresh),
		cmocka_unit_test(test_tier_search_bounded),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
