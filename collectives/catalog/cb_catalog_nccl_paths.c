/* NCCL's newer paths: their rows and when NCCL takes them (contract in
 * cb_catalog_nccl_paths.h). The rules are NCCL's own, read in its sources
 * (github.com/NVIDIA/nccl, tags v2.27.7-1 and v2.28.9-1), each cited where
 * it is applied. */
#include "cb_catalog_nccl_paths.h"

#include <stdio.h>

#define PATH_DESC(c, name_, what) \
	{ .name = name_, .description = what, .result = CB_RESULT_ALLREDUCE, \
	  .needs = CB_CAP_CUDA_MEMORY, .moves = "library", .on_request = 1, .coll = c }
#define SYM_TEXT "the NCCL call on ncclMemAlloc buffers registered as symmetric windows " \
		 "(NCCL 2.27+: its symmetric kernels; one node; traffic unmeasured)"
#define CE_TEXT "the NCCL call on symmetric windows, communicator CTAPolicy ZERO (NCCL 2.28+: " \
		"copy-engine collectives, no SMs; one node; traffic unmeasured)"
#define REG_TEXT "the NCCL call on ncclMemAlloc buffers registered with ncclCommRegister " \
		 "(NCCL 2.19+: NCCL's choice; zero-copy NVLS or IPC; traffic unmeasured)"
#define PATH_ROW(id, nm) [CB_COLL_##id] = PATH_DESC(CB_COLL_##id, "nccl.sym", SYM_TEXT),
#define CE_ROW(id, nm) [CB_COLL_##id] = PATH_DESC(CB_COLL_##id, "nccl.ce", CE_TEXT),
#define REG_ROW(id, nm) [CB_COLL_##id] = PATH_DESC(CB_COLL_##id, "nccl.reg", REG_TEXT),
const struct cb_algo_desc cb_desc_nccl_path[CB_NCCL_NPATHS][CB_COLL_COUNT] = {
	[CB_NCCL_SYM] = { CB_COLLECTIVES(PATH_ROW) },
	[CB_NCCL_CE] = { CB_COLLECTIVES(CE_ROW) },
	[CB_NCCL_REG] = { CB_COLLECTIVES(REG_ROW) },
};
#undef PATH_ROW
#undef CE_ROW
#undef REG_ROW

static char text[CB_NCCL_NPATHS][160];

/* "2.28.9" into buf from an NCCL_VERSION_CODE (2.9+: X*10000 + Y*100 + Z). */
static const char *version_text(char *buf, size_t len, int v)
{
	snprintf(buf, len, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
	return buf;
}

/* Symmetric kernels: AllGather of any type; AllReduce and ReduceScatter of
 * sum on float, half, bfloat16 (and fp8) only, not double or integers
 * (2.27 symmetric.cc ncclSymImplemented; 2.28 sym_kernels.cc
 * ncclSymkImplemented). Other collectives take NCCL's usual kernels even
 * on registered windows, which is no symmetric row. */
static const char *sym_why(enum cb_coll c, enum cb_dtype dt, enum cb_op op, int version)
{
	char v[32];

	if (version < 22700) {
		snprintf(text[CB_NCCL_SYM], sizeof(text[0]), "NCCL %s runs here; symmetric-memory "
			 "kernels came in 2.27", version_text(v, sizeof(v), version));
		return text[CB_NCCL_SYM];
	}
	if (c == CB_COLL_ALL_GATHER)
		return NULL;
	if (c != CB_COLL_ALLREDUCE && c != CB_COLL_REDUCE_SCATTER)
		return "NCCL's symmetric kernels are AllReduce/AllGather/ReduceScatter only";
	if (op != CB_SUM || (dt != CB_FLOAT && dt != CB_HALF && dt != CB_BFLOAT16))
		return "NCCL's symmetric kernels reduce only sum on float/half/bfloat16";
	return NULL;
}

/* Copy-engine collectives: AllGather, AlltoAll, Gather, Scatter, any type,
 * with a CUDA driver of 12.5 or later (2.28 ce_coll.cc ncclCeImplemented),
 * taken when both buffers are symmetric windows, the communicator's
 * CTAPolicy is NCCL_CTA_POLICY_ZERO and it spans one node (enqueue.cc
 * taskAppend). collbench runs AllGather and AlltoAll (ncclAlltoAll, 2.28). */
static const char *ce_why(enum cb_coll c, int version, int driver)
{
	char v[32];

	if (version < 22800) {
		snprintf(text[CB_NCCL_CE], sizeof(text[0]), "NCCL %s runs here; copy-engine "
			 "collectives came in 2.28", version_text(v, sizeof(v), version));
		return text[CB_NCCL_CE];
	}
	if (c != CB_COLL_ALL_GATHER && c != CB_COLL_ALLTOALL)
		return "NCCL's copy-engine collectives are AllGather/AlltoAll/Gather/Scatter only";
	if (driver < 12050) {
		snprintf(text[CB_NCCL_CE], sizeof(text[0]), "NCCL's copy-engine collectives need a "
			 "CUDA driver of 12.5 or later (this one is %d.%d)", driver / 1000,
			 driver % 1000 / 10);
		return text[CB_NCCL_CE];
	}
	return NULL;
}

/* User buffer registration: ncclMemAlloc and ncclCommRegister came in 2.19
 * (NCCL docs, "User Buffer Registration", 2.19: NVLS registration of
 * ncclMemAlloc'd buffers); every collective takes registered buffers (a
 * path that cannot use them copies as on unregistered ones). alltoall's
 * call here is ncclAlltoAll (2.28), not the nccl row's group of sends. */
static const char *reg_why(enum cb_coll c, int version)
{
	char v[32];

	if (c == CB_COLL_ALLTOALL && version >= 21900 && version < 22800)
		return "collbench's alltoall on registered buffers is ncclAlltoAll of NCCL 2.28";
	if (version >= 21900)
		return NULL;
	snprintf(text[CB_NCCL_REG], sizeof(text[0]), "NCCL %s runs here; ncclMemAlloc and user "
		 "buffer registration came in 2.19", version_text(v, sizeof(v), version));
	return text[CB_NCCL_REG];
}

const char *cb_nccl_path_why(enum cb_nccl_path p, enum cb_coll c, enum cb_dtype dt,
			     enum cb_op op, int version, int driver)
{
	switch (p) {
	case CB_NCCL_SYM: return sym_why(c, dt, op, version);
	case CB_NCCL_CE: return ce_why(c, version, driver);
	case CB_NCCL_REG: return reg_why(c, version);
	default: return "no such NCCL path";
	}
}
