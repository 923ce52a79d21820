/* cb_reference: the published figures' table, read and matched (contract in
 * cb_reference.h); placing a run's rows against it: cb_reference_out.c. */
#define _GNU_SOURCE
#include "cb_reference.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cb_csv.h"
#include "cb_schema.h"

#define REF_MAX_BYTES (4u << 20) /* a table of figures, not a results file */

/* The columns, in the order of struct cb_ref_entry's text fields; need: an
 * empty field is refused. */
static const struct {
	const char *name;
	size_t off, len;
	int need;
} texts[] = {
#define T(n, f, need) { n, offsetof(struct cb_ref_entry, f), \
			sizeof(((struct cb_ref_entry *)0)->f), need }
	T("gpu_family", family, 1),  T("gpu_model", model, 0),
	T("interconnect", interconnect, 1), T("collective", collective, 1),
	T("algo", algo, 1), T("nccl_version", nccl_version, 0),
	T("measured", measured, 0), T("source_url", url, 1),
	T("source_title", title, 1), T("source_date", date, 1), T("note", note, 0),
#undef T
};
#define NTEXTS (sizeof(texts) / sizeof(texts[0]))

/* A positive finite number with nothing after it into *v; -1 otherwise. */
static int positive(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*v) && *v > 0 ? 0 : -1;
}

/* 1 for YYYY-MM-DD. */
static int is_date(const char *s)
{
	static const char shape[] = "dddd-dd-dd";

	for (size_t i = 0; i < sizeof(shape); i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
			return 0;
	return 1;
}

/* The numbers of row r into e: "" when good, else the column at fault. */
static const char *numbers(const struct cb_table *t, char **r, struct cb_ref_entry *e)
{
	const char *cnt = r[cb_table_col(t, "gpu_count")], *b = r[cb_table_col(t, "bytes")];
	double v;

	if (positive(cnt, &v) || v != (int)v || v > 1 << 24)
		return "gpu_count: not a positive integer";
	e->gpu_count = (int)v;
	e->bytes = CB_NO_U64;
	if (*b) {
		if (positive(b, &v) || v != floor(v) || v > 4e18)
			return "bytes: not a positive integer (empty: the sweep's peak)";
		e->bytes = (unsigned long long)v;
	}
	if (positive(r[cb_table_col(t, "busbw_GBps")], &e->busbw))
		return "busbw_GBps: not a positive number";
	if (!is_date(e->date))
		return "source_date: not YYYY-MM-DD";
	if (strncmp(e->url, "https://", 8) && strncmp(e->url, "http://", 7))
		return "source_url: not an http(s) URL";
	return "";
}

/* Row r of t into e; returns "" or the fault. */
static const char *entry(const struct cb_table *t, char **r, struct cb_ref_entry *e)
{
	static char msg[96];

	for (size_t k = 0; k < NTEXTS; k++) {
		const char *v = r[cb_table_col(t, texts[k].name)];

		if (texts[k].need && !*v) {
			snprintf(msg, sizeof(msg), "%s: empty", texts[k].name);
			return msg;
		}
		if (strlen(v) >= texts[k].len) {
			snprintf(msg, sizeof(msg), "%s: longer than %zu characters", texts[k].name,
				 texts[k].len - 1);
			return msg;
		}
		strcpy((char *)e + texts[k].off, v);
	}
	return numbers(t, r, e);
}

/* The first required column t lacks, or NULL. */
static const char *missing_col(const struct cb_table *t)
{
	static const char *const nums[] = { "gpu_count", "bytes", "busbw_GBps" };

	for (size_t k = 0; k < NTEXTS; k++)
		if (cb_table_col(t, texts[k].name) < 0)
			return texts[k].name;
	for (size_t k = 0; k < 3; k++)
		if (cb_table_col(t, nums[k]) < 0)
			return nums[k];
	return NULL;
}

enum cb_status cb_ref_load(const char *path, struct cb_ref_table *rt, char *err, size_t errlen)
{
	struct cb_table t;
	enum cb_status st = cb_table_read(path, REF_MAX_BYTES, &t, err, errlen);
	const char *col;

	memset(rt, 0, sizeof(*rt));
	if (st == CB_ERR_ARG) { /* (CB_ERR_IO's message names the file) */
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "%s: %s", path, msg);
	}
	if (st != CB_OK)
		return st;
	st = CB_ERR_ARG;
	if ((col = missing_col(&t))) {
		snprintf(err, errlen, "%s: no column '%s' (a reference table: docs/normal.md)",
			 path, col);
		goto out;
	}
	if (!t.nrows) {
		snprintf(err, errlen, "%s: no entries", path);
		goto out;
	}
	rt->e = calloc(t.nrows, sizeof(*rt->e));
	if (!rt->e) {
		snprintf(err, errlen, "out of memory");
		st = CB_ERR_NOMEM;
		goto out;
	}
	for (rt->n = 0; rt->n < t.nrows; rt->n++) {
		const char *why = entry(&t, t.rows[rt->n], &rt->e[rt->n]);

		rt->e[rt->n].line = rt->n + 2;
		if (*why) {
			snprintf(err, errlen, "%s: line %zu: %s", path, rt->n + 2, why);
			cb_ref_free(rt);
			goto out;
		}
	}
	st = CB_OK;
out:
	cb_table_free(&t);
	return st;
}

