/* cb_model_cli_predict: collbench-model's predict and presets verbs
 * (contract in cb_model_cli.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model_cli.h"
#include "cb_model_out.h"
#include "cb_model_params.h"
#include "cb_model_topo.h"
#include "cb_text.h"

/* The fitted one-sided group predict --fit uses: --backend's, else the
 * first. NULL after a message. */
static const struct cb_fit_group *pick_group(const struct cli *c, const struct cb_fit_set *f)
{
	for (size_t g = 0; g < f->ngroups; g++) {
		const struct cb_fit_group *gr = &f->groups[g];

		if (gr->fitted && (!c->backend[0] || strcmp(gr->backend, c->backend) == 0) &&
		    (strcmp(gr->transport, "shm") == 0 || strcmp(gr->transport, "ipc") == 0))
			return gr;
	}
	cb_eprintf(PROG " predict: %s has no fitted ps/ring/copy group%s%s\n", c->fit_path,
		c->backend[0] ? " of backend " : "", c->backend);
	return NULL;
}

/* Counts a skipped point, naming the first reason. */
static void skipped(size_t *nskip, const char *why)
{
	if ((*nskip)++ == 0)
		cb_eprintf(PROG " predict: skipped: %s\n", why);
}

static int grid(const struct cli *c, const struct cb_pred_opts *o, size_t *nskip)
{
	size_t cap = (size_t)c->nranks * CB_CLI_MAX_SIZES, k = 0;
	struct cb_pred_row *rows = malloc(cap * sizeof(*rows));
	enum cb_status st = CB_OK;
	char why[256];

	if (!rows)
		return EXIT_USAGE;
	for (int i = 0; i < c->nranks && st == CB_OK; i++)
		for (size_t b = c->minbytes, j = 0; b <= c->maxbytes && j < CB_CLI_MAX_SIZES;
		     b *= c->factor, j++) {
			st = cb_model_predict(o, c->ranks[i], (double)b, &rows[k], why, sizeof(why));
			if (st == CB_OK)
				k++;
			else if (st == CB_ERR_UNSUPPORTED)
				skipped(nskip, why);
			if (st != CB_OK && st != CB_ERR_UNSUPPORTED)
				break;
			st = CB_OK;
			if (b > c->maxbytes / c->factor)
				break;
		}
	if (st == CB_OK)
		st = cb_out_predict(stdout, c->fmt, rows, k);
	free(rows);
	if (st == CB_ERR_ARG) {
		cb_eprintf(PROG " predict: %s\n", why);
		return EXIT_USAGE;
	}
	return st == CB_OK ? 0 : EXIT_USAGE;
}

static int crossover(const struct cli *c, const struct cb_pred_opts *o, size_t *nskip)
{
	struct cb_cross_row rows[CB_CLI_MAX_RANKS];
	size_t k = 0;
	char why[256];

	for (int i = 0; i < c->nranks; i++) {
		enum cb_status st = cb_model_crossover(o, c->ranks[i], (double)c->minbytes,
						       (double)c->maxbytes, &rows[k].bytes,
						       &rows[k].kind, why, sizeof(why));

		rows[k].n = c->ranks[i];
		if (st == CB_OK)
			k++;
		else if (st == CB_ERR_UNSUPPORTED)
			skipped(nskip, why);
		else {
			cb_eprintf(PROG " predict: %s\n", st == CB_ERR_NOMEM ? "out of memory"
										  : why);
			return EXIT_USAGE;
		}
	}
	return cb_out_crossover(stdout, c->fmt, rows, k) == CB_OK ? 0 : EXIT_USAGE;
}

int cb_cli_predict(const struct cli *c)
{
	struct cb_topo topo;
	struct cb_fit_set *f = calloc(1, sizeof(*f));
	struct cb_pred_opts o = { &topo, NULL, c->esize, c->root, c->two_sided };
	char err[1024];
	size_t nskip = 0;
	int rc = EXIT_USAGE;

	if (!f)
		return EXIT_USAGE;
	if (c->fmt == CB_MFMT_JSON) {
		cb_eprintf(PROG " predict: --format json is fit's; use table, csv or markdown\n");
		goto out;
	}
	if (cb_topo_load(c->topo, &topo, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG " predict: %s\n", err);
		goto out;
	}
	if (c->fit_path[0]) {
		if (cb_fit_set_read(c->fit_path, f, err, sizeof(err)) != CB_OK) {
			cb_eprintf(PROG " predict: %s\n", err);
			goto out;
		}
		o.fit = pick_group(c, f);
		if (!o.fit)
			goto out;
	}
	cb_eprintf(PROG " predict: topology %s (%s)%s%s\n", topo.name, topo.source,
		o.fit ? "; links, reduce and copy rates fitted on " : "", o.fit ? f->source : "");
	rc = c->crossover ? crossover(c, &o, &nskip) : grid(c, &o, &nskip);
	if (nskip)
		cb_eprintf(PROG " predict: %zu point(s) skipped\n", nskip);
	if (rc)
		cb_eprintf(PROG " predict: cannot print the results\n");
out:
	free(f);
	return rc;
}

int cb_cli_presets(const struct cli *c, const char *name)
{
	static const char *const head[] = { "name", "ranks_per_host", "intra_GBps", "intra_alpha_us",
		"net_GBps", "net_per", "net_alpha_us", "gamma_GBps", "copy_GBps", "source" };
	struct cb_mtab t;

	if (name) {
		const struct cb_topo *p = cb_topo_preset(name);

		if (!p) {
			cb_eprintf(PROG " presets: no preset '%s' (" PROG " presets lists them)\n",
				name);
			return EXIT_USAGE;
		}
		return cb_topo_write(stdout, p) == CB_OK ? 0 : EXIT_USAGE;
	}
	if (c->fmt == CB_MFMT_JSON) {
		cb_eprintf(PROG " presets: --format json is for one preset: " PROG " presets NAME\n");
		return EXIT_USAGE;
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
		return st == CB_OK ? 0 : EXIT_USAGE;
	}
}
