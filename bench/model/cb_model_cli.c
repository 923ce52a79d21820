/* cb_model_cli: collbench-model's verbs fit, check, predict and presets
 * (contract in cb_model_cli.h). */
#define _GNU_SOURCE
#include "cb_model_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_model_choice.h"
#include "cb_model_libid.h"
#include "cb_model_out.h"
#include "cb_model_params.h"
#include "cb_model_topo.h"
#include "cb_optable.h"
#include "cb_output.h"
#include "cb_text.h"

/* Loads a run; 0 or -1 after a message. */
static int load_run(const char *verb, const char *run, struct cb_minput *in)
{
	char err[1024];

	if (cb_minput_load(run, in, err, sizeof(err)) != CB_OK) {
		cb_eprintf(CB_MODEL_PROG " %s: %s\n", verb, err);
		return -1;
	}
	if (in->meta_missing)
		cb_eprintf(CB_MODEL_PROG " %s: warning: %d row(s) without launch metadata: placement "
			"and CPUs unknown, taken as one host\n", verb, in->meta_missing);
	return 0;
}

/* Fits in; 0 when a group was fitted, -1 after a message. Refused groups
 * are warned about. */
static int fit_run(const char *verb, const struct cb_cli *c, const struct cb_minput *in,
		   struct cb_fit_set *f)
{
	char err[512];
	size_t fitted = 0;
	enum cb_status st = cb_model_fit_input(in, &c->sel, f, err, sizeof(err));

	if (st != CB_OK) {
		cb_eprintf(CB_MODEL_PROG " %s: %s\n", verb, st == CB_ERR_NOMEM ? "out of memory" : err);
		return -1;
	}
	for (size_t g = 0; g < f->ngroups; g++) {
		const struct cb_fit_group *gr = &f->groups[g];

		if (gr->fitted)
			fitted++;
		else
			cb_eprintf(CB_MODEL_PROG " %s: %s/%s %s: refused: %s\n", verb, gr->backend,
				gr->transport, cb_coll_get(gr->coll)->name, gr->why);
	}
	if (!fitted) {
		cb_eprintf(CB_MODEL_PROG " %s: nothing could be fitted\n", verb);
		return -1;
	}
	return 0;
}

/* Writes the fit to path through a temporary file renamed over it, so a
 * reader never sees half a file. 0 or -1 after a message. */
static int write_fit_file(const struct cb_fit_set *f, const char *path)
{
	char tmp[1100], err[4600];
	FILE *out;
	int ok;

	if (cb_replace_open(path, tmp, sizeof(tmp), &out, err, sizeof(err)) != CB_OK) {
		cb_eprintf(CB_MODEL_PROG " fit: %s\n", err);
		return -1;
	}
	ok = cb_fit_set_write(out, f) == CB_OK;
	if (cb_replace_commit(out, tmp, path, ok, err, sizeof(err)) != CB_OK) {
		cb_eprintf(CB_MODEL_PROG " fit: %s\n", err);
		return -1;
	}
	return 0;
}

static int report(enum cb_status st)
{
	if (st == CB_OK)
		return 0;
	cb_eprintf(CB_MODEL_PROG ": cannot print the results: %s\n",
		st == CB_ERR_NOMEM ? "out of memory" : "write error");
	return CB_MODEL_EXIT_USAGE;
}

int cb_cli_fit(const struct cb_cli *c, const char *run)
{
	struct cb_minput in;
	struct cb_fit_set *f = calloc(1, sizeof(*f));
	int rc = CB_MODEL_EXIT_USAGE;

	if (!f || load_run("fit", run, &in) != 0) {
		free(f);
		return CB_MODEL_EXIT_USAGE;
	}
	if (fit_run("fit", c, &in, f) != 0)
		goto out;
	if (c->output[0] && write_fit_file(f, c->output) != 0)
		goto out;
	if ((c->fmt_given && c->fmt == CB_MFMT_JSON) || (!c->fmt_given && !c->output[0]))
		rc = report(cb_fit_set_write(stdout, f));
	else
		rc = report(cb_out_fit(stdout, c->fmt, f));
out:
	cb_minput_free(&in);
	free(f);
	return rc;
}

/* 1 when the row passes check's --algo and --min-bytes. */
static int shown(const struct cb_cli *c, const struct cb_mrow *r)
{
	return (double)r->bytes >= c->sel.min_bytes && cb_list_selects(c->algos, r->algo);
}

