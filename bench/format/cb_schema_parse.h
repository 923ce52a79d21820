/* cb_schema_parse: a field of a results file back into its record, with the
 * checks of its column in the schema table (cb_schema.h): the reader's rules
 * for what a column may hold (cb_results.h). */
#ifndef CB_SCHEMA_PARSE_H
#define CB_SCHEMA_PARSE_H

#include <stddef.h>

#include "cb_schema.h"
#include "cb_status.h"

/* Reads one field's text into rec as column c of s says: checks the type,
 * the range, emptiness (state: the row's state, for CB_COL_NEED_IF_OK) and
 * that a schema field names s (its id, or one of s->older). Returns CB_OK, or
 * CB_ERR_ARG with a message naming the column in err. */
enum cb_status cb_schema_parse_field(const struct cb_schema *s, const struct cb_column *c,
				     const char *text, void *rec, enum cb_row_state state,
				     char *err, size_t errlen);

#endif
