/* check --choice (cb_model_choice.h): the measured fastest and the model's
 * choice per point, when they agree (the same algorithm, inside the
 * fastest's repeats' band, or the same plan under another name), what is
 * left out (copy, rows not modelled, points with one algorithm), and the
 * regret of the choices. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_model_choice.h"

static void row(struct cb_mrow *r, struct cb_check_row *c, const char *algo, unsigned long long bytes,
		double t, double t_hi, double t_model)
{
	memset(r, 0, sizeof(*r));
	memset(c, 0, sizeof(*c));
	snprintf(r->backend, sizeof(r->backend), "host");
	snprintf(r->algo, sizeof(r->algo), "%s", algo);
	snprintf(r->dtype, sizeof(r->dtype), "float");
	snprintf(r->op, sizeof(r->op), "sum");
	r->nranks = 4, r->nhosts = 1, r->bytes = bytes, r->ok = 1, r->t = t, r->t_lo = NAN;
	r->t_hi = t_hi;
	c->row = r, c->modelled = 1, c->t_model = t_model;
}

static void test_choices(void **state)
{
	struct cb_mrow r[9];
	struct cb_check_row c[9];
	struct cb_choice *ch;
	size_t n;

	(void)state;
	/* 8 B: the model picks the measured fastest */
	row(&r[0], &c[0], "ring", 8, 5e-6, NAN, 4e-6);
	row(&r[1], &c[1], "oneshot", 8, 2e-6, NAN, 1e-6);
	/* 1 KiB: the model picks rd, measured 1% slower than twoshot, inside its band */
	row(&r[2], &c[2], "twoshot", 1024, 10e-6, 10.5e-6, 9e-6);
	row(&r[3], &c[3], "rd", 1024, 10.1e-6, 11e-6, 8e-6);
	/* 1 MiB: the model picks ps, 2x the ring: no; copy (faster) and an unmodelled row left out */
	row(&r[4], &c[4], "ring", 1 << 20, 100e-6, 101e-6, 90e-6);
	row(&r[5], &c[5], "ps", 1 << 20, 200e-6, 210e-6, 80e-6);
	row(&r[6], &c[6], "copy", 1 << 20, 10e-6, NAN, 1e-6);
	r[6].local = 1;
	row(&r[7], &c[7], "mpi", 1 << 20, 50e-6, NAN, 1e-9);
	c[7].modelled = 0;
	/* 64 MiB: one algorithm only: no point */
	row(&r[8], &c[8], "ring", 1 << 26, 1e-3, NAN, 1e-3);
	assert_int_equal(cb_model_choices(c, 9, &ch, &n), CB_OK);
	assert_int_equal(n, 3);
	assert_string_equal(ch[0].best->algo, "oneshot");
	assert_ptr_equal(ch[0].chosen, &c[1]);
	assert_true(ch[0].agree);
	assert_string_equal(ch[0].agree_by, "algorithm");
	assert_string_equal(ch[1].best->algo, "twoshot");
	assert_string_equal(ch[1].chosen->row->algo, "rd");
	assert_true(ch[1].agree);
	assert_string_equal(ch[1].agree_by, "band");
	assert_int_equal(ch[2].candidates, 2);
	assert_string_equal(ch[2].best->algo, "ring");
	assert_string_equal(ch[2].chosen->row->algo, "ps");
	assert_false(ch[2].agree);
	assert_string_equal(ch[2].agree_by, "");
	free(ch);
	/* without repeats only the same algorithm agrees */
	r[2].t_hi = NAN;
	assert_int_equal(cb_model_choices(c, 9, &ch, &n), CB_OK);
	assert_false(ch[1].agree);
	free(ch);
}

/* A plan row of allreduce over shm, float, n ranks on one host. */
static void plan_row(struct cb_mrow *r, struct cb_check_row *c, const char *algo, int n,
		     unsigned long long bytes, double t, double t_model)
{
	row(r, c, algo, bytes, t, NAN, t_model);
	snprintf(r->transport, sizeof(r->transport), "shm");
	r->coll = CB_COLL_ALLREDUCE, r->nranks = n, r->esize = 4, r->slice_auto = 1;
	r->slice_bytes = 256 * 1024;
	c->slice_bytes = r->slice_bytes;
}

/* hier and twoshot are one plan on one host: the model's hier agrees with a
 * measured twoshot 20% faster; the ring and Rabenseifner at 2 ranks are
 * mirror images, not one plan, and oneshot is another plan */