/* The parameters check uses: --fit FILE, else fitted on the run itself. */
static int check_params(const struct cb_cli *c, const struct cb_minput *in, struct cb_fit_set *f)
{
	char err[1024];
	struct cb_cli in_sample = *c;

	if (!c->fit_path[0]) {
		cb_eprintf(CB_MODEL_PROG " check: no --fit: fitting on %s itself (in-sample); fit "
			"another run with " CB_MODEL_PROG " fit -o and pass --fit to check against it\n",
			in->path);
		in_sample.sel.algos = NULL;
		in_sample.sel.min_bytes = 0;
		return fit_run("check", &in_sample, in, f);
	}
	if (cb_fit_set_read(c->fit_path, f, err, sizeof(err)) != CB_OK) {
		cb_eprintf(CB_MODEL_PROG " check: %s\n", err);
		return -1;
	}
	if (f->machine[0] && in->machine[0] && strcmp(f->machine, in->machine) != 0)
		cb_eprintf(CB_MODEL_PROG " check: warning: the fit is of machine '%s', the run of '%s'\n",
			f->machine, in->machine);
	return 0;
}

/* The check's last line: rows modelled and far off, the far ones split by
 * whether their launch had more ranks than CPUs (time slicing, which the
 * model prices by rules of thumb: cb_model.h) when any had. far_pct: the threshold in percent. */
static void print_check_line(FILE *f, int text, const struct cb_check_row *rows, size_t n,
			     double far_pct)
{
	size_t m[2] = { 0, 0 }, far[2] = { 0, 0 }, shown = 0; /* [0] ranks <= CPUs, [1] over */

	for (size_t i = 0; i < n; i++) {
		int o = rows[i].modelled && rows[i].oversubscribed;

		shown += rows[i].row->ok;
		m[o] += rows[i].modelled;
		far[o] += rows[i].far;
	}
	fprintf(f, "%s%zu of %zu rows modelled, %zu far off (|error| > %.0f%% and outside the "
		"repeats' band)", text ? "\n" : "", m[0] + m[1], shown, far[0] + far[1], far_pct);
	if (m[1])
		fprintf(f, ": %zu of %zu rows with ranks <= CPUs, %zu of %zu oversubscribed "
			"(more ranks than CPUs: time slicing)", far[0], m[0], far[1],
			m[1]);
	fputc('\n', f);
}

/* Prints the rows (unless --summary) and the summary; returns the status. */
/* check --choice: the model's choice beside the measured fastest, per point. */
static int print_choices(const struct cb_check_row *rows, size_t n, enum cb_mfmt fmt)
{
	struct cb_choice *ch;
	size_t k;
	enum cb_status st = cb_model_choices(rows, n, &ch, &k);

	if (st == CB_OK && k == 0) {
		cb_eprintf(CB_MODEL_PROG " check --choice: no point with two or more modelled "
			"algorithms\n");
		free(ch);
		return CB_MODEL_EXIT_USAGE;
	}
	if (st == CB_OK)
		st = cb_out_choices(stdout, fmt, ch, k);
	free(ch);
	return st == CB_OK ? 0 : report(st);
}

static int print_check(const struct cb_cli *c, const struct cb_check_row *rows, size_t n)
{
	size_t far = 0, modelled = 0;
	enum cb_status st = CB_OK;
	int text = c->fmt == CB_MFMT_TABLE || c->fmt == CB_MFMT_MARKDOWN;

	if (c->choice)
		return print_choices(rows, n, c->fmt);

	for (size_t i = 0; i < n; i++)
		modelled += rows[i].modelled;
	if (!c->summary)
		st = cb_out_check(stdout, c->fmt, rows, n);
	if (st == CB_OK && text && !c->summary)
		st = putchar('\n') == EOF ? CB_ERR_IO : CB_OK;
	if (st == CB_OK && (text || c->summary))
		st = cb_out_check_summary(stdout, c->fmt, rows, n, &far);
	else
		for (size_t i = 0; i < n; i++)
			far += rows[i].far;
	if (st != CB_OK)
		return report(st);
	print_check_line(text ? stdout : stderr, text, rows, n, 100 * c->far);
	if (c->gate && modelled == 0) {
		/* a gate that judged no row must not pass */
		cb_eprintf(CB_MODEL_PROG " check: --gate: no row was modelled (no fitted group of "
			"their backend and transport): nothing to judge\n");
		return CB_MODEL_EXIT_USAGE;
	}
	return c->gate && far ? CB_MODEL_EXIT_FAR : 0;
}

