/* cb_schema: the columns of the summary and per-rank files, the row state's
 * one text form, and records to CSV lines, JSON objects and the docs' lists
 * through the column tables (contract in cb_schema.h). Fields back into
 * records: cb_schema_parse.c. */
#define _GNU_SOURCE
#include "cb_schema.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cb_text.h"

/* Largest accepted values: far beyond any real measurement, small enough
 * that arithmetic on them stays finite. */
#define MAX_TIME_US 1e12          /* 11.6 days per allreduce */
#define MAX_GBPS 1e9              /* 1 EB/s */
#define MAX_BYTES 4611686018427387904.0 /* 2^62 */
#define MAX_RANKS 16777216.0      /* 2^24 */
#define MAX_REPEATS 1e6
#define MAX_ITERS 1e6

#define S(field) offsetof(struct cb_summary, field)
#define KEY (CB_COL_READ | CB_COL_REQUIRED)
#define OPT (CB_COL_READ | CB_COL_EMPTY_OK)
#define TIME_US .hi = MAX_TIME_US, .unit = "us"
#define BW_GBPS .hi = MAX_GBPS, .unit = "GB/s"

static const struct cb_column summary_cols[] = {
	{ .name = "schema", .type = CB_COL_SCHEMA, .flags = KEY, .unit = "",
	  .doc = "format and version: " CB_SCHEMA_SUMMARY },
	{ .name = "backend", .type = CB_COL_NAME, .offset = S(backend), .flags = KEY, .unit = "",
	  .doc = "where buffers live: host or cuda" },
	{ .name = "algo", .type = CB_COL_NAME, .offset = S(algo), .flags = KEY, .unit = "",
	  .doc = "algorithm: a name allreduce_perf --help lists (ps, ring, the plan family, nccl, mpi, copy)" },
	{ .name = "nranks", .type = CB_COL_INT, .offset = S(nranks), .flags = KEY, .lo = 1,
	  .hi = MAX_RANKS, .unit = "", .doc = "ranks of the run (n)" },
	{ .name = "bytes", .type = CB_COL_U64, .offset = S(bytes), .flags = KEY, .hi = MAX_BYTES,
	  .unit = "B", .doc = "message size per rank (S)" },
	{ .name = "count", .type = CB_COL_U64, .offset = S(count), .hi = MAX_BYTES,
	  .unit = "elements", .doc = "elements of dtype per rank" },
	{ .name = "dtype", .type = CB_COL_NAME, .offset = S(dtype), .flags = KEY, .unit = "",
	  .doc = "element type (-d)" },
	{ .name = "op", .type = CB_COL_NAME, .offset = S(op), .flags = KEY, .unit = "",
	  .doc = "reduction (-o)" },
	{ .name = "in_place", .type = CB_COL_BOOL, .offset = S(in_place), .flags = KEY, .hi = 1,
	  .unit = "", .doc = "1: send buffer = receive buffer" },
	{ .name = "iters", .type = CB_COL_INT, .offset = S(iters), .lo = 1, .hi = MAX_ITERS,
	  .unit = "", .doc = "timed iterations per repeat (-n)" },
	{ .name = "time_us", .type = CB_COL_REAL, .offset = S(time_us),
	  .flags = KEY | CB_COL_NEED_IF_OK, TIME_US,
	  .doc = "mean time of an allreduce over the timed iterations of every repeat; an "
	         "iteration's time is the max over ranks" },
	{ .name = "time_us_median", .type = CB_COL_REAL, .offset = S(time_us_median), .flags = OPT,
	  TIME_US, .doc = "their median" },
	{ .name = "time_us_min", .type = CB_COL_REAL, .offset = S(time_us_min),
	  .flags = CB_COL_EMPTY_OK, TIME_US, .doc = "their minimum" },
	{ .name = "time_us_max", .type = CB_COL_REAL, .offset = S(time_us_max),
	  .flags = CB_COL_EMPTY_OK, TIME_US, .doc = "their maximum" },
	{ .name = "algbw_GBps", .type = CB_COL_REAL, .offset = S(algbw),
	  .flags = KEY | CB_COL_NEED_IF_OK, BW_GBPS, .doc = "S / time_us, 1 GB = 1e9 B" },
	{ .name = "busbw_GBps", .type = CB_COL_REAL, .offset = S(busbw),
	  .flags = KEY | CB_COL_EMPTY_OK, BW_GBPS,
	  .doc = "algbw x 2(n-1)/n (nccl-tests); 0 for n = 1; empty for copy" },
	{ .name = "wrong", .type = CB_COL_U64, .offset = S(wrong), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_BYTES, .unit = "elements",
	  .doc = "elements, summed over ranks, that differ from the exact result; empty: not "
	         "checked (-c 0)" },
	{ .name = "tx_total_bytes", .type = CB_COL_U64, .offset = S(tx_total),
	  .flags = OPT, .hi = MAX_BYTES, .unit = "B",
	  .doc = "sum over ranks of the bytes sent in one allreduce; empty: unmeasured (library "
	         "algorithms)" },
	{ .name = "txrx_max_bytes", .type = CB_COL_U64, .offset = S(txrx_max),
	  .flags = OPT, .hi = MAX_BYTES, .unit = "B",
	  .doc = "the largest tx+rx of one rank in one allreduce" },
	{ .name = "imbalance", .type = CB_COL_REAL, .offset = S(imbalance),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_RANKS, .unit = "",
	  .doc = "max over ranks of tx+rx / their mean: 1 = even; ps = n/2" },
	{ .name = "status", .type = CB_COL_STATUS, .offset = S(status), .flags = KEY,
	  .json_after = "busbw_GBps", .unit = "",
	  .doc = "`ok`, `skipped:<reason>` or `error:<reason>`" },
	{ .name = "warmup_iters", .type = CB_COL_INT, .offset = S(warmup_iters), .hi = MAX_ITERS,
	  .unit = "", .doc = "untimed iterations before the timed ones (-w)" },
	{ .name = "repeats", .type = CB_COL_INT, .offset = S(repeats), .flags = OPT, .lo = 1,
	  .hi = MAX_REPEATS, .unit = "", .doc = "independent timed blocks (-R)" },
	{ .name = "time_us_rep_min", .type = CB_COL_REAL, .offset = S(time_us_rep_min),
	  .flags = OPT, TIME_US, .doc = "the smallest of the repeats' mean times" },
	{ .name = "time_us_rep_max", .type = CB_COL_REAL, .offset = S(time_us_rep_max),
	  .flags = OPT, TIME_US, .doc = "the largest of them" },
	{ .name = "busbw_GBps_rep_min", .type = CB_COL_REAL, .offset = S(busbw_rep_min),
	  .flags = OPT, BW_GBPS, .doc = "busbw of the slowest repeat" },
	{ .name = "busbw_GBps_rep_max", .type = CB_COL_REAL, .offset = S(busbw_rep_max),
	  .flags = OPT, BW_GBPS, .doc = "busbw of the fastest repeat" },
	{ .name = "minflt_per_iter", .type = CB_COL_REAL, .offset = S(minflt_per_iter),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_BYTES, .unit = "",
	  .doc = "minor page faults per timed iteration, max over ranks" },
	{ .name = "time_us_median_rep_min", .type = CB_COL_REAL,
	  .offset = S(time_us_median_rep_min), .flags = OPT, TIME_US,
	  .doc = "the smallest of the repeats' median times" },
	{ .name = "time_us_median_rep_max", .type = CB_COL_REAL,
	  .offset = S(time_us_median_rep_max), .flags = OPT, TIME_US,
	  .doc = "the largest of them" },
	{ .name = "transport", .type = CB_COL_NAME, .offset = S(transport), .flags = CB_COL_READ,
	  .unit = "",
	  .doc = "how bytes moved between ranks: `shm` or `ipc` (one-sided, one host: host or "
	         "cuda backend) or `p2p` (two-sided: MPI or NCCL point-to-point) for ps and "
	         "ring; `library` for mpi and nccl (inside the library); `local` for copy. Read "
	         "as the backend's one-sided transport from " CB_SCHEMA_SUMMARY_1 " files" },
	{ .name = "nhosts", .type = CB_COL_INT, .offset = S(nhosts), .flags = OPT, .lo = 1,
	  .hi = MAX_RANKS, .unit = "", .doc = "hosts the ranks ran on (distinct host names)" },
	{ .name = "time_us_p90", .type = CB_COL_REAL, .offset = S(time_us_p90),
	  .flags = CB_COL_EMPTY_OK, TIME_US,
	  .doc = "90th percentile of the timed iterations' times (nearest rank)" },
	{ .name = "time_us_p99", .type = CB_COL_REAL, .offset = S(time_us_p99),
	  .flags = CB_COL_EMPTY_OK, TIME_US,
	  .doc = "99th percentile (nearest rank: the maximum below 100 iterations)" },
	{ .name = "time_us_cv", .type = CB_COL_REAL, .offset = S(time_us_cv),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_TIME_US, .unit = "",
	  .doc = "coefficient of variation of those times: standard deviation / mean" },
	{ .name = "busy_imbalance", .type = CB_COL_REAL, .offset = S(busy_imbalance),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_RANKS, .unit = "",
	  .doc = "max over ranks of busy_us / their mean (per-rank file): 1 = even; empty: "
	         "unmeasured (library algorithms, cuda backend)" },
	{ .name = "straggler_rank", .type = CB_COL_INT, .offset = S(straggler_rank),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_RANKS, .unit = "",
	  .doc = "the rank most often slowest in an iteration: largest time not spent waiting "
	         "for peers (its time - wait_us; its time where wait is unmeasured); empty for "
	         "n = 1" },
	{ .name = "straggler_share", .type = CB_COL_REAL, .offset = S(straggler_share),
	  .flags = CB_COL_EMPTY_OK, .hi = 1, .unit = "",
	  .doc = "the fraction of timed iterations in which it was the slowest" },
	{ .name = "straggler_ratio", .type = CB_COL_REAL, .offset = S(straggler_ratio),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_TIME_US, .unit = "",
	  .doc = "its mean time not waiting / the mean of the other ranks': 1 = no straggler" },
	{ .name = "collective", .type = CB_COL_NAME, .offset = S(collective), .flags = CB_COL_READ,
	  .unit = "",
	  .doc = "the collective (cb_coll.h's names: allreduce, reduce_scatter, ...); read as allreduce from " CB_SCHEMA_SUMMARY_1 " and -2 files" },
	{ .name = "nccl_algo", .type = CB_COL_NAME, .offset = S(nccl_algo), .flags = OPT,
	  .unit = "", .doc = "nccl rows: the algorithm NCCL chose for most timed calls, as NCCL "
	  "names it (Ring, Tree, NVLS, NVLSTree, CollNetDirect, CollNetChain, PAT), from "
	  "collbench's NCCL profiler plugin; empty when unknown or not an nccl row" },
	{ .name = "nccl_proto", .type = CB_COL_NAME, .offset = S(nccl_proto), .flags = OPT,
	  .unit = "", .doc = "its protocol (LL, LL128, Simple)" },
	{ .name = "nccl_channels", .type = CB_COL_INT, .offset = S(nccl_channels), .flags = OPT,
	  .hi = 1024, .unit = "", .doc = "its channel count (NCCL 2.25-2.26: the most channels "
	  "the collective could use)" },
	{ .name = "pct_line", .type = CB_COL_REAL, .offset = S(pct_line), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_GBPS, .unit = "%",
	  .doc = "busbw as a percent of the line rate of the link that bounds it (NVLink per "
	         "direction; NVLS: its own bound; PCIe: lanes x rate; docs/normal.md); empty: "
	         "topology unknown (the metadata's topology.why_unknown), several hosts, n = 1, "
	         "no busbw" },
	{ .name = "pct_copy", .type = CB_COL_REAL, .offset = S(pct_copy), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_GBPS, .unit = "%",
	  .doc = "busbw as a percent of the copy row's algbw at the same size in the same run "
	         "(the local copy roofline); empty: copy did not run at that size, n = 1, no busbw" },
	{ .name = "hw_traffic", .type = CB_COL_NAME, .offset = S(hw_traffic), .flags = CB_COL_EMPTY_OK,
	  .unit = "",
	  .doc = "where the per-rank hw_tx_bytes/hw_rx_bytes came from: `nvml` (NVLink counters), "
	         "else why they are empty: host_backend, no_nvml, gpu_not_in_nvml, no_nvlink, "
	         "counters_back; none: the row did not run (skipped, failed set-up)" },
};

