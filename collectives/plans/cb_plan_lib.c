/* The table of plan algorithms (contract in cb_plan_lib.h): the built-in
 * ones of every collective from CB_PLAN_BUILTINS, then those added (plan
 * files), kept by collective. */
#include "cb_plan_lib.h"

#include <stdio.h>
#include <string.h>

#define CB_PLAN_ENTRY(coll, nm, desc, src) \
	{ #nm, cb_plan_build_##coll##_##nm, desc, src, 0, NULL, (enum cb_coll)cb_coll_of_##coll },
static const struct cb_plan_algo builtin[] = { CB_PLAN_BUILTINS(CB_PLAN_ENTRY) };
#undef CB_PLAN_ENTRY
#define NBUILTIN (sizeof(builtin) / sizeof(builtin[0]))

/* By collective: its built-in ones (nbuiltin[c]), then its added ones
 * (their texts copied here). */
static struct cb_plan_algo algos[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static char added_text[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX][3][200];
static size_t nalgos[CB_COLL_COUNT], nbuiltin[CB_COLL_COUNT];
static int made;

static void init_table(void)
{
	for (size_t i = 0; !made && i < NBUILTIN; i++) {
		enum cb_coll c = builtin[i].coll;

		if (nalgos[c] < CB_PLAN_ALGOS_MAX)
			algos[c][nalgos[c]++] = builtin[i];
		nbuiltin[c] = nalgos[c];
	}
	made = 1;
}

const struct cb_plan_algo *cb_plan_coll_algos(enum cb_coll c, size_t *n)
{
	init_table();
	*n = (unsigned)c < CB_COLL_COUNT ? nalgos[c] : 0;
	return *n ? algos[c] : NULL;
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
	enum cb_coll c = al->coll;
	const struct cb_plan_algo *old;
	const char *src[3] = { al->name, al->description, al->source };
	size_t i;

	if ((unsigned)c >= CB_COLL_COUNT)
		return CB_ERR_ARG;
	old = cb_plan_coll_find(c, al->name);
	i = old ? (size_t)(old - algos[c]) : nalgos[c];
	if (i < nbuiltin[c] || i == CB_PLAN_ALGOS_MAX)
		return CB_ERR_ARG;
	algos[c][i] = *al;
	for (int t = 0; t < 3; t++)
		snprintf(added_text[c][i][t], sizeof(added_text[c][i][t]), "%s", src[t] ? src[t] : "");
	algos[c][i].name = added_text[c][i][0];
	algos[c][i].description = added_text[c][i][1];
	algos[c][i].source = added_text[c][i][2];
	if (i == nalgos[c])
		nalgos[c]++;
	return CB_OK;
}

enum cb_status cb_plan_make(const struct cb_plan_algo *al, const struct cb_plan_args *a,
			    struct cb_plan *p)
{
	struct cb_plan_args b = *a;
	enum cb_status st;

	if (!al || a->n < 1 || a->esize < 1 || (al->ranks && a->n != al->ranks))
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
