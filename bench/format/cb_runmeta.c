/* The run metadata's keys and its writer (contract in cb_runmeta.h). */
#include "cb_runmeta.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cb_text.h"

#define NUL CB_RM_NULL
#define REQ CB_RM_REQUIRED

static const struct cb_rm_field fields[] = {
	{ "schema", CB_RM_FIXED, 0, CB_SCHEMA_RUN, NULL, "format and version: " CB_SCHEMA_RUN },
	{ "run_id", CB_RM_STRING, REQ, NULL, NULL, "the run folder's name" },
	{ "host", CB_RM_STRING, 0, NULL, NULL, "the host sweep.sh ran on (hostname -s)" },
	{ "machine", CB_RM_STRING, 0, NULL, NULL,
	  "the machine label (--machine, CB_MACHINE, else the host name)" },
	{ "created_utc", CB_RM_STAMP, 0, NULL, NULL, "when the sweep started (UTC, YYYYMMDDTHHMMSSZ)" },
	{ "backend", CB_RM_STRING, 0, NULL, NULL, "host or cuda" },
	{ "rank_counts", CB_RM_INTS, 0, NULL, NULL, "the rank counts swept, ascending" },
	{ "cpus_online", CB_RM_INT, 0, NULL, NULL, "CPUs of the host sweep.sh ran on" },
	{ "oversubscribed_rank_counts", CB_RM_INTS, 0, NULL, NULL,
	  "the rank counts above cpus_online (time slicing)" },
	{ "other_cpu_percent", CB_RM_INT, 0, NULL, NULL,
	  "percent of the CPUs other work used while the launches ran" },
	{ "other_cpu_note", CB_RM_FIXED, 0,
	  "percent of the %{cpus_online} CPUs that other work used while the launches ran (busy "
	  "time in /proc/stat minus this sweep's own CPU time)",
	  "other_cpu_percent", "how other_cpu_percent was measured" },
	{ "run_as_root", CB_RM_BOOL, 0, NULL, NULL, "whether the ranks ran as root" },
	{ "launcher", CB_RM_OBJECT, 0, NULL, NULL, "what started the ranks (members below)" },
	{ "launcher.name", CB_RM_STRING, 0, NULL, NULL, "mpirun or srun" },
	{ "launcher.command", CB_RM_STRING, 0, NULL, NULL,
	  "the command that started the ranks, before -N/-n/-np" },
	{ "launcher.job_id", CB_RM_STRING, NUL, NULL, NULL, "SLURM_JOB_ID; null outside Slurm" },
	{ "launcher.nodelist", CB_RM_STRING, NUL, NULL, NULL, "SLURM_JOB_NODELIST" },
	{ "launcher.partition", CB_RM_STRING, NUL, NULL, NULL, "SLURM_JOB_PARTITION" },
	{ "launcher.tasks_per_node", CB_RM_STRING, NUL, NULL, NULL, "SLURM_TASKS_PER_NODE's text" },
	{ "launcher.nnodes", CB_RM_INT, NUL, NULL, NULL, "SLURM_JOB_NUM_NODES" },
	{ "launcher.slurm_ignored", CB_RM_STRING, NUL, NULL, NULL,
	  "why SLURM_* variables were left out (squeue did not confirm the job), else null" },
	{ "hosts", CB_RM_OBJECT, NUL, NULL, NULL, "null on one host; across hosts (--hosts):" },
	{ "hosts.list", CB_RM_STRING, 0, NULL, NULL, "the hosts as name:slots,..." },
	{ "hosts.ranks_per_host", CB_RM_MAP, 0, NULL, NULL,
	  "per rank count, where its ranks went (name:ranks,...)" },
	{ "mpirun_args", CB_RM_STRING, NUL, NULL, NULL, "CB_MPIRUN_ARGS, else null" },
	{ "transport", CB_RM_STRING, 0, NULL, NULL, "the --transport asked of allreduce_perf" },
	{ "mpi_traffic", CB_RM_OBJECT, 0, NULL, NULL, "the mpi rows' measured traffic:" },
	{ "mpi_traffic.status", CB_RM_STRING, 0, NULL, NULL,
	  "measured, not asked, or why it was not measured" },
	{ "mpi_traffic.method", CB_RM_STRING, 0, NULL, NULL, "how (Open MPI's pml monitoring)" },
	{ "mpi_traffic.per_rank", CB_RM_STRING, 0, NULL, NULL, "where the per-rank figures are" },
	{ "malloc", CB_RM_STRING, 0, NULL, NULL, "the allocator settings of the ranks" },
	{ "sweep", CB_RM_STRING, 0, NULL, NULL, "allreduce_perf's sweep options" },
	{ "status", CB_RM_CHOICE, REQ, "running|complete|failed|aborted", NULL,
	  "running (the sweep has not ended), complete, failed, aborted (a signal)" },
	{ "error", CB_RM_STRING, NUL, NULL, NULL, "why the run failed; null otherwise" },
	{ "stopped_by", CB_RM_STRING, NUL, NULL, NULL, "the signal that stopped the run, else null" },
	{ "launches", CB_RM_FIXED, 0,
	  "np<N>.meta.json (one per rank count: versions, command line, timing method)",
	  "rank_counts", "where each launch's own metadata is" },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

const struct cb_rm_field *cb_runmeta_fields(size_t *n)
{
	*n = NFIELDS;
	return fields;
}

static enum cb_status refuse(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static enum cb_status refuse(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return CB_ERR_ARG;
}

/* The row of key (a map's member: the map's row, *member its name), or -1. */
static int find(const char *key, size_t klen, const char **member)
{
	*member = NULL;
	for (size_t i = 0; i < NFIELDS; i++) {
		size_t fl = strlen(fields[i].key);

		if (fl == klen && strncmp(fields[i].key, key, klen) == 0)
			return fields[i].type == CB_RM_FIXED ? -1 : (int)i;
		if (fields[i].type == CB_RM_MAP && klen > fl + 1 &&
		    strncmp(fields[i].key, key, fl) == 0 && key[fl] == '.') {
			*member = key + fl + 1;
			return (int)i;
		}
	}
	return -1;
}

static int all_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static json_t *int_of(const char *s, size_t n)
{
	if (!all_digits(s, n) || n > 15)
		return NULL;
	return json_integer(strtoll(s, NULL, 10));
}

static json_t *ints_of(const char *v)
{
	json_t *a = json_array();
	const char *p = v;

	while (a && *p) {
		size_t n = strcspn(p, ",");
		json_t *x = int_of(p, n);

		if (!x || json_array_append_new(a, x)) {
			json_decref(a);
			return NULL;
		}
		p += n + (p[n] == ',');
		if (p[-1] == ',' && !*p) { /* "2," */
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static int stamp_ok(const char *v)
{
	static const char shape[] = "ddddddddTddddddZ";

	if (strlen(v) != sizeof(shape) - 1)
		return 0;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? v[i] < '0' || v[i] > '9' : v[i] != shape[i])
			return 0;
	return 1;
}

static int choice_ok(const char *choices, const char *v)
{
	size_t n = strlen(v);

	for (const char *p = choices; *p;) {
		size_t k = strcspn(p, "|");

		if (k == n && strncmp(p, v, n) == 0)
			return 1;
		p += k + (p[k] == '|');
	}
	return 0;
}

/* The JSON value of v for row f; NULL (err set) when its type refuses it. */
static json_t *value_of(const struct cb_rm_field *f, const char *v, char *err, size_t len)
{
	json_t *j = NULL;

	if (!*v && (f->flags & NUL))
		return json_null();
	switch (f->type) {
	case CB_RM_STRING:
	case CB_RM_MAP:
		j = cb_json_text(v);
		break;
	case CB_RM_INT:
		j = int_of(v, strlen(v));
		break;
	case CB_RM_BOOL:
		j = strcmp(v, "true") == 0 ? json_true() : strcmp(v, "false") == 0 ? json_false() : NULL;
		break;
	case CB_RM_INTS:
		j = ints_of(v);
		break;
	case CB_RM_STAMP:
		j = stamp_ok(v) ? json_string(v) : NULL;
		break;
	case CB_RM_CHOICE:
		j = choice_ok(f->choices, v) ? json_string(v) : NULL;
		break;
	case CB_RM_OBJECT: /* "" only, where it may be null (above) */
	case CB_RM_FIXED:
		break;
	}
	if (!j)
		refuse(err, len, "%s: '%s' is not %s", f->key, v,
		       f->type == CB_RM_INT ? "an integer >= 0" :
		       f->type == CB_RM_BOOL ? "true or false" :
		       f->type == CB_RM_INTS ? "a comma list of integers >= 0" :
		       f->type == CB_RM_STAMP ? "a UTC time YYYYMMDDTHHMMSSZ" :
		       f->type == CB_RM_CHOICE ? f->choices : "allowed here (give members)");
	return j;
}

/* What the words gave: per row its value (a map: an object of members). */
struct given {
	json_t *v[NFIELDS];
	const char *text[NFIELDS]; /* the word's value, for FIXED templates */
};

static void given_free(struct given *g)
{
	for (size_t i = 0; i < NFIELDS; i++)
		json_decref(g->v[i]);
}

/* One KEY=VALUE word into g. */
static enum cb_status take(struct given *g, const char *word, char *err, size_t len)
{
	const char *eq = strchr(word, '='), *member;
	int i = eq ? find(word, (size_t)(eq - word), &member) : -1;
	json_t *j;

	if (!eq)
		return refuse(err, len, "'%s' is not KEY=VALUE", word);
	if (i < 0)
		return refuse(err, len, "unknown key '%.*s' (collbench-results run-meta --keys)",
			      (int)(eq - word), word);
	if (fields[i].type == CB_RM_MAP && !member)
		return refuse(err, len, "%s: give members, %s.<rank count>=TEXT", fields[i].key,
			      fields[i].key);
	if (member && !all_digits(member, (size_t)(eq - member)))
		return refuse(err, len, "%.*s: a member of %s is a rank count", (int)(eq - word), word,
			      fields[i].key);
	j = value_of(&fields[i], eq + 1, err, len);
	if (!j)
		return CB_ERR_ARG;
	if (member) {
		char name[32];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - member), member);
		if (!g->v[i])
			g->v[i] = json_object();
		if (json_object_get(g->v[i], name)) {
			json_decref(j);
			return refuse(err, len, "%.*s is given twice", (int)(eq - word), word);
		}
		return json_object_set_new(g->v[i], name, j) ? CB_ERR_NOMEM : CB_OK;
	}
	if (g->v[i]) {
		json_decref(j);
		return refuse(err, len, "%s is given twice", fields[i].key);
	}
	g->v[i] = j;
	g->text[i] = eq + 1;
	return CB_OK;
}

/* The row index of key, or -1. */
static int row_of(const char *key)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (strcmp(fields[i].key, key) == 0)
			return (int)i;
	return -1;
}

/* A FIXED row's text: its template with "%{key}" replaced by key's value. */
static json_t *fixed_text(const struct given *g, const struct cb_rm_field *f)
{
	const char *at = strstr(f->choices, "%{"), *end = at ? strchr(at, '}') : NULL;
	char key[64], buf[512];
	int k;

	if (!end)
		return json_string(f->choices);
	snprintf(key, sizeof(key), "%.*s", (int)(end - at - 2), at + 2);
	k = row_of(key);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - f->choices), f->choices,
		 k >= 0 && g->text[k] ? g->text[k] : "?", end + 1);
	return json_string(buf);
}