#define R(field) offsetof(struct cb_rank_rec, field)

static const struct cb_column rank_cols[] = {
	{ .name = "schema", .type = CB_COL_SCHEMA, .unit = "",
	  .doc = "format and version: " CB_SCHEMA_RANK },
	{ .name = "backend", .type = CB_COL_NAME, .offset = R(backend), .unit = "",
	  .doc = "as in the summary row" },
	{ .name = "algo", .type = CB_COL_NAME, .offset = R(algo), .unit = "",
	  .doc = "as in the summary row" },
	{ .name = "nranks", .type = CB_COL_INT, .offset = R(nranks), .lo = 1, .hi = MAX_RANKS,
	  .unit = "", .doc = "as in the summary row" },
	{ .name = "bytes", .type = CB_COL_U64, .offset = R(bytes), .hi = MAX_BYTES, .unit = "B",
	  .doc = "as in the summary row" },
	{ .name = "rank", .type = CB_COL_INT, .offset = R(rank), .hi = MAX_RANKS, .unit = "",
	  .doc = "the rank, 0 .. n-1" },
	{ .name = "tx_bytes", .type = CB_COL_U64, .offset = R(tx), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_BYTES, .unit = "B",
	  .doc = "bytes that left this rank's memory in one allreduce; empty: unmeasured" },
	{ .name = "rx_bytes", .type = CB_COL_U64, .offset = R(rx), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_BYTES, .unit = "B", .doc = "bytes that arrived in it" },
	{ .name = "time_us", .type = CB_COL_REAL, .offset = R(time_us), .hi = MAX_TIME_US,
	  .unit = "us",
	  .doc = "this rank's own mean over the timed iterations (its own clock, not the max "
	         "over ranks)" },
	{ .name = "dtype", .type = CB_COL_NAME, .offset = R(dtype), .unit = "",
	  .doc = "as in the summary row" },
	{ .name = "op", .type = CB_COL_NAME, .offset = R(op), .unit = "",
	  .doc = "as in the summary row" },
	{ .name = "in_place", .type = CB_COL_BOOL, .offset = R(in_place), .hi = 1, .unit = "",
	  .doc = "as in the summary row" },
	{ .name = "transport", .type = CB_COL_NAME, .offset = R(transport), .unit = "",
	  .doc = "as in the summary row" },
	{ .name = "host", .type = CB_COL_INT, .offset = R(host), .hi = MAX_RANKS, .unit = "",
	  .doc = "the rank's host, 0 .. nhosts-1, in the order of the metadata's `mpi.hosts` "
	         "(first rank first)" },
	{ .name = "busy_us", .type = CB_COL_REAL, .offset = R(busy_us), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_TIME_US, .unit = "us",
	  .doc = "this rank's mean time per timed iteration not waiting for peers: moving, "
	         "reducing, posting (--time-acct 1: its time less wait_us; 2: timed inside "
	         "copy, reduce and p2p posting); empty: unmeasured (library algorithms, cuda "
	         "backend, --time-acct 0)" },
	{ .name = "wait_us", .type = CB_COL_REAL, .offset = R(wait_us), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_TIME_US, .unit = "us",
	  .doc = "its mean time per timed iteration waiting for peers inside the allreduce "
	         "(progress flags not already there, p2p round waits: MPI moves the bytes there)" },
	{ .name = "busy_cpu_us", .type = CB_COL_REAL, .offset = R(busy_cpu_us),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_TIME_US, .unit = "us",
	  .doc = "the CPU time of those busy spans (CLOCK_THREAD_CPUTIME_ID, --time-acct 2; "
	         "else empty): busy_us less the time the rank was descheduled in them (an "
	         "oversubscribed host)" },
	{ .name = "barrier_us", .type = CB_COL_REAL, .offset = R(barrier_us),
	  .flags = CB_COL_EMPTY_OK, .hi = MAX_TIME_US, .unit = "us",
	  .doc = "its mean time in the barrier before each timed iteration (not in time_us)" },
	{ .name = "collective", .type = CB_COL_NAME, .offset = R(collective), .unit = "",
	  .doc = "as in the summary row (read as allreduce from " CB_SCHEMA_RANK_2 " files)" },
	{ .name = "hw_tx_bytes", .type = CB_COL_U64, .offset = R(hw_tx), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_BYTES, .unit = "B",
	  .doc = "bytes this rank's GPU sent over its NVLink links per call, from NVML's counters "
	         "(KiB, read before and after the timed calls); empty: unmeasured (hw_traffic says why)" },
	{ .name = "hw_rx_bytes", .type = CB_COL_U64, .offset = R(hw_rx), .flags = CB_COL_EMPTY_OK,
	  .hi = MAX_BYTES, .unit = "B", .doc = "bytes it received over them per call" },
};

