/* cb_model_libid: which of Open MPI's own allreduce algorithms the library
 * ran for its default rows (collbench-model check --library).
 *
 * A run with the default row (mpi) and Open MPI's forced ones (mpi.*,
 * collectives/catalog/cb_catalog.h) at a point (backend, n, size, dtype, op, in place,
 * hosts) names, for the default row:
 *   traffic  the forced algorithms whose measured traffic (sweep.sh
 *            --mpi-traffic: the bytes of all ranks and of the busiest) equals
 *            the default's within CB_LIBID_SLACK bytes per rank and call
 *            (a margin: the monitoring's bytes are exact, docs/multihost.md);
 *   time     of those (of all where none matched, or traffic is unmeasured),
 *            the one whose median time is nearest the default's, with the
 *            ratio;
 *   table    the algorithm Open MPI 4.1's fixed decision names for (n, S)
 *            (cb_catalog.h, cb_catalog_ompi_choice), and whether it is
 *            among the traffic matches (or the time choice without them).
 * Rows other than ok ones are left out, and rows of other collectives than
 * allreduce (the library's other collectives are measured, not priced). */
#ifndef CB_MODEL_LIBID_H
#define CB_MODEL_LIBID_H

#include <stdio.h>

#include "cb_model_input.h"
#include "cb_model_table.h"

#define CB_LIBID_SLACK 64.0 /* bytes per rank and call */

struct cb_libid {
	const struct cb_mrow *row;     /* the default (mpi) row */
	char matches[256];             /* "ring,segmented_ring" or "" */
	const struct cb_mrow *nearest; /* the time choice (see the top) */
	double ratio;                  /* its time / the default's */
	const char *table;             /* Open MPI 4.1's choice by its table */
	int agree;                     /* the table's choice is a traffic match (or
				        * the time choice without traffic) */
	int traffic;                   /* the default's traffic was measured */
};

/* The default rows of in that have forced rows beside them, into *out
 * (malloc'd, *n of them). Errors: CB_ERR_NOMEM. */
enum cb_status cb_model_libid(const struct cb_minput *in, struct cb_libid **out, size_t *n);

/* The table (or CSV, markdown, JSON: an array of objects, "traffic_matches"
 * null where unmeasured) of them, and with table and markdown a line of how
 * often the table's choice matched. */
enum cb_status cb_out_libid(FILE *f, enum cb_mfmt fmt, const struct cb_libid *v, size_t n);

#endif
