/* cb_schema: the columns of the summary and per-rank files, and the row
 * state's one text form (contract in cb_schema.h). Writing and reading
 * through the tables: cb_schema_io.c. */
#define _GNU_SOURCE
#include "cb_schema.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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
#define TIME(l) 0, MAX_TIME_US, NULL, "us", l
#define BW(l) 0, MAX_GBPS, NULL, "GB/s", l

static const struct cb_column summary_cols[] = {
	{ "schema", CB_COL_SCHEMA, 0, KEY, 0, 0, NULL, "", "format and version: " CB_SCHEMA_SUMMARY },
	{ "backend", CB_COL_NAME, S(backend), KEY, 0, 0, NULL, "", "where buffers live: host or cuda" },
	{ "algo", CB_COL_NAME, S(algo), KEY, 0, 0, NULL, "", "algorithm: ps, ring, nccl, mpi or copy" },
	{ "nranks", CB_COL_INT, S(nranks), KEY, 1, MAX_RANKS, NULL, "", "ranks of the run (n)" },
	{ "bytes", CB_COL_U64, S(bytes), KEY, 0, MAX_BYTES, NULL, "B", "message size per rank (S)" },
	{ "count", CB_COL_U64, S(count), 0, 0, MAX_BYTES, NULL, "elements", "elements of dtype per rank" },
	{ "dtype", CB_COL_NAME, S(dtype), KEY, 0, 0, NULL, "", "element type (-d)" },
	{ "op", CB_COL_NAME, S(op), KEY, 0, 0, NULL, "", "reduction (-o)" },
	{ "in_place", CB_COL_BOOL, S(in_place), KEY, 0, 1, NULL, "", "1: send buffer = receive buffer" },
	{ "iters", CB_COL_INT, S(iters), 0, 1, MAX_ITERS, NULL, "", "timed iterations per repeat (-n)" },
	{ "time_us", CB_COL_REAL, S(time_us), KEY | CB_COL_NEED_IF_OK, TIME("mean time of an allreduce over the timed iterations of every repeat; an iteration's time is the max over ranks") },
	{ "time_us_median", CB_COL_REAL, S(time_us_median), OPT, TIME("their median") },
	{ "time_us_min", CB_COL_REAL, S(time_us_min), CB_COL_EMPTY_OK, TIME("their minimum") },
	{ "time_us_max", CB_COL_REAL, S(time_us_max), CB_COL_EMPTY_OK, TIME("their maximum") },
	{ "algbw_GBps", CB_COL_REAL, S(algbw), KEY | CB_COL_NEED_IF_OK, BW("S / time_us, 1 GB = 1e9 B") },
	{ "busbw_GBps", CB_COL_REAL, S(busbw), KEY | CB_COL_EMPTY_OK, BW("algbw x 2(n-1)/n (nccl-tests); 0 for n = 1; empty for copy") },
	{ "wrong", CB_COL_U64, S(wrong), CB_COL_EMPTY_OK, 0, MAX_BYTES, NULL, "elements", "elements, summed over ranks, that differ from the exact result; empty: not checked (-c 0)" },
	{ "tx_total_bytes", CB_COL_U64, S(tx_total), CB_COL_EMPTY_OK, 0, MAX_BYTES, NULL, "B", "sum over ranks of the bytes sent in one allreduce; empty: unmeasured (library algorithms)" },
	{ "txrx_max_bytes", CB_COL_U64, S(txrx_max), CB_COL_EMPTY_OK, 0, MAX_BYTES, NULL, "B", "the largest tx+rx of one rank in one allreduce" },
	{ "imbalance", CB_COL_REAL, S(imbalance), CB_COL_EMPTY_OK, 0, MAX_RANKS, NULL, "", "max over ranks of tx+rx / their mean: 1 = even; ps = n/2" },
	{ "status", CB_COL_STATUS, S(status), KEY, 0, 0, "busbw_GBps", "", "`ok`, `skipped:<reason>` or `error:<reason>`" },
	{ "warmup_iters", CB_COL_INT, S(warmup_iters), 0, 0, MAX_ITERS, NULL, "", "untimed iterations before the timed ones (-w)" },
	{ "repeats", CB_COL_INT, S(repeats), OPT, 1, MAX_REPEATS, NULL, "", "independent timed blocks (-R)" },
	{ "time_us_rep_min", CB_COL_REAL, S(time_us_rep_min), OPT, TIME("the smallest of the repeats' mean times") },
	{ "time_us_rep_max", CB_COL_REAL, S(time_us_rep_max), OPT, TIME("the largest of them") },
	{ "busbw_GBps_rep_min", CB_COL_REAL, S(busbw_rep_min), OPT, BW("busbw of the slowest repeat") },
	{ "busbw_GBps_rep_max", CB_COL_REAL, S(busbw_rep_max), OPT, BW("busbw of the fastest repeat") },
	{ "minflt_per_iter", CB_COL_REAL, S(minflt_per_iter), CB_COL_EMPTY_OK, 0, MAX_BYTES, NULL, "", "minor page faults per timed iteration, max over ranks" },
	{ "time_us_median_rep_min", CB_COL_REAL, S(time_us_median_rep_min), OPT, TIME("the smallest of the repeats' median times") },
	{ "time_us_median_rep_max", CB_COL_REAL, S(time_us_median_rep_max), OPT, TIME("the largest of them") },
	{ "transport", CB_COL_NAME, S(transport), CB_COL_READ, 0, 0, NULL, "", "how bytes moved between ranks: `shm` or `ipc` (one-sided, one host: host or cuda backend) or `p2p` (two-sided: MPI or NCCL point-to-point) for ps and ring; `library` for mpi and nccl (inside the library); `local` for copy. Read as the backend's one-sided transport from " CB_SCHEMA_SUMMARY_1 " files" },
	{ "nhosts", CB_COL_INT, S(nhosts), OPT, 1, MAX_RANKS, NULL, "", "hosts the ranks ran on (distinct host names)" },
	{ "time_us_p90", CB_COL_REAL, S(time_us_p90), CB_COL_EMPTY_OK, TIME("90th percentile of the timed iterations' times (nearest rank)") },
	{ "time_us_p99", CB_COL_REAL, S(time_us_p99), CB_COL_EMPTY_OK, TIME("99th percentile (nearest rank: the maximum below 100 iterations)") },
	{ "time_us_cv", CB_COL_REAL, S(time_us_cv), CB_COL_EMPTY_OK, 0, MAX_TIME_US, NULL, "", "coefficient of variation of those times: standard deviation / mean" },
	{ "busy_imbalance", CB_COL_REAL, S(busy_imbalance), CB_COL_EMPTY_OK, 0, MAX_RANKS, NULL, "", "max over ranks of busy_us / their mean (per-rank file): 1 = even; empty: unmeasured (library algorithms, cuda backend)" },
	{ "straggler_rank", CB_COL_INT, S(straggler_rank), CB_COL_EMPTY_OK, 0, MAX_RANKS, NULL, "", "the rank most often slowest in an iteration: largest time not spent waiting for peers (its time - wait_us; its time where wait is unmeasured); empty for n = 1" },
	{ "straggler_share", CB_COL_REAL, S(straggler_share), CB_COL_EMPTY_OK, 0, 1, NULL, "", "the fraction of timed iterations in which it was the slowest" },
	{ "straggler_ratio", CB_COL_REAL, S(straggler_ratio), CB_COL_EMPTY_OK, 0, MAX_TIME_US, NULL, "", "its mean time not waiting / the mean of the other ranks': 1 = no straggler" },
};