static const char *const summary_older[] = { CB_SCHEMA_SUMMARY_2, CB_SCHEMA_SUMMARY_1, NULL };
static const char *const rank_older[] = { CB_SCHEMA_RANK_2, NULL };

const struct cb_schema cb_schema_summary = {
	CB_SCHEMA_SUMMARY, summary_older, summary_cols,
	sizeof(summary_cols) / sizeof(summary_cols[0])
};
const struct cb_schema cb_schema_rank = {
	CB_SCHEMA_RANK, rank_older, rank_cols, sizeof(rank_cols) / sizeof(rank_cols[0])
};

void cb_row_status_set(struct cb_row_status *s, enum cb_row_state state, const char *fmt, ...)
{
	va_list ap;

	s->state = state;
	va_start(ap, fmt);
	vsnprintf(s->reason, sizeof(s->reason), fmt, ap);
	va_end(ap);
	for (char *c = s->reason; *c; c++)
		if (*c == ',' || *c == '"')
			*c = *c == ',' ? ';' : '\'';
}

void cb_row_status_wrong(struct cb_row_status *s, long long n)
{
	cb_row_status_set(s, CB_ROW_WRONG, "%lld wrong elements", n);
}

void cb_row_status_format(const struct cb_row_status *s, char *buf, size_t len)
{
	if (s->state == CB_ROW_OK)
		snprintf(buf, len, "ok");
	else
		snprintf(buf, len, "%s:%s", s->state == CB_ROW_SKIPPED ? "skipped" : "error",
			 s->reason);
}

