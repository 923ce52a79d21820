/* cb_model_reg: the model's door to the registry of plans and the
 * catalogue (contract in cb_model_reg.h). */
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

const char *cb_mreg_forced_name(int k)
{
	const struct cb_algo_desc *d = cb_catalog_ompi_forced(k);
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
		f = cb_catalog_ompi_forced(cb_catalog_ompi_choice(n, bytes, count));
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

const char *cb_mreg_two_sided(void)
{
	const struct cb_transport *t;

	for (int id = 0; (t = cb_transport_get(id)) != NULL; id++)
		if (!t->one_sided && t->needs)
			return t->name;
	return "";
}
