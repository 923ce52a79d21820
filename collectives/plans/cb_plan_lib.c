/* The tables of plan algorithms (contract in cb_plan_lib.h): allreduce's
 * built-in ones from CB_PLAN_BUILTINS, then those added (plan files); the
 * other collectives' from CB_PLAN_COLL_BUILTINS. */
#include "cb_plan_lib.h"

#include <stdio.h>
#include <string.h>

#define CB_PLAN_ENTRY(nm, desc, src) { #nm, cb_plan_build_##nm, desc, src, 0, NULL, CB_COLL_ALLREDUCE },
static const struct cb_plan_algo builtin[] = { CB_PLAN_BUILTINS(CB_PLAN_ENTRY) };
#undef CB_PLAN_ENTRY
#define NBUILTIN (sizeof(builtin) / sizeof(builtin[0]))

#define CB_PLAN_COLL_ENTRY(coll, id, nm, desc, src) \
	{ #nm, cb_plan_build_##coll##_##nm, desc, src, 0, NULL, id },
static const struct cb_plan_algo coll_builtin[] = { CB_PLAN_COLL_BUILTINS(CB_PLAN_COLL_ENTRY) };
#undef CB_PLAN_COLL_ENTRY
#define NCOLL_BUILTIN (sizeof(coll_builtin) / sizeof(coll_builtin[0]))
_Static_assert(NBUILTIN <= CB_PLAN_ALGOS_MAX, "raise CB_PLAN_ALGOS_MAX");

/* The built-in ones, then the added ones (their texts copied here). */
static struct cb_plan_algo algos[CB_PLAN_ALGOS_MAX];
static char added_text[CB_PLAN_ALGOS_MAX][3][200];
static size_t nalgos;

static void init_table(void)
{
	if (nalgos)
		return;
	memcpy(algos, builtin, sizeof(builtin));
	nalgos = NBUILTIN;
}

const struct cb_plan_algo *cb_plan_algos(size_t *n)
{
	init_table();
	*n = nalgos;
	return algos;
}

const struct cb_plan_algo *cb_plan_algo_find(const char *name)
{
	init_table();
	for (size_t i = 0; i < nalgos; i++)
		if (strcmp(algos[i].name, name) == 0)
			return &algos[i];
	return NULL;
}

const struct cb_plan_algo *cb_plan_coll_algos(enum cb_coll c, size_t *n)
{
	size_t first = 0;

	if (c == CB_COLL_ALLREDUCE)
		return cb_plan_algos(n);
	while (first < NCOLL_BUILTIN && coll_builtin[first].coll != c)
		first++;
	for (*n = 0; first + *n < NCOLL_BUILTIN && coll_builtin[first + *n].coll == c; ++*n)
		;
	return coll_builtin + first;
}

const struct cb_plan_algo *cb_plan_coll_find(enum cb_coll c, const char *name)
{
	size_t n;
	const struct cb_plan_algo *a = cb_plan_coll_algos(c, &n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i].name, name) == 0)
			return &a[i];
	return NULL;
}

enum cb_status cb_plan_algo_add(const struct cb_plan_algo *al)
{
	const struct cb_plan_algo *old = cb_plan_algo_find(al->name);
	size_t i = old ? (size_t)(old - algos) : nalgos;
	const char *src[3] = { al->name, al->description, al->source };

	if (i < NBUILTIN || i == CB_PLAN_ALGOS_MAX)
		return CB_ERR_ARG;
	algos[i] = *al;
	for (int t = 0; t < 3; t++)
		snprintf(added_text[i][t], sizeof(added_text[i][t]), "%s", src[t] ? src[t] : "");
	algos[i].name = added_text[i][0];
	algos[i].description = added_text[i][1];
	algos[i].source = added_text[i][2];
	if (i == nalgos)
		nalgos++;
	return CB_OK;
}

enum cb_status cb_plan_make(const struct cb_plan_algo *al, const struct cb_plan_args *a,
			    struct cb_plan *p)
{
	struct cb_plan_args b = *a;
	enum cb_status st;

	if (a->n < 1 || a->esize < 1 || (al->ranks && a->n != al->ranks))
		return CB_ERR_ARG;
	b.data = al->data;
	if (a->n > 1)
		return al->build(p, &b);
	st = cb_plan_init_coll(p, al->name, al->coll, 1, a->count, 0); /* the input is the result */
	if (st == CB_OK && a->count)
		st = cb_plan_copy(p, 0, cb_pref(0, CB_PLAN_RECV, 0), cb_pref(0, CB_PLAN_SEND, 0),
				  a->count, cb_coll_get(al->coll)->reduces);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build(const char *name, const struct cb_plan_args *a, struct cb_plan *p)
{
	const struct cb_plan_algo *al = cb_plan_algo_find(name);

	return al ? cb_plan_make(al, a, p) : CB_ERR_ARG;
}
