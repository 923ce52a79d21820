/* cb_model_choice: the model as a tuner, checked. At each point of a run
 * (backend, collective, n, size, dtype, op, in place, hosts) where two or
 * more algorithms of that collective were measured and modelled, the model's choice (its
 * fastest; the first in row order of a tie) beside the measured fastest (the
 * smallest median): they agree when they are the same algorithm, when the
 * choice's measured median is inside the fastest's repeats' band (its
 * slowest repeat's median; without repeats there is no band), or when both
 * rows ran the same plan under two names (cb_plan_same: hier and twoshot on
 * one host), whose times differ by what the machine did between them, not by
 * what they move.
 *
 * Regret: the measured time of the model's choice over the measured
 * fastest's (1: nothing lost); its geometric mean over the points where
 * each rank had a CPU, time-sliced ones apart, with the model's error by
 * regime: latency-bound where the model puts at least half of the fastest
 * row's time in latency (messages x alpha, the call's overhead). */
#ifndef CB_MODEL_CHOICE_H
#define CB_MODEL_CHOICE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_model_table.h"
#include "cb_model_verbs.h"

struct cb_choice {
	const struct cb_mrow *best;    /* the measured fastest */
	const struct cb_check_row *chosen; /* the model's fastest (its row) */
	int candidates;                /* algorithms measured and modelled here */
	int agree;
	const char *agree_by;          /* "algorithm", "band", "plan"; "" where not */
	int oversubscribed;            /* the point's rows were time-sliced */
	double regret;                 /* the choice's measured time / the fastest's, >= 1 */
	int latency_bound;             /* the model's time of the fastest is at least half latency */
	double err_median;             /* median |relative error| of the point's rows */
};

/* The points of rows[0 .. n) (cb_model_check's, copy left out), in the
 * order their first row comes; *out (free() it) gets *nout entries.
 * Errors: CB_ERR_NOMEM (a plan could not be built to compare). */
enum cb_status cb_model_choices(const struct cb_check_row *rows, size_t n, struct cb_choice **out,
				size_t *nout);

struct cb_regret {                 /* of a group of points */
	size_t points;
	double regret;     /* geometric mean of the points' regret; NaN: no point */
	double err_median; /* median of the points' err_median; NaN: no point */
};

/* Of c[0 .. n): the points with a CPU per rank (all[0]) and by regime
 * (lat, bw), and the oversubscribed ones (over). */
void cb_choice_summary(const struct cb_choice *c, size_t n, struct cb_regret *all,
		       struct cb_regret *lat, struct cb_regret *bw, struct cb_regret *over);

/* One line per point, then (table and markdown) the regret with the error
 * per regime, the oversubscribed points' apart, the agreement rate over
 * every point and over the points whose ranks had a CPU each, and how many
 * agreed by the same plan. Errors:
 * CB_ERR_NOMEM, CB_ERR_IO. */
enum cb_status cb_out_choices(FILE *f, enum cb_mfmt fmt, const struct cb_choice *c, size_t n);

#endif
