/* The CUDA model's NCCL tuning (cm_nccl_tune.h): NCCL_ALGO and NCCL_PROTO,
 * what the model's box can run, and cm_nccl_pick (cm_nccl.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cm_nccl.h"

const char *const cm_algo_name[CM_NALGO] = { "Tree", "Ring", "CollNetDirect", "CollNetChain",
					     "NVLS", "NVLSTree", "PAT" };
const char *const cm_proto_name[CM_NPROTO] = { "LL", "LL128", "Simple" };
/* NCCL's ncclFuncStr, by the collectives' order here */
static const char *const func_name[CM_NCOLL] = { "AllReduce", "ReduceScatter", "AllGather",
						 "Broadcast", "Reduce" };

#define BIT(a) (1u << (a))
/* The algorithms NCCL builds kernels for, per collective (NCCL 2.28,
 * src/device/generate.py, algos_of_coll); LL and LL128 only for Ring and
 * Tree (its required_cuda). */
static const unsigned built[CM_NCOLL] = {
	[CM_COLL_ALLREDUCE] = BIT(CM_TREE) | BIT(CM_RING) | BIT(CM_COLLNET_DIRECT) |
			      BIT(CM_COLLNET_CHAIN) | BIT(CM_NVLS) | BIT(CM_NVLS_TREE),
	[CM_COLL_REDUCE_SCATTER] = BIT(CM_RING) | BIT(CM_COLLNET_DIRECT) | BIT(CM_NVLS) | BIT(CM_PAT),
	[CM_COLL_ALL_GATHER] = BIT(CM_RING) | BIT(CM_COLLNET_DIRECT) | BIT(CM_NVLS) | BIT(CM_PAT),
	[CM_COLL_BROADCAST] = BIT(CM_RING),
	[CM_COLL_REDUCE] = BIT(CM_RING),
};


/* One list ("a,b" or "^a,b", len bytes at s) into *on. */
static void parse_one(const char *s, size_t len, const char *const *names, int n, unsigned *on)
{
	int excl = len && s[0] == '^';
	unsigned m = 0;

	s += excl, len -= (size_t)excl;
	while (len) {
		const char *comma = memchr(s, ',', len);
		size_t k = comma ? (size_t)(comma - s) : len;

		for (int i = 0; i < n; i++)
			if (strlen(names[i]) == k && strncasecmp(s, names[i], k) == 0)
				m |= BIT(i);
		s += k + (comma != NULL), len -= k + (comma != NULL);
	}
	*on = excl ? (BIT(n) - 1) & ~m : m;
}

void cm_nccl_parse_list(const char *str, int coll, const char *const *names, int n, unsigned *on)
{
	*on = BIT(n) - 1;
	for (const char *seg = str ? str : ""; *seg;) {
		size_t len = strcspn(seg, ";");
		const char *colon = memchr(seg, ':', len);

		if (!colon)
			parse_one(seg, len, names, n, on);
		else if (coll >= 0 && coll < CM_NCOLL && strlen(func_name[coll]) == (size_t)(colon - seg) &&
			 strncasecmp(seg, func_name[coll], (size_t)(colon - seg)) == 0)
			parse_one(colon + 1, len - (size_t)(colon + 1 - seg), names, n, on);
		seg += len + (seg[len] == ';');
	}
}

void cm_nccl_tune_init(struct cm_tune *t)
{
	const char *algo = getenv("NCCL_ALGO"), *proto = getenv("NCCL_PROTO");

	memset(t, 0, sizeof(*t));
	for (int c = 0; c < CM_NCOLL; c++) {
		cm_nccl_parse_list(algo, c, cm_algo_name, CM_NALGO, &t->algo_on[c]);
		cm_nccl_parse_list(proto, c, cm_proto_name, CM_NPROTO, &t->proto_on[c]);
	}
	t->proto_set = proto && *proto;
	snprintf(t->algo_env, sizeof(t->algo_env), "%s", algo ? algo : "");
}

/* NCCL's paths on one host of the model's box: CollNet needs a CollNet
 * network (SHARP plugin), PAT one GPU per node (NCCL 2.23+), NVLSTree
 * several nodes; NVLS needs NVLink SHARP (cm_topo_has_nvls), and the model
 * does not move bytes as NVLS does (multimem loads and stores through the
 * switch, no GPU-to-GPU pair to count them on). */
const char *cm_nccl_cannot(int coll, int a, int p, int n)
{
	if (coll < 0 || coll >= CM_NCOLL || a < 0 || a >= CM_NALGO || p < 0 || p >= CM_NPROTO ||
	    !(built[coll] & BIT(a)) || (p != CM_SIMPLE && a != CM_RING && a != CM_TREE))
		return "box";
	if (a == CM_COLLNET_DIRECT || a == CM_COLLNET_CHAIN || a == CM_PAT || a == CM_NVLS_TREE)
		return "box";
	if (a == CM_NVLS)
		return cm_topo_has_nvls() && n > 1 ? "model" : "box";
	return NULL;
}

