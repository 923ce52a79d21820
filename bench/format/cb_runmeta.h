/* cb_runmeta: the run folder's meta.json (schema collbench-run-1), which
 * scripts/sweep.sh has written through collbench-results run-meta: what the
 * sweep was (rank counts, sizes, backend, transport), where and how it ran
 * (host, machine label, launcher, hosts, allocator settings), how loaded the
 * machine was, and how it ended. Each key is one row of a table
 * (cb_runmeta.c): its name, type and a line of documentation; that table
 * checks and writes every value and gives the docs' key list. The launches'
 * own sidecars (np<N>.meta.json, collbench-meta-1) are allreduce_perf's.
 *
 * A key with a dot names a member of an object ("launcher.job_id"); the
 * object is written where any member is given, or as null when the object's
 * own key is given empty ("hosts="). A map key takes any member name of
 * digits ("hosts.ranks_per_host.4=..."). Keys appear in table order. */
#ifndef CB_RUNMETA_H
#define CB_RUNMETA_H

#include <stddef.h>
#include <stdio.h>

#include "cb_status.h"

#define CB_SCHEMA_RUN "collbench-run-1"

enum cb_rm_type {
	CB_RM_STRING,   /* text (any bytes: written under cb_text's rule) */
	CB_RM_INT,      /* a decimal integer >= 0 */
	CB_RM_BOOL,     /* true or false */
	CB_RM_INTS,     /* integers >= 0, comma-separated; "" an empty list */
	CB_RM_STAMP,    /* UTC time as sweep.sh names runs: YYYYMMDDTHHMMSSZ */
	CB_RM_CHOICE,   /* one of the row's choices */
	CB_RM_OBJECT,   /* the object its dotted members make; "" writes null */
	CB_RM_MAP,      /* an object of strings under any digits key */
	CB_RM_FIXED,    /* written by the tool itself (the schema id, notes) */
};

#define CB_RM_NULL 1u     /* "" writes null */
#define CB_RM_REQUIRED 2u /* every record has it */

struct cb_rm_field {
	const char *key;
	enum cb_rm_type type;
	unsigned flags;       /* CB_RM_* */
	const char *choices;  /* CHOICE: "a|b|c"; FIXED: the text ("%d": the
			       * integer of key `with`) */
	const char *with;     /* FIXED: written when this key is given */
	const char *doc;      /* one line for the docs */
};

/* The table, in the order of the file; *n receives its length. */
const struct cb_rm_field *cb_runmeta_fields(size_t *n);

/* Writes a collbench-run-1 record of the KEY=VALUE words kv[0..n) to f: a
 * JSON object, each top-level key on a line of its own (objects and lists
 * on that line). Errors: CB_ERR_ARG with a message in err (an unknown key,
 * a value its type refuses, a key given twice, a required key missing), and
 * nothing written; CB_ERR_IO when writing f failed; CB_ERR_NOMEM. */
enum cb_status cb_runmeta_write(FILE *f, char *const *kv, size_t n, char *err, size_t errlen);

/* The docs' key list: a markdown table (key, type, meaning). */
void cb_runmeta_markdown(FILE *f);

#endif