/* check --library: which forced algorithm each default mpi row ran. */
static int print_libid(const struct cb_minput *in, enum cb_mfmt fmt)
{
	struct cb_libid *v;
	size_t n;
	enum cb_status st = cb_model_libid(in, &v, &n);

	if (st == CB_OK && n == 0) {
		cb_eprintf(CB_MODEL_PROG " check --library: no ok mpi row with ok mpi.* rows beside "
			"it (sweep.sh -a mpi,mpi.ring,... --mpi-traffic)\n");
		free(v);
		return CB_MODEL_EXIT_USAGE;
	}
	if (st == CB_OK)
		st = cb_out_libid(stdout, fmt, v, n);
	free(v);
	return st == CB_OK ? 0 : report(st);
}

int cb_cli_check(const struct cb_cli *c, const char *run)
{
	struct cb_minput in;
	struct cb_fit_set *f = calloc(1, sizeof(*f));
	struct cb_check_row *rows = NULL;
	struct cb_topo hosts;
	char err[512];
	enum cb_status st;
	size_t k = 0;
	int rc = CB_MODEL_EXIT_USAGE;

	if (c->fmt == CB_MFMT_JSON && !c->library) {
		cb_eprintf(CB_MODEL_PROG " check: --format json is fit's and check --library's; use "
			"table, csv or markdown\n");
		free(f);
		return CB_MODEL_EXIT_USAGE;
	}
	if (!f || load_run("check", run, &in) != 0) {
		free(f);
		return CB_MODEL_EXIT_USAGE;
	}
	if (c->library) {
		rc = print_libid(&in, c->fmt);
		goto out;
	}
	if (check_params(c, &in, f) != 0)
		goto out;
	if (c->topo_given && cb_topo_load(c->topo, &hosts, err, sizeof(err)) != CB_OK) {
		cb_eprintf(CB_MODEL_PROG " check: %s\n", err);
		goto out;
	}
	st = cb_model_check(&in, f, c->far, c->topo_given ? &hosts : NULL, &rows);
	if (st == CB_ERR_NOMEM) {
		cb_eprintf(CB_MODEL_PROG " check: out of memory\n");
		goto out;
	}
	for (size_t i = 0; st != CB_OK && i < in.nrows; i++)
		if (rows[i].not_finite) {
			cb_eprintf(CB_MODEL_PROG " check: line %zu: %s\n", rows[i].row->line,
				rows[i].note);
			goto out;
		}
	for (size_t i = 0; i < in.nrows; i++)
		if (shown(c, rows[i].row))
			rows[k++] = rows[i];
	if (k == 0)
		cb_eprintf(CB_MODEL_PROG " check: no rows to check%s\n",
			c->algos[0] || c->sel.min_bytes > 0 ? " (after --algo/--min-bytes)" : "");
	else
		rc = print_check(c, rows, k);
out:
	free(rows);
	cb_minput_free(&in);
	free(f);
	return rc;
}

/* The fitted one-sided group predict --fit uses: --backend's, else the
 * first; of --coll's collective, else (with a note) of another: the links
 * are the machine's. NULL after a message. */
static const struct cb_fit_group *pick_group(const struct cb_cli *c, const struct cb_fit_set *f)
{
	for (int any = 0; any < 2; any++)
		for (size_t g = 0; g < f->ngroups; g++) {
			const struct cb_fit_group *gr = &f->groups[g];

			if (!gr->fitted || (c->backend[0] && strcmp(gr->backend, c->backend) != 0) ||
			    cb_mreg_one_sided(gr->transport) != 1 ||
			    (!any && gr->coll != c->coll))
				continue;
			if (any)
				cb_eprintf(CB_MODEL_PROG " predict: note: %s has no fit of %s rows: "
					"using the one of %s rows\n", c->fit_path,
					cb_coll_get((enum cb_coll)c->coll)->name,
					cb_coll_get((enum cb_coll)gr->coll)->name);
			return gr;
		}
	cb_eprintf(CB_MODEL_PROG " predict: %s has no fitted group of a one-sided transport%s%s\n", c->fit_path,
		c->backend[0] ? " of backend " : "", c->backend);
	return NULL;
}

/* A grid's return when every point was skipped: nothing printed. */
#define PRED_NONE (-1)

/* The points predict skipped: how many, the first's and the last's reason. */
struct skips {
	size_t n;
	char last[256];
};

