/* cb_hist_add: the ingest verb (contract in cb_hist_add.h). */
#define _GNU_SOURCE
#include "cb_hist_add.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cb_hist_ingest.h"
#include "cb_hist_query.h"
#include "cb_hist_run.h"
#include "cb_hist_time.h"
#include "cb_text.h"

#define PROG "collbench-history ingest"

struct pending {
	int arg;          /* index into paths */
	long long epoch;  /* its start time */
};

static int by_time(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->epoch != y->epoch)
		return x->epoch < y->epoch ? -1 : 1;
	return x->arg - y->arg;
}

/* "3 days", "5.0 hours", "12 minutes" for s > 0 seconds. */
static void span_text(long long s, char *buf, size_t len)
{
	if (s >= 2 * 86400)
		snprintf(buf, len, "%.0f days", (double)s / 86400);
	else if (s >= 3600)
		snprintf(buf, len, "%.1f hours", (double)s / 3600);
	else
		snprintf(buf, len, "%lld minutes", (s + 59) / 60);
}

/* The warnings about run's start time (see the top), run just added as id. */
static void warn_time(struct cb_hist_db *db, const char *path, const struct cb_hist_run *run,
		      long long id, long long now)
{
	char later[32], clock[CB_HIST_TIME], span[32];
	long long other = cb_hist_latest_dated(db, id, later);

	if (run->epoch > now + CB_HIST_FUTURE_S) {
		cb_hist_time_format(now, clock);
		span_text(run->epoch - now, span, sizeof(span));
		cb_eprintf(PROG ": warning: %s: dated %s, %s ahead of this machine's clock (%s): is "
			"the clock of the machine that made it wrong? Its place in the history is "
			"the order of ingest, not its date\n", path, run->time_utc, span, clock);
	}
	if (other && strcmp(later, run->time_utc) > 0)
		cb_eprintf(PROG ": warning: %s: dated %s, before run %lld of its machine (dated %s), "
			"which was ingested earlier: placed after it, as a history is in the order "
			"of ingest (a wrong clock, that run's or this one's, or an old run added "
			"late; to order old runs by date, ingest them together into a new history)\n",
			path, run->time_utc, other, later);
}

/* Reads, stores and reports one run. Returns 0, or -1 after a message. */
static int add_one(struct cb_hist_db *db, const char *path, const char *label, long long now)
{
	struct cb_hist_run run;
	char err[1024];
	long long id;
	int added, rc = 0;

	if (cb_hist_run_load(path, label, &run, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s\n", err);
		return -1;
	}
	if (!run.complete)
		cb_eprintf(PROG ": warning: %s: a launch did not finish (its metadata status is not "
			"\"complete\"): its rows are kept as written\n", path);
	if (cb_hist_db_ingest(db, &run, &id, &added, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s: %s\n", path, err);
		rc = -1;
	} else {
		printf("%s run %lld: %s (%s, %s, %zu rows)\n", added ? "added" : "already there:", id,
		       path, run.machine.label, run.time_utc, run.nrows);
		if (added)
			warn_time(db, path, &run, id, now);
	}
	cb_hist_run_free(&run);
	return rc;
}

/* The runs that can be read, in start-time order, into a new array *out of
 * *k; the others are said (counted in *bad). NULL when out of memory. */
static struct pending *order_runs(char *const *paths, int n, const char *label, size_t *k,
				  int *bad)
{
	struct pending *v = calloc((size_t)n + 1, sizeof(*v));

	*k = 0;
	for (int i = 0; v && i < n; i++) {
		struct cb_hist_run run;
		char err[1024];

		if (cb_hist_run_load(paths[i], label, &run, err, sizeof(err)) != CB_OK) {
			cb_eprintf(PROG ": %s\n", err);
			(*bad)++;
			continue;
		}
		v[*k].arg = i;
		v[(*k)++].epoch = run.epoch;
		cb_hist_run_free(&run);
	}
	if (v)
		qsort(v, *k, sizeof(*v), by_time);
	return v;
}

enum cb_status cb_hist_add_runs(struct cb_hist_db *db, char *const *paths, int n,
				const char *label)
{
	long long now = (long long)time(NULL);
	int bad = 0;
	size_t k;
	struct pending *v = order_runs(paths, n, label, &k, &bad);

	if (!v) {
		cb_eprintf(PROG ": out of memory\n");
		return CB_ERR_NOMEM;
	}
	for (size_t i = 0; i < k; i++)
		bad += add_one(db, paths[v[i].arg], label, now) != 0;
	free(v);
	return bad ? CB_ERR_ARG : CB_OK;
}
