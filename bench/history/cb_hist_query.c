/* cb_hist_query: machines and series (contract in cb_hist_query.h). */
#define _GNU_SOURCE
#include "cb_hist_query.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "cb_hist_cols.h"
#include "cb_hist_sql.h"
#include "cb_machine.h"
#include "cb_optable.h"

#define MACHINE_LIST 1024

/* "'a', 'b'" of every machine identity, for messages. */
static void machine_list(struct cb_hist_db *db, char *out, size_t len)
{
	sqlite3_stmt *s;
	size_t k = 0;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db->sql, "SELECT identity FROM machines ORDER BY id", -1, &s,
			       NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(s) == SQLITE_ROW && k < len)
		k += (size_t)snprintf(out + k, len - k, "%s'%s'", k ? ", " : "",
				      (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	if (!out[0])
		snprintf(out, len, "none: the history is empty");
}

/* Steps s (bound) and keeps its first row (id, identity, label) in out;
 * returns the number of rows, counting up to 2. */
static int first_machine(sqlite3_stmt *s, struct cb_hist_machine_sel *out)
{
	int found = 0;

	while (found < 2 && sqlite3_step(s) == SQLITE_ROW)
		if (found++ == 0) {
			out->id = sqlite3_column_int64(s, 0);
			snprintf(out->identity, sizeof(out->identity), "%s", sqlite3_column_text(s, 1));
			snprintf(out->label, sizeof(out->label), "%s", sqlite3_column_text(s, 2));
		}
	return found;
}

/* This machine's identity among several (cb_machine_here): the one without a
 * GPU (host runs) or the one with ", GPU ..." (cuda runs), the backend
 * deciding when both are there. Returns the number found (0, 1, 2: ambiguous);
 * -1 for a database error; here gets this machine's GPU-less identity. */
static int this_machine(struct cb_hist_db *db, const char *backend,
			struct cb_hist_machine_sel *out, char *here, size_t len)
{
	char label[CB_HIST_TEXT], gpu[2 * CB_HIST_TEXT + 8];
	sqlite3_stmt *s;
	int found;

	if (cb_machine_here("", here, len, label, sizeof(label)) != 0 || !here[0])
		return 0;
	/* "label (cpu, N CPUs)" and "label (cpu, N CPUs, GPU x)" */
	snprintf(gpu, sizeof(gpu), "%.*s, GPU ", (int)strlen(here) - 1, here);
	if (sqlite3_prepare_v2(db->sql, "SELECT id, identity, label FROM machines WHERE "
			       "(identity = ?1 OR substr(identity, 1, length(?2)) = ?2) AND (?3 IS "
			       "NULL OR (?3 = 'host') = (identity = ?1)) ORDER BY id", -1, &s,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, here, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, gpu, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, backend, -1, SQLITE_STATIC);
	found = first_machine(s, out);
	sqlite3_finalize(s);
	return found;
}

enum cb_status cb_hist_machine_find(struct cb_hist_db *db, const char *want,
				    const char *backend, struct cb_hist_machine_sel *out,
				    char *err, size_t errlen)
{
	sqlite3_stmt *s;
	char list[MACHINE_LIST], here[2 * CB_HIST_TEXT] = "", wanted[2 * CB_HIST_TEXT];
	int found, rc;

	memset(out, 0, sizeof(*out));
	if (want) { /* a full identity as older versions wrote it: today's form */
		cb_machine_identity_upgrade(want, wanted, sizeof(wanted));
		want = wanted;
	}
	rc = sqlite3_prepare_v2(db->sql, want ? "SELECT id, identity, label FROM machines WHERE "
				"identity = ?1 UNION ALL SELECT id, identity, label FROM machines "
				"WHERE label = ?1 AND identity != ?1 AND NOT EXISTS (SELECT 1 FROM "
				"machines WHERE identity = ?1)" :
				"SELECT id, identity, label FROM machines", -1, &s, NULL);
	if (rc != SQLITE_OK)
		return cb_hist_sql_fail(db, "looking the machine up", err, errlen);
	if (want)
		sqlite3_bind_text(s, 1, want, -1, SQLITE_STATIC);
	found = first_machine(s, out);
	sqlite3_finalize(s);
	if (found == 2 && !want) {
		memset(out, 0, sizeof(*out));
		found = this_machine(db, backend, out, here, sizeof(here));
		if (found < 0)
			return cb_hist_sql_fail(db, "looking this machine up", err, errlen);
		found = found ? found : -1; /* -1: several, none of them this one */
	}
	if (found == 1)
		return CB_OK;
	machine_list(db, list, sizeof(list));
	if (found == 0 && want)
		snprintf(err, errlen, "%s: no machine '%s' in the history (machines: %s)", db->path,
			 want, list);
	else if (found == 0)
		snprintf(err, errlen, "%s: no machine in the history: ingest a run first", db->path);
	else if (found == 2 && !want)
		snprintf(err, errlen, "%s: this machine has several identities in the history (host "
			 "and GPU runs): name one with --machine, or pick by --backend: %s",
			 db->path, list);
	else if (want)
		snprintf(err, errlen, "%s: that label belongs to several machines: name one machine "
			 "with --machine (a label or a full identity; series never mix machines): "
			 "%s", db->path, list);
	else
		snprintf(err, errlen, "%s: several machines, and this one ('%s') is not among them: "
			 "name one machine with --machine (a label or a full identity; series never "
			 "mix machines): %s", db->path, here[0] ? here : "unknown", list);
	return CB_ERR_ARG;
}

long long cb_hist_newest_run(struct cb_hist_db *db, long long mid)
{
	sqlite3_stmt *s;
	long long id = 0;

	if (sqlite3_prepare_v2(db->sql, "SELECT id FROM runs WHERE machine_id = ? ORDER BY "
			       "seq DESC, id DESC LIMIT 1", -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(s, 1, mid);
	if (sqlite3_step(s) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return id;
}

long long cb_hist_latest_dated(struct cb_hist_db *db, long long run_id, char *time)
{
	sqlite3_stmt *s;
	long long id = 0;

	time[0] = '\0';
	if (sqlite3_prepare_v2(db->sql, "SELECT id, time_utc FROM runs WHERE machine_id = (SELECT"
			       " machine_id FROM runs WHERE id = ?1) AND id != ?1 ORDER BY time_utc"
			       " DESC, seq DESC LIMIT 1", -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(s, 1, run_id);
	if (sqlite3_step(s) == SQLITE_ROW) {
		id = sqlite3_column_int64(s, 0);
		snprintf(time, 32, "%s", (const char *)sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
	return id;
}

#define NRUN 9 /* w.transport, r.id, r.time_utc, r.name, r.git_commit, r.versions, r.label,
		* r.libconf, the digest of the row's plan file ('' none) */

/* The series query: the run's columns, then the stored ones (cb_hist_cols.h). */
static char *series_sql(void)
{
	size_t cap = 2048 + cb_schema_summary.ncols * 64, k;
	char *sql = malloc(cap);

	if (!sql)
		return NULL;
	snprintf(sql, cap, "SELECT w.transport, r.id, r.time_utc, r.name, r.git_commit, r.versions,"
		 " r.label, r.libconf, coalesce(p.digest, '') AS plan_digest");
	if (cb_hist_col_list(sql, cap, "w.") < 0) {
		free(sql);
		return NULL;
	}
	k = strlen(sql);
	snprintf(sql + k, cap - k, " FROM rows w JOIN runs r ON r.id = w.run_id"
		 " LEFT JOIN run_plans p ON p.run_id = r.id AND p.name = w.algo"
		 " WHERE r.machine_id = ?1 AND (?2 IS NULL OR w.backend = ?2)"
		 " AND (?3 IS NULL OR w.nranks = ?3) AND (?4 IS NULL OR w.bytes = ?4)"
		 " AND (?5 IS NULL OR w.dtype = ?5) AND (?6 IS NULL OR w.op = ?6)"
		 " AND (?7 IS NULL OR w.in_place = ?7) AND (?8 IS NULL OR w.transport = ?8)"
		 " AND w.bytes >= ?9 AND (?10 IS NULL OR w.collective = ?10)"
		 " ORDER BY w.backend, w.nranks, w.dtype, w.op, w.in_place, w.collective,"
		 " w.algo, w.bytes, w.transport, r.libconf, plan_digest, r.seq, r.id");
	return sql;
}

static void bind_filter(sqlite3_stmt *s, long long mid, const struct cb_hist_filter *f)
{
	const char *text[] = { f->backend, NULL, NULL, f->dtype, f->op, NULL, f->transport };

	sqlite3_bind_int64(s, 1, mid);
	for (int i = 0; i < 7; i++)
		if (text[i])
			sqlite3_bind_text(s, i + 2, text[i], -1, SQLITE_STATIC);
	if (f->nranks >= 0)
		sqlite3_bind_int(s, 3, f->nranks);
	if (f->bytes >= 0)
		sqlite3_bind_int64(s, 4, f->bytes);
	if (f->in_place >= 0)
		sqlite3_bind_int(s, 7, f->in_place);
	sqlite3_bind_int64(s, 9, (sqlite3_int64)f->min_bytes);
	if (f->collective)
		sqlite3_bind_text(s, 10, f->collective, -1, SQLITE_STATIC);
}

static void text_col(sqlite3_stmt *s, int c, char *dst, size_t cap)
{
	const unsigned char *t = sqlite3_column_text(s, c);

	snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

/* The statement's row as a point, its transport and library configuration
 * into k. */
static void read_point(sqlite3_stmt *s, struct cb_hist_point *p, struct cb_hist_key *k)
{
	const struct cb_schema *sc = &cb_schema_summary;
	int idx = NRUN;

	memset(p, 0, sizeof(*p));
	text_col(s, 0, k->transport, sizeof(k->transport));
	text_col(s, 7, k->libconf, sizeof(k->libconf));
	text_col(s, 8, k->plan_digest, sizeof(k->plan_digest));
	p->run_id = sqlite3_column_int64(s, 1);
	text_col(s, 2, p->time_utc, sizeof(p->time_utc));
	text_col(s, 3, p->run_name, sizeof(p->run_name));
	text_col(s, 4, p->git_commit, sizeof(p->git_commit));
	text_col(s, 5, p->versions, sizeof(p->versions));
	text_col(s, 6, p->label, sizeof(p->label));
	cb_schema_clear(sc, &p->row.v);
	for (size_t i = 0; i < sc->ncols; i++)
		if (cb_hist_col_stored(&sc->cols[i]))
			cb_hist_col_read(s, idx++, &sc->cols[i], &p->row.v);
}

void cb_hist_series_free(struct cb_hist_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].pts);
	free(s);
}

/* Appends the statement's row to the last series, or starts a new one;
 * rows of algorithms the filter leaves out are passed over. */
static int add_row(sqlite3_stmt *s, const struct cb_hist_filter *f, struct cb_hist_series **v,
		   size_t *n, size_t *cap)
{
	struct cb_hist_point p;
	struct cb_hist_key k;
	struct cb_hist_series *cur;

	read_point(s, &p, &k);
	if (!cb_list_selects(f->algos, p.row.v.algo))
		return 0;
	k.row = p.row;
	if (*n == 0 || !cb_hist_key_eq(&(*v)[*n - 1].key, &k)) {
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 16;
			struct cb_hist_series *nv = realloc(*v, c * sizeof(*nv));

			if (!nv)
				return -1;
			*v = nv;
			*cap = c;
		}
		memset(&(*v)[*n], 0, sizeof(**v));
		(*v)[(*n)++].key = k;
	}
	cur = &(*v)[*n - 1];
	cur->last_run = p.run_id; /* rows come oldest first: the last one is the newest */
	cur->last_status = p.row.v.status;
	if (p.row.v.status.state != CB_ROW_OK) {
		cur->not_ok++;
		return 0;
	}
	if (cur->n == cur->cap) {
		size_t c = cur->cap ? 2 * cur->cap : 16;
		struct cb_hist_point *np = realloc(cur->pts, c * sizeof(*np));

		if (!np)
			return -1;
		cur->pts = np;
		cur->cap = c;
	}
	cur->pts[cur->n++] = p;
	return 0;
}

void cb_hist_series_values(struct cb_hist_series *s, enum cb_metric metric, enum cb_stat stat)
{
	s->metric = metric;
	s->no_median = s->inconsistent = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (cb_row_metric(&s->pts[i].row, metric) > s->metric)
			s->metric = cb_row_metric(&s->pts[i].row, metric);
		s->no_median += stat == CB_STAT_MEDIAN && !cb_row_has_median(&s->pts[i].row);
	}
	/* like with like: one point without the median puts the series on the mean */
	s->stat = s->no_median ? CB_STAT_MEAN : stat;
	for (size_t i = 0; i < s->n; i++) {
		struct cb_hist_point *p = &s->pts[i];
		struct cb_band b;
		int bad = 0, no_median = 0;

		cb_row_read(&p->row, s->metric, s->stat, &b, &bad, &no_median);
		s->inconsistent += (size_t)bad;
		p->value = b.value;
		p->lo = b.lo;
		p->hi = b.hi;
	}
}

/* Drops series without points (but those whose newest row failed),
 * computes the values of the others. */
static size_t finish(struct cb_hist_series *v, size_t n, enum cb_metric metric,
		     enum cb_stat stat)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (v[i].n == 0 && !cb_row_state_failed(v[i].last_status.state)) {
			free(v[i].pts);
			continue;
		}
		v[k] = v[i];
		cb_hist_series_values(&v[k++], metric, stat);
	}
	return k;
}

enum cb_status cb_hist_series_load(struct cb_hist_db *db, long long mid,
				   const struct cb_hist_filter *f, enum cb_metric metric,
				   enum cb_stat stat, struct cb_hist_series **out, size_t *n,
				   char *err, size_t errlen)
{
	char *sql = series_sql();
	sqlite3_stmt *s = NULL;
	size_t cap = 0;
	int rc = SQLITE_NOMEM;

	*out = NULL;
	*n = 0;
	if (sql)
		rc = sqlite3_prepare_v2(db->sql, sql, -1, &s, NULL);
	free(sql);
	if (rc == SQLITE_OK)
		bind_filter(s, mid, f);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		if (add_row(s, f, out, n, &cap) != 0)
			rc = SQLITE_NOMEM;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		cb_hist_series_free(*out, *n);
		*out = NULL;
		*n = 0;
		if (rc == SQLITE_NOMEM) {
			snprintf(err, errlen, "%s: out of memory", db->path);
			return CB_ERR_NOMEM;
		}
		return cb_hist_sql_fail(db, "reading the series", err, errlen);
	}
	*n = finish(*out, *n, metric, stat);
	return CB_OK;
}
