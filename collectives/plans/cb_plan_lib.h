/* cb_plan_lib: the plan of each algorithm, keyed by (collective, name): one
 * builder per algorithm (allreduce's: collectives/plans/cb_plan_<name>.c; the
 * other collectives': collectives/plans/cb_plan_<collective>.c), one line each
 * in the table below. A builder is a pure function of its arguments; every
 * executor, the cost model and the tests' oracle read what it builds. */
#ifndef CB_PLAN_LIB_H
#define CB_PLAN_LIB_H

#include <stddef.h>

#include "cb_plan.h"
#include "cb_status.h"

struct cb_plan_args {
	int n;              /* ranks, >= 1 */
	size_t count;       /* the collective's count (cb_coll.h; allreduce:
			     * elements per rank) */
	size_t esize;       /* bytes per element, >= 1 */
	int root;           /* ps: the root (with servers > 1, the first server);
			     * the rooted collectives' and the ps-style ones' */
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
	enum cb_coll coll;       /* the collective it is a plan of */
};

/* Most plan algorithms a build has of one collective (built-in and added;
 * the catalogue and the runtime keep a slot for each). */
#define CB_PLAN_ALGOS_MAX 24

/* The plan algorithms of collective c, built-in then added (plan files),
 * in display order; *n receives the count (0, and NULL, past
 * CB_COLL_COUNT). */
const struct cb_plan_algo *cb_plan_coll_algos(enum cb_coll c, size_t *n);
/* Collective c's plan algorithm of that name; NULL if unknown. */
const struct cb_plan_algo *cb_plan_coll_find(enum cb_coll c, const char *name);

/* The one way to a plan: algorithm al's for a into p (cb_plan_init'ed, not
 * yet finished; al NULL: CB_ERR_ARG). On one rank every algorithm is the same plan, the input
 * copied to the result (a step with final where the collective reduces),
 * so builders see n >= 2. Errors: CB_ERR_ARG (a->n or a->esize < 1, a world
 * size other than al->ranks, a root out of range for a rooted collective, a
 * split one's count not a multiple of n, arguments its builder refuses),
 * CB_ERR_NOMEM; p is left freed. */
enum cb_status cb_plan_make(const struct cb_plan_algo *al, const struct cb_plan_args *a,
			    struct cb_plan *p);

/* Adds al (a plan file's, cb_plan_file.h) to the algorithms of its
 * collective (al->coll), after the built-in ones; its name, description and source are copied, al->data must
 * outlive every use. An added algorithm of the same name is replaced (a
 * file loaded again). Errors: CB_ERR_ARG (a built-in's name, al->coll
 * out of range, or CB_PLAN_ALGOS_MAX reached). */
enum cb_status cb_plan_algo_add(const struct cb_plan_algo *al);

/* The built-in plans of every collective, one table keyed by (collective,
 * algorithm), in display order within each collective: one entry each,
 * X(collective, name, description for --help, where its schedule comes
 * from). The builder of (c, name) is cb_plan_build_<c>_<name>
 * (collectives/plans/cb_plan_<c>.c, or cb_plan_<name>.c for allreduce's;
 * for n >= 2: cb_plan_make). A new algorithm is that function and one line
 * here; a new collective's plans are lines here too. */