/* 1 when reason is what cb_row_status_wrong writes. */
static int is_wrong_reason(const char *reason)
{
	size_t digits = strspn(reason, "0123456789");

	return digits > 0 && strcmp(reason + digits, " wrong elements") == 0;
}

int cb_row_status_parse(const char *text, struct cb_row_status *s)
{
	const char *colon = strchr(text, ':');
	size_t n = colon ? (size_t)(colon - text) : 0;
	char head[8];

	if (strcmp(text, "ok") == 0) {
		cb_row_status_set(s, CB_ROW_OK, "%s", "");
		return 0;
	}
	if (!colon || n >= sizeof(head))
		return -1;
	memcpy(head, text, n);
	head[n] = '\0';
	if (strcmp(head, "skipped") == 0)
		cb_row_status_set(s, CB_ROW_SKIPPED, "%s", colon + 1);
	else if (strcmp(head, "error") == 0)
		cb_row_status_set(s, is_wrong_reason(colon + 1) ? CB_ROW_WRONG : CB_ROW_ERROR, "%s",
				  colon + 1);
	else
		return -1;
	return 0;
}

int cb_row_state_failed(enum cb_row_state state)
{
	return state == CB_ROW_ERROR || state == CB_ROW_WRONG;
}

/* The field of column c in rec, as a pointer to type. */
#define FIELD(c, rec, type) ((type *)(void *)((char *)(rec) + (c)->offset))
#define CFIELD(c, rec, type) ((const type *)(const void *)((const char *)(rec) + (c)->offset))

