/* cb_csv: reads a whole CSV file (RFC 4180, parsed by libcsv) into a table
 * of strings, for the tools that read collbench's own results: the compare
 * tool and the test checker. Fields are looked up by header name. */
#ifndef CB_CSV_H
#define CB_CSV_H

#include <stddef.h>

#include "cb_status.h"

struct cb_table {
	size_t ncols, nrows;
	char **header;  /* [ncols] */
	char ***rows;   /* [nrows][ncols] */
};

/* Reads path (a UTF-8 byte-order mark at its start is skipped). Errors (message in err, t left empty): CB_ERR_IO (cannot read),
 * CB_ERR_ARG (not CSV: bad quoting, a row whose field count differs from
 * the header's, an empty file, a file over max_bytes). A header-only file
 * is valid (nrows = 0). */
enum cb_status cb_table_read(const char *path, size_t max_bytes, struct cb_table *t, char *err,
			     size_t errlen);

/* Parses len bytes of CSV text at buf (need not be NUL-terminated), with the
 * same rules and errors as cb_table_read but no size limit and no CB_ERR_IO.
 * The fuzz target and the tests call this. */
enum cb_status cb_table_parse(const char *buf, size_t len, struct cb_table *t, char *err,
			      size_t errlen);

/* Index of the column named name, or -1. */
int cb_table_col(const struct cb_table *t, const char *name);

void cb_table_free(struct cb_table *t);

#endif
