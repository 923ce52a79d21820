/* cb_model_input: collbench results into the model's rows (contract in
 * cb_model_input.h). Everything the model knows about the results format
 * is in this file: the schema's record (struct cb_summary, cb_schema.h) as
 * the reader (cb_results.h) returns it with its launch (struct
 * cb_res_launch), the launch sidecar's keys host.cpus_online,
 * mpi.oversubscribed and the "options" text (root=, slicebytes=), and the
 * catalogue's ring slice (cb_backend_desc.pipeline_bytes) for runs that
 * kept the backend's own. */
#include "cb_model_input.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_catalog.h"
#include "cb_coll.h"
#include "cb_dtype.h"
#include "cb_model.h"
#include "cb_model_reg.h"
#include "cb_results.h"
#include "cb_results_load.h"

_Static_assert(CB_MIN_NAME >= CB_NAME_MAX, "the model's names hold the schema's");

/* Launch facts the reader does not carry, from the sidecar itself. */
struct launch_extra {
	int cpus, oversubscribed, root, servers;
	size_t slice_bytes; /* 0: the backend's default */
	int *rank_host;     /* mpi.rank_host when it places every rank; NULL */
};

/* mpi.rank_host: nranks host indexes in [0, nhosts); NULL when absent or
 * not that (the reader does not check this key), or out of memory. */
static int *read_rank_host(const json_t *mpi, int nranks, int nhosts)
{
	const json_t *a = json_object_get(mpi, "rank_host");
	int *map;

	if (!json_is_array(a) || nranks < 1 || json_array_size(a) != (size_t)nranks)
		return NULL;
	map = malloc((size_t)nranks * sizeof(*map));
	for (int k = 0; map && k < nranks; k++) {
		const json_t *v = json_array_get(a, (size_t)k);

		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= (nhosts > 0 ? nhosts : 1)) {
			free(map);
			return NULL;
		}
		map[k] = (int)json_integer_value(v);
	}
	return map;
}

/* The value of key in "k1=v1;k2=v2" as a number; -1 when absent. */
static long long option_value(const char *opts, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = opts; p && *p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL)
		if (strncmp(p, key, kl) == 0 && p[kl] == '=')
			return strtoll(p + kl + 1, NULL, 10);
	return -1;
}

static void read_extra(const char *file, const struct cb_res_launch *l,
		       struct launch_extra *x)
{
	json_t *root = json_load_file(file, 0, NULL);
	const json_t *host, *mpi;
	const char *opts;
	long long v;

	memset(x, 0, sizeof(*x));
	if (!root)
		return; /* the reader validated it; unreadable now: unknowns */
	host = json_object_get(root, "host");
	mpi = json_object_get(root, "mpi");
	if (json_is_integer(json_object_get(host, "cpus_online")))
		x->cpus = (int)json_integer_value(json_object_get(host, "cpus_online"));
	x->oversubscribed = json_is_true(json_object_get(mpi, "oversubscribed"));
	x->rank_host = read_rank_host(mpi, l->nranks, l->nnodes);
	opts = json_string_value(json_object_get(root, "options"));
	v = option_value(opts, "root");
	x->root = v > 0 ? (int)v : 0;
	v = option_value(opts, "servers");
	x->servers = v > 0 && v <= INT_MAX ? (int)v : 0;
	v = option_value(opts, "slicebytes");
	x->slice_bytes = v > 0 ? (size_t)v : 0;
	json_decref(root);
}

/* The model's transport of a row: the row's own (one- or two-sided, as
 * the catalogue's transports say; the reader gives schema-1 rows their
 * one-host transport), but for a library's rows (which move their bytes
 * themselves) the library's algorithm name, so each is a group of its own,
 * and for the copy roofline's (nothing between ranks) the backend's
 * one-sided transport, whose copy rate it measures (the row's own where the
 * catalogue knows no such transport). */
static void transport_of(const struct cb_summary *r, struct cb_mrow *m)
{
	int moves = cb_mreg_moves(m->coll, r->algo);
	const char *own = moves == 1 ? cb_catalog_one_sided(r->backend) : NULL;

	m->local = moves == 1;
	m->library = moves == 2;
	snprintf(m->transport, sizeof(m->transport), "%s",
		 moves == 2 ? r->algo : own ? own : r->transport);
}

static double us(double v)
{
	return isnan(v) ? NAN : v * 1e-6;
}

