/* The CUDA model's NCCL tuning: which algorithm and protocol a collective
 * runs (cm_nccl_pick, declared in cm_nccl.h), NCCL_ALGO and NCCL_PROTO as
 * NCCL reads them at communicator creation, and whether the model's box
 * and the model can run the result (cm_nccl_tune.c).
 *
 * Collectives are enum cb_coll's values (collectives/plans/cb_coll.h, not
 * on the model's include path): 0 allreduce, 1 reduce_scatter, 2
 * all_gather, 3 broadcast, 4 reduce; 5 alltoall, which NCCL_ALGO does not
 * steer. Algorithms and protocols are numbered in NCCL's order (src/include/
 * device.h: NCCL_ALGO_TREE 0 .. NCCL_ALGO_PAT 6; NCCL_PROTO_LL 0, LL128 1,
 * SIMPLE 2). */
#ifndef CM_NCCL_TUNE_H
#define CM_NCCL_TUNE_H

#include <nccl.h>
#include <stddef.h>

enum { CM_COLL_ALLREDUCE, CM_COLL_REDUCE_SCATTER, CM_COLL_ALL_GATHER, CM_COLL_BROADCAST,
       CM_COLL_REDUCE, CM_NCOLL };
enum cm_algo { CM_TREE, CM_RING, CM_COLLNET_DIRECT, CM_COLLNET_CHAIN, CM_NVLS, CM_NVLS_TREE,
	       CM_PAT, CM_NALGO };
enum cm_proto { CM_LL, CM_LL128, CM_SIMPLE, CM_NPROTO };

/* NCCL's names (NCCL_ALGO's and NCCL_PROTO's tokens, and what the
 * profiler's events say): "Tree" .. "PAT"; "LL", "LL128", "Simple". */
extern const char *const cm_algo_name[CM_NALGO], *const cm_proto_name[CM_NPROTO];

/* A communicator's tuning, fixed at its creation. */
struct cm_tune {
	unsigned algo_on[CM_NCOLL];  /* bit a: NCCL_ALGO leaves algorithm a on */
	unsigned proto_on[CM_NCOLL]; /* bit p: NCCL_PROTO leaves protocol p on */
	int proto_set;               /* NCCL_PROTO was set: LL128 is on only by it or NVLink */
	char algo_env[64];           /* NCCL_ALGO as it was ("" unset), for messages */
};

/* Parses NCCL's list syntax for collective coll into *on (bit i: names[i]
 * on): "a,b" only those, "^a,b" all but those, tokens case-insensitive and
 * unknown ones ignored (NCCL's parseList, src/graph/tuning.cc); since NCCL
 * 2.24 also "list;allreduce:list;broadcast:list", a list with a function's
 * name (NCCL's ncclFuncStr, case-insensitive) before a colon counting for
 * that function only, after the list without one. str NULL or "": all on. */
void cm_nccl_parse_list(const char *str, int coll, const char *const *names, int n, unsigned *on);

/* NCCL_ALGO and NCCL_PROTO of the environment now into *t (at creation). */
void cm_nccl_tune_init(struct cm_tune *t);

/* Why coll cannot run algorithm a with protocol p on n ranks of the model's
 * box: NULL when it can; else "box" (NCCL has no such path here: its
 * "no algorithm/protocol available") or "model" (NCCL would run it, the
 * model does not: NVLS, NVLSTree). */
const char *cm_nccl_cannot(int coll, int a, int p, int n);

struct ncclComm;
/* cm_nccl_pick's choice for a call of coll on bytes of datatype t, as
 * indices into cm_algo_name and cm_proto_name; or the call's error: NCCL's
 * ncclInternalError "no algorithm/protocol available for function AllReduce
 * with datatype ncclFloat32. NCCL_ALGO was set to NVLS." (src/enqueue.cc)
 * where nothing left on can run, ncclInvalidUsage where NCCL would run what
 * the model does not (NVLS). The communicator takes the error too. */
ncclResult_t cm_nccl_choose(struct ncclComm *c, int coll, size_t bytes, ncclDataType_t t, int *algo,
			    int *proto);

#endif
