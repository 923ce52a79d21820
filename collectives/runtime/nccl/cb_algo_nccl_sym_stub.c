/* nccl.sym, nccl.ce and nccl.reg where collbench was built without NCCL, or against
 * headers older than 2.28 (cmake: the calls they make, ncclCommWindowRegister
 * of 2.27 and ncclConfig_t.CTAPolicy and ncclAlltoAll of 2.28, are not
 * there): the names stay in the registry and every row says why. Replaces
 * cb_algo_nccl_sym.c in such builds. */
#include <stdio.h>

#include "cb_algo_common.h"
#include "cb_catalog_nccl_paths.h"

static const char why[] = "collbench was built without NCCL 2.28 or later (the NCCL "
			  "windows, CTAPolicy and ncclAlltoAll these rows call)";

static const char *stub_supports(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				 int in_place)
{
	(void)be, (void)dt, (void)op, (void)in_place;
	return why;
}

static enum cb_status stub_run(void *state, const struct cb_run_args *args)
{
	(void)state, (void)args;
	return CB_ERR_UNSUPPORTED;
}

#define STUB_COLL(id, name) [CB_COLL_##id] = { .desc = &cb_desc_nccl_path[CB_NCCL_SYM][CB_COLL_##id], \
	.supports = stub_supports, .setup = cb_algo_setup_backend, .run = stub_run, \
	.teardown = cb_algo_teardown_none },
#define STUB_CE(id, name) [CB_COLL_##id] = { .desc = &cb_desc_nccl_path[CB_NCCL_CE][CB_COLL_##id], \
	.supports = stub_supports, .setup = cb_algo_setup_backend, .run = stub_run, \
	.teardown = cb_algo_teardown_none },
#define STUB_REG(id, name) [CB_COLL_##id] = { .desc = &cb_desc_nccl_path[CB_NCCL_REG][CB_COLL_##id], \
	.supports = stub_supports, .setup = cb_algo_setup_backend, .run = stub_run, \
	.teardown = cb_algo_teardown_none },
const struct cb_algo_ops cb_algo_nccl_path_ops[CB_NCCL_NPATHS][CB_COLL_COUNT] = {
	[CB_NCCL_SYM] = { CB_COLLECTIVES(STUB_COLL) },
	[CB_NCCL_CE] = { CB_COLLECTIVES(STUB_CE) },
	[CB_NCCL_REG] = { CB_COLLECTIVES(STUB_REG) },
};
