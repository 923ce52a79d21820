/* cb_reference: a run's launches placed against the published figures
 * (cb_ref_place; contract in cb_reference.h). */
#define _GNU_SOURCE
#include "cb_reference.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "cb_size.h"

/* The topology of launch l's metadata into *t; 0, or -1 with why it is not
 * known in why (t->known 0). */
static int launch_topo(const struct cb_res_launch *l, struct cb_topo *t, char *why, size_t len)
{
	json_error_t e;
	json_t *meta = json_load_file(l->file, 0, &e);
	const json_t *o = meta ? json_object_get(meta, "topology") : NULL;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	if (!meta)
		snprintf(why, len, "cannot read %s: %s", l->file, e.text);
	else if (!o)
		snprintf(why, len, "no \"topology\" in %s (a run from before the stamp)", l->file);
	else if (cb_topo_from_json(o, t) != 0)
		snprintf(why, len, "%s: \"topology\" is not a topology object", l->file);
	else if (!t->known)
		snprintf(why, len, "%s", t->why_unknown[0] ? t->why_unknown : "topology unknown");
	else
		rc = 0;
	json_decref(meta);
	return rc;
}

/* 1 when row r of a launch of n ranks measures entry e (at its size, or any
 * size for a peak entry). */
static int row_measures(const struct cb_summary *r, int n, const struct cb_ref_entry *e)
{
	return r->nranks == n && r->status.state == CB_ROW_OK && !isnan(r->busbw) &&
	       strcmp(r->collective, e->collective) == 0 && cb_ref_algo_is(r->algo, e->algo) &&
	       (e->bytes == CB_NO_U64 || r->bytes == e->bytes);
}

static void print_line(FILE *out, const struct cb_summary *r, const struct cb_ref_entry *e,
		       int peak)
{
	char size[32];

	cb_format_size(r->bytes, size, sizeof(size));
	fprintf(out, "  %-20s %-12s %-8s %-5s %9.2f %9.2f %6.2f  %s, %s (%s)\n", r->algo, e->algo,
		size, peak ? "peak" : r->in_place ? "ip" : "oop", r->busbw, e->busbw,
		r->busbw / e->busbw, e->title, e->date, e->url);
}

/* The rows of launch n against entry e: every row at its size, or the row of
 * highest busbw for a peak entry. Returns the lines printed. */
static int place_entry(FILE *out, const struct cb_results *res, int n,
		       const struct cb_ref_entry *e)
{
	const struct cb_summary *best = NULL;
	int lines = 0;

	for (size_t i = 0; i < res->nrows; i++) {
		const struct cb_summary *r = &res->rows[i].v;

		if (!row_measures(r, n, e))
			continue;
		if (e->bytes == CB_NO_U64) {
			if (!best || r->busbw > best->busbw)
				best = r;
			continue;
		}
		print_line(out, r, e, 0);
		lines++;
	}
	if (best) {
		print_line(out, best, e, 1);
		lines++;
	}
	return lines;
}

/* One launch of a known topology: its matches, else the nearest platform. */
static void place_launch(FILE *out, const struct cb_ref_table *rt, const struct cb_results *res,
			 const struct cb_res_launch *l, const struct cb_topo *t)
{
	char ic[CB_REF_NAME], why[CB_REF_TEXT];
	size_t matched = 0, unplaced = 0;
	long near;

	cb_ref_interconnect(t, ic, sizeof(ic));
	fprintf(out, "\nnp %d: %d x %s, %s%s (topology from %s)\n", l->nranks, t->gpu_count,
		t->gpu_model, ic, t->nvls ? ", NVLS" : "", t->source[0] ? t->source : "?");
	for (size_t i = 0; i < rt->n; i++) {
		const struct cb_ref_entry *e = &rt->e[i];

		if (!cb_ref_matches(e, t))
			continue;
		if (!matched++)
			fprintf(out, "  %-20s %-12s %-8s %-5s %9s %9s %6s  %s\n", "algo", "published",
				"size", "mode", "ours", "published", "ratio", "source");
		unplaced += place_entry(out, res, l->nranks, e) == 0;
	}
	if (matched) {
		fprintf(out, "  %zu matching entr%s (%s family, %d GPUs, %s)", matched,
			matched == 1 ? "y" : "ies", t->gpu_model, t->gpu_count, ic);
		if (unplaced)
			fprintf(out, "; %zu without a row of their algorithm and size here",
				unplaced);
		fprintf(out, "\n");
		return;
	}
	near = cb_ref_nearest(rt, t, why, sizeof(why));
	fprintf(out, "  no published figure for this platform; nearest: %d x %s (%s), line %zu: "
		"%s: not a match (%s)\n", rt->e[near].gpu_count, rt->e[near].family,
		rt->e[near].interconnect, rt->e[near].line, rt->e[near].title, why);
}

int cb_ref_place(FILE *out, const struct cb_ref_table *rt, const char *table_path,
		 const struct cb_results *res)
{
	char why[CB_RES_PATH + 256];
	int placed = 0;

	fprintf(out, "reference: %s (%zu entries); ratio = ours / published busbw\n", table_path,
		rt->n);
	for (size_t i = 0; i < res->nlaunches; i++) {
		const struct cb_res_launch *l = &res->launches[i];
		struct cb_topo t;

		if (launch_topo(l, &t, why, sizeof(why)) != 0) {
			fprintf(stderr, "collbench-compare: --reference: np %d: not placed: %s\n",
				l->nranks, why);
			continue;
		}
		place_launch(out, rt, res, l, &t);
		placed++;
	}
	if (!placed)
		fprintf(stderr, "collbench-compare: --reference: no launch of %s has a known "
			"topology: nothing to place\n", res->csv);
	return placed ? 0 : -1;
}
