#define _GNU_SOURCE
#include "cb_csv.h"
#include "cb_input.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct builder {
	struct cb_table *t;
	char **fields;      /* the row being read */
	size_t nfields, cap;
	size_t rows_cap;
	int bad_width, bad_nul, nomem;
	size_t bad_row;     /* 1-based line of the first bad row */
	size_t fed;         /* bytes given to the parser so far */
};

static void on_field(void *s, size_t len, void *data)
{
	struct builder *b = data;
	char *f;

	if (b->nomem || b->bad_width || b->bad_nul)
		return;
	if (memchr(s, '\0', len)) { /* text never holds one; C strings would cut it */
		b->bad_nul = 1;
		b->bad_row = b->t->header ? b->t->nrows + 2 : 1;
		return;
	}
	if (b->nfields == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32;
		char **n = realloc(b->fields, cap * sizeof(*n));

		if (!n) {
			b->nomem = 1;
			return;
		}
		b->fields = n;
		b->cap = cap;
	}
	f = malloc(len + 1);
	if (!f) {
		b->nomem = 1;
		return;
	}
	memcpy(f, s, len);
	f[len] = '\0';
	b->fields[b->nfields++] = f;
}

static void drop_fields(struct builder *b)
{
	for (size_t i = 0; i < b->nfields; i++)
		free(b->fields[i]);
	b->nfields = 0;
}

static void on_row(int c, void *data)
{
	struct builder *b = data;
	struct cb_table *t = b->t;
	char **row;

	(void)c;
	if (b->nomem || b->bad_width || b->bad_nul) {
		drop_fields(b);
		return;
	}
	if (!t->header) {
		t->ncols = b->nfields;
		t->header = malloc((b->nfields ? b->nfields : 1) * sizeof(char *));
		if (!t->header) {
			b->nomem = 1;
			drop_fields(b);
			return;
		}
		memcpy(t->header, b->fields, b->nfields * sizeof(char *));
		b->nfields = 0;
		return;
	}
	if (b->nfields != t->ncols) {
		b->bad_width = 1;
		b->bad_row = t->nrows + 2; /* 1-based line of the file */
		drop_fields(b);
		return;
	}
	if (t->nrows == b->rows_cap) {
		size_t cap = b->rows_cap ? 2 * b->rows_cap : 64;
		char ***n = realloc(t->rows, cap * sizeof(*n));

		if (!n) {
			b->nomem = 1;
			drop_fields(b);
			return;
		}
		t->rows = n;
		b->rows_cap = cap;
	}
	row = malloc(t->ncols * sizeof(char *));
	if (!row) {
		b->nomem = 1;
		drop_fields(b);
		return;
	}
	memcpy(row, b->fields, t->ncols * sizeof(char *));
	b->nfields = 0;
	t->rows[t->nrows++] = row;
}

/* Feeds n bytes of CSV text to the parser; a UTF-8 byte-order mark at the
 * very start (spreadsheets write one) is not part of the first column name. */
static enum cb_status feed(struct csv_parser *p, struct builder *b, const char *buf, size_t n,
			   char *err, size_t errlen)
{
	if (b->fed == 0 && n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		buf += 3, n -= 3;
	b->fed += n;
	if (csv_parse(p, buf, n, on_field, on_row, b) != n) {
		snprintf(err, errlen, "not valid CSV: %s", csv_strerror(csv_error(p)));
		return CB_ERR_ARG;
	}
	return CB_OK;
}

/* Feeds the file through libcsv. */
static enum cb_status parse_file(FILE *f, struct csv_parser *p, struct builder *b,
				 size_t max_bytes, char *err, size_t errlen)
{
	char buf[65536];
	size_t n, total = 0;
	enum cb_status st = CB_OK;

	while (st == CB_OK && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		total += n;
		if (total > max_bytes) {
			snprintf(err, errlen, "file is larger than %zu bytes", max_bytes);
			return CB_ERR_ARG;
		}
		st = feed(p, b, buf, n, err, errlen);
	}
	if (st == CB_OK && ferror(f)) {
		snprintf(err, errlen, "read error");
		st = CB_ERR_IO;
	}
	return st;
}

static int start(struct csv_parser *p, struct cb_table *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	if (csv_init(p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* Ends the parse that st says went well so far: flushes the last row, frees
 * the parser and checks the table's shape. On error t is left empty. */
static enum cb_status finish(struct csv_parser *p, struct builder *b, enum cb_status st,
			     char *err, size_t errlen)
{
	struct cb_table *t = b->t;

	if (st == CB_OK && csv_fini(p, on_field, on_row, b) != 0) {
		snprintf(err, errlen, "not valid CSV: %s", csv_strerror(csv_error(p)));
		st = CB_ERR_ARG;
	}
	csv_free(p);
	drop_fields(b);
	free(b->fields);
	if (st == CB_OK && b->nomem) {
		snprintf(err, errlen, "out of memory");
		st = CB_ERR_NOMEM;
	} else if (st == CB_OK && b->bad_nul) {
		snprintf(err, errlen, "line %zu: a field holds a NUL byte", b->bad_row);
		st = CB_ERR_ARG;
	} else if (st == CB_OK && b->bad_width) {
		snprintf(err, errlen, "line %zu has a different number of fields than the header",
			 b->bad_row);
		st = CB_ERR_ARG;
	} else if (st == CB_OK && !t->header) {
		snprintf(err, errlen, "empty file (no header row)");
		st = CB_ERR_ARG;
	}
	if (st != CB_OK)
		cb_table_free(t);
	return st;
}

/* What the open file f is when it is a device or a folder (cb_input_kind's
 * words); NULL for a regular file, a pipe or a socket (a stream to read) or
 * what fstat cannot tell. */
static const char *device_or_folder(FILE *f)
{
	struct stat sb;

	if (fstat(fileno(f), &sb) != 0 || S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode))
		return NULL;
	return cb_input_kind(sb.st_mode);
}

enum cb_status cb_table_read(const char *path, size_t max_bytes, struct cb_table *t, char *err,
			     size_t errlen)
{
	struct builder b = { .t = t };
	struct csv_parser p;
	enum cb_status st;
	const char *kind;
	FILE *f;

	if (start(&p, t, err, errlen) != 0)
		return CB_ERR_NOMEM;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		csv_free(&p);
		return CB_ERR_IO;
	}
	kind = device_or_folder(f); /* /dev/zero would read up to max_bytes first */
	if (kind) {
		snprintf(err, errlen, "%s %s", path, kind);
		st = CB_ERR_ARG;
	} else {
		st = parse_file(f, &p, &b, max_bytes, err, errlen);
	}
	fclose(f);
	return finish(&p, &b, st, err, errlen);
}

enum cb_status cb_table_parse(const char *buf, size_t len, struct cb_table *t, char *err,
			      size_t errlen)
{
	struct builder b = { .t = t };
	struct csv_parser p;

	if (start(&p, t, err, errlen) != 0)
		return CB_ERR_NOMEM;
	return finish(&p, &b, feed(&p, &b, buf, len, err, errlen), err, errlen);
}

int cb_table_col(const struct cb_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->header[i], name) == 0)
			return (int)i;
	return -1;
}

void cb_table_free(struct cb_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			free(t->rows[r][c]);
		free(t->rows[r]);
	}
	free(t->rows);
	if (t->header)
		for (size_t c = 0; c < t->ncols; c++)
			free(t->header[c]);
	free(t->header);
	memset(t, 0, sizeof(*t));
}
