/* cb_plan_lib: the plan of each algorithm, by name: one builder per
 * algorithm (src/plans/cb_plan_<name>.c), one line each in the table of
 * cb_plan_lib.c. A builder is a pure function of its arguments; every
 * executor, the cost model and the tests' oracle read what it builds. */
#ifndef CB_PLAN_LIB_H
#define CB_PLAN_LIB_H

#include <stddef.h>

#include "cb_plan.h"
#include "cb_status.h"

struct cb_plan_args {
	int n;              /* ranks, >= 1 */
	size_t count;       /* elements per rank */
	size_t esize;       /* bytes per element, >= 1 */
	int root;           /* ps: the root (with servers > 1, the first server) */
	int servers;        /* ps: servers, 1 .. n (0: 1) */
	size_t slice_count; /* the pipelining unit, elements (0: no slicing) */
	const int *rank_host; /* [n] the host of each rank, or NULL (one host) */
	const void *data;   /* the algorithm's own (cb_plan_algo.data); set by
			     * cb_plan_make */
};

typedef enum cb_status (*cb_plan_build_fn)(struct cb_plan *p, const struct cb_plan_args *a);

struct cb_plan_algo {
	const char *name;        /* -a's name, the rows' algo column */
	cb_plan_build_fn build;
	const char *description; /* one line for --help */
	const char *source;      /* where its schedule comes from */
	int ranks;               /* 0: a plan for any world size; else the only
				  * one it has a plan for (a plan file's) */
	const void *data;        /* handed to build in cb_plan_args.data */
};

/* Most plan algorithms a build has (the catalogue and the runtime keep a
 * slot for each). */
#define CB_PLAN_ALGOS_MAX 24

/* The plan algorithms, in display order; *n receives the count. */
const struct cb_plan_algo *cb_plan_algos(size_t *n);
/* A plan algorithm by name; NULL if unknown. */
const struct cb_plan_algo *cb_plan_algo_find(const char *name);

/* The one way to a plan: algorithm al's for a into p (cb_plan_init'ed, not
 * yet finished). On one rank every algorithm is the same plan, the input
 * copied to the result (a step with final), so builders see n >= 2.
 * Errors: CB_ERR_ARG (a->n or a->esize < 1, a world size other than
 * al->ranks, arguments its builder refuses), CB_ERR_NOMEM; p is left freed. */
enum cb_status cb_plan_make(const struct cb_plan_algo *al, const struct cb_plan_args *a,
			    struct cb_plan *p);

/* cb_plan_make of the algorithm named name; CB_ERR_ARG if none is. */
enum cb_status cb_plan_build(const char *name, const struct cb_plan_args *a, struct cb_plan *p);

/* Adds al (a plan file's, cb_plan_file.h) to the algorithms, after the
 * built-in ones; its name, description and source are copied, al->data must
 * outlive every use. An added algorithm of the same name is replaced (a
 * file loaded again). Errors: CB_ERR_ARG (a built-in's name, or
 * CB_PLAN_ALGOS_MAX reached). */
enum cb_status cb_plan_algo_add(const struct cb_plan_algo *al);

/* The built-in plan algorithms, in display order: one entry each,
 * X(name, description for --help, where its schedule comes from). The
 * builder of name is cb_plan_build_<name> (src/plans/cb_plan_<name>.c, for
 * n >= 2: cb_plan_make); a new algorithm is that file and one line here. */
#define CB_PLAN_BUILTINS(X) \
	X(ps, "parameter server: workers push to the root (-r), it reduces, workers pull " \
	  "(--servers K: K shards)", "the seed's parameter server; K servers: BytePS (OSDI 2020)") \
	X(ring, "ring: reduce-scatter then all-gather between neighbours, pipelined in slices", \
	  "Patarasuk and Yuan, JPDC 69(2), 2009; NCCL's slices") \
	X(oneshot, "one-shot: every rank reads every input and reduces the whole buffer (1 round " \
	  "of messages)", "vLLM's custom allreduce, 1-stage (vllm#2192); TensorRT-LLM's " \
	  "oneShotAllReduceKernel") \
	X(twoshot, "two-shot: reduce-scatter then all-gather by direct exchange with every peer " \
	  "(2 rounds)", "vLLM's custom allreduce, 2-stage; TensorRT-LLM's twoShotAllReduceKernel") \
	X(rd, "recursive doubling: log2 n rounds exchanging the whole buffer with a partner", \
	  "Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, section 4.5") \
	X(rabenseifner, "Rabenseifner: recursive-halving reduce-scatter, recursive-doubling " \
	  "all-gather", "Rabenseifner, ICCS 2004; Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005") \
	X(dbtree, "double binary tree: each half of the buffer reduced up and broadcast down a " \
	  "tree, in slices", "Sanders, Speck and Traff, ParCo 35(12), 2009; NCCL 2.4's trees") \
	X(hier, "hierarchical: reduce-scatter in each host, a ring of each shard between hosts, " \
	  "all-gather", "the two-level schemes of NCCL's CollNet and Horovod's hierarchical " \
	  "allreduce") \
	/* the end of CB_PLAN_BUILTINS: a new entry is one line above this one */

#define CB_PLAN_DECLARE(name, description, source) \
	enum cb_status cb_plan_build_##name(struct cb_plan *p, const struct cb_plan_args *a);
CB_PLAN_BUILTINS(CB_PLAN_DECLARE)
#undef CB_PLAN_DECLARE

#endif
