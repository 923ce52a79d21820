/* cb_reference: the table of published NCCL figures shipped with the suite
 * (data/reference/nccl_published.csv; docs/normal.md) and how a run is
 * placed against it: collbench-compare --reference.
 *
 * The table is CSV with a header naming these columns (any order, others
 * ignored): gpu_family, gpu_model, gpu_count, interconnect, collective, algo,
 * bytes, busbw_GBps, nccl_version, measured, source_url, source_title,
 * source_date, note. interconnect is cb_ref_interconnect's form; algo is
 * NCCL's algorithm in lower case ("ring", "nvls", ...) or "default" (NCCL's
 * own choice); bytes is the message size per rank, or empty for the peak of
 * the source's sweep (a figure quoted without its size).
 *
 * A launch of a run (its metadata's "topology", cb_topo.h) matches an entry
 * when the entry's gpu_family is a word of the topology's gpu_model, the GPU
 * counts are equal and the interconnects are equal. When none matches, the
 * nearest entry is the first by: same family, then same interconnect, then
 * the smallest difference in GPU count, then in NVLink version (table order
 * breaks ties); it is named as not a match, with what differs. */
#ifndef CB_REFERENCE_H
#define CB_REFERENCE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_results.h"
#include "cb_status.h"
#include "cb_topo.h"

#define CB_REF_NAME 64
#define CB_REF_TEXT 512

struct cb_ref_entry {
	char family[CB_REF_NAME], model[CB_REF_NAME];
	int gpu_count;
	char interconnect[CB_REF_NAME], collective[CB_REF_NAME], algo[CB_REF_NAME];
	unsigned long long bytes;          /* CB_NO_U64: the sweep's peak */
	double busbw;                      /* GB/s */
	char nccl_version[CB_REF_NAME], measured[CB_REF_NAME], date[CB_REF_NAME];
	char url[CB_REF_TEXT], title[CB_REF_TEXT], note[CB_REF_TEXT];
	size_t line;                       /* in the file, 1-based */
};

struct cb_ref_table {
	struct cb_ref_entry *e;
	size_t n;
};

/* Reads the table at path. Errors (one line naming the file, the line and
 * the column in err; t left empty): CB_ERR_IO (cannot read), CB_ERR_ARG (not
 * CSV, a column missing, an empty required field, a count, size or busbw
 * that is not a positive number, a date not YYYY-MM-DD, a URL not http(s),
 * no entry), CB_ERR_NOMEM. */
enum cb_status cb_ref_load(const char *path, struct cb_ref_table *t, char *err, size_t errlen);
void cb_ref_free(struct cb_ref_table *t);

/* The interconnect of t as the table spells it: "nvlink<V>-nvswitch",
 * "nvlink<V>-direct" (bridges, a mesh), "pcie<G>", or "unknown". */
void cb_ref_interconnect(const struct cb_topo *t, char *buf, size_t len);

/* 1 when family is a word of gpu_model (case-insensitive; words are runs of
 * letters and digits): "H100" in "NVIDIA H100 80GB HBM3". */
int cb_ref_family_in(const char *family, const char *gpu_model);

/* 1 when entry e matches topology t (the rules above). */
int cb_ref_matches(const struct cb_ref_entry *e, const struct cb_topo *t);

/* The nearest entry to t (the order above), its differences from t in why
 * ("GPU count 8, not 2; ..."). -1 for an empty table. */
long cb_ref_nearest(const struct cb_ref_table *rt, const struct cb_topo *t, char *why,
		    size_t len);

/* 1 when a row of algorithm row_algo measures entry algorithm algo:
 * "default" is the nccl row; "ring" the nccl.ring.<proto> rows, and so on. */
int cb_ref_algo_is(const char *row_algo, const char *algo);

/* Places every launch of res with a known topology against rt on out (the
 * format in docs/normal.md). Returns 0 when at least one launch had a
 * known topology, else -1 after a message on stderr naming why each was
 * unknown; errors reading a launch's metadata likewise (-1). */
int cb_ref_place(FILE *out, const struct cb_ref_table *rt, const char *table_path,
		 const struct cb_results *res);

#endif
