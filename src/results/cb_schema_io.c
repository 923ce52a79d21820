/* cb_schema: records to CSV lines, JSON objects and README's lists, driven
 * by the column tables (contract in cb_schema.h); fields back into records:
 * cb_schema_parse.c. */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "cb_schema.h"
#include "cb_text.h"

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
