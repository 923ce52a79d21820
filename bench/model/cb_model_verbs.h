/* cb_model_verbs: what collbench-model's verbs compute, without printing:
 * fit (parameters per backend and transport from a results folder) and
 * check (every row against the model); predict: cb_model_pcoll.h. */
#ifndef CB_MODEL_VERBS_H
#define CB_MODEL_VERBS_H

#include <stddef.h>

#include "cb_model.h"
#include "cb_model_fit.h"
#include "cb_model_input.h"

#define CB_FIT_MAX_GROUPS 24

struct cb_fit_group {
	char backend[CB_MIN_NAME], transport[CB_MIN_NAME];
	int coll;                   /* the collective of its rows (enum cb_coll); copy's
				     * rows join every collective's group */
	char algos[64];             /* the algorithms whose rows were fitted */
	int fitted;                 /* 0: refused, see why */
	char why[384];
	struct cb_fit_params p;
};

struct cb_fit_set {
	char source[1024], machine[512];
	double min_bytes;           /* rows below this size were left out */
	int oversubscribed;         /* 1: oversubscribed launches were fitted too */
	size_t ngroups;
	struct cb_fit_group groups[CB_FIT_MAX_GROUPS];
};

struct cb_fit_sel {
	double min_bytes;
	int oversubscribed;
	const char *algos;          /* comma list, NULL: all */
	struct cb_fit_opts opts;
};

/* Fits every (backend, transport, collective) of in's rows that pass sel:
 * the rows of one collective are fitted apart from another's (their plans
 * price them; a group's parameters are of its collective's rows only). Groups the rows
 * cannot determine are kept with fitted = 0 and the reason. Errors:
 * CB_ERR_ARG (no row passes sel: err says why), CB_ERR_NOMEM. */
enum cb_status cb_model_fit_input(const struct cb_minput *in, const struct cb_fit_sel *sel,
				  struct cb_fit_set *out, char *err, size_t errlen);

struct cb_check_row {
	const struct cb_mrow *row;
	int modelled;               /* 0: note says why */
	double t_model, err;        /* seconds; (model - measured) / measured */
	double t_latency;           /* seconds of t_model that are latency: its
				     * messages' alpha and the per-call overhead */
	double busbw_model;         /* GB/s (algbw for copy and n = 1) */
	double rounds;              /* the model's latency terms: dependent messages on the
				     * critical path (a plan's rounds of messages) */
	int far;                    /* |err| > the threshold and the model outside
				     * the repeats' band */
	int not_finite;             /* the model's time or bandwidth is not finite */
	int oversubscribed;         /* more ranks than CPUs on a host: time slicing,
				     * which the model does not describe */
	size_t slice_bytes;         /* the topology's slice the row was priced with */
	const int *rank_host;       /* and its rank placement (NULL: one host) */
	char note[160];
};

/* Row r's bandwidth at t seconds (its measured or its modelled time), GB/s:
 * busbw with its collective's factor (cb_coll_busbw_factor), algbw for copy
 * and n = 1 (no busbw). */
double cb_row_busbw(const struct cb_mrow *r, double t);

/* The plan a modelled row of a plan algorithm was priced from (its case
 * and c's slice and placement): *p, cb_plan_free() it. Errors: CB_ERR_ARG
 * (not a plan algorithm's row), cb_plan_make's. */
enum cb_status cb_check_row_plan(const struct cb_check_row *c, struct cb_plan *p);

/* Checks every ok row of in against f; rows[] gets in->nrows entries (free()
 * it). far: the |relative error| beyond which a row is flagged. hosts: NULL,
 * or the links on which rows of more than one host are modelled (placed as
 * the run placed them, no per-call overhead) instead of f. Errors:
 * CB_ERR_NOMEM; CB_ERR_ARG when a modelled time or bandwidth is not finite
 * (parameters out of range), *rows still set, that row's note says which. */
enum cb_status cb_model_check(const struct cb_minput *in, const struct cb_fit_set *f, double far,
			      const struct cb_topo *hosts, struct cb_check_row **rows);

#endif
