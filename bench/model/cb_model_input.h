/* cb_model_input: the one place the cost model reads collbench results. It
 * loads a results path with the results reader (bench/format/cb_results.h:
 * cb_results_load: a run folder, a summary CSV) and each launch's metadata
 * sidecar, and hands the model its own rows. When the reader or the schema
 * changes, this file (and only this file) follows. */
#ifndef CB_MODEL_INPUT_H
#define CB_MODEL_INPUT_H

#include <stddef.h>

#include "cb_status.h"

#define CB_MIN_NAME 32

struct cb_mrow {
	char backend[CB_MIN_NAME], algo[CB_MIN_NAME], dtype[CB_MIN_NAME], op[CB_MIN_NAME];
	int coll;                    /* the collective (enum cb_coll; schema 1 and 2
				      * rows: allreduce) */
	char transport[CB_MIN_NAME]; /* how bytes moved: the row's transport, a
				      * library's rows their algorithm's name, the
				      * copy roofline's the backend's one-sided one */
	int local;                   /* the copy roofline: nothing crosses ranks */
	int library;                 /* a library's call (cb_catalog.h: moves) */
	int nranks, in_place;
	unsigned long long bytes;    /* the rows' bytes: count x element size, count
				      * the collective's (cb_coll.h; allreduce: per
				      * rank) */
	size_t esize;                /* bytes per element; 0: unknown dtype */
	int ok;                      /* status "ok" */
	double t;                    /* seconds: median over iterations (the mean in
				      * files without the median column) */
	double t_lo, t_hi;           /* seconds: fastest and slowest repeat's median;
				      * NaN without repeats */
	double txrx_max;             /* bytes the busiest rank sent + received, as
				      * measured; NaN when unmeasured (libraries) */
	double tx_total;             /* bytes all ranks sent, as measured; NaN when
				      * unmeasured */
	size_t line;                 /* line in the summary CSV */
	/* from the launch of this rank count (0 / -1 where unknown) */
	int ranks_per_host, nhosts, cpus_per_host, oversubscribed, root;
	int servers;                 /* ps --servers of the launch; 0: unknown (1) */
	size_t slice_bytes;          /* the ring's slice: --slicebytes, else the
				      * backend's own (cb_backend_desc.pipeline_bytes) */
	int slice_auto;              /* 1: no --slicebytes (the backend's own) */
	const int *rank_host;        /* [nranks] host index of each rank (the launch's
				      * mpi.rank_host, owned by the cb_minput); NULL:
				      * unknown (rank r on host r / ranks_per_host) */
};

struct cb_minput {
	char path[1024];             /* the CSV that was read */
	char machine[512];           /* identity of the first launch ("" unknown) */
	int meta_missing;            /* rows without launch metadata */
	struct cb_mrow *rows;
	size_t nrows;
	int **maps;                  /* the launches' rank placements (rows point in) */
	size_t nmaps;
};

/* 1 when rows a and b are of one point: backend, collective, nranks, bytes,
 * dtype, op, in place and hosts (check --choice's and --library's). */
int cb_mrow_same_point(const struct cb_mrow *a, const struct cb_mrow *b);

/* Loads path (a run folder or a summary CSV, as collbench-compare takes).
 * Errors (one line in err, in left empty): those of cb_results_load
 * (CB_ERR_IO, CB_ERR_ARG), CB_ERR_NOMEM. Rows whose launch has no sidecar
 * get ranks_per_host = nranks, nhosts 1, cpus_per_host 0 and are counted in
 * meta_missing. Rows of every collective are read, each with its own. */
enum cb_status cb_minput_load(const char *path, struct cb_minput *in, char *err, size_t errlen);

void cb_minput_free(struct cb_minput *in);

#endif
