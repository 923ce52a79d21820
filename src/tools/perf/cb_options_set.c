/* Options: the setters of the rows that check more than their kind can
 * (--counts, -a against the algorithm registry, -B against the backend
 * table), and the backend names derived from that table. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_options_int.h"

enum cb_status cb_set_counts(const struct cb_optdef *row, void *target, const char *v,
			     char *e, size_t n)
{
	struct cb_size_list *l = (struct cb_size_list *)(void *)((char *)target + row->offset);
	char buf[1024], *save = NULL, *tok;

	if (strlen(v) >= sizeof(buf))
		return cb_opt_refuse(row, e, n, "list too long");
	if (cb_list_has_empty(v))
		return cb_opt_refuse(row, e, n, "'%s' has an empty entry", v);
	strcpy(buf, v);
	l->n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t c;

		if (l->n == CB_SIZE_LIST_MAX)
			return cb_opt_refuse(row, e, n, "more than %d counts", CB_SIZE_LIST_MAX);
		if (cb_parse_size(tok, &c) != 0)
			return cb_opt_refuse(row, e, n, "'%s' is not an element count", tok);
		l->v[l->n++] = c;
	}
	if (l->n == 0)
		return cb_opt_refuse(row, e, n, "empty list");
	return CB_OK;
}

enum cb_status cb_set_algos(const struct cb_optdef *row, void *target, const char *v, char *e,
			    size_t n)
{
	char buf[256], *save = NULL, *tok;
	const struct cb_algo_ops *seen[CB_MAX_ALGOS];
	int k = 0;

	if (strlen(v) >= sizeof(buf) || strlen(v) >= row->size)
		return cb_opt_refuse(row, e, n, "list too long");
	if (*v && cb_list_has_empty(v))
		return cb_opt_refuse(row, e, n, "'%s' has an empty entry", v);
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct cb_algo_ops *a = cb_algo_find(tok);

		if (!a)
			return cb_opt_refuse(row, e, n, "unknown algorithm '%s' (see --help)", tok);
		for (int i = 0; i < k; i++)
			if (seen[i] == a)
				return cb_opt_refuse(row, e, n, "'%s' is listed twice", tok);
		if (k == CB_MAX_ALGOS)
			return cb_opt_refuse(row, e, n, "more than %d algorithms", CB_MAX_ALGOS);
		seen[k++] = a;
	}
	if (!k)
		return cb_opt_refuse(row, e, n, "'%s' names no algorithm", v);
	strcpy((char *)target + row->offset, v);
	return CB_OK;
}

const char *cb_known_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return i >= 0 && (size_t)i < n ? reg[i]->desc->name : NULL;
}

const char *cb_built_backend(const void *ctx, int i)
{
	size_t n;
	const struct cb_backend_ops *const *reg = cb_backend_registry(&n);

	(void)ctx;
	return i >= 0 && (size_t)i < n && !reg[i]->missing ? reg[i]->desc->name : NULL;
}

int cb_nbackends(void)
{
	size_t n;

	cb_backend_registry(&n);
	return (int)n;
}

enum cb_status cb_set_backend(const struct cb_optdef *row, void *target, const char *v,
			      char *e, size_t n)
{
	const struct cb_backend_ops *be = cb_backend_find(v);
	char names[128];

	if (!be) {
		cb_join_names(names, sizeof(names), cb_known_backend, NULL, cb_nbackends(), ", ",
			      " or ");
		return cb_opt_refuse(row, e, n, "unknown backend '%s' (%s)", v, names);
	}
	if (be->missing) {
		cb_join_names(names, sizeof(names), cb_built_backend, NULL, cb_nbackends(), ",", ",");
		return cb_opt_refuse(row, e, n, "backend '%s' is not built into this binary (built: %s)",
			   v, names);
	}
	snprintf((char *)target + row->offset, row->size, "%s", v);
	return CB_OK;
}
