/* NCCL's newer paths (cb_catalog_nccl_paths.h): the rows' names and when
 * NCCL takes each path: version, collective, dtype and op, CUDA driver. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cb_catalog_nccl_paths.h"

#define V2289 22809
#define DRV 13000

/* nccl.sym, nccl.ce and nccl.reg are rows of every collective, on request,
 * library rows. */
static void test_rows(void **state)
{
	(void)state;
	for (int c = 0; c < CB_COLL_COUNT; c++) {
		const struct cb_algo_desc *s = cb_catalog_coll_algo((enum cb_coll)c, "nccl.sym");
		const struct cb_algo_desc *e = cb_catalog_coll_algo((enum cb_coll)c, "nccl.ce");
		const struct cb_algo_desc *g = cb_catalog_coll_algo((enum cb_coll)c, "nccl.reg");

		assert_non_null(s);
		assert_non_null(e);
		assert_ptr_equal(g, &cb_desc_nccl_path[CB_NCCL_REG][c]);
		assert_ptr_equal(s, &cb_desc_nccl_path[CB_NCCL_SYM][c]);
		assert_int_equal(s->coll, c);
		assert_true(s->on_request && e->on_request);
		assert_string_equal(e->moves, "library");
		assert_null(strchr(s->description, ','));
	}
}

/* Symmetric kernels: 2.27 on; AllGather of any type; AllReduce and
 * ReduceScatter of sum on float, half, bfloat16 only. */
static void test_sym(void **state)
{
	(void)state;
	assert_null(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_ALLREDUCE, CB_FLOAT, CB_SUM, V2289, DRV));
	assert_null(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_REDUCE_SCATTER, CB_BFLOAT16, CB_SUM, 22700, DRV));
	assert_null(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_ALL_GATHER, CB_INT8, CB_MAX, V2289, DRV));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_ALLREDUCE, CB_FLOAT, CB_SUM,
						22603, DRV), "NCCL 2.26.3 runs here"));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_ALLREDUCE, CB_DOUBLE, CB_SUM,
						V2289, DRV), "sum on float/half/bfloat16"));
	assert_non_null(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_ALLREDUCE, CB_FLOAT, CB_MAX, V2289, DRV));
	assert_non_null(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_ALLREDUCE, CB_INT32, CB_SUM, V2289, DRV));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_BROADCAST, CB_FLOAT, CB_SUM,
						V2289, DRV), "AllReduce/AllGather/ReduceScatter"));
	assert_non_null(cb_nccl_path_why(CB_NCCL_SYM, CB_COLL_ALLTOALL, CB_FLOAT, CB_SUM, V2289, DRV));
}

/* Copy-engine collectives: 2.28 on, AllGather and AlltoAll of any type,
 * a CUDA driver of 12.5 or later. */
static void test_ce(void **state)
{
	(void)state;
	assert_null(cb_nccl_path_why(CB_NCCL_CE, CB_COLL_ALL_GATHER, CB_INT32, CB_SUM, 22800, 12050));
	assert_null(cb_nccl_path_why(CB_NCCL_CE, CB_COLL_ALLTOALL, CB_DOUBLE, CB_SUM, V2289, DRV));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_CE, CB_COLL_ALL_GATHER, CB_FLOAT, CB_SUM,
						22707, DRV), "came in 2.28"));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_CE, CB_COLL_ALL_GATHER, CB_FLOAT, CB_SUM,
						V2289, 12040), "(this one is 12.4)"));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_CE, CB_COLL_ALLREDUCE, CB_FLOAT, CB_SUM,
						V2289, DRV), "AllGather/AlltoAll/Gather/Scatter"));
}

/* User buffer registration: 2.19 on, every collective (alltoall's
 * ncclAlltoAll: 2.28). */
static void test_reg(void **state)
{
	(void)state;
	for (int c = 0; c < CB_COLL_COUNT; c++)
		assert_null(cb_nccl_path_why(CB_NCCL_REG, (enum cb_coll)c, CB_INT8, CB_MAX, V2289, DRV));
	assert_null(cb_nccl_path_why(CB_NCCL_REG, CB_COLL_ALLREDUCE, CB_DOUBLE, CB_PROD, 21900, 0));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_REG, CB_COLL_ALLREDUCE, CB_FLOAT, CB_SUM,
						21803, DRV), "came in 2.19"));
	assert_non_null(strstr(cb_nccl_path_why(CB_NCCL_REG, CB_COLL_ALLTOALL, CB_FLOAT, CB_SUM,
						22707, DRV), "ncclAlltoAll of NCCL 2.28"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_sym),
		cmocka_unit_test(test_ce),
		cmocka_unit_test(test_reg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
