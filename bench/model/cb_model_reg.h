/* cb_model_reg: the cost model's door to the registry of plans
 * (collectives/plans/cb_plan_lib.h) and to what the catalogue
 * (collectives/catalog/cb_catalog.h) says of an algorithm: its plan, or a
 * library row's schedule, and whether it moves bytes. Every other file of
 * the model asks here what an algorithm or a transport is; none names one.
 * When the registry changes, this file (and only this file) follows. The
 * catalogue's plain lookups (a backend by name, its one-sided transport,
 * Open MPI's fixed decision) the model calls in cb_catalog.h itself. */
#ifndef CB_MODEL_REG_H
#define CB_MODEL_REG_H

#include <stddef.h>

#include "cb_status.h"

struct cb_plan_algo;

#define CB_MREG_MAX_PLANS 24 /* most plan algorithms of one collective listed */

/* The names of the registry's plan algorithms of collective coll (enum
 * cb_coll), in display order, into out[0 .. max); returns how many (0 for
 * a collective the registry does not know: a loop over collectives ends). */
size_t cb_mreg_plan_names(int coll, const char **out, size_t max);

const struct cb_plan_algo *cb_mreg_plan(int coll, const char *name); /* NULL: none */

/* --plan: the plan file at path read, checked as allreduce_perf checks
 * it (sum, in either mode: the run checked its own) and added to the
 * registry's plan algorithms of its collective. Errors: CB_ERR_ARG (err
 * says why), CB_ERR_NOMEM. */
enum cb_status cb_mreg_add_plan_file(const char *path, char *err, size_t errlen);

/* How the model prices a row of algorithm algo of collective coll. */
struct cb_mreg_algo {
	const struct cb_plan_algo *plan; /* the plan it is priced from; NULL: local */
	int local;     /* the copy roofline: nothing crosses ranks */
	int library;   /* a library's call (its transport is its own) */
	int unsliced;  /* a library's schedule: its plan without slices */
};

/* Resolves algo of coll at n ranks and bytes (count elements) into *out:
 * a plan algorithm's own plan; a library's schedule (cb_algo_desc.schedule,
 * or for Open MPI's own choice the schedule of the forced algorithm its
 * fixed decision names, cb_catalog_ompi_choice); the copy roofline. Returns
 * 0, or -1 with why set (an algorithm the catalogue does not know, or a
 * library's row with no schedule to price). */
int cb_mreg_algo(int coll, const char *algo, int n, size_t bytes, size_t count,
		 struct cb_mreg_algo *out, char *why, size_t whylen);

/* What moves the bytes of algo of coll (cb_algo_desc.moves): 0 the run's
 * transport (a plan algorithm, or one the catalogue does not know), 1
 * nothing between ranks (the copy roofline), 2 the library's own. */
int cb_mreg_moves(int coll, const char *algo);

/* Whether a row's transport moves bytes one-sided (1) or two-sided (0),
 * from the catalogue's transports; -1 for a transport it does not know
 * (such rows are not priced: nothing says how their bytes move). */
int cb_mreg_one_sided(const char *transport);

const char *cb_mreg_two_sided(void); /* the catalogue's two-sided transport's name */

/* The forced algorithm number k's row name (cb_catalog.h), its short name
 * (after the library's prefix: the part after the first '.'), or "?". */
const char *cb_mreg_forced_name(int k);

/* 1 when algo of coll names a library's forced algorithm; 2 when it names
 * the library's own choice whose forced siblings the catalogue lists
 * (Open MPI's allreduce); else 0. */
int cb_mreg_library_kind(int coll, const char *algo);

#endif
