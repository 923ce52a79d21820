/* cb_hist_key: run keys (contract in cb_hist_key.h). */
#define _GNU_SOURCE
#include "cb_hist_key.h"

#include <openssl/evp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_hist_cols.h"

static const char *const key_names[] = { CB_HIST_KEY_COLUMNS, CB_HIST_KEY_COLL };
#define NKEY (sizeof(key_names) / sizeof(key_names[0]))
#define ICOLL (NKEY - 1) /* the collective: written for other collectives only */
#define LINE_MAX_LEN (NKEY * 64 + CB_REASON_MAX)

/* The schema's column named key_names[i], NULL when it has none. */
static const struct cb_column *key_col(size_t i)
{
	int k = cb_schema_find(&cb_schema_summary, key_names[i]);

	return k >= 0 && cb_hist_col_stored(&cb_schema_summary.cols[k]) ?
		       &cb_schema_summary.cols[k] : NULL;
}

/* Row r's key columns, comma-joined, into buf[LINE_MAX_LEN]. */
static void row_line(const struct cb_res_row *r, char *buf)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NKEY; i++) {
		const struct cb_column *c = key_col(i);
		char v[CB_REASON_MAX + 16] = "";

		if (c)
			cb_hist_col_text(c, &r->v, v, sizeof(v));
		if (i == ICOLL && (!v[0] || strcmp(v, cb_coll_get(CB_COLL_ALLREDUCE)->name) == 0))
			break;
		k += (size_t)snprintf(buf + k, LINE_MAX_LEN - k, "%s%s", i ? "," : "", v);
		if (k >= LINE_MAX_LEN)
			k = LINE_MAX_LEN - 1;
	}
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* SHA-256 of len bytes at p, in hex, into out. Returns -1 on failure. */
static int sha256_hex(const void *p, size_t len, char out[CB_HIST_KEY_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!EVP_Digest(p, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
		return -1;
	for (unsigned int i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}

enum cb_status cb_hist_run_key(const char *identity, const char *time_utc,
			       const struct cb_res_row *rows, size_t n, char key[CB_HIST_KEY_HEX])
{
	size_t head = strlen(identity) + strlen(time_utc) + 64, cap = head + n * LINE_MAX_LEN;
	char *lines = malloc(n ? n * LINE_MAX_LEN : 1), *text = malloc(cap);
	size_t k;
	int rc;

	if (!lines || !text) {
		free(lines);
		free(text);
		return CB_ERR_NOMEM;
	}
	for (size_t i = 0; i < n; i++)
		row_line(&rows[i], lines + i * LINE_MAX_LEN);
	qsort(lines, n, LINE_MAX_LEN, line_cmp);
	k = (size_t)snprintf(text, cap, "collbench-history run 1\nmachine\t%s\nstart\t%s\n",
			     identity, time_utc);
	for (size_t i = 0; i < n && k < cap; i++)
		k += (size_t)snprintf(text + k, cap - k, "%s\n", lines + i * LINE_MAX_LEN);
	rc = sha256_hex(text, k < cap ? k : cap - 1, key);
	free(lines);
	free(text);
	return rc == 0 ? CB_OK : CB_ERR_NOMEM;
}

enum cb_status cb_hist_text_key(const char *const *texts, size_t n, char out[CB_HIST_KEY_HEX])
{
	size_t cap = 1, k = 0;
	char *all;
	int rc;

	for (size_t i = 0; i < n; i++)
		cap += strlen(texts[i]) + 1;
	all = malloc(cap);
	if (!all)
		return CB_ERR_NOMEM;
	for (size_t i = 0; i < n; i++)
		k += (size_t)snprintf(all + k, cap - k, "%s\n", texts[i]);
	rc = sha256_hex(all, k, out);
	free(all);
	return rc == 0 ? CB_OK : CB_ERR_NOMEM;
}

int cb_hist_key_select(char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "SELECT ");

	for (size_t i = 0; i < NKEY && k < len; i++) {
		const struct cb_column *c = key_col(i);

		/* a column the schema lacks reads as NULL: its empty value */
		k += (size_t)snprintf(buf + k, len - k, "%s%s%s%s", i ? ", " : "", c ? "\"" : "",
				      c ? c->name : "NULL", c ? "\"" : "");
	}
	if (k < len)
		k += (size_t)snprintf(buf + k, len - k, " FROM rows WHERE run_id = ?1");
	return k < len ? 0 : -1;
}

void cb_hist_key_read_row(sqlite3_stmt *s, struct cb_res_row *r)
{
	memset(r, 0, sizeof(*r));
	cb_schema_clear(&cb_schema_summary, &r->v);
	for (size_t i = 0; i < NKEY; i++) {
		const struct cb_column *c = key_col(i);

		if (c)
			cb_hist_col_read(s, (int)i, c, &r->v);
	}
}
