/* cb_compat: what makes two results incomparable (contract in cb_compat.h). */
#define _GNU_SOURCE
#include "cb_compat.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cb_optable.h"
#include "cb_text.h"

#define SET_TEXT 1024

struct checker {
	FILE *diag;
	int force, problems;
};

static void report(struct checker *k, int incomparable, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(struct checker *k, int incomparable, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL, *shown = NULL;

	k->problems += incomparable;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	shown = msg ? cb_text_escape(msg) : NULL; /* names and paths: the \xHH rule */
	fprintf(k->diag, "collbench-compare: %s: %s%s\n",
		incomparable && !k->force ? "error" : "warning",
		shown ? shown : msg ? msg : "out of memory",
		incomparable && k->force ? " (compared anyway: --force)" : "");
	free(shown);
	free(msg);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted distinct strings of v[0..n-1], joined as "'a', 'b'" into out. */
static void set_text(const char **v, size_t n, char *out, size_t len)
{
	size_t k = 0;

	out[0] = '\0';
	qsort(v, n, sizeof(*v), str_cmp);
	for (size_t i = 0; i < n && k < len; i++)
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			k += (size_t)snprintf(out + k, len - k, "%s'%s'", k ? ", " : "", v[i]);
}

enum what { BACKENDS, DEVICES, DTYPES, MACHINES, TIMINGS, WAITS };

/* Property w of launch l. */
static const char *launch_property(const struct cb_res_launch *l, enum what w)
{
	switch (w) {
	case BACKENDS: return l->backend;
	case DEVICES: return l->device;
	case MACHINES: return l->machine;
	case TIMINGS: return l->timing_mode;
	case WAITS: return l->wait;
	case DTYPES: break;
	}
	return "";
}

/* The set of one property over the rows and/or launches of r. */
static int property_set(const struct cb_results *r, enum what w, char *out, size_t len)
{
	const char **v = malloc((r->nrows + r->nlaunches + 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < r->nrows && (w == BACKENDS || w == DTYPES); i++)
		v[n++] = w == BACKENDS ? r->rows[i].v.backend : r->rows[i].v.dtype;
	for (size_t i = 0; i < r->nlaunches && w != DTYPES; i++)
		v[n++] = launch_property(&r->launches[i], w);
	set_text(v, n, out, len);
	free(v);
	return 0;
}

/* Returns 1 when the sets differ (reported), else 0. */
static int compare_sets(struct checker *k, const struct cb_results *b,
			const struct cb_results *c, enum what w, const char *label,
			int incomparable)
{
	char sb[SET_TEXT], sc[SET_TEXT];

	if (property_set(b, w, sb, sizeof(sb)) || property_set(c, w, sc, sizeof(sc))) {
		report(k, 1, "out of memory while checking %s", label);
		return 1;
	}
	if (strcmp(sb, sc) == 0)
		return 0;
	report(k, incomparable, "%s differ: baseline %s, current %s", label,
	       *sb ? sb : "(none)", *sc ? sc : "(none)");
	return 1;
}

/* Ranks per node and node count of every rank count launched in both. */
static void compare_placement(struct checker *k, const struct cb_results *b,
			      const struct cb_results *c)
{
	for (size_t i = 0; i < b->nlaunches; i++) {
		const struct cb_res_launch *x = &b->launches[i];

		for (size_t j = 0; j < c->nlaunches; j++) {
			const struct cb_res_launch *y = &c->launches[j];

			if (x->nranks != y->nranks ||
			    (x->ranks_per_node == y->ranks_per_node && x->nnodes == y->nnodes))
				continue;
			report(k, 1, "%d ranks placed differently: baseline %d per node on %d "
			       "node(s) (%s), current %d per node on %d node(s) (%s)", x->nranks,
			       x->ranks_per_node, x->nnodes, x->file, y->ranks_per_node, y->nnodes,
			       y->file);
		}
	}
}

/* How many launches of r record their wait strategy; *lacking: the first
 * that does not, if any. */
static size_t count_waits(const struct cb_results *r, const struct cb_res_launch **lacking)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nlaunches; i++) {
		if (r->launches[i].wait[0])
			n++;
		else if (!*lacking)
			*lacking = &r->launches[i];
	}
	return n;
}

/* The wait strategies, where every launch records one; launches that do
 * not (older than --wait) beside some that do are warned about. */
static void compare_waits(struct checker *k, const struct cb_results *b,
			  const struct cb_results *c)
{
	const struct cb_res_launch *lacking = NULL;
	size_t nb = count_waits(b, &lacking), nc = count_waits(c, &lacking);

	if (!lacking)
		compare_sets(k, b, c, WAITS, "wait strategies (--wait)", 1);
	else if (nb || nc)
		report(k, 0, "%s: the metadata does not record the wait strategy (older than "
		       "--wait): wait strategies not checked", lacking->file);
}

/* The library configuration (cb_libconf.h) of the launches of every rank
 * count that both ran: the first variable that differs is named. Where one
 * launch's metadata is older than the record of Open MPI's parameter files
 * (which cannot say what they held), the environments alone. */
static void compare_libconf(struct checker *k, const struct cb_results *b,
			    const struct cb_results *c)
{
	char name[256], vb[256], vc[256];

	for (size_t i = 0; i < b->nlaunches; i++)
		for (size_t j = 0; j < c->nlaunches; j++) {
			const struct cb_res_launch *x = &b->launches[i], *y = &c->launches[j];
			int both = x->mca_files && y->mca_files;

			if (x->nranks != y->nranks ||
			    !cb_libconf_diff(both ? x->libconf : x->libconf_env,
					     both ? y->libconf : y->libconf_env, name, vb, vc,
					     sizeof(name)))
				continue;
			report(k, 1, "library configurations differ at %d ranks: %s is %s%s%s in the "
			       "baseline (%s), %s%s%s in the current run (%s): rows made under other "
			       "library settings measure something else", x->nranks, name,
			       *vb ? "'" : "", *vb ? vb : "unset", *vb ? "'" : "", x->file,
			       *vc ? "'" : "", *vc ? vc : "unset", *vc ? "'" : "", y->file);
			return;
		}
}

/* 1 when r has a row of algorithm algo at nranks. */
static int has_rows(const struct cb_results *r, const char *algo, int nranks)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].v.nranks == nranks && strcmp(r->rows[i].v.algo, algo) == 0)
			return 1;
	return 0;
}

