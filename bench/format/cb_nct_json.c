/* cb_nct_json: nccl-tests' JSON layout of a run (contract in cb_nct_json.h). */
#define _GNU_SOURCE
#include "cb_nct_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cb_output.h"
#include "cb_text.h"

/* nccl-tests' JSON_FILE_VERSION (src/util.cu, 2.19) */
#define CB_NCT_JSON_VERSION 3

void cb_nct_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "unknown");
}

/* nccl-tests' jsonDouble: a number, "nan" for NaN */
static json_t *real(double v)
{
	return isnan(v) ? json_string("nan") : json_real(v);
}

/* n doubles as a JSON array (nccl-tests' jsonDouble each) */
static json_t *reals(const double *x, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		if (json_array_append_new(a, real(x[i])) != 0)
			return json_decref(a), NULL;
	return a;
}

static json_t *texts(const char *const *s, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, cb_json_text(s[i])) != 0)
			return json_decref(a), NULL;
	return a;
}

/* nccl-tests' jsonBool writes a JSON string, "true" or "false" */
static json_t *nct_bool(int v)
{
	return json_string(v ? "true" : "false");
}

/* A mode's figures; its time under "cpu_time" with -C 1, as nccl-tests. */
static json_t *mode(const struct cb_nct_mode *m, int cputime)
{
	if (!m->have)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:o}", cputime ? "cpu_time" : "time", real(m->time_us), "alg_bw", real(m->algbw),
			 "bus_bw", real(m->busbw), "nwrong",
			 m->wrong == CB_NO_U64 ? json_null() : json_real((double)m->wrong));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* nccl-tests' percentile index: min(n - 1, ceil(n p / 100) - 1) */
static int pct_index(int n, int p)
{
	int i = (n * p + 99) / 100 - 1;

	return i < n - 1 ? i : n - 1;
}

/* nccl-tests' "<mode>_per_iter" object of m's iterations (its -I report:
 * src/util.cu computeIterStats, writePerIterReport): none skipped; stdev
 * over the population; per_process_max_times_us: each rank's own times
 * (a rank per process). NULL: out of memory. */
static json_t *per_iter(const struct cb_nct_mode *m)
{
	double *v = malloc((size_t)m->k * sizeof(double)), sum = 0, var = 0, avg, sd;
	json_t *o, *procs = json_array();

	if (!v || !procs)
		return free(v), json_decref(procs), NULL;
	memcpy(v, m->iter_us, (size_t)m->k * sizeof(double));
	qsort(v, (size_t)m->k, sizeof(double), cmp_double);
	for (int i = 0; i < m->k; i++)
		sum += v[i];
	avg = sum / m->k;
	for (int i = 0; i < m->k; i++)
		var += (v[i] - avg) * (v[i] - avg);
	sd = sqrt(var / m->k);
	o = json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "skipped_iterations", 0, "min_us",
		      real(v[0]), "max_us", real(v[m->k - 1]), "avg_us", real(avg), "p50_us",
		      real(v[m->k / 2]), "p95_us", real(v[pct_index(m->k, 95)]), "p99_us",
		      real(v[pct_index(m->k, 99)]), "stdev_us", real(sd), "cv_pct",
		      real(avg > 0 ? sd / avg * 100 : 0), "times_us", reals(m->iter_us, m->k));
	for (int r = 0; o && r < m->nranks && m->nranks > 1; r++)
		json_array_append_new(procs, reals(m->rank_us + (size_t)r * m->k, m->k));
	if (o && m->nranks > 1)
		json_object_set_new(o, "per_process_max_times_us", procs);
	else
		json_decref(procs);
	free(v);
	return o;
}

/* Adds the two modes, each followed by its per-iteration object where the
 * iterations were kept, in nccl-tests' order. */
static int modes(json_t *o, const struct cb_nct_entry *e, int cputime)
{
	static const char *const key[2] = { "out_of_place", "in_place" };
	static const char *const pkey[2] = { "out_of_place_per_iter", "in_place_per_iter" };

	for (int m = 0; m < 2; m++) {
		if (json_object_set_new(o, key[m], mode(&e->mode[m], cputime)))
			return -1;
		if (e->mode[m].have && e->mode[m].iter_us &&
		    json_object_set_new(o, pkey[m], per_iter(&e->mode[m])))
			return -1;
	}
	return 0;
}

static json_t *results(const struct cb_nct_algo *a, const struct cb_nct_config *c)
{
	json_t *r = json_array();
	char rootname[16];

	snprintf(rootname, sizeof(rootname), "%6i", c->root); /* as nccl-tests writes it */
	for (size_t i = 0; r && i < a->n; i++) {
		const struct cb_nct_entry *e = &a->e[i];
		int iters = e->mode[0].have ? e->mode[0].iters : e->mode[1].iters;

		json_t *o = json_pack("{s:I,s:I,s:s,s:s,s:s}", "size", (json_int_t)e->bytes, "count",
				      (json_int_t)e->count, "type", e->dtype, "redop", e->op,
				      "root", rootname);

		if (!o || modes(o, e, c->report_cputime) ||
		    json_object_set_new(o, "actual_iterations", json_integer(iters)) ||
		    json_object_set_new(o, "experiment_name", json_string("")))
			return json_decref(o), json_decref(r), NULL;
		if (json_array_append_new(r, o)) /* o freed */
			return json_decref(r), NULL;
	}
	return r;
}