int cb_schema_find(const struct cb_schema *s, const char *name)
{
	for (size_t i = 0; i < s->ncols; i++)
		if (strcmp(s->cols[i].name, name) == 0)
			return (int)i;
	return -1;
}

void cb_schema_clear(const struct cb_schema *s, void *rec)
{
	for (size_t i = 0; i < s->ncols; i++) {
		const struct cb_column *c = &s->cols[i];

		switch (c->type) {
		case CB_COL_SCHEMA: break;
		case CB_COL_NAME: FIELD(c, rec, char)[0] = '\0'; break;
		case CB_COL_INT: *FIELD(c, rec, int) = CB_NO_INT; break;
		case CB_COL_BOOL: *FIELD(c, rec, int) = 0; break;
		case CB_COL_U64: *FIELD(c, rec, unsigned long long) = CB_NO_U64; break;
		case CB_COL_REAL: *FIELD(c, rec, double) = NAN; break;
		case CB_COL_STATUS:
			cb_row_status_set(FIELD(c, rec, struct cb_row_status), CB_ROW_OK, "%s", "");
			break;
		}
	}
}

/* The CSV text of column c of rec ("" when empty). */
static void field_text(const struct cb_schema *s, const struct cb_column *c, const void *rec,
		       char *buf, size_t len)
{
	int i;
	unsigned long long u;
	double d;

	buf[0] = '\0';
	switch (c->type) {
	case CB_COL_SCHEMA: snprintf(buf, len, "%s", s->id); break;
	case CB_COL_NAME: snprintf(buf, len, "%s", CFIELD(c, rec, char)); break;
	case CB_COL_INT:
	case CB_COL_BOOL:
		if ((i = *CFIELD(c, rec, int)) >= 0)
			snprintf(buf, len, "%d", i);
		break;
	case CB_COL_U64:
		if ((u = *CFIELD(c, rec, unsigned long long)) != CB_NO_U64)
			snprintf(buf, len, "%llu", u);
		break;
	case CB_COL_REAL:
		if (!isnan(d = *CFIELD(c, rec, double)))
			snprintf(buf, len, "%.6g", d);
		break;
	case CB_COL_STATUS:
		cb_row_status_format(CFIELD(c, rec, struct cb_row_status), buf, len);
		break;
	}
}

