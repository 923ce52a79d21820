/* cb_model_table: text tables for collbench-model (contract in
 * cb_model_table.h). */
#define _GNU_SOURCE
#include "cb_model_table.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model_input.h"

void cb_mtab_init(struct cb_mtab *t, const char *const *head, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->head = head;
	t->ncols = ncols;
}

static void push(struct cb_mtab *t, char *s)
{
	if (!s) {
		t->failed = 1;
		return;
	}
	if (t->ncells == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **nc = realloc(t->cells, cap * sizeof(*nc));

		if (!nc) {
			free(s);
			t->failed = 1;
			return;
		}
		t->cells = nc;
		t->cap = cap;
	}
	t->cells[t->ncells++] = s;
}

void cb_mtab_cell(struct cb_mtab *t, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	push(t, s);
}

void cb_mtab_num(struct cb_mtab *t, double v, int digits)
{
	if (isnan(v))
		cb_mtab_cell(t, "%s", "");
	else
		cb_mtab_cell(t, "%.*g", digits, v);
}

/* Column widths for the aligned table. */
static void widths(const struct cb_mtab *t, size_t *w)
{
	for (size_t c = 0; c < t->ncols; c++)
		w[c] = strlen(t->head[c]);
	for (size_t i = 0; i < t->ncells; i++)
		if (strlen(t->cells[i]) > w[i % t->ncols])
			w[i % t->ncols] = strlen(t->cells[i]);
}

static void print_row(FILE *f, enum cb_mfmt fmt, const struct cb_mtab *t, const char *const *row,
		      const size_t *w)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (fmt == CB_MFMT_MARKDOWN) {
			fputs("| ", f);
			for (const char *p = row[c]; *p; p++)
				fputs(*p == '|' ? "\\|" : (char[2]){ *p, 0 }, f);
			fputc(' ', f);
		}
		else if (fmt == CB_MFMT_TABLE && c + 1 == t->ncols) /* last: no padding */
			fprintf(f, "%s%s", c ? "  " : "", row[c]);
		else if (fmt == CB_MFMT_TABLE)
			fprintf(f, "%s%*s", c ? "  " : "", (int)w[c], row[c]);
		else {
			if (c)
				fputc(',', f);
			if (strpbrk(row[c], ",\"\n\r")) /* RFC 4180 quoting, by libcsv */
				csv_fwrite(f, row[c], strlen(row[c]));
			else
				fputs(row[c], f);
		}
	}
	fputs(fmt == CB_MFMT_MARKDOWN ? "|\n" : "\n", f);
}

enum cb_status cb_mtab_print(FILE *f, enum cb_mfmt fmt, const struct cb_mtab *t)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof(size_t));

	if (!w || t->failed) {
		free(w);
		return CB_ERR_NOMEM;
	}
	widths(t, w);
	print_row(f, fmt, t, t->head, w);
	if (fmt == CB_MFMT_MARKDOWN) {
		for (size_t c = 0; c < t->ncols; c++)
			fputs("|---", f);
		fputs("|\n", f);
	}
	for (size_t r = 0; r + t->ncols <= t->ncells; r += t->ncols)
		print_row(f, fmt, t, (const char *const *)t->cells + r, w);
	free(w);
	return ferror(f) ? CB_ERR_IO : CB_OK;
}

void cb_mtab_free(struct cb_mtab *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void cb_mtab_point(struct cb_mtab *t, const struct cb_mrow *r)
{
	cb_mtab_cell(t, "%s", r->backend);
	cb_mtab_cell(t, "%d", r->nranks);
	cb_mtab_cell(t, "%llu", r->bytes);
	cb_mtab_cell(t, "%s", r->dtype);
	cb_mtab_cell(t, "%s", r->op);
	cb_mtab_cell(t, "%d", r->in_place);
}
