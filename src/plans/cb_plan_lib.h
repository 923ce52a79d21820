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
};

typedef enum cb_status (*cb_plan_build_fn)(struct cb_plan *p, const struct cb_plan_args *a);

struct cb_plan_algo {
	const char *name;        /* -a's name, the rows' algo column */
	cb_plan_build_fn build;
	const char *description; /* one line for --help */
	const char *source;      /* where its schedule comes from */
};

/* Most plan algorithms a build has (the catalogue and the runtime keep a
 * slot for each). */
#define CB_PLAN_ALGOS_MAX 24

/* The plan algorithms, in display order; *n receives the count. */
const struct cb_plan_algo *cb_plan_algos(size_t *n);
/* A plan algorithm by name; NULL if unknown. */
const struct cb_plan_algo *cb_plan_algo_find(const char *name);

/* Builds algorithm name's plan for a into p (cb_plan_init'ed by it; not yet
 * finished). Errors: CB_ERR_ARG (unknown name, arguments it refuses),
 * CB_ERR_NOMEM; p is left freed. */
enum cb_status cb_plan_build(const char *name, const struct cb_plan_args *a, struct cb_plan *p);

/* The builders (one file each). */
enum cb_status cb_plan_build_ring(struct cb_plan *p, const struct cb_plan_args *a);
enum cb_status cb_plan_build_ps(struct cb_plan *p, const struct cb_plan_args *a);
enum cb_status cb_plan_build_oneshot(struct cb_plan *p, const struct cb_plan_args *a);
enum cb_status cb_plan_build_twoshot(struct cb_plan *p, const struct cb_plan_args *a);
enum cb_status cb_plan_build_rd(struct cb_plan *p, const struct cb_plan_args *a);
enum cb_status cb_plan_build_rabenseifner(struct cb_plan *p, const struct cb_plan_args *a);
enum cb_status cb_plan_build_dbtree(struct cb_plan *p, const struct cb_plan_args *a);
enum cb_status cb_plan_build_hier(struct cb_plan *p, const struct cb_plan_args *a);

#endif
