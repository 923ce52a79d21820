/* cb_catalog_ompi: which of its allreduce algorithms Open MPI runs when none
 * is forced (contract in cb_catalog.h).
 *
 * coll/tuned serves MPI_Allreduce on one host by default and picks an
 * algorithm from the rank count and the message size with a fixed table
 * (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_allreduce_intra_dec_fixed, tag v4.1.4; commutative ops,
 * which every collbench op is), then ompi/mca/coll/base/
 * coll_base_allreduce.c falls back to recursive doubling (3) where its ring
 * (4) or segmented ring (5) has fewer than n elements and where
 * Rabenseifner (6) has fewer than the largest power of two <= n. */
#include "cb_catalog.h"

/* The commutative branch of the v4.1.4 table: for n < below, the first
 * (bytes < lt) entry wins; lt 0 ends a row (its alg is the "else"). */
static const struct {
	int below;
	struct { size_t lt; int alg; } e[7];
} ompi_table[] = {
	{ 4, { { 8, 4 }, { 4096, 3 }, { 8192, 4 }, { 16384, 3 }, { 65536, 4 }, { 262144, 5 },
	       { 0, 6 } } },
	{ 8, { { 16, 4 }, { 8192, 3 }, { 0, 6 } } },
	{ 16, { { 8192, 3 }, { 0, 6 } } },
	{ 32, { { 64, 5 }, { 4096, 3 }, { 0, 6 } } },
	{ 64, { { 128, 5 }, { 0, 6 } } },
	{ 128, { { 262144, 3 }, { 0, 6 } } },
	{ 256, { { 131072, 2 }, { 262144, 3 }, { 0, 6 } } },
	{ 512, { { 4096, 2 }, { 0, 6 } } },
	{ 2048, { { 2048, 2 }, { 16384, 3 }, { 0, 6 } } },
	{ 4096, { { 2048, 2 }, { 4096, 5 }, { 16384, 3 }, { 0, 6 } } },
	{ 1 << 30, { { 2048, 2 }, { 16384, 5 }, { 32768, 3 }, { 0, 6 } } },
};

int cb_catalog_ompi_choice(int n, size_t bytes, size_t count)
{
	size_t i = 0, k = 0;
	int alg, pp = 1;

	while (n >= ompi_table[i].below)
		i++;
	while (ompi_table[i].e[k].lt && bytes >= ompi_table[i].e[k].lt)
		k++;
	alg = ompi_table[i].e[k].alg;
	while (2 * pp <= n)
		pp *= 2;
	if ((alg == 4 || alg == 5) && count < (size_t)n)
		alg = 3;
	if (alg == 6 && count < (size_t)pp)
		alg = 3;
	return alg;
}

const struct cb_algo_desc *cb_catalog_ompi_forced(int k)
{
	for (int i = 0; i < CB_OMPI_NALLREDUCE; i++)
		if (cb_desc_mpi_forced[i].library_algo == k)
			return &cb_desc_mpi_forced[i];
	return NULL;
}
