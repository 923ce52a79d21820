/* cb_results: the summary CSV of one collbench result (schema
 * collbench-summary-3, or -2 or -1, docs/output.md, "Files") as validated rows, and
 * the types of a loaded result: its rows and its launches (the metadata
 * sidecars, read by cb_results_load.h, which also says what a path means).
 *
 * Which columns are read, which are required and what each may hold is the
 * schema table's (cb_schema.c: flags CB_COL_READ, CB_COL_REQUIRED, ranges);
 * other columns are ignored. Validation (every failure is CB_ERR_ARG with
 * "<file>: line N: ..." in err): valid CSV (libcsv, strict quoting, equal
 * field counts); the required columns present by name, and every read
 * column at most once; every row's schema exactly "collbench-summary-3",
 * "-2" or "-1", one per file (files of -1 have no transport column: their
 * rows ran on one host and read as the transport such a row has now,
 * cb_transport_one_host: shm or ipc for ps and ring, library, local; files
 * of -1 and -2 have no collective column: their rows read as allreduce; a
 * -3 row needs the column); a collective cb_coll_find knows;
 * names non-empty [A-Za-z0-9_.+-], at most 31 chars; numbers strict
 * decimals ([+-]digits[.digits][e[+-]digits], nothing else: no NaN, inf,
 * hex, spaces), finite, not negative, within the column's range; an empty
 * number means unmeasured except in key columns; status "ok",
 * "skipped:<reason>" or "error:<reason>" (cb_row_status_parse); an ok row
 * has time_us and algbw, and of a non-zero size no time (mean, median,
 * their repeat bands) of 0; no two rows with the same join key. A header-only
 * file gives zero rows (valid here; the compare tool decides what nothing to
 * compare means). */
#ifndef CB_RESULTS_H
#define CB_RESULTS_H

#include <stddef.h>

#include "cb_libconf.h"
#include "cb_schema.h"
#include "cb_status.h"

#define CB_RES_TEXT 256
#define CB_RES_PATH 1024

/* One row read back. Join key: backend, algo, transport, collective,
 * nranks, bytes, dtype, op, in_place. Columns the reader does not read, or the file lacks, hold their
 * empty values (NaN, CB_NO_INT, CB_NO_U64). */
struct cb_res_row {
	struct cb_summary v;
	size_t line;                          /* 1-based line in the CSV */
};

struct cb_res_launch {                        /* one *.meta.json sidecar */
	char file[CB_RES_PATH];
	char backend[CB_NAME_MAX];
	char device[CB_RES_TEXT];             /* GPU model ("gpu_model", else "device");
					       * "" for host or absent */
	char cpu_model[CB_RES_TEXT];          /* "" when absent */
	char machine[2 * CB_RES_TEXT];        /* identity: "label (cpu, N CPUs)",
					       * ", GPU model" inside the parentheses where
					       * there is one; see cb_results_parse_meta
					       * in cb_results_load.h */
	char machine_label[CB_RES_TEXT];      /* its label: "machine"."label", else the
					       * host name up to its first dot */
	int nranks, ranks_per_node, nnodes;   /* nnodes 0: absent */
	int complete;                         /* "status": "complete" */
	char timing_mode[CB_NAME_MAX];        /* "timing_mode"; "iter" when absent (files
					       * from before --timing, which timed so) */
	char wait[CB_NAME_MAX];               /* "wait"."strategy"; "" when absent (files
					       * from before --wait) */
	char libconf[CB_LIBCONF_MAX];         /* the library configuration of
					       * "environment" and "mca_param_files"
					       * (cb_libconf_launch); "" none */
	char libconf_env[CB_LIBCONF_MAX];     /* that of "environment" alone */
	int mca_files;                        /* "mca_param_files" is recorded (0:
					       * older metadata, or no MPI_T) */
	char plan_name[CB_NAME_MAX];          /* "plan_file"."name": --plan's; "" none */
	char plan_digest[CB_NAME_MAX];        /* "plan_file"."digest" (cb_plan_file.h);
					       * "" none or absent (files from before it) */
};

struct cb_results {
	char csv[CB_RES_PATH];                /* the CSV that was read */
	struct cb_res_row *rows;              /* sorted by cb_res_key_cmp */
	size_t nrows;
	struct cb_res_launch *launches;       /* sorted by nranks */
	size_t nlaunches;
	int meta_missing;                     /* a file argument without its sidecar */
};

/* Parses and validates len bytes of summary CSV at buf (name is used in
 * messages) into res->rows, sorted; the launches are untouched. Errors
 * (a one-line message naming the file in err): CB_ERR_ARG (invalid content,
 * see the top), CB_ERR_NOMEM; on error res->rows is empty. This is the code
 * the fuzz target drives. */
enum cb_status cb_results_parse_csv(const char *buf, size_t len, const char *name,
				    struct cb_results *res, char *err, size_t errlen);

/* Reads the summary CSV file at path (at most 256 MiB) into res->rows with
 * the checks of cb_results_parse_csv; CB_ERR_IO when it cannot be read. */
enum cb_status cb_results_read_csv(const char *path, struct cb_results *res, char *err,
				   size_t errlen);

/* Join-key order: backend, nranks, dtype, op, in_place, algo, transport,
 * collective, then bytes numerically (so rows of one algorithm come
 * together, small to large).
 * Returns <0, 0 (same key), >0. */
int cb_res_key_cmp(const struct cb_res_row *a, const struct cb_res_row *b);

/* Frees what cb_results_load or the parsers allocated; res is left empty. */
void cb_results_free(struct cb_results *res);

#endif