/* 1 when t leaves (a, p) on for coll and the box has it (LL128 is on by
 * default only with NVLink: NCCL enables it by default only where it was
 * validated, NVLink on Volta, Ampere and Hopper; tuning.cc). */
static int usable(const struct ncclComm *c, int coll, int a, int p)
{
	const struct cm_tune *t = &c->tune;
	const char *why = cm_nccl_cannot(coll, a, p, c->nranks);

	if (!(t->algo_on[coll] & BIT(a)) || !(t->proto_on[coll] & BIT(p)))
		return 0;
	if (p == CM_LL128 && !t->proto_set && !cm_topo_has_nvlink())
		return 0;
	return !why || strcmp(why, "box") != 0;
}

/* The model's rule (a simplification of NCCL's cost model, ncclTopoTuneModel
 * and topoGetAlgoInfo: latency-bound sizes take the low-latency protocol,
 * bandwidth-bound ones Simple): protocol by size, up to 64 KiB LL, up to 4
 * MiB LL128, above Simple, each falling back to the next that is on;
 * algorithm: allreduce on 4 ranks or more up to 64 KiB Tree (its log-depth
 * latency), else Ring, falling back to the other, then to whatever else is
 * on (NVLS where only it is: the call then says the model does not run
 * it). Channels: one per 64 KiB, at most 2 without NVLink and 16 with it
 * (a count for the profiler's events: the model moves the bytes of every
 * channel on one path). */
void cm_nccl_pick(const struct ncclComm *c, int coll, size_t bytes, const char **algo,
		  const char **proto, int *nchannels)
{
	static const int small[] = { CM_LL, CM_LL128, CM_SIMPLE }, mid[] = { CM_LL128, CM_SIMPLE, CM_LL },
			 large[] = { CM_SIMPLE, CM_LL128, CM_LL };
	const int *pp = bytes <= (64u << 10) ? small : bytes <= (4u << 20) ? mid : large;
	int tree_first = coll == CM_COLL_ALLREDUCE && c->nranks >= 4 && bytes <= (64u << 10);
	int order[CM_NALGO] = { tree_first ? CM_TREE : CM_RING, tree_first ? CM_RING : CM_TREE,
				CM_NVLS, CM_NVLS_TREE, CM_COLLNET_DIRECT, CM_COLLNET_CHAIN, CM_PAT };
	size_t most = cm_topo_has_nvlink() ? 16 : 2, ch = bytes >> 16;

	*algo = *proto = NULL;
	*nchannels = 0;
	if (coll < 0 || coll >= CM_NCOLL) /* alltoall: sends and receives, no algorithm */
		return;
	for (int i = 0; i < CM_NALGO && !*algo; i++)
		for (int j = 0; j < CM_NPROTO && !*algo; j++)
			if (usable(c, coll, order[i], pp[j])) {
				*algo = cm_algo_name[order[i]];
				*proto = cm_proto_name[pp[j]];
				*nchannels = (int)(ch < 1 ? 1 : ch > most ? most : ch);
			}
}

/* NCCL's names of its datatypes (ncclDataType_t), for messages. */
static const char *type_name(ncclDataType_t t)
{
	static const char *const names[] = { "ncclInt8", "ncclUint8", "ncclInt32", "ncclUint32",
					     "ncclInt64", "ncclUint64", "ncclFloat16", "ncclFloat32",
					     "ncclFloat64", "ncclBfloat16" };

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "an unknown datatype";
}

static int index_of(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (name && strcmp(names[i], name) == 0)
			return i;
	return -1;
}

ncclResult_t cm_nccl_choose(struct ncclComm *c, int coll, size_t bytes, ncclDataType_t t, int *algo,
			    int *proto)
{
	const char *a, *p;
	int nch;

	cm_nccl_pick(c, coll, bytes, &a, &p, &nch);
	*algo = index_of(cm_algo_name, CM_NALGO, a);
	*proto = index_of(cm_proto_name, CM_NPROTO, p);
	if (*algo < 0 || *proto < 0)
		return cm_nccl_fail(c, ncclInternalError, "no algorithm/protocol available for function %s "
				    "with datatype %s%s%s%s",
				    coll >= 0 && coll < CM_NCOLL ? func_name[coll] : "SendRecv", type_name(t),
				    c->tune.algo_env[0] ? ". NCCL_ALGO was set to " : "", c->tune.algo_env,
				    c->tune.algo_env[0] ? "." : "");
	if (cm_nccl_cannot(coll, *algo, *proto, c->nranks))
		return cm_nccl_fail(c, ncclInvalidUsage, "cuda model: %s is not modelled (NCCL would run "
				    "it on this topology; CB_CUDA_MODEL_TOPO)", a);
	return ncclSuccess;
}
