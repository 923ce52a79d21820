/* cb_model_verbs: what collbench-model's verbs compute, without printing:
 * fit (parameters per backend and transport from a results folder), check
 * (every row against the model), predict (ps and ring at scale on a
 * topology, and where one overtakes the other). */
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

/* The model case of a row; -1 (why set) when the row cannot be modelled. */
int cb_row_case(const struct cb_mrow *r, struct cb_model_case *c, char *why, size_t whylen);

/* The one-host topology of a row's launch with link parameters alpha (s),
 * beta, gamma, the one-sided reduce rate fused (B/s; NaN or 0: the default)
 * and the fresh reads' rate fresh (B/s; 0 or INFINITY: free); the local copy
 * runs at beta. */
struct cb_topo cb_row_topo(const struct cb_mrow *r, double alpha, double beta, double gamma,
			   double fused, double fresh);

/* The fit group of a row's transport: the transport, with "@net" appended
 * for a row of ranks on more than one host (copy's excepted): its bytes
 * cross the network link, a group of its own. Fit fits such rows where each
 * rank has a host of its own (every transfer crosses hosts, so the one-host
 * terms hold with the network link for the intra-host one); rows with ranks
 * sharing hosts as well need both links: check --topo. */
void cb_row_group(const struct cb_mrow *r, char *out, size_t len);

/* links (intra, net, gamma, ...) with the row's launch's placement: ranks
 * per host, each rank's host (r->rank_host), slice, CPUs. links->slice_bytes
 * where the row has none. */
struct cb_topo cb_row_topo_hosts(const struct cb_mrow *r, const struct cb_topo *links);

/* Fits every (backend, transport, collective) of in's rows that pass sel:
 * the rows of one collective are fitted apart from another's (their plans
 * price them; a group's parameters are of its collective's rows only). Groups the rows
 * cannot determine are kept with fitted = 0 and the reason. Errors:
 * CB_ERR_ARG (no row passes sel: err says why), CB_ERR_NOMEM. */
enum cb_status cb_model_fit_input(const struct cb_minput *in, const struct cb_fit_sel *sel,
				  struct cb_fit_set *out, char *err, size_t errlen);

/* The fitted group of (backend, transport, collective coll), or NULL; coll
 * -1: of any collective (the first). */
const struct cb_fit_group *cb_fit_set_group(const struct cb_fit_set *f, const char *backend,
					    const char *transport, int coll);

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

struct cb_pred_opts {
	const struct cb_topo *topo;
	const struct cb_fit_group *fit; /* NULL, or its parameters replace the topology's
					 * intra link, gamma and copy bandwidth */
	size_t esize;
	int root;
	int two_sided;              /* bytes land, then are reduced (cb_model_case) */
};

/* The topology predict prices message size bytes on: o->topo's, with the
 * fitted link, reduce and copy rates of bytes' tier where o->fit is set. */
struct cb_topo cb_pred_topo(const struct cb_pred_opts *o, double bytes);

#endif
