/* cb_hist_analyze: change points of a series (contract in cb_hist_analyze.h). */
#include "cb_hist_analyze.h"

#include <stdlib.h>
#include <string.h>

enum cb_status cb_hist_changes(const struct cb_hist_series *s, const struct cb_cpd_opts *o,
			       struct cb_hist_change **out, size_t *n)
{
	double *x = malloc((s->n ? s->n : 1) * sizeof(*x));
	struct cb_cpd_change *cps = NULL;
	size_t ncp = 0;
	enum cb_status st;

	*out = NULL;
	*n = 0;
	if (!x)
		return CB_ERR_NOMEM;
	for (size_t i = 0; i < s->n; i++)
		x[i] = s->pts[i].value;
	st = cb_cpd_detect(x, s->n, o, &cps, &ncp);
	free(x);
	if (st != CB_OK || ncp == 0)
		return st;
	*out = calloc(ncp, sizeof(**out));
	if (!*out) {
		free(cps);
		return CB_ERR_NOMEM;
	}
	for (size_t i = 0; i < ncp; i++) {
		struct cb_hist_change *c = &(*out)[i];
		int up = cps[i].mean_after > cps[i].mean_before;

		c->cp = cps[i];
		c->change = cps[i].mean_before != 0 ?
			    (cps[i].mean_after - cps[i].mean_before) / cps[i].mean_before : 0;
		c->dir = up == cb_metric_higher_is_better(s->metric) ? CB_HIST_IMPROVEMENT :
								     CB_HIST_REGRESSION;
		c->at = &s->pts[cps[i].index];
		c->prev = &s->pts[cps[i].index - 1];
		c->commit_changed = strcmp(c->at->git_commit, c->prev->git_commit) != 0;
		c->versions_changed = strcmp(c->at->versions, c->prev->versions) != 0;
	}
	free(cps);
	*n = ncp;
	return CB_OK;
}

int cb_hist_gate_fails(const struct cb_hist_series *s, const struct cb_hist_change *c, size_t n,
		       long long newest_run, size_t recent)
{
	if (n == 0 || s->n == 0 || s->pts[s->n - 1].run_id != newest_run)
		return 0;
	if (c[n - 1].dir != CB_HIST_REGRESSION)
		return 0;
	return recent == 0 || s->n - c[n - 1].cp.index <= recent;
}

int cb_hist_gate_row_failed(const struct cb_hist_series *s, long long newest_run)
{
	return s->last_run == newest_run && cb_row_state_failed(s->last_status.state);
}

const char *cb_hist_dir_name(enum cb_hist_dir d)
{
	return d == CB_HIST_REGRESSION ? "regression" : "improvement";
}
