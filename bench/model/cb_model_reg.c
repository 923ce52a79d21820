/* cb_model_reg: the model's door to the registry of plans and the
 * catalogue (contract in cb_model_reg.h).
 *
 * Open MPI's fixed decision: coll/tuned serves MPI_Allreduce on one host by
 * default and picks an algorithm from the rank count and the message size
 * with a fixed table (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_allreduce_intra_dec_fixed, tag v4.1.4; commutative ops,
 * which every collbench op is), then ompi/mca/coll/base/
 * coll_base_allreduce.c falls back to recursive doubling (3) where its ring
 * (4) or segmented ring (5) has fewer than n elements and where
 * Rabenseifner (6) has fewer than the largest power of two <= n. */
#include "cb_model_reg.h"

#include <stdio.h>
#include <string.h>

#include "cb_catalog.h"
#include "cb_dtype.h"
#include "cb_plan_file.h"
#include "cb_plan_lib.h"

size_t cb_mreg_plan_names(int coll, const char **out, size_t max)
{
	size_t n = 0;
	const struct cb_plan_algo *a = coll >= 0 ? cb_plan_coll_algos((enum cb_coll)coll, &n) : NULL;

	for (size_t i = 0; i < n && i < max; i++)
		out[i] = a[i].name;
	return n < max ? n : max;
}

const struct cb_plan_algo *cb_mreg_plan(int coll, const char *name)
{
	return coll >= 0 ? cb_plan_coll_find((enum cb_coll)coll, name) : NULL;
}

enum cb_status cb_mreg_add_plan_file(const char *path, char *err, size_t errlen)
{
	struct cb_plan_file *f;
	enum cb_status st = cb_plan_file_load(path, &f, err, errlen);

	if (st == CB_OK)
		st = cb_plan_file_check(f, 1u << CB_SUM, 1, err, errlen);
	if (st == CB_ERR_ARG && f)
		st = cb_plan_file_check(f, 1u << CB_SUM, 2, err, errlen);
	if (st == CB_OK)
		st = cb_plan_file_add(f, err, errlen);
	if (st != CB_OK)
		cb_plan_file_free(f);
	return st == CB_ERR_NOMEM ? st : st == CB_OK ? CB_OK : CB_ERR_ARG;
}

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

int cb_model_ompi_choice(int n, size_t bytes, size_t count)
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

static const struct cb_algo_desc *forced_desc(int k)
{
	for (int i = 0; i < CB_OMPI_NALLREDUCE; i++)
		if (cb_desc_mpi_forced[i].library_algo == k)
			return &cb_desc_mpi_forced[i];
	return NULL;
}

const char *cb_mreg_forced_name(int k)
{
	const struct cb_algo_desc *d = forced_desc(k);
	const char *dot = d ? strchr(d->name, '.') : NULL;

	return dot ? dot + 1 : "?";
}

int cb_mreg_library_kind(int coll, const char *algo)
{
	const struct cb_algo_desc *d = coll >= 0 ? cb_catalog_coll_algo((enum cb_coll)coll, algo)
						 : NULL;

	if (!d)
		return 0;
	return d->library_algo > 0 ? 1 : d == &cb_desc_mpi[d->coll] ? 2 : 0;
}

/* A library row's plan: its schedule, or for the library's own choice the
 * schedule of the forced algorithm its decision names. */
static const struct cb_plan_algo *library_plan(const struct cb_algo_desc *d, int coll, int n,
					       size_t bytes, size_t count, char *why, size_t len)
{
	const struct cb_algo_desc *f = d;

	if (d == &cb_desc_mpi[CB_COLL_ALLREDUCE]) /* the decision of allreduce's call */
		f = forced_desc(cb_model_ompi_choice(n, bytes, count));
	if (f && f->schedule)
		return cb_mreg_plan(coll, f->schedule);
	if (f && f != d)
		snprintf(why, len, "%s: the library's choice at %d ranks and %zu bytes is %s, whose "
			 "schedule no plan runs: not priced", d->name, n, bytes, f->name);
	else
		snprintf(why, len, "%s: the catalogue names no plan of the same schedule: not "
			 "priced", d->name);
	return NULL;
}

int cb_mreg_algo(int coll, const char *algo, int n, size_t bytes, size_t count,
		 struct cb_mreg_algo *out, char *why, size_t whylen)
{
	const struct cb_algo_desc *d = coll >= 0 ? cb_catalog_coll_algo((enum cb_coll)coll, algo)
						 : NULL;

	memset(out, 0, sizeof(*out));
	out->plan = cb_mreg_plan(coll, algo); /* a plan file's algorithm too */
	if (out->plan)
		return 0;
	if (!d) {
		snprintf(why, whylen, "algorithm %s is not in the catalogue: not priced", algo);
		return -1;
	}
	if (d->result != CB_RESULT_ALLREDUCE) { /* the copy roofline: its own input */
		out->local = 1;
		return 0;
	}
	out->library = d->moves != NULL;
	out->unsliced = 1;
	out->plan = library_plan(d, coll, n, bytes, count, why, whylen);
	return out->plan ? 0 : -1;
}

int cb_mreg_moves(int coll, const char *algo)
{
	const struct cb_algo_desc *d = coll >= 0 ? cb_catalog_coll_algo((enum cb_coll)coll, algo)
						 : NULL;

	if (!d || !d->moves)
		return 0;
	return d->result != CB_RESULT_ALLREDUCE ? 1 : 2;
}

int cb_mreg_one_sided(const char *transport)
{
	int id = cb_transport_id_of(transport);
	const struct cb_transport *t = id >= 0 ? cb_transport_get(id) : NULL;

	return t ? t->one_sided != 0 : -1;
}

const char *cb_mreg_backend_one_sided(const char *backend)
{
	const struct cb_backend_desc *be = cb_catalog_backend(backend);
	const struct cb_transport *t;

	for (int id = 0; be && (t = cb_transport_get(id)) != NULL; id++)
		if (t->one_sided && cb_caps_have(be, t->needs))
			return t->name;
	return NULL;
}

const char *cb_mreg_two_sided(void)
{
	const struct cb_transport *t;

	for (int id = 0; (t = cb_transport_get(id)) != NULL; id++)
		if (!t->one_sided && t->needs)
			return t->name;
	return "";
}

int cb_mreg_backend_known(const char *backend)
{
	return cb_catalog_backend(backend) != NULL;
}

size_t cb_mreg_backend_slice(const char *backend)
{
	const struct cb_backend_desc *d = cb_catalog_backend(backend);

	return d ? d->pipeline_bytes : 0;
}