/* Row i's value to write, a new reference; NULL when it is not written. */
static json_t *row_value(struct given *g, size_t i)
{
	const struct cb_rm_field *f = &fields[i];
	size_t klen = strlen(f->key);
	json_t *o;

	if (f->type == CB_RM_FIXED) {
		int w = f->with ? row_of(f->with) : -1;

		return !f->with || (w >= 0 && g->v[w]) ? fixed_text(g, f) : NULL;
	}
	if (f->type != CB_RM_OBJECT || (g->v[i] && json_is_null(g->v[i])))
		return g->v[i] ? json_incref(g->v[i]) : NULL;
	o = NULL; /* an object: its members in table order, where given */
	for (size_t m = i + 1; m < NFIELDS && strncmp(fields[m].key, f->key, klen) == 0 &&
			       fields[m].key[klen] == '.'; m++)
		if (g->v[m]) {
			if (!o)
				o = json_object();
			if (!o || json_object_set(o, fields[m].key + klen + 1, g->v[m]))
				return json_decref(o), NULL;
		}
	return o;
}

/* The words into g, and the record's rules: required keys, an object null
 * and given members at once. */
static enum cb_status take_all(struct given *g, char *const *kv, size_t n, char *err, size_t len)
{
	enum cb_status st = CB_OK;

