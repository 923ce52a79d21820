/* cb_algo: the static algorithm registry, selected by name (-a ps,ring,mpi),
 * never by if/else chains on names, and what an algorithm needs of a
 * backend (contract in cb_algo.h). The helpers the algorithms share are
 * below them, in cb_algo_common.c: this file names every algorithm, so it
 * sits above them. */
#include "cb_algo.h"

#include <string.h>

#include "cb_algo_plan.h"

/* cb_algo_nccl_ops comes from cb_algo_nccl.c, or from cb_algo_nccl_stub.c
 * where CMake found no NCCL */
extern const struct cb_algo_ops cb_algo_nccl_ops;
extern const struct cb_algo_ops cb_algo_mpi_ops;
extern const struct cb_algo_ops cb_algo_copy_ops;
extern const struct cb_algo_ops cb_algo_mpi_forced_ops[CB_OMPI_NALLREDUCE];
extern const struct cb_algo_ops cb_algo_mpi_coll_ops[CB_COLL_COUNT];  /* cb_algo_mpi_coll.c */
extern const struct cb_algo_ops cb_algo_nccl_coll_ops[CB_COLL_COUNT]; /* cb_algo_nccl*.c */

/* After the plan algorithms (cb_algo_plan.h), the ones that are no plan, in
 * the catalogue's order. */
#define CB_OMPI_REF(name, number, what) &cb_algo_mpi_forced_ops[CB_OMPI_##name],
static const struct cb_algo_ops *const fixed[] = {
	&cb_algo_nccl_ops,
	&cb_algo_mpi_ops,
	CB_OMPI_ALLREDUCE(CB_OMPI_REF)
	&cb_algo_copy_ops,
};
#undef CB_OMPI_REF

#define NFIXED (sizeof(fixed) / sizeof(fixed[0]))

static const struct cb_algo_ops *registry[CB_PLAN_ALGOS_MAX + NFIXED];
static size_t nregistry, made_np;

/* Made again when a plan algorithm was added (cb_plan_algo_add). */
const struct cb_algo_ops *const *cb_algo_registry(size_t *n)
{
	size_t np;
	const struct cb_algo_ops *const *plans = cb_algo_plan_registry(&np);

	if (!nregistry || np != made_np) {
		nregistry = 0;
		made_np = np;
		for (size_t i = 0; i < np; i++)
			registry[nregistry++] = plans[i];
		for (size_t i = 0; i < NFIXED; i++)
			registry[nregistry++] = fixed[i];
	}
	*n = nregistry;
	return registry;
}

const struct cb_algo_ops *cb_algo_find(const char *name)
{
	size_t n;
	const struct cb_algo_ops *const *reg = cb_algo_registry(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(reg[i]->desc->name, name) == 0)
			return reg[i];
	return NULL;
}

unsigned cb_algo_needs(const struct cb_algo_ops *a)
{
	return a->two_sided_code ? a->desc->two_sided_needs : a->desc->needs;
}

int cb_algo_runs_on(const struct cb_algo_ops *a, const struct cb_backend_ops *be)
{
	return cb_caps_have(be->desc, cb_algo_needs(a)) ||
	       (a->two_sided && cb_algo_runs_on(a->two_sided, be));
}

const struct cb_algo_ops *cb_algo_over(const struct cb_algo_ops *a, int one_sided)
{
	return !one_sided && a->two_sided ? a->two_sided : a;
}

/* The other collectives' registries, made once (their plans are fixed). */
static const struct cb_algo_ops *coll_reg[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX + 2];
static size_t coll_nreg[CB_COLL_COUNT];

const struct cb_algo_ops *const *cb_algo_registry_coll(enum cb_coll c, size_t *n)
{
	size_t np;
	const struct cb_algo_ops *const *plans;

	if (c == CB_COLL_ALLREDUCE)
		return cb_algo_registry(n);
	*n = 0;
	if ((unsigned)c >= CB_COLL_COUNT)
		return NULL;
	if (!coll_nreg[c]) {
		plans = cb_algo_plan_registry_coll(c, &np);
		for (size_t i = 0; i < np; i++)
			coll_reg[c][coll_nreg[c]++] = plans[i];
		coll_reg[c][coll_nreg[c]++] = &cb_algo_nccl_coll_ops[c];
		coll_reg[c][coll_nreg[c]++] = &cb_algo_mpi_coll_ops[c];
	}
	*n = coll_nreg[c];
	return coll_reg[c];
}

const struct cb_algo_ops *cb_algo_find_coll(enum cb_coll c, const char *name)
{
	size_t n;
	const struct cb_algo_ops *const *reg = cb_algo_registry_coll(c, &n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(reg[i]->desc->name, name) == 0)
			return reg[i];
	return NULL;
}
