/* Which of Open MPI's algorithms its default rows ran (contract in
 * cb_model_libid.h). */
#include "cb_model_libid.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_catalog.h"
#include "cb_coll.h"
#include "cb_model_reg.h"
#include "cb_optable.h"

static int forced(const struct cb_mrow *r)
{
	return cb_mreg_library_kind(r->coll, r->algo) == 1;
}

/* A forced row's algorithm without the library's prefix. */
static const char *short_name(const struct cb_mrow *r)
{
	const char *dot = strchr(r->algo, '.');

	return dot ? dot + 1 : r->algo;
}

/* 1 when b's measured traffic is a's within the slack. */
static int same_traffic(const struct cb_mrow *a, const struct cb_mrow *b)
{
	double slack = CB_LIBID_SLACK * a->nranks;

	return isfinite(a->tx_total) && isfinite(b->tx_total) && isfinite(a->txrx_max) &&
	       isfinite(b->txrx_max) && fabs(a->tx_total - b->tx_total) <= slack &&
	       fabs(a->txrx_max - b->txrx_max) <= 2 * CB_LIBID_SLACK;
}

/* The identification of default row d among the forced rows of in. */
static int identify(const struct cb_minput *in, const struct cb_mrow *d, struct cb_libid *id)
{
	size_t k = 0;
	int nforced = 0;

	memset(id, 0, sizeof(*id));
	id->row = d;
	id->traffic = isfinite(d->tx_total) && isfinite(d->txrx_max);
	for (size_t i = 0; i < in->nrows; i++) {
		const struct cb_mrow *r = &in->rows[i];

		if (!forced(r) || !r->ok || !(r->t > 0) || !cb_mrow_same_point(d, r))
			continue;
		nforced++;
		if (same_traffic(d, r))
			k += (size_t)snprintf(id->matches + k, sizeof(id->matches) - k, "%s%s",
					      k ? "," : "", short_name(r));
		k = k < sizeof(id->matches) ? k : sizeof(id->matches) - 1;
	}
	for (size_t i = 0; i < in->nrows; i++) {
		const struct cb_mrow *r = &in->rows[i];

		if (!forced(r) || !r->ok || !(r->t > 0) || !cb_mrow_same_point(d, r) ||
		    (id->matches[0] && !cb_list_selects(id->matches, short_name(r))))
			continue;
		if (!id->nearest || fabs(log(r->t / d->t)) < fabs(log(id->nearest->t / d->t)))
			id->nearest = r;
	}
	if (!id->nearest)
		return 0;
	id->ratio = id->nearest->t / d->t;
	id->table = cb_mreg_forced_name(cb_catalog_ompi_choice(d->nranks, (size_t)d->bytes,
						   d->esize ? (size_t)d->bytes / d->esize : 0));
	id->agree = id->matches[0] ? cb_list_selects(id->matches, id->table)
				   : strcmp(short_name(id->nearest), id->table) == 0;
	return nforced > 0;
}

enum cb_status cb_model_libid(const struct cb_minput *in, struct cb_libid **out, size_t *n)
{
	struct cb_libid *v = calloc(in->nrows ? in->nrows : 1, sizeof(*v));

	*out = NULL, *n = 0;
	if (!v)
		return CB_ERR_NOMEM;
	for (size_t i = 0; i < in->nrows; i++) {
		const struct cb_mrow *d = &in->rows[i];

		if (cb_mreg_library_kind(d->coll, d->algo) == 2 && d->ok && d->t > 0 &&
		    identify(in, d, &v[*n]))
			(*n)++;
	}
	*out = v;
	return CB_OK;
}

/* The identifications as a JSON array of objects, one per point. */
static enum cb_status out_json(FILE *f, const struct cb_libid *v, size_t n)
{
	json_t *a = json_array();
	enum cb_status st = a ? CB_OK : CB_ERR_NOMEM;

	for (size_t i = 0; i < n && st == CB_OK; i++) {
		const struct cb_mrow *r = v[i].row;
		json_t *o = json_pack("{s:s, s:i, s:I, s:s, s:s, s:b, s:f, s:s, s:s, s:f, s:s, s:b}",
				      "backend", r->backend, "nranks", r->nranks, "bytes",
				      (json_int_t)r->bytes, "dtype", r->dtype, "op", r->op,
				      "in_place", r->in_place, "time_us", r->t * 1e6,
				      "traffic_matches", v[i].traffic ? v[i].matches : "",
				      "nearest_in_time", short_name(v[i].nearest), "time_ratio", v[i].ratio,
				      "ompi41_table", v[i].table, "agree", v[i].agree);

		if (!o || json_array_append_new(a, o) != 0)
			st = CB_ERR_NOMEM;
		else if (!v[i].traffic)
			json_object_set_new(o, "traffic_matches", json_null());
	}
	if (st == CB_OK && (json_dumpf(a, f, JSON_INDENT(2)) != 0 || fputc('\n', f) == EOF))
		st = CB_ERR_IO;
	json_decref(a);
	return st;
}

enum cb_status cb_out_libid(FILE *f, enum cb_mfmt fmt, const struct cb_libid *v, size_t n)
{
	static const char *const head[] = { "backend", "nranks", "bytes", "dtype", "op",
		"in_place", "time_us", "traffic_matches", "nearest_in_time", "time_ratio",
		"ompi41_table", "agree" };
	struct cb_mtab t;
	enum cb_status st;
	size_t k = 0;

	if (fmt == CB_MFMT_JSON)
		return out_json(f, v, n);
	cb_mtab_init(&t, head, 12);
	for (size_t i = 0; i < n; i++) {
		const struct cb_mrow *r = v[i].row;

		cb_mtab_point(&t, r);
		cb_mtab_num(&t, r->t * 1e6, 6);
		cb_mtab_cell(&t, "%s", v[i].traffic ? (v[i].matches[0] ? v[i].matches : "none")
						    : "unmeasured");
		cb_mtab_cell(&t, "%s", short_name(v[i].nearest));
		cb_mtab_num(&t, v[i].ratio, 4);
		cb_mtab_cell(&t, "%s", v[i].table);
		cb_mtab_cell(&t, "%s", v[i].agree ? "yes" : "no");
		k += (size_t)v[i].agree;
	}
	st = cb_mtab_print(f, fmt, &t);
	cb_mtab_free(&t);
	if (st == CB_OK && fmt != CB_MFMT_CSV) {
		fprintf(f, "\nOpen MPI 4.1's decision table names a traffic match (or, without "
			"traffic, the nearest in time) at %zu of %zu points\n", k, n);
		if (k < n)
			fprintf(f, "where it does not, Open MPI chose otherwise than 4.1.4's fixed "
				"table: another version, or a setting that replaces its decision "
				"and that the forced rows' checks do not know\n");
		if (ferror(f))
			st = CB_ERR_IO;
	}
	return st;
}