/* The plan files (--plan) behind rows of one name at one rank count: a file
 * edited between the runs under the same name gives rows that measure
 * another schedule. Launches that do not record the digest (older than it)
 * are warned about; plans whose rows --algo leaves out (algos) are not
 * compared. */
static void compare_plans(struct checker *k, const struct cb_results *b,
			  const struct cb_results *c, const char *algos)
{
	for (size_t i = 0; i < b->nlaunches; i++)
		for (size_t j = 0; j < c->nlaunches; j++) {
			const struct cb_res_launch *x = &b->launches[i], *y = &c->launches[j];

			if (x->nranks != y->nranks || !x->plan_name[0] ||
			    (algos && !cb_list_selects(algos, x->plan_name)) ||
			    strcmp(x->plan_name, y->plan_name) != 0 ||
			    strcmp(x->plan_digest, y->plan_digest) == 0 ||
			    !has_rows(b, x->plan_name, x->nranks) || !has_rows(c, x->plan_name, x->nranks))
				continue;
			if (!x->plan_digest[0] || !y->plan_digest[0])
				report(k, 0, "%s: the metadata does not record plan %s's digest "
				       "(older than it): whether the plan changed is not checked",
				       x->plan_digest[0] ? y->file : x->file, x->plan_name);
			else
				report(k, 1, "the plan behind %s differs at %d ranks: digest %s in the "
				       "baseline (%s), %s in the current run (%s): the plan file was "
				       "changed under the same name, and its rows measure another "
				       "schedule", x->plan_name, x->nranks, x->plan_digest, x->file,
				       y->plan_digest, y->file);
		}
}

static void warn_meta(struct checker *k, const struct cb_results *r, const char *name)
{
	if (r->meta_missing)
		report(k, 0, "%s: no metadata sidecar (*.meta.json): GPU model and ranks per "
		       "node not checked", name);
	for (size_t i = 0; i < r->nlaunches; i++)
		if (!r->launches[i].complete)
			report(k, 0, "%s: the run did not finish (status is not \"complete\")",
			       r->launches[i].file);
}

int cb_compat_check(const struct cb_results *base, const char *bname,
		    const struct cb_results *cur, const char *cname, const char *algos,
		    int force, FILE *diag)
{
	struct checker k = { diag, force, 0 };

	warn_meta(&k, base, bname);
	warn_meta(&k, cur, cname);
	compare_sets(&k, base, cur, BACKENDS, "backends", 1);
	if (base->nlaunches && cur->nlaunches) {
		compare_sets(&k, base, cur, DEVICES, "GPU models", 1);
		if (compare_sets(&k, base, cur, MACHINES, "machines", 1) && !force)
			fprintf(diag, "collbench-compare: a baseline belongs to the machine it was "
				"recorded on: verdicts across machines describe the hardware, not "
				"the change. Make a baseline on this machine (when it is quiet) with "
				"scripts/regress.sh --update-baseline (it goes to "
				"results/baseline/<machine label>-<backend>/; CB_MACHINE sets the "
				"label), or compare two runs of one machine\n");
	}
	if (base->nlaunches && cur->nlaunches) {
		compare_sets(&k, base, cur, TIMINGS, "timing modes (--timing, -m, -z, -C)", 1);
		compare_waits(&k, base, cur);
	}
	compare_placement(&k, base, cur);
	compare_libconf(&k, base, cur);
	compare_plans(&k, base, cur, algos);
	if (base->nrows && cur->nrows) /* else: nothing to compare, said later */
		compare_sets(&k, base, cur, DTYPES, "dtypes", 1);
	return k.problems;
}