#define R(field) offsetof(struct cb_rank_rec, field)

static const struct cb_column rank_cols[] = {
	{ "schema", CB_COL_SCHEMA, 0, 0, 0, 0, NULL, "", "format and version: " CB_SCHEMA_RANK },
	{ "backend", CB_COL_NAME, R(backend), 0, 0, 0, NULL, "", "as in the summary row" },
	{ "algo", CB_COL_NAME, R(algo), 0, 0, 0, NULL, "", "as in the summary row" },
	{ "nranks", CB_COL_INT, R(nranks), 0, 1, MAX_RANKS, NULL, "", "as in the summary row" },
	{ "bytes", CB_COL_U64, R(bytes), 0, 0, MAX_BYTES, NULL, "B", "as in the summary row" },
	{ "rank", CB_COL_INT, R(rank), 0, 0, MAX_RANKS, NULL, "", "the rank, 0 .. n-1" },
	{ "tx_bytes", CB_COL_U64, R(tx), CB_COL_EMPTY_OK, 0, MAX_BYTES, NULL, "B", "bytes that left this rank's memory in one allreduce; empty: unmeasured" },
	{ "rx_bytes", CB_COL_U64, R(rx), CB_COL_EMPTY_OK, 0, MAX_BYTES, NULL, "B", "bytes that arrived in it" },
	{ "time_us", CB_COL_REAL, R(time_us), 0, 0, MAX_TIME_US, NULL, "us", "this rank's own mean over the timed iterations (its own clock, not the max over ranks)" },
	{ "dtype", CB_COL_NAME, R(dtype), 0, 0, 0, NULL, "", "as in the summary row" },
	{ "op", CB_COL_NAME, R(op), 0, 0, 0, NULL, "", "as in the summary row" },
	{ "in_place", CB_COL_BOOL, R(in_place), 0, 0, 1, NULL, "", "as in the summary row" },
	{ "transport", CB_COL_NAME, R(transport), 0, 0, 0, NULL, "", "as in the summary row" },
	{ "host", CB_COL_INT, R(host), 0, 0, MAX_RANKS, NULL, "", "the rank's host, 0 .. nhosts-1, in the order of the metadata's `mpi.hosts` (first rank first)" },
	{ "busy_us", CB_COL_REAL, R(busy_us), CB_COL_EMPTY_OK, 0, MAX_TIME_US, NULL, "us", "this rank's mean time per timed iteration not waiting for peers: moving, reducing, posting (--time-acct 1: its time less wait_us; 2: timed inside copy, reduce and p2p posting); empty: unmeasured (library algorithms, cuda backend, --time-acct 0)" },
	{ "wait_us", CB_COL_REAL, R(wait_us), CB_COL_EMPTY_OK, 0, MAX_TIME_US, NULL, "us", "its mean time per timed iteration waiting for peers inside the allreduce (progress flags not already there, p2p round waits: MPI moves the bytes there)" },
	{ "busy_cpu_us", CB_COL_REAL, R(busy_cpu_us), CB_COL_EMPTY_OK, 0, MAX_TIME_US, NULL, "us", "the CPU time of those busy spans (CLOCK_THREAD_CPUTIME_ID, --time-acct 2; else empty): busy_us less the time the rank was descheduled in them (an oversubscribed host)" },
	{ "barrier_us", CB_COL_REAL, R(barrier_us), CB_COL_EMPTY_OK, 0, MAX_TIME_US, NULL, "us", "its mean time in the barrier before each timed iteration (not in time_us)" },
};

const struct cb_schema cb_schema_summary = {
	CB_SCHEMA_SUMMARY, CB_SCHEMA_SUMMARY_1, summary_cols,
	sizeof(summary_cols) / sizeof(summary_cols[0])
};
const struct cb_schema cb_schema_rank = {
	CB_SCHEMA_RANK, NULL, rank_cols, sizeof(rank_cols) / sizeof(rank_cols[0])
};

void cb_row_status_set(struct cb_row_status *s, enum cb_row_state state, const char *fmt, ...)
{
	va_list ap;

	s->state = state;
	va_start(ap, fmt);
	vsnprintf(s->reason, sizeof(s->reason), fmt, ap);
	va_end(ap);
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
