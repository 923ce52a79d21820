/* cb_hist_run: what the history keeps of one run, and a row's key.
 *
 * A run's rows are the results reader's (struct cb_res_row, cb_results.h):
 * what is stored of each is the schema table's (cb_hist_cols.h). A row's
 * key is the one collbench-compare joins on (backend, algo, nranks, bytes,
 * dtype, op, in_place: cb_res_key_cmp) plus transport (DESIGN.md section 2:
 * how bytes move; the summary's "transport" column from
 * collbench-summary-2 on, the one-host transport for older files as the
 * reader gives it). */
#ifndef CB_HIST_RUN_H
#define CB_HIST_RUN_H

#include <stddef.h>

#include "cb_results.h"

#define CB_HIST_TEXT 256
#define CB_HIST_PATH 1024

/* A series' key: the key fields of row.v, and the transport. */
struct cb_hist_key {
	struct cb_res_row row;
	char transport[CB_NAME_MAX];
};

/* The machine a run belongs to (issue 8's identity): identity is the text
 * collbench-compare matches baselines on, "label (cpu, N CPUs[, GPU
 * model])" (cb_machine.h); a history series never mixes two identities. */
struct cb_hist_machine {
	char identity[2 * CB_HIST_TEXT];
	char label[CB_HIST_TEXT];
};

struct cb_hist_run {
	char hash[65];                /* SHA-256 (hex) of the summary and metadata files */
	char command_key[65];         /* SHA-256 (hex) of the launches' command lines
				       * (cb_hist_key.h); "" when not known */
	char time_utc[32];            /* "2026-11-29T10:21:50Z": first launch's start,
				       * normalised to UTC (cb_hist_time.h) */
	long long epoch;              /* the same in seconds since 1970 */
	char name[CB_HIST_TEXT];      /* run id of the folder (meta.json), else its name */
	char source[CB_HIST_PATH];    /* the path it was ingested from */
	struct cb_hist_machine machine;
	char version[64];             /* collbench version */
	char git_commit[64];
	char versions[2 * CB_HIST_TEXT]; /* "collbench V; MPI ...[; CUDA ..., NCCL ...]" */
	char launcher[64], job_id[64];   /* "" where the metadata does not say */
	char label[CB_HIST_TEXT];     /* --label at ingest (a branch, a build), else "" */
	int complete;                 /* every launch's metadata says "complete" */
	struct cb_res_row *rows;      /* every summary row, as the reader gives them */
	size_t nrows;
};

void cb_hist_run_free(struct cb_hist_run *run);

/* 1 when a and b are the same key (see the top), else 0. */
int cb_hist_key_eq(const struct cb_hist_key *a, const struct cb_hist_key *b);

/* "ring np2 64M float sum" (cb_row_name: + " in-place", the backend first
 * when it is not host, " over p2p" when the transport is not the one the
 * algorithm has on one host). */
void cb_hist_key_name(const struct cb_hist_key *k, char *buf, size_t len);

#endif