/* Counts a skipped point, naming the first reason. */
static void skipped(struct skips *sk, const char *why)
{
	if (sk->n++ == 0)
		cb_eprintf(CB_MODEL_PROG " predict: skipped: %s\n", why);
	snprintf(sk->last, sizeof(sk->last), "%s", why);
}

/* Every (rank count, size) of c into pts (sizes minbytes * factor^j up to
 * maxbytes, at most CB_CLI_MAX_SIZES); returns how many. */
static size_t list_points(const struct cb_cli *c, struct cb_pred_point *pts)
{
	size_t k = 0;

	for (int i = 0; i < c->nranks; i++)
		for (size_t b = c->minbytes, j = 0; b <= c->maxbytes && j < CB_CLI_MAX_SIZES;
		     b *= c->factor, j++) {
			pts[k].n = c->ranks[i];
			pts[k++].bytes = (double)b;
			if (b > c->maxbytes / c->factor)
				break;
		}
	return k;
}

/* predict: every algorithm of a per point, on a thread per CPU; a point
 * not priced (CB_ERR_UNSUPPORTED) counted in sk; another error ends it. */
static int grid(const struct cb_cli *c, const struct cb_pred_opts *o,
		const struct cb_pred_algos *a, struct skips *sk)
{
	size_t maxp = (size_t)c->nranks * CB_CLI_MAX_SIZES, np, k = 0;
	struct cb_pred_point *pts = calloc(maxp, sizeof(*pts));
	struct cb_pcoll_row *rows = malloc(maxp * a->n * sizeof(*rows));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	enum cb_status st = CB_OK;

	if (!pts || !rows) {
		free(pts), free(rows);
		return CB_MODEL_EXIT_USAGE;
	}
	np = list_points(c, pts);
	cb_model_predict_grid(o, a, pts, np, rows, cpus > 0 ? (int)cpus : 1);
	for (size_t i = 0; i < np && st == CB_OK; i++) {
		st = pts[i].st == CB_ERR_UNSUPPORTED ? CB_OK : pts[i].st;
		if (pts[i].st == CB_ERR_UNSUPPORTED)
			skipped(sk, pts[i].why);
		else if (st == CB_OK) /* the point's rows, in order */
			memmove(rows + k, rows + i * a->n, pts[i].got * sizeof(*rows)), k += pts[i].got;
		else
			cb_eprintf(CB_MODEL_PROG " predict: %s\n", st == CB_ERR_NOMEM ? "out of memory"
										  : pts[i].why);
	}
	if (st == CB_OK && k == 0) {
		free(pts), free(rows);
		return PRED_NONE;
	}
	if (st == CB_OK)
		st = cb_out_predict_coll(stdout, c->fmt, (enum cb_coll)a->coll, rows, k);
	free(pts), free(rows);
	return st == CB_OK ? 0 : CB_MODEL_EXIT_USAGE;
}

static int crossover(const struct cb_cli *c, const struct cb_pred_opts *o,
		     const struct cb_pred_algos *a, struct skips *sk)
{
	struct cb_cross_row rows[CB_CLI_MAX_RANKS];
	size_t k = 0;
	char why[256];

	for (int i = 0; i < c->nranks; i++) {
		enum cb_status st = cb_model_crossover(o, a, c->ranks[i], (double)c->minbytes,
						       (double)c->maxbytes, &rows[k].bytes,
						       &rows[k].kind, why, sizeof(why));

		rows[k].n = c->ranks[i];
		rows[k].first = a->name[0];
		rows[k].second = a->name[1];
		if (st == CB_OK)
			k++;
		else if (st == CB_ERR_UNSUPPORTED)
			skipped(sk, why);
		else {
			cb_eprintf(CB_MODEL_PROG " predict: %s\n", st == CB_ERR_NOMEM ? "out of memory"
										  : why);
			return CB_MODEL_EXIT_USAGE;
		}
	}
	if (k == 0)
		return PRED_NONE;
	return cb_out_crossover(stdout, c->fmt, rows, k) == CB_OK ? 0 : CB_MODEL_EXIT_USAGE;
}

