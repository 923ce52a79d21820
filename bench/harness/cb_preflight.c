#define _GNU_SOURCE
#include "cb_preflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_env.h"
#include "cb_text.h"

#define CANON_MAX 1536
#define ERR_MAX 384

struct rank_record {
	int parse_ok;
	char err[ERR_MAX];
	char canon[CANON_MAX];
	char host[CB_HOST_MAX];
	char plan_name[32];                           /* --plan's, "" none */
	char plan_digest[CB_PLAN_FILE_DIGEST_LEN + 1];
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

/* CB_ERR_MISMATCH when ranks read different plans under one --plan path
 * (hosts without a shared file system, each with its own copy): rank 0 says
 * which ranks and the digests. A rank without a plan is report_mismatch's. */
static enum cb_status report_plan_mismatch(const struct rank_record *all, int n, int rank,
					   const char *path)
{
	char list[768] = "";
	size_t k = 0;
	int bad = 0;

	for (int r = 1; r < n; r++) {
		if (!*all[r].plan_digest || !*all[0].plan_digest ||
		    strcmp(all[r].plan_digest, all[0].plan_digest) == 0)
			continue;
		if (k + 96 < sizeof(list))
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%srank %d's plan %s "
					      "(digest %s)", bad ? ", " : "", r, all[r].plan_name,
					      all[r].plan_digest);
		bad++;
	}
	if (!bad)
		return CB_OK;
	if (rank == 0) {
		char *shown = cb_text_escape(path);

		cb_log("--plan %s: %s%s differ%s from rank 0's plan %s (digest %s): the ranks read "
		       "different files under this path (hosts without a shared file system?); "
		       "give every rank the same plan", shown ? shown : path, list,
		       k + 96 >= sizeof(list) ? ", ..." : "", bad > 1 ? "" : "s",
		       all[0].plan_name, all[0].plan_digest);
		free(shown);
	}
	return CB_ERR_MISMATCH;
}

/* Every rank's cb_env_pack into pf->env, pf->env_off, pf->env_len. */
static enum cb_status exchange_env(MPI_Comm world, int n, struct cb_preflight *pf)
{
	size_t len = 0;
	char *mine = cb_env_pack(&len);
	int my_len = (int)len, total = 0;
	enum cb_status st = CB_ERR_NOMEM;

	pf->env_off = calloc((size_t)n, sizeof(int));
	pf->env_len = calloc((size_t)n, sizeof(int));
	if (!mine || !pf->env_off || !pf->env_len || len > (1u << 24))
		goto out_free_mine; /* 16 MiB of settings: not an environment */
	st = CB_MPI(MPI_Allgather(&my_len, 1, MPI_INT, pf->env_len, 1, MPI_INT, world));
	for (int r = 0; st == CB_OK && r < n; r++) {
		pf->env_off[r] = total;
		total += pf->env_len[r];
	}
	pf->env = st == CB_OK ? malloc((size_t)total + 1) : NULL;
	if (st == CB_OK && !pf->env)
		st = CB_ERR_NOMEM;
	if (st == CB_OK)
		st = CB_MPI(MPI_Allgatherv(mine, my_len, MPI_CHAR, pf->env, pf->env_len, pf->env_off,
					   MPI_CHAR, world));
out_free_mine:
	free(mine);
	return st;
}

/* "NAME=value" of entry as "value" shown (escaped, cut at 40 bytes), or
 * "unset" for NULL, into buf. */
static void show_value(const char *entry, char *buf, size_t len)
{
	char *t = entry ? cb_text_escape(entry + strcspn(entry, "=") + 1) : NULL;

	if (!entry)
		snprintf(buf, len, "unset");
	else
		snprintf(buf, len, "'%.40s%s'", t ? t : "?", t && strlen(t) > 40 ? "..." : "");
	free(t);
}

/* Appends to list (of size len, k used) each CB_ENV_AGREE variable that
 * rank r (entries b) has other than rank 0 (entries a), as
 * "NAME 'v' (rank 0: 'v0')"; returns how many. */
