/* nccl where collbench was built without NCCL (CMake found none, or
 * CB_WITH_NCCL=OFF): the name stays in the registry, so --algo nccl and the
 * default list of the cuda backend still know it, and every row says why it
 * did not run. Replaces cb_algo_nccl.c and cb_algo_nccl_forced.c in such
 * builds (cmake/cuda.cmake). */
#include <stdio.h>

#include "cb_algo_common.h"

static const char why[] = "collbench was built without NCCL (set NCCL_HOME and rebuild)";

static const char *nccl_stub_supports(const struct cb_backend *be, enum cb_dtype dt,
				      enum cb_op op, int in_place)
{
	(void)be, (void)dt, (void)op, (void)in_place;
	return why;
}

static enum cb_status nccl_stub_run(void *state, const struct cb_run_args *args)
{
	(void)state, (void)args;
	return CB_ERR_UNSUPPORTED;
}

static void nccl_stub_describe(char *buf, size_t len)
{
	snprintf(buf, len, "NCCL not built");
}

#define NCCL_COLL(id, name) \
	[CB_COLL_##id] = { .desc = &cb_desc_nccl[CB_COLL_##id], .supports = nccl_stub_supports, \
			   .setup = cb_algo_setup_backend, /* never run: supports() refuses */ \
			   .run = nccl_stub_run, .teardown = cb_algo_teardown_none, \
			   .describe = nccl_stub_describe },
const struct cb_algo_ops cb_algo_nccl_ops[CB_COLL_COUNT] = { CB_COLLECTIVES(NCCL_COLL) };
#undef NCCL_COLL

/* and the forced nccl.<algo>.<proto> rows (cb_algo_nccl_forced.c) */
#define NCCL_FORCED(coll, algo, proto, a, p, sched) \
	[CB_NCCL_##coll##_##algo##_##proto] = { \
		.desc = &cb_desc_nccl_forced[CB_NCCL_##coll##_##algo##_##proto], \
		.supports = nccl_stub_supports, .setup = cb_algo_setup_backend, \
		.run = nccl_stub_run, .teardown = cb_algo_teardown_none },
const struct cb_algo_ops cb_algo_nccl_forced_ops[CB_NCCL_NFORCED] = { CB_NCCL_FORCED(NCCL_FORCED) };
#undef NCCL_FORCED