	for (size_t w = 0; w < n && st == CB_OK; w++)
		st = take(g, kv[w], err, len);
	for (size_t i = 0; i < NFIELDS && st == CB_OK; i++) {
		const char *dot = strchr(fields[i].key, '.');
		int parent = -1;

		if ((fields[i].flags & REQ) && !g->v[i])
			st = refuse(err, len, "%s is required", fields[i].key);
		if (dot && g->v[i]) {
			char key[64];

			snprintf(key, sizeof(key), "%.*s", (int)(dot - fields[i].key), fields[i].key);
			parent = row_of(key);
		}
		if (st == CB_OK && parent >= 0 && g->v[parent] && json_is_null(g->v[parent]))
			st = refuse(err, len, "%s is given, but %s is null", fields[i].key,
				    fields[parent].key);
	}
	return st;
}

enum cb_status cb_runmeta_write(FILE *f, char *const *kv, size_t n, char *err, size_t errlen)
{
	struct given g;
	enum cb_status st;
	int first = 1;

	memset(&g, 0, sizeof(g));
	st = take_all(&g, kv, n, err, errlen);
	if (st == CB_OK && fputs("{\n", f) == EOF)
		st = CB_ERR_IO;
	for (size_t i = 0; i < NFIELDS && st == CB_OK; i++) {
		json_t *v = strchr(fields[i].key, '.') ? NULL : row_value(&g, i);
		char *text;

		if (!v)
			continue;
		/* lists compact ([2,4,8]), objects on one line ({"a": 1, "b": null}) */
		text = json_dumps(v, JSON_ENCODE_ANY | (json_is_array(v) ? JSON_COMPACT : 0));
		json_decref(v);
		if (!text)
			st = CB_ERR_NOMEM;
		else if (fprintf(f, "%s  \"%s\": %s", first ? "" : ",\n", fields[i].key, text) < 0)
			st = CB_ERR_IO;
		free(text);
		first = 0;
	}
	if (st == CB_OK && fputs("\n}\n", f) == EOF)
		st = CB_ERR_IO;
	if (st == CB_ERR_IO)
		snprintf(err, errlen, "write error: %s", strerror(errno));
	given_free(&g);
	return st;
}

static const char *type_name(const struct cb_rm_field *f)
{
	switch (f->type) {
	case CB_RM_STRING: return f->flags & NUL ? "text or null" : "text";
	case CB_RM_INT: return f->flags & NUL ? "integer or null" : "integer";
	case CB_RM_BOOL: return "boolean";
	case CB_RM_INTS: return "list of integers";
	case CB_RM_STAMP: return "UTC time";
	case CB_RM_CHOICE: return "name";
	case CB_RM_OBJECT: return f->flags & NUL ? "object or null" : "object";
	case CB_RM_MAP: return "object of text";
	case CB_RM_FIXED: return "text";
	}
	return "";
}

void cb_runmeta_markdown(FILE *f)
{
	fputs("| key | type | meaning |\n|---|---|---|\n", f);
	for (size_t i = 0; i < NFIELDS; i++)
		fprintf(f, "| `%s` | %s | %s |\n", fields[i].key, type_name(&fields[i]),
			fields[i].doc);
}