#define CB_PLAN_BUILTINS(X) \
	X(allreduce, ps, "parameter server: workers push to the root (-r), it reduces, workers " \
	  "pull (--servers K: K shards)", "the seed's parameter server; K servers: BytePS " \
	  "(OSDI 2020)") \
	X(allreduce, ring, "ring: reduce-scatter then all-gather between neighbours, pipelined in " \
	  "slices", "Patarasuk and Yuan, JPDC 69(2), 2009; NCCL's slices") \
	X(allreduce, oneshot, "one-shot: every rank reads every input and reduces the whole buffer " \
	  "(1 round of messages)", "vLLM's custom allreduce, 1-stage (vllm#2192); TensorRT-LLM's " \
	  "oneShotAllReduceKernel") \
	X(allreduce, twoshot, "two-shot: reduce-scatter then all-gather by direct exchange with " \
	  "every peer (2 rounds)", "vLLM's custom allreduce, 2-stage; TensorRT-LLM's " \
	  "twoShotAllReduceKernel") \
	X(allreduce, rd, "recursive doubling: log2 n rounds exchanging the whole buffer with a " \
	  "partner", "Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, section 4.5") \
	X(allreduce, rabenseifner, "Rabenseifner: recursive-halving reduce-scatter, " \
	  "recursive-doubling all-gather", "Rabenseifner, ICCS 2004; Thakur, Rabenseifner and " \
	  "Gropp, IJHPCA 19(1), 2005") \
	X(allreduce, dbtree, "double binary tree: each half of the buffer reduced up and broadcast " \
	  "down a tree, in slices", "Sanders, Speck and Traff, ParCo 35(12), 2009; NCCL 2.4's " \
	  "trees") \
	X(allreduce, hier, "hierarchical: reduce-scatter in each host, a ring of each shard " \
	  "between hosts, all-gather", "the two-level schemes of NCCL's CollNet and Horovod's " \
	  "hierarchical allreduce") \
	X(reduce_scatter, ring, "ring: n-1 steps between neighbours, " \
	  "each rank's block pipelined in slices", "Patarasuk and Yuan, JPDC 69(2), 2009 " \
	  "(the ring allreduce's first half)") \
	X(reduce_scatter, direct, "direct: every rank reduces its block " \
	  "over every peer's input (1 round)", "the two-shot allreduce's first round") \
	X(reduce_scatter, ps, "ps-style: the root reduces the whole " \
	  "buffer, then every rank pulls its block", "the seed's parameter server, halved") \
	X(all_gather, ring, "ring: n-1 steps between neighbours, pipelined " \
	  "in slices", "Patarasuk and Yuan, JPDC 69(2), 2009 (the ring allreduce's second half)") \
	X(all_gather, direct, "direct: every rank pulls every peer's block " \
	  "(1 round)", "the two-shot allreduce's second round") \
	X(all_gather, ps, "ps-style: the root gathers every block, then " \
	  "every rank pulls the whole", "the seed's parameter server, halved") \
	X(broadcast, ps, "ps-style: every rank pulls the root's buffer " \
	  "(1 round; the root sends (n-1)S)", "the seed's parameter server's pull") \
	X(broadcast, chain, "chain: root, root+1, ... each forwarding to " \
	  "the next, pipelined in slices", "Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005; " \
	  "NCCL's ring broadcast") \
	X(broadcast, binomial, "binomial tree: ceil(log2 n) rounds, each " \
	  "doubling the ranks that hold the buffer", "Thakur, Rabenseifner and Gropp, IJHPCA " \
	  "19(1), 2005, section 4.1") \
	X(reduce, ps, "ps-style: the root reduces every rank's input (1 round; " \
	  "the root receives (n-1)S)", "the seed's parameter server's push") \
	X(reduce, chain, "chain: partials flow from root-1 around to the root, " \
	  "pipelined in slices", "NCCL's ring reduce") \
	X(reduce, binomial, "binomial tree: ceil(log2 n) rounds, each halving " \
	  "the ranks that hold a partial", "Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, " \
	  "section 4.1 (the broadcast's tree, reversed)") \
	X(alltoall, direct, "direct: every rank reads its block of every peer's " \
	  "input (pairwise, 1 round, then a local copy)", "Thakur, Rabenseifner and Gropp, " \
	  "IJHPCA 19(1), 2005 (pairwise exchange)") \
	X(alltoall, ps, "ps-style: the root gathers every input, then every " \
	  "rank pulls its blocks (the root carries (n-1)S each way)", "the seed's parameter server") \
	/* the end of CB_PLAN_BUILTINS: a new entry is one line above this one */

#define CB_PLAN_DECLARE(coll, name, description, source) \
	enum cb_status cb_plan_build_##coll##_##name(struct cb_plan *p, \
						     const struct cb_plan_args *a);
CB_PLAN_BUILTINS(CB_PLAN_DECLARE)
#undef CB_PLAN_DECLARE

#endif