static int env_differences(const char *a, size_t na, const char *b, size_t nb, char *list,
			   size_t len, size_t *k)
{
	const char *pass[2][2] = { { a, b }, { b, a } };
	size_t n[2][2] = { { na, nb }, { nb, na } };
	int count = 0;

	for (int p = 0; p < 2; p++) /* rank 0's names, then the ones only rank r has */
		for (const char *e = cb_env_next(pass[p][0], n[p][0], NULL); e;
		     e = cb_env_next(pass[p][0], n[p][0], e)) {
			const char *other = cb_env_find(pass[p][1], n[p][1], e);
			const char *mine = p ? e : other, *zero = p ? other : e;
			char vr[64], v0[64];

			if (cb_env_kind(e) != CB_ENV_AGREE || (other && strcmp(e, other) == 0) ||
			    (p && other))
				continue;
			show_value(mine, vr, sizeof(vr));
			show_value(zero, v0, sizeof(v0));
			if (*k < len)
				*k += (size_t)snprintf(list + *k, len - *k, "%s%.*s %s (rank 0: %s)",
						       count ? ", " : "", (int)strcspn(e, "="), e, vr,
						       v0);
			count++;
		}
	return count;
}

/* CB_ERR_MISMATCH (rank 0 says which ranks and variables) when a rank's
 * CB_ENV_AGREE settings differ from rank 0's. */
static enum cb_status report_env_mismatch(const struct cb_preflight *pf, int n, int rank)
{
	char list[2048] = "", one[512];
	size_t k = 0;
	int bad = 0, cut = 0;

	for (int r = 1; r < n; r++) {
		size_t used = 0;

		if (env_differences(pf->env, (size_t)pf->env_len[0], pf->env + pf->env_off[r],
				    (size_t)pf->env_len[r], one, sizeof(one), &used) == 0)
			continue;
		if (k + used + 32 < sizeof(list))
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%srank %d: %s",
					      bad ? "; " : "", r, one);
		else
			cut = 1;
		bad++;
	}
	if (!bad)
		return CB_OK;
	if (rank == 0)
		cb_log("environment variables that change a measurement differ between ranks "
		       "(%d rank(s) differ from rank 0): %s%s; give every rank the same (mpirun -x "
		       "NAME passes one on)", bad, list, cut ? "; ..." : "");
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

enum cb_status cb_preflight_world_size(const struct cb_options *o, int n, int say)
{
	if (o->world_size && o->world_size != n) {
		if (say)
			cb_log("--world-size %d: this run has %d ranks", o->world_size, n);
		return CB_ERR_ARG;
	}
	if (o->root >= n || o->servers > n) {
		if (say && o->root >= n)
			cb_log("-r/--root %d: there are only %d ranks", o->root, n);
		else if (say)
			cb_log("--servers %d: there are only %d ranks", o->servers, n);
		return CB_ERR_ARG;
	}
	if (*o->plan && o->plan_ranks != n) {
		if (say)
			cb_log("--plan %s: plan %s is for %d ranks, this run has %d (mpirun -np %d)",
			       o->plan, o->plan_name, o->plan_ranks, n, o->plan_ranks);
		return CB_ERR_ARG;
	}
	return CB_OK;
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
	if (mine.parse_ok) {
		cb_options_canonical(o, mine.canon, sizeof(mine.canon));
		snprintf(mine.plan_name, sizeof(mine.plan_name), "%s", o->plan_name);
		snprintf(mine.plan_digest, sizeof(mine.plan_digest), "%s", o->plan_digest);
	}
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
	st = report_plan_mismatch(all, n, rank, o->plan);
	if (st == CB_OK)
		st = report_mismatch(all, n);
	if (st != CB_OK)
		goto out_free_all;
	st = cb_preflight_world_size(o, n, rank == 0);
	if (st != CB_OK)
		goto out_free_all;
	st = exchange_env(world, n, pf);
	if (st == CB_OK)
		st = report_env_mismatch(pf, n, rank);
	if (st != CB_OK) {
		cb_preflight_free(pf);
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
	free(pf->env);
	free(pf->env_off);
	free(pf->env_len);
	memset(pf, 0, sizeof(*pf));
}
