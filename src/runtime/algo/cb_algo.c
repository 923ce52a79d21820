/* cb_algo: the static algorithm registry, selected by name (-a ps,ring,mpi),
 * never by if/else chains on names, and what an algorithm needs of a
 * backend (contract in cb_algo.h). The helpers the algorithms share are
 * below them, in cb_algo_common.c: this file names every algorithm, so it
 * sits above them. */
#include "cb_algo.h"

#include <string.h>

/* cb_algo_nccl_ops comes from cb_algo_nccl.c, or from cb_algo_nccl_stub.c
 * where CMake found no NCCL */
extern const struct cb_algo_ops cb_algo_ps_ops;
extern const struct cb_algo_ops cb_algo_ring_ops;
extern const struct cb_algo_ops cb_algo_nccl_ops;
extern const struct cb_algo_ops cb_algo_mpi_ops;
extern const struct cb_algo_ops cb_algo_copy_ops;

static const struct cb_algo_ops *const registry[] = {
	&cb_algo_ps_ops,
	&cb_algo_ring_ops,
	&cb_algo_nccl_ops,
	&cb_algo_mpi_ops,
	&cb_algo_copy_ops,
};

const struct cb_algo_ops *const *cb_algo_registry(size_t *n)
{
	*n = sizeof(registry) / sizeof(registry[0]);
	return registry;
}

const struct cb_algo_ops *cb_algo_find(const char *name)
{
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (strcmp(registry[i]->desc->name, name) == 0)
			return registry[i];
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