/* Adds a's "results", "out_of_bounds" and "average_bus_bandwidth" to o. */
static int summarise(json_t *o, const struct cb_nct_algo *a, const struct cb_nct_config *c)
{
	json_t *okay = c->min_bw < 0 ? json_string("unchecked") :
				       nct_bool(cb_nct_gate_ok(a, c->min_bw));

	return json_object_set_new(o, "results", results(a, c)) ||
	       json_object_set_new(o, "out_of_bounds",
				   json_pack("{s:I,s:o}", "count", (json_int_t)a->wrong, "okay",
					     nct_bool(!a->wrong && !a->failed))) ||
	       json_object_set_new(o, "average_bus_bandwidth",
				   json_pack("{s:o,s:o}", "bandwidth", real(cb_nct_avg_busbw(a)),
					     "okay", okay));
}

static json_t *devices(const struct cb_nct_config *c)
{
	json_t *d = json_array();

	for (int i = 0; d && i < c->ndev; i++) {
		const struct cb_nct_device *v = &c->dev[i];

		if (json_array_append_new(
			    d, json_pack("{s:i,s:i,s:o,s:o,s:i,s:n,s:n}", "rank", v->rank, "group", 0,
					 "pid", v->pid ? json_integer(v->pid) : json_null(),
					 "hostname", cb_json_text(v->hostname), "device",
					 v->device, "device_hex", "device_info")) != 0)
			return json_decref(d), NULL;
	}
	return d;
}

/* Whether some row of t kept its iterations (the per-iteration objects). */
static int any_per_iter(const struct cb_nct *t)
{
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = 0; j < t->a[i].n; j++)
			if (t->a[i].e[j].mode[0].iter_us || t->a[i].e[j].mode[1].iter_us)
				return 1;
	return 0;
}

static json_t *config(const struct cb_nct *t, const struct cb_nct_config *c)
{
	json_t *o = json_pack("{s:i,s:i,s:I,s:I}", "nthreads", 1, "ngpus", 1, "minimum_bytes",
			      (json_int_t)c->minbytes, "maximum_bytes", (json_int_t)c->maxbytes);
	json_t *rest = json_pack("{s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:i,s:o}", "warmup_iters",
				 c->warmup, "iterations", c->iters, "aggregated_iterations", c->agg_iters,
				 "validation", c->check, "graph", c->graph, "blocking_collectives",
				 nct_bool(c->blocking > 0), "per_iter_timing", nct_bool(any_per_iter(t)), "per_iter_skip", 0,
				 "parallel_init", nct_bool(0));
	int bad = !o || !rest;

	bad = bad || json_object_set_new(o, c->stepfactor > 1 ? "step_factor" : "step_bytes",
					 json_integer(c->stepfactor > 1 ? (json_int_t)c->stepfactor :
									  (json_int_t)c->stepbytes));
	bad = bad || json_object_update(o, rest) || json_object_set_new(o, "devices", devices(c));
	json_decref(rest);
	if (bad)
		return json_decref(o), NULL;
	return o;
}

/* Every algorithm's summaries (the "collbench" key). */
static json_t *algorithms(const struct cb_nct *t, const struct cb_nct_config *c)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < t->n; i++) {
		json_t *o = json_pack("{s:s}", "name", t->a[i].name);

		if (!o || summarise(o, &t->a[i], c))
			return json_decref(o), json_decref(a), NULL;
		if (json_array_append_new(a, o)) /* o freed */
			return json_decref(a), NULL;
	}
	return a;
}

json_t *cb_nct_json(const struct cb_nct *t, const struct cb_nct_config *c)
{
	const struct cb_nct_algo *ref = cb_nct_reference(t);
	static const struct cb_nct_algo none; /* a run without rows */
	json_t *o = json_pack("{s:i,s:o,s:o,s:o,s:n}", "version", CB_NCT_JSON_VERSION,
			      "start_time", cb_json_text(c->start_time), "args",
			      texts(c->argv, (size_t)c->argc), "env", texts(c->env, c->nenv),
			      "nccl_version");

	if (!o || json_object_set_new(o, "config", config(t, c)) ||
	    summarise(o, ref ? ref : &none, c) ||
	    json_object_set_new(o, "errors", json_array()) ||
	    json_object_set_new(o, "end_time", cb_json_text(c->end_time)) ||
	    json_object_set_new(o, "collbench",
				json_pack("{s:o,s:o}", "algorithm",
					  ref ? json_string(ref->name) : json_null(), "algorithms",
					  algorithms(t, c))))
		return json_decref(o), NULL;
	return o;
}

enum cb_status cb_nct_json_write(const char *path, const struct cb_nct *t,
				 const struct cb_nct_config *c, char *err, size_t len)
{
	char tmp[4200], why[512] = "";
	json_t *doc = cb_nct_json(t, c);
	FILE *f = NULL;
	enum cb_status st;
	int ok;

	if (!doc) {
		snprintf(err, len, "-J %s: out of memory", path);
		return CB_ERR_NOMEM;
	}
	st = cb_replace_open(path, tmp, sizeof(tmp), &f, why, sizeof(why));
	if (st == CB_OK) {
		errno = 0;
		ok = json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					 JSON_REAL_PRECISION(9)) == 0 && fputc('\n', f) != EOF;
		st = cb_replace_commit(f, tmp, path, ok, why, sizeof(why));
	}
	json_decref(doc);
	if (st != CB_OK)
		snprintf(err, len, "-J (--output_file): %s", why);
	return st;
}
