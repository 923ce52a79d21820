/* cb_model_table: a small table of text cells printed as an aligned table,
 * CSV (RFC 4180 quoting) or markdown: collbench-model's results on stdout. */
#ifndef CB_MODEL_TABLE_H
#define CB_MODEL_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_status.h"

enum cb_mfmt { CB_MFMT_TABLE, CB_MFMT_CSV, CB_MFMT_MARKDOWN, CB_MFMT_JSON };

struct cb_mtab {
	const char *const *head; /* column names */
	size_t ncols, ncells, cap;
	char **cells;            /* row-major, ncells / ncols rows */
	int failed;              /* an allocation failed: print refuses */
};

void cb_mtab_init(struct cb_mtab *t, const char *const *head, size_t ncols);

/* Appends one cell (printf-style); rows fill left to right. On allocation
 * failure the table is marked failed and the cell dropped. */
void cb_mtab_cell(struct cb_mtab *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A number cell: "%.*g" of v, "" (empty: unmeasured) when v is NaN. */
void cb_mtab_num(struct cb_mtab *t, double v, int digits);

/* Prints t in fmt (JSON prints as CSV: the caller writes JSON itself).
 * Returns CB_OK, CB_ERR_NOMEM (a cell was dropped) or CB_ERR_IO (f failed). */
enum cb_status cb_mtab_print(FILE *f, enum cb_mfmt fmt, const struct cb_mtab *t);

void cb_mtab_free(struct cb_mtab *t);

/* The six cells that name a row's point: backend, nranks, bytes, dtype, op,
 * in_place (the first columns of check --choice's and --library's tables). */
struct cb_mrow;
void cb_mtab_point(struct cb_mtab *t, const struct cb_mrow *r);

#endif
