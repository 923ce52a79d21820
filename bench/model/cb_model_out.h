/* cb_model_out: collbench-model's result tables (fit, check and its summary,
 * predict, crossover) in table, csv or markdown form. Each returns CB_OK,
 * CB_ERR_NOMEM or CB_ERR_IO (the stream failed). */
#ifndef CB_MODEL_OUT_H
#define CB_MODEL_OUT_H

#include <stdio.h>

#include "cb_coll.h"
#include "cb_model_pcoll.h"
#include "cb_model_table.h"
#include "cb_model_verbs.h"

/* One line per tier of each fitted group; refused groups with their reason. */
enum cb_status cb_out_fit(FILE *f, enum cb_mfmt fmt, const struct cb_fit_set *set);

/* Every row with a measured time (modelled or not, with the note). */
enum cb_status cb_out_check(FILE *f, enum cb_mfmt fmt, const struct cb_check_row *rows,
			    size_t n);

/* |relative error| by (backend, collective, algo, nranks) and message size range, and
 * over every size >= 64 KiB; *far_rows receives the number of far-off rows. */
enum cb_status cb_out_check_summary(FILE *f, enum cb_mfmt fmt, const struct cb_check_row *rows,
				    size_t n, size_t *far_rows);

/* predict: one line per (n, bytes, algorithm), "yes" in fastest
 * for the point's fastest; busbw with coll's factor (cb_coll_busbw_factor). */
enum cb_status cb_out_predict_coll(FILE *f, enum cb_mfmt fmt, enum cb_coll coll,
				   const struct cb_pcoll_row *rows, size_t n);

struct cb_cross_row {
	int n, kind;                 /* kind: cb_model_crossover's */
	double bytes;
	const char *first, *second;  /* the two algorithms compared */
};

enum cb_status cb_out_crossover(FILE *f, enum cb_mfmt fmt, const struct cb_cross_row *rows,
				size_t n);

#endif