/* One model row from a reader row and its launch (NULL: no sidecar). */
static void convert(const struct cb_res_row *rr, const struct cb_res_launch *l,
		    const struct launch_extra *x, struct cb_mrow *m)
{
	const struct cb_summary *r = &rr->v;
	const struct cb_backend_desc *be;
	enum cb_dtype dt;

	memset(m, 0, sizeof(*m));
	snprintf(m->backend, sizeof(m->backend), "%s", r->backend);
	snprintf(m->algo, sizeof(m->algo), "%s", r->algo);
	m->coll = cb_coll_find(r->collective); /* the reader knows every row's */
	snprintf(m->dtype, sizeof(m->dtype), "%s", r->dtype);
	snprintf(m->op, sizeof(m->op), "%s", r->op);
	transport_of(r, m);
	m->nranks = r->nranks;
	m->in_place = r->in_place;
	m->bytes = r->bytes;
	m->esize = cb_dtype_parse(r->dtype, &dt) == 0 ? cb_dtype_size(dt) : 0;
	m->ok = r->status.state == CB_ROW_OK;
	m->t = us(isnan(r->time_us_median) ? r->time_us : r->time_us_median);
	m->t_lo = us(isnan(r->time_us_median) ? r->time_us_rep_min : r->time_us_median_rep_min);
	m->t_hi = us(isnan(r->time_us_median) ? r->time_us_rep_max : r->time_us_median_rep_max);
	m->txrx_max = r->txrx_max == CB_NO_U64 ? NAN : (double)r->txrx_max;
	m->tx_total = r->tx_total == CB_NO_U64 ? NAN : (double)r->tx_total;
	m->line = rr->line;
	m->ranks_per_host = l && l->ranks_per_node > 0 ? l->ranks_per_node : r->nranks;
	m->nhosts = l && l->nnodes > 0 ? l->nnodes : 1;
	m->cpus_per_host = x ? x->cpus : 0;
	m->oversubscribed = x ? x->oversubscribed : 0;
	m->root = x && x->root < r->nranks ? x->root : 0;
	m->servers = x && x->servers <= r->nranks ? x->servers : 0;
	be = cb_catalog_backend(r->backend);
	m->slice_bytes = x && x->slice_bytes ? x->slice_bytes : be ? be->pipeline_bytes : 0;
	m->slice_auto = !(x && x->slice_bytes);
	m->rank_host = x ? x->rank_host : NULL;
}

int cb_mrow_same_point(const struct cb_mrow *a, const struct cb_mrow *b)
{
	return strcmp(a->backend, b->backend) == 0 && a->coll == b->coll && a->nranks == b->nranks &&
	       a->bytes == b->bytes && strcmp(a->dtype, b->dtype) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->in_place == b->in_place && a->nhosts == b->nhosts;
}

/* The launch of this backend and rank count, or NULL. */
static const struct cb_res_launch *launch_of(const struct cb_results *res,
					     const struct cb_res_row *r, size_t *index)
{
	for (size_t i = 0; i < res->nlaunches; i++)
		if (res->launches[i].nranks == r->v.nranks &&
		    strcmp(res->launches[i].backend, r->v.backend) == 0) {
			*index = i;
			return &res->launches[i];
		}
	return NULL;
}

enum cb_status cb_minput_load(const char *path, struct cb_minput *in, char *err, size_t errlen)
{
	struct cb_results res;
	struct launch_extra *extra = NULL;
	enum cb_status st = cb_results_load(path, &res, err, errlen);

	memset(in, 0, sizeof(*in));
	if (st != CB_OK)
		return st;
	in->rows = calloc(res.nrows ? res.nrows : 1, sizeof(*in->rows));
	extra = calloc(res.nlaunches ? res.nlaunches : 1, sizeof(*extra));
	if (!in->rows || !extra) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(in->rows);
		in->rows = NULL;
		st = CB_ERR_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < res.nlaunches; i++)
		read_extra(res.launches[i].file, &res.launches[i], &extra[i]);
	snprintf(in->path, sizeof(in->path), "%s", res.csv);
	if (res.nlaunches)
		snprintf(in->machine, sizeof(in->machine), "%s", res.launches[0].machine);
	for (size_t i = 0; i < res.nrows; i++) {
		size_t li = 0;
		const struct cb_res_launch *l = launch_of(&res, &res.rows[i], &li);

		convert(&res.rows[i], l, l ? &extra[li] : NULL, &in->rows[in->nrows++]);
		in->meta_missing += !l;
	}
	in->maps = calloc(res.nlaunches ? res.nlaunches : 1, sizeof(*in->maps));
	for (size_t i = 0; in->maps && i < res.nlaunches; i++) /* the rows point in */
		if (extra[i].rank_host) {
			in->maps[in->nmaps++] = extra[i].rank_host;
			extra[i].rank_host = NULL;
		}
	if (!in->maps) {
		snprintf(err, errlen, "%s: out of memory", path);
		cb_minput_free(in);
		st = CB_ERR_NOMEM;
	}
out:
	for (size_t i = 0; extra && i < res.nlaunches; i++)
		free(extra[i].rank_host);
	free(extra);
	cb_results_free(&res);
	return st;
}

void cb_minput_free(struct cb_minput *in)
{
	for (size_t i = 0; in->maps && i < in->nmaps; i++)
		free(in->maps[i]);
	free(in->maps);
	free(in->rows);
	memset(in, 0, sizeof(*in));
}