void cb_ref_free(struct cb_ref_table *rt)
{
	free(rt->e);
	memset(rt, 0, sizeof(*rt));
}

void cb_ref_interconnect(const struct cb_topo *t, char *buf, size_t len)
{
	if (t->known && t->nvlink_version > 0)
		snprintf(buf, len, "nvlink%d-%s", t->nvlink_version,
			 t->nvswitch ? "nvswitch" : "direct");
	else if (t->known && t->pcie_gen > 0)
		snprintf(buf, len, "pcie%d", t->pcie_gen);
	else
		snprintf(buf, len, "unknown");
}

int cb_ref_family_in(const char *family, const char *gpu_model)
{
	size_t n = strlen(family);

	for (const char *p = gpu_model; n && (p = strcasestr(p, family)); p++) {
		int before = p == gpu_model || !isalnum((unsigned char)p[-1]);

		if (before && !isalnum((unsigned char)p[n]))
			return 1;
	}
	return 0;
}

int cb_ref_matches(const struct cb_ref_entry *e, const struct cb_topo *t)
{
	char ic[CB_REF_NAME];

	cb_ref_interconnect(t, ic, sizeof(ic));
	return t->known && cb_ref_family_in(e->family, t->gpu_model) &&
	       e->gpu_count == t->gpu_count && strcmp(e->interconnect, ic) == 0;
}

/* The NVLink version an interconnect name gives (0: none). */
static int nvlink_of(const char *ic)
{
	return strncmp(ic, "nvlink", 6) == 0 ? atoi(ic + 6) : 0;
}

/* e's distance from t as a key compared in order: lower is nearer. */
static void distance(const struct cb_ref_entry *e, const struct cb_topo *t, const char *ic,
		     long key[4])
{
	key[0] = !cb_ref_family_in(e->family, t->gpu_model);
	key[1] = strcmp(e->interconnect, ic) != 0;
	key[2] = labs((long)e->gpu_count - t->gpu_count);
	key[3] = labs((long)nvlink_of(e->interconnect) - t->nvlink_version);
}

/* 1 when key a comes before key b (lexicographic). */
static int key_less(const long a[4], const long b[4])
{
	for (int j = 0; j < 4; j++)
		if (a[j] != b[j])
			return a[j] < b[j];
	return 0;
}

long cb_ref_nearest(const struct cb_ref_table *rt, const struct cb_topo *t, char *why,
		    size_t len)
{
	char ic[CB_REF_NAME];
	long best = -1, bk[4] = { 0 }, k[4];
	const struct cb_ref_entry *e;
	size_t w;

	cb_ref_interconnect(t, ic, sizeof(ic));
	for (size_t i = 0; i < rt->n; i++) {
		distance(&rt->e[i], t, ic, k);
		if (best < 0 || key_less(k, bk)) {
			best = (long)i;
			memcpy(bk, k, sizeof(k));
		}
	}
	if (best < 0)
		return -1;
	e = &rt->e[best];
	w = (size_t)snprintf(why, len, "%s", "");
	if (bk[0] && w < len)
		w += (size_t)snprintf(why + w, len - w, "GPU %s, not %s; ", t->gpu_model, e->family);
	if (bk[1] && w < len)
		w += (size_t)snprintf(why + w, len - w, "interconnect %s, not %s; ", ic,
				      e->interconnect);
	if (bk[2] && w < len)
		w += (size_t)snprintf(why + w, len - w, "%d GPUs, not %d; ", t->gpu_count,
				      e->gpu_count);
	if (w >= 2 && w < len)
		why[w - 2] = '\0';
	return best;
}

int cb_ref_algo_is(const char *row_algo, const char *algo)
{
	size_t n = strlen(algo);

	if (strcmp(algo, "default") == 0)
		return strcmp(row_algo, "nccl") == 0;
	return strncmp(row_algo, "nccl.", 5) == 0 && strncmp(row_algo + 5, algo, n) == 0 &&
	       row_algo[5 + n] == '.';
}
