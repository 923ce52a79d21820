/* test_model_hosts: the cost model on several hosts and over p2p: the
 * network link of a host placed where the run's ranks are (the ps root's
 * host carries (n-1)S each way, at once: n/2 times the ring's time when
 * link-bound), a run's own rank placement, and the slice
 * of the ring over p2p (the one cb_algo_ring_p2p.c takes). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cb_catalog.h"
#include "cb_model.h"
#include "cb_pattern.h"
#include "cb_plan_lib.h"

#define MIB ((size_t)1 << 20)

/* Hosts of rph ranks, intra links 1000x faster than the host's network link. */
static struct cb_topo hosts(int rph, double net_bw)
{
	struct cb_topo t = { .name = "test", .ranks_per_host = rph, .intra = { 1000 * net_bw, 0 },
			     .net = { net_bw, 0 }, .net_attach = CB_NET_PER_HOST,
			     .gamma = INFINITY, .copy_bw = 1e12,
			     .slice_bytes = CB_HOST_PIPELINE_BYTES };
	return t;
}

static struct cb_model_result eval(const struct cb_topo *t, const char *a, int n,
				   size_t bytes, int two_sided)
{
	struct cb_model_case c = { cb_plan_coll_find(CB_COLL_ALLREDUCE, a), n, bytes / 4, 4, 0, 0, two_sided, 1, 0, 0, 0 };
	struct cb_model_result r;
	char why[256];

	assert_int_equal(cb_model_eval(t, &c, &r, why, sizeof(why)), CB_OK);
	return r;
}

static void assert_rel(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol * fabs(want)))
		fail_msg("got %.9g, want %.9g (tolerance %g)", got, want, tol);
}

/* Slices of ps over p2p at n ranks: the plans' two-sided rule. */
static double ps_nslices(int n, size_t S)
{
	return (double)S / 4 / (double)cb_plan_slice_count(CB_HOST_PIPELINE_BYTES, 1, 1, S / 4, n, 4);
}

/* ps over p2p, one rank per host: every input and result crosses the root
 * host's network link, (n-1)S each way at once, plus the pipeline's two
 * rounds of fill and drain; the other hosts' links carry S each way. */
static void test_ps_root_host_link(void **state)
{
	const double bw = 1e9;
	const size_t S = 64 * MIB;

	(void)state;
	for (int n = 2; n <= 8; n *= 2) {
		struct cb_topo t = hosts(1, bw);
		struct cb_model_result r = eval(&t, "ps", n, S, 1);
		double ns = ps_nslices(n, S);

		assert_rel(r.time, (n - 1) * (double)S / bw * (ns + 2) / ns, 1e-12);
		assert_rel(r.host_max, 2.0 * (n - 1) * (double)S, 1e-12); /* the root's host */
		assert_rel(r.host_min, 2.0 * (double)S, 1e-12);
		assert_int_equal(r.one_class, 0);
	}
	/* link-bound, ps over p2p moves the root's (n-1)S in and out at once:
	 * n/2 times the ring's 2(n-1)/n S/beta, plus the pipeline's fill and
	 * drain */
	for (int n = 2; n <= 8; n *= 2) {
		struct cb_topo t = hosts(1, bw);
		struct cb_model_result ps = eval(&t, "ps", n, S, 1);
		struct cb_model_result ring = eval(&t, "ring", n, S, 1);
		double ns = ps_nslices(n, S);

		assert_rel(ring.time, 2.0 * (n - 1) / n * (double)S / bw, 1e-12);
		assert_rel(ps.time / ring.time, n / 2.0 * (ns + 2) / ns, 1e-12);
	}
	/* 2 hosts x 2 ranks: the root's host receives the other host's 2 inputs */
	{
		struct cb_topo t = hosts(2, bw);
		struct cb_model_result r = eval(&t, "ps", 4, S, 1);
		double ns = ps_nslices(4, S);

		assert_rel(r.time, 2 * (double)S / bw * (ns + 2) / ns, 1e-3);
		assert_rel(r.host_max, 4.0 * (double)S, 1e-12);
	}
}

/* A run's placement: {0,0,1,1} is the blocks of 2; {0,1,0,1} puts every
 * ring step across hosts (4 network transfers per step, 2 per host link
 * each way, vs 1 with blocks). */
static void test_rank_placement(void **state)
{
	static const int blocks[4] = { 0, 0, 1, 1 }, alternate[4] = { 0, 1, 0, 1 };
	const double bw = 1e9;
	const size_t S = 64 * MIB;
	struct cb_topo t = hosts(2, bw);
	struct cb_model_result plain = eval(&t, "ring", 4, S, 1), r;

	(void)state;
	t.rank_host = blocks;
	t.rank_host_n = 4;
	r = eval(&t, "ring", 4, S, 1);
	assert_rel(r.time, plain.time, 1e-12);
	assert_rel(r.host_max, plain.host_max, 1e-12);
	t.rank_host = alternate;
	r = eval(&t, "ring", 4, S, 1);
	assert_rel(r.host_max, 2 * plain.host_max, 1e-12);
	assert_true(r.time > 1.9 * plain.time);
}

/* The ring over p2p takes cb_ring_p2p_slice_count's slice (4 MiB at 64 MiB
 * on 4 ranks: 4 slices per chunk), not the backend's 256 KiB; with a
 * --slicebytes setting (slice_auto 0) the setting; one-sided the backend's. */
static void test_p2p_ring_slice(void **state)
{
	struct cb_topo t = hosts(2, 1e9);
	struct cb_model_case c = { cb_plan_coll_find(CB_COLL_ALLREDUCE, "ring"), 4, 64 * MIB / 4, 4, 0, 0, 1, 1, 0, 0, 0 };
	struct cb_model_result r;
	char why[128];

	(void)state;
	assert_int_equal(cb_plan_slice_count(t.slice_bytes, 1, 1, c.count, 4, 4), 4 * MIB / 4);
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.terms.msgs, 2.0 * 3 * 4, 0); /* 2(n-1) steps x 4 slices */
	c.slice_auto = 0; /* 16 MiB chunks in 256 KiB slices */
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.terms.msgs, 2.0 * 3 * 64, 0);
	c.slice_auto = 1;
	c.two_sided = 0;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.terms.msgs, 2.0 * 3 * 64, 0);
	/* a small message: one slice per chunk */
	c.two_sided = 1;
	c.count = 1000;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.terms.msgs, 2.0 * 3, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ps_root_host_link),
		cmocka_unit_test(test_rank_placement),
		cmocka_unit_test(test_p2p_ring_slice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