int cb_cli_predict(const struct cb_cli *c)
{
	struct cb_topo topo;
	struct cb_fit_set *f = calloc(1, sizeof(*f));
	struct cb_pred_opts o = { &topo, NULL, c->esize, c->root, c->two_sided };
	struct cb_pred_algos algos;
	char err[1024];
	struct skips nskip = { 0, "" };
	int rc = CB_MODEL_EXIT_USAGE;

	if (!f)
		return CB_MODEL_EXIT_USAGE;
	if (c->fmt == CB_MFMT_JSON) {
		cb_eprintf(CB_MODEL_PROG " predict: --format json is fit's; use table, csv or markdown\n");
		goto out;
	}
	if (cb_pred_algos(c->coll, c->algos, &algos, err, sizeof(err)) != 0 ||
	    (c->crossover && algos.n < 2 &&
	     snprintf(err, sizeof(err), "--crossover compares two algorithms; %s has %zu",
		      cb_coll_get((enum cb_coll)c->coll)->name, algos.n))) {
		cb_eprintf(CB_MODEL_PROG " predict: %s\n", err);
		goto out;
	}
	if (cb_topo_load(c->topo, &topo, err, sizeof(err)) != CB_OK) {
		cb_eprintf(CB_MODEL_PROG " predict: %s\n", err);
		goto out;
	}
	if (c->fit_path[0]) {
		if (cb_fit_set_read(c->fit_path, f, err, sizeof(err)) != CB_OK) {
			cb_eprintf(CB_MODEL_PROG " predict: %s\n", err);
			goto out;
		}
		o.fit = pick_group(c, f);
		if (!o.fit)
			goto out;
	}
	cb_eprintf(CB_MODEL_PROG " predict: topology %s (%s)%s%s\n", topo.name, topo.source,
		o.fit ? "; links, reduce and copy rates fitted on " : "", o.fit ? f->source : "");
	rc = c->crossover ? crossover(c, &o, &algos, &nskip) : grid(c, &o, &algos, &nskip);
	if (rc == PRED_NONE) { /* the first reason is said; the last may differ */
		int more = nskip.n > 1;

		cb_eprintf(CB_MODEL_PROG " predict: nothing predicted: all %zu point(s) "
			"skipped%s%s\n", nskip.n, more ? ", the last for: " : "", more ? nskip.last : "");
		rc = CB_MODEL_EXIT_USAGE;
		goto out;
	}
	if (nskip.n)
		cb_eprintf(CB_MODEL_PROG " predict: %zu point(s) skipped\n", nskip.n);
	if (rc)
		cb_eprintf(CB_MODEL_PROG " predict: cannot print the results\n");
out:
	free(f);
	return rc;
}

int cb_cli_presets(const struct cb_cli *c, const char *name)
{
	static const char *const head[] = { "name", "ranks_per_host", "intra_GBps", "intra_alpha_us",
		"net_GBps", "net_per", "net_alpha_us", "gamma_GBps", "copy_GBps", "source" };
	struct cb_mtab t;

	if (name) {
		const struct cb_topo *p = cb_topo_preset(name);

		if (!p) {
			cb_eprintf(CB_MODEL_PROG " presets: no preset '%s' (" CB_MODEL_PROG " presets lists them)\n",
				name);
			return CB_MODEL_EXIT_USAGE;
		}
		return cb_topo_write(stdout, p) == CB_OK ? 0 : CB_MODEL_EXIT_USAGE;
	}
	if (c->fmt == CB_MFMT_JSON) {
		cb_eprintf(CB_MODEL_PROG " presets: --format json is for one preset: " CB_MODEL_PROG " presets NAME\n");
		return CB_MODEL_EXIT_USAGE;
	}
	cb_mtab_init(&t, head, 10);
	for (size_t i = 0; i < cb_topo_npresets(); i++) {
		const struct cb_topo *p = cb_topo_preset_at(i);

		cb_mtab_cell(&t, "%s", p->name);
		cb_mtab_cell(&t, "%d", p->ranks_per_host);
		cb_mtab_num(&t, p->intra.bw / 1e9, 4);
		cb_mtab_num(&t, p->intra.alpha * 1e6, 4);
		cb_mtab_num(&t, p->net.bw > 0 ? p->net.bw / 1e9 : NAN, 4);
		cb_mtab_cell(&t, "%s", p->net.bw > 0 ? (p->net_attach == CB_NET_PER_RANK ? "rank" : "host") : "");
		cb_mtab_num(&t, p->net.bw > 0 ? p->net.alpha * 1e6 : NAN, 4);
		cb_mtab_num(&t, isinf(p->gamma) ? NAN : p->gamma / 1e9, 4);
		cb_mtab_num(&t, p->copy_bw / 1e9, 4);
		cb_mtab_cell(&t, "%s", p->source);
	}
	{
		enum cb_status st = cb_mtab_print(stdout, c->fmt, &t);

		cb_mtab_free(&t);
		return st == CB_OK ? 0 : CB_MODEL_EXIT_USAGE;
	}
}