static void test_same_plan(void **state)
{
	struct cb_mrow r[6];
	struct cb_check_row c[6];
	struct cb_choice *ch;
	size_t n;

	(void)state;
	plan_row(&r[0], &c[0], "hier", 4, 1 << 20, 120e-6, 90e-6);
	plan_row(&r[1], &c[1], "twoshot", 4, 1 << 20, 100e-6, 90e-6);
	plan_row(&r[2], &c[2], "rabenseifner", 2, 4096, 2e-6, 1e-6);
	plan_row(&r[3], &c[3], "ring", 2, 4096, 1e-6, 1.5e-6);
	plan_row(&r[4], &c[4], "hier", 4, 1 << 10, 3e-6, 1e-6);
	plan_row(&r[5], &c[5], "oneshot", 4, 1 << 10, 1e-6, 2e-6);
	assert_int_equal(cb_model_choices(c, 6, &ch, &n), CB_OK);
	assert_int_equal(n, 3);
	assert_string_equal(ch[0].best->algo, "twoshot");
	assert_string_equal(ch[0].chosen->row->algo, "hier");
	assert_true(ch[0].agree);
	assert_string_equal(ch[0].agree_by, "plan");
	assert_string_equal(ch[1].chosen->row->algo, "rabenseifner");
	assert_false(ch[1].agree);
	assert_string_equal(ch[2].chosen->row->algo, "hier");
	assert_false(ch[2].agree);
	free(ch);
}

/* Regret: the choice's measured time over the fastest's, its geometric
 * mean over the points with a CPU per rank, split by the model's regime of
 * the fastest row (latency-bound: at least half its modelled time latency),
 * the oversubscribed points apart; beside it the median |error|. */
static void test_regret(void **state)
{
	struct cb_mrow r[6];
	struct cb_check_row c[6];
	struct cb_choice *ch;
	struct cb_regret all, lat, bw, over;
	size_t n;

	(void)state;
	/* 8 B, latency-bound: the model takes a row 1.5x slower (errors 0.2, 0.4) */
	row(&r[0], &c[0], "ring", 8, 3e-6, NAN, 1e-6);
	row(&r[1], &c[1], "oneshot", 8, 2e-6, NAN, 2e-6);
	c[0].err = -0.2, c[1].err = 0.4, c[0].t_latency = c[0].t_model;
	c[1].t_latency = c[1].t_model;
	/* 1 MiB, bandwidth-bound: the model takes the fastest (errors 0.1, 0.1) */
	row(&r[2], &c[2], "ring", 1 << 20, 100e-6, NAN, 90e-6);
	row(&r[3], &c[3], "ps", 1 << 20, 200e-6, NAN, 180e-6);
	c[2].err = c[3].err = -0.1, c[2].t_latency = 10e-6;
	/* oversubscribed, 8 MiB: a 4x miss, reported apart */
	row(&r[4], &c[4], "ring", 8 << 20, 1e-3, NAN, 2e-3);
	row(&r[5], &c[5], "ps", 8 << 20, 4e-3, NAN, 1e-3);
	c[4].oversubscribed = c[5].oversubscribed = 1;
	assert_int_equal(cb_model_choices(c, 6, &ch, &n), CB_OK);
	assert_int_equal(n, 3);
	assert_true(fabs(ch[0].regret - 1.5) < 1e-12 && ch[0].latency_bound);
	assert_true(fabs(ch[1].regret - 1) < 1e-12 && !ch[1].latency_bound);
	assert_true(fabs(ch[2].regret - 4) < 1e-12);
	cb_choice_summary(ch, n, &all, &lat, &bw, &over);
	assert_int_equal(all.points, 2);
	assert_true(fabs(all.regret - sqrt(1.5)) < 1e-12);
	assert_true(fabs(all.err_median - 0.2) < 1e-12); /* of 0.3 and 0.1 */
	assert_int_equal(lat.points, 1);
	assert_true(fabs(lat.regret - 1.5) < 1e-12 && fabs(lat.err_median - 0.3) < 1e-12);
	assert_int_equal(bw.points, 1);
	assert_true(fabs(bw.regret - 1) < 1e-12);
	assert_int_equal(over.points, 1);
	assert_true(fabs(over.regret - 4) < 1e-12);
	free(ch);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_choices),
					    cmocka_unit_test(test_same_plan),
					    cmocka_unit_test(test_regret) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
