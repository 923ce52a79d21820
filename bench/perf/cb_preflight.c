#define _GNU_SOURCE
#include "cb_preflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CANON_MAX 1536
#define ERR_MAX 384

struct rank_record {
	int parse_ok;
	char err[ERR_MAX];
	char canon[CANON_MAX];
	char host[CB_HOST_MAX];
};

/* Name of the first ';'-separated key whose value differs, into key. */
static void first_difference(const char *a, const char *b, char *key, size_t len)
{
	size_t i = 0, start;

	while (a[i] && a[i] == b[i])
		i++;
	for (start = i; start > 0 && a[start - 1] != ';'; start--)
		;
	snprintf(key, len, "%.*s", (int)strcspn(a + start, "="), a + start);
}

static enum cb_status report_mismatch(const struct rank_record *all, int n)
{
	char list[1024] = "";
	size_t k = 0;

	for (int r = 1; r < n && k < sizeof(list) - 64; r++)
		if (strcmp(all[r].canon, all[0].canon) != 0) {
			char key[64];

			first_difference(all[r].canon, all[0].canon, key, sizeof(key));
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%d (%s)", k ? ", " : "",
					      r, key);
		}
	if (!k)
		return CB_OK;
	cb_log("arguments differ between ranks; ranks differing from rank 0: %s", list);
	return CB_ERR_MISMATCH;
}

static void fill_hosts(struct cb_preflight *pf, const struct rank_record *all, int n)
{
	for (int r = 0; r < n; r++) {
		int same = 0;

		memcpy(pf->hosts[r], all[r].host, CB_HOST_MAX);
		pf->host_of[r] = -1;
		for (int i = 0; i < pf->nhosts && pf->host_of[r] < 0; i++)
			if (strcmp(pf->distinct[i], all[r].host) == 0)
				pf->host_of[r] = i;
		if (pf->host_of[r] < 0) {
			pf->host_of[r] = pf->nhosts;
			pf->distinct[pf->nhosts++] = pf->hosts[r];
		}
		for (int q = 0; q < n; q++)
			same += strcmp(all[q].host, all[r].host) == 0;
		if (same > pf->ranks_per_node)
			pf->ranks_per_node = same;
	}
}

enum cb_status cb_preflight_run(MPI_Comm world, enum cb_status parse_st, const char *parse_err,
				const struct cb_options *o, struct cb_preflight *pf)
{
	struct rank_record mine, *all;
	int n, rank;
	enum cb_status st = CB_OK;

	memset(pf, 0, sizeof(*pf));
	memset(&mine, 0, sizeof(mine));
	MPI_Comm_size(world, &n);
	MPI_Comm_rank(world, &rank);
	mine.parse_ok = parse_st == CB_OK;
	snprintf(mine.err, sizeof(mine.err), "%s", parse_err ? parse_err : "");
	if (mine.parse_ok)
		cb_options_canonical(o, mine.canon, sizeof(mine.canon));
	gethostname(mine.host, sizeof(mine.host) - 1);
	all = calloc((size_t)n, sizeof(*all));
	if (!all)
		return CB_ERR_NOMEM;
	st = CB_MPI(MPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE, world));
	if (st != CB_OK)
		goto out_free_all;
	for (int r = 0; r < n; r++)
		if (!all[r].parse_ok) {
			if (r == rank)
				cb_log("%s", mine.err);
			st = CB_ERR_ARG;
			goto out_free_all;
		}
	st = report_mismatch(all, n);
	if (st != CB_OK)
		goto out_free_all;
	if (o->root >= n) {
		if (rank == 0)
			cb_log("-r/--root %d: there are only %d ranks", o->root, n);
		st = CB_ERR_ARG;
		goto out_free_all;
	}
	pf->nranks = n;
	pf->hosts = calloc((size_t)n, sizeof(*pf->hosts));
	pf->distinct = calloc((size_t)n, sizeof(*pf->distinct));
	pf->host_of = calloc((size_t)n, sizeof(*pf->host_of));
	if (!pf->hosts || !pf->distinct || !pf->host_of) {
		cb_preflight_free(pf);
		st = CB_ERR_NOMEM;
		goto out_free_all;
	}
	fill_hosts(pf, all, n);
out_free_all:
	free(all);
	return st;
}

void cb_preflight_free(struct cb_preflight *pf)
{
	free(pf->hosts);
	free(pf->distinct);
	free(pf->host_of);
	memset(pf, 0, sizeof(*pf));
}
