/* cb_nctests: nccl-tests' footer, gate and -J document (contract in
 * cb_nctests.h). */
#define _GNU_SOURCE
#include "cb_nctests.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_env.h"
#include "cb_nct_json.h"
#include "cb_output.h"

enum cb_status cb_nctests_start(struct cb_nctests *n, const struct cb_options *o, FILE *out)
{
	char err[600] = "", tmp[CB_PATH_MAX + 32];
	FILE *f;

	memset(n, 0, sizeof(*n));
	cb_nct_now(n->start_time, sizeof(n->start_time));
	if (cb_nct_parse_min_bw(getenv("NCCL_TESTS_MIN_BW"), &n->min_bw, err, sizeof(err))) {
		cb_log("%s", err);
		return CB_ERR_ARG;
	}
	if (!*o->output_file) /* its name checked with the other outputs' (cb_options) */
		return CB_OK;
	if (cb_replace_open(o->output_file, tmp, sizeof(tmp), &f, err, sizeof(err)) != CB_OK) {
		cb_log("-J (--output_file) %s: %s", o->output_file, err);
		return CB_ERR_IO;
	}
	/* a probe: the file can be made; it is written at the end */
	cb_replace_commit(f, tmp, o->output_file, 0, err, sizeof(err));
	fprintf(out, "# Writing JSON output to %s\n", o->output_file);
	return CB_OK;
}

/* This run's settings (cb_env.h) as "NAME=value" strings in *env (free()
 * it; its strings point into pf->env). */
static size_t env_list(const struct cb_preflight *pf, const char ***env)
{
	const char *buf = pf->env ? pf->env + pf->env_off[0] : "", *e = NULL;
	size_t len = (size_t)pf->env_len[0], n = 0;

	while ((e = cb_env_next(buf, len, e)))
		n++;
	*env = calloc(n + 1, sizeof(**env));
	if (!*env)
		return 0;
	n = 0;
	while ((e = cb_env_next(buf, len, e)))
		(*env)[n++] = e;
	return n;
}

static int write_json(const struct cb_nctests *n, const struct cb_options *o,
		      const struct cb_preflight *pf, const struct cb_peers *peers, int argc,
		      char **argv)
{
	const struct cb_coll_desc *coll = cb_coll_get(o->coll);
	struct cb_nct_device *dev = calloc((size_t)pf->nranks + 1, sizeof(*dev));
	struct cb_nct_config c = { (const char *const *)argv, argc, NULL, 0, n->start_time, NULL,
				   o->minbytes, o->maxbytes, o->stepbytes, o->stepfactor,
				   o->warmup, o->iters, o->check, coll->rooted ? o->root : -1,
				   n->min_bw, dev, pf->nranks, o->agg_iters, o->blocking,
				   o->report_cputime, o->cudagraph };
	const char **env = NULL;
	char end[32], err[700];
	enum cb_status st;

	cb_nct_now(end, sizeof(end));
	c.end_time = end;
	c.nenv = env_list(pf, &env);
	c.env = env;
	for (int r = 0; dev && r < pf->nranks; r++)
		dev[r] = (struct cb_nct_device){ r, peers->pid ? peers->pid[r] : 0, pf->hosts[r], -1 };
	st = dev && env ? cb_nct_json_write(o->output_file, &n->tally, &c, err, sizeof(err)) :
			  CB_ERR_NOMEM;
	if (st == CB_ERR_NOMEM && (!dev || !env))
		snprintf(err, sizeof(err), "-J (--output_file): out of memory");
	if (st != CB_OK)
		cb_log("%s; %s is left as it was", err, o->output_file);
	free(dev);
	free(env);
	return st == CB_OK ? 0 : -1;
}

int cb_nctests_finish(struct cb_nctests *n, const struct cb_options *o,
		      const struct cb_preflight *pf, const struct cb_peers *peers, int argc,
		      char **argv, FILE *out)
{
	const struct cb_nct_algo *ref = cb_nct_reference(&n->tally);
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int rc = 0;

	if (cb_nct_footer(out, &n->tally, n->min_bw, prog) != 0) {
		cb_log("cannot write the footer on stdout: %m");
		rc = -1;
	}
	if (*o->output_file && write_json(n, o, pf, peers, argc, argv) != 0)
		rc = -1;
	if (rc == 0 && ref && !cb_nct_gate_ok(ref, n->min_bw)) {
		if (ref->nbw)
			cb_log("average busbw of %s, %g GB/s, is below 0.9 x NCCL_TESTS_MIN_BW=%g "
			       "GB/s (the 0.9: nccl-tests' slack); the run fails", ref->name,
			       cb_nct_avg_busbw(ref), n->min_bw);
		else
			cb_log("NCCL_TESTS_MIN_BW=%g GB/s is set, and no row measured a busbw "
			       "(all skipped or failed); the run fails", n->min_bw);
		rc = CB_NCTESTS_BELOW_MIN_BW;
	}
	return rc;
}

json_t *cb_nctests_meta(const struct cb_nctests *n)
{
	const struct cb_nct_algo *ref = cb_nct_reference(&n->tally);
	double bw = ref ? cb_nct_avg_busbw(ref) : NAN;

	return json_pack("{s:o,s:o,s:o,s:o,s:s}", "algorithm",
			 ref ? json_string(ref->name) : json_null(), "avg_busbw",
			 isnan(bw) ? json_null() : json_real(bw), "out_of_bounds",
			 ref ? json_integer((json_int_t)ref->wrong) : json_null(), "min_bw",
			 n->min_bw < 0 ? json_null() : json_real(n->min_bw), "gate",
			 n->min_bw < 0 ? "unchecked" : ref && cb_nct_gate_ok(ref, n->min_bw) ?
					 "ok" : "failed");
}

void cb_nctests_free(struct cb_nctests *n)
{
	cb_nct_free(&n->tally);
}