int cb_schema_csv_header(const struct cb_schema *s, char *buf, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < s->ncols; i++) {
		int n = snprintf(buf + k, len - k, "%s%c", s->cols[i].name,
				 i + 1 < s->ncols ? ',' : '\n');

		if (n < 0 || (size_t)n >= len - k)
			return -1;
		k += (size_t)n;
	}
	return (int)k;
}

int cb_schema_csv_row(const struct cb_schema *s, const void *rec, char *buf, size_t len)
{
	size_t k = 0;

	/* names and statuses never hold commas or quotes: written as they are */
	for (size_t i = 0; i < s->ncols; i++) {
		char v[CB_REASON_MAX + 16];
		int n;

		field_text(s, &s->cols[i], rec, v, sizeof(v));
		n = snprintf(buf + k, len - k, "%s%c", v, i + 1 < s->ncols ? ',' : '\n');
		if (n < 0 || (size_t)n >= len - k)
			return -1;
		k += (size_t)n;
	}
	return (int)k;
}

/* The JSON value of column c of rec (null when empty). */
static json_t *field_json(const struct cb_schema *s, const struct cb_column *c, const void *rec)
{
	char text[CB_REASON_MAX + 16];
	int i;
	unsigned long long u;
	double d;

	switch (c->type) {
	case CB_COL_INT:
		return (i = *CFIELD(c, rec, int)) >= 0 ? json_integer(i) : json_null();
	case CB_COL_BOOL:
		return json_boolean(*CFIELD(c, rec, int));
	case CB_COL_U64:
		u = *CFIELD(c, rec, unsigned long long);
		return u != CB_NO_U64 ? json_integer((json_int_t)u) : json_null();
	case CB_COL_REAL:
		return isnan(d = *CFIELD(c, rec, double)) ? json_null() : json_real(d);
	default:
		field_text(s, c, rec, text, sizeof(text));
		if (!text[0] && c->type == CB_COL_NAME && c->flags & CB_COL_EMPTY_OK)
			return json_null();
		return cb_json_text(text);
	}
}

/* Adds column c, then every column that follows it in JSON (json_after). */
static int add_json(const struct cb_schema *s, const struct cb_column *c, const void *rec,
		    json_t *o)
{
	if (json_object_set_new(o, c->name, field_json(s, c, rec)) != 0)
		return -1;
	for (size_t i = 0; i < s->ncols; i++)
		if (s->cols[i].json_after && strcmp(s->cols[i].json_after, c->name) == 0 &&
		    add_json(s, &s->cols[i], rec, o) != 0)
			return -1;
	return 0;
}

json_t *cb_schema_json(const struct cb_schema *s, const void *rec)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < s->ncols; i++)
		if (!s->cols[i].json_after && add_json(s, &s->cols[i], rec, o) != 0) {
			json_decref(o);
			o = NULL;
		}
	return o;
}

void cb_schema_markdown(const struct cb_schema *s, FILE *f)
{
	static const char *const types[] = {
		[CB_COL_SCHEMA] = "text", [CB_COL_NAME] = "name", [CB_COL_INT] = "integer",
		[CB_COL_BOOL] = "0 or 1", [CB_COL_U64] = "integer", [CB_COL_REAL] = "number",
		[CB_COL_STATUS] = "text",
	};

	fprintf(f, "| column | type | unit | meaning |\n|---|---|---|---|\n");
	for (size_t i = 0; i < s->ncols; i++)
		fprintf(f, "| `%s` | %s | %s | %s |\n", s->cols[i].name, types[s->cols[i].type],
			s->cols[i].unit, s->cols[i].doc);
}
