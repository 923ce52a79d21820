/* cb_algo: the static algorithm registry, selected by (collective, name)
 * (--coll, --algo ps,ring,mpi), never by if/else chains on names, and what an
 * algorithm needs of a backend (contract in cb_algo.h). The helpers the
 * algorithms share are below them, in cb_algo_common.c: this file names
 * every algorithm, so it sits above them. */
#include "cb_algo.h"

#include <string.h>

#include "cb_algo_plan.h"
#include "cb_catalog_nccl_paths.h"

/* The ops of the algorithms that are no plan: nccl (cb_algo_nccl.c, or
 * cb_algo_nccl_stub.c where CMake found no NCCL) and mpi of each
 * collective, Open MPI's forced algorithms, NCCL's forced algorithms and
 * protocols (cb_algo_nccl_forced.c, or its stub), copy. */
extern const struct cb_algo_ops cb_algo_nccl_ops[CB_COLL_COUNT];
extern const struct cb_algo_ops cb_algo_mpi_ops[CB_COLL_COUNT];
extern const struct cb_algo_ops cb_algo_mpi_forced_ops[CB_OMPI_NFORCED];
extern const struct cb_algo_ops cb_algo_nccl_forced_ops[CB_NCCL_NFORCED];
extern const struct cb_algo_ops cb_algo_copy_ops;
/* nccl.sym, nccl.ce (cb_algo_nccl_sym.c, or its stub) */
extern const struct cb_algo_ops cb_algo_nccl_path_ops[CB_NCCL_NPATHS][CB_COLL_COUNT];

/* The ops whose descriptor is d among those above; NULL if none. */
static const struct cb_algo_ops *fixed_ops(const struct cb_algo_desc *d)
{
	if (d == &cb_desc_nccl[d->coll])
		return &cb_algo_nccl_ops[d->coll];
	if (d == &cb_desc_mpi[d->coll])
		return &cb_algo_mpi_ops[d->coll];
	if (d == &cb_desc_copy)
		return &cb_algo_copy_ops;
	for (int p = 0; p < CB_NCCL_NPATHS; p++)
		if (d == &cb_desc_nccl_path[p][d->coll])
			return &cb_algo_nccl_path_ops[p][d->coll];
	for (int i = 0; i < CB_OMPI_NFORCED; i++)
		if (d == cb_algo_mpi_forced_ops[i].desc)
			return &cb_algo_mpi_forced_ops[i];
	for (int i = 0; i < CB_NCCL_NFORCED; i++)
		if (d == cb_algo_nccl_forced_ops[i].desc)
			return &cb_algo_nccl_forced_ops[i];
	return NULL;
}

/* Each collective's registry, in the catalogue's order: its plans' entries
 * (cb_algo_plan.h), then the others'. Made again when a plan was added. */
static const struct cb_algo_ops *registry[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX + 32];
static size_t nregistry[CB_COLL_COUNT], made_np[CB_COLL_COUNT];

const struct cb_algo_ops *const *cb_algo_registry_coll(enum cb_coll c, size_t *n)
{
	size_t np, na, k = 0, p = 0;
	const struct cb_algo_ops *const *plans = cb_algo_plan_registry_coll(c, &np);
	const struct cb_algo_desc *const *cat = cb_catalog_coll_algos(c, &na);

	*n = 0;
	if ((unsigned)c >= CB_COLL_COUNT)
		return NULL;
	if (nregistry[c] && np == made_np[c]) {
		*n = nregistry[c];
		return registry[c];
	}
	for (size_t i = 0; i < na && k < sizeof(registry[c]) / sizeof(registry[c][0]); i++) {
		const struct cb_algo_ops *o = cat[i]->plan ? (p < np ? plans[p++] : NULL)
							   : fixed_ops(cat[i]);

		if (o)
			registry[c][k++] = o;
	}
	nregistry[c] = k, made_np[c] = np;
	*n = k;
	return registry[c];
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
