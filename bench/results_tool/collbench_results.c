/* collbench-results VERB: the one writer of a run folder's own files besides
 * allreduce_perf's (scripts/sweep.sh calls it; no script writes a results
 * file): merging the launches' CSVs, the mpi rows' measured traffic, and the
 * run metadata. Exit status: 0 done, 2 usage or input error (nothing
 * written), 1 a file could not be written (the file named is left as it was). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_optable.h"
#include "cb_output.h"
#include "cb_runmeta.h"
#include "cb_text.h"
#include "cb_traffic.h"

#define PROG "collbench-results"
#define EXIT_IO 1

struct cli {
	int nranks, keys, in_place, help;
	int calls;
	size_t bytes;
	char append[4096];
	char algo[32];
};

#define OFF(field) CB_OPT_FIELD(struct cli, field)

static const struct cb_optdef table[] = {
	{ "nranks", 'n', "N", NULL, "traffic, set-traffic: the launch's rank count",
	  .kind = CB_OPT_INT, OFF(nranks), .lo = 1, .hi = 4096 },
	{ "bytes", 'b', "SIZE", NULL, "traffic: the message size of the sized launch",
	  .kind = CB_OPT_SIZE, OFF(bytes) },
	{ "calls", 'c', "N", NULL, "traffic: allreduce calls of each launch",
	  .kind = CB_OPT_INT, OFF(calls), .lo = 1, .hi = 1e9 },
	{ "append", 0, "FILE", NULL, "traffic: the run's mpi_traffic.txt, appended to",
	  .kind = CB_OPT_TEXT, OFF(append) },
	{ "algo", 'a', "NAME", "mpi", "traffic: the library algorithm the launches ran (mpi, "
	  "mpi.*)", .kind = CB_OPT_TEXT, OFF(algo) },
	{ "in-place", 0, NULL, NULL, "run-meta: when the file cannot be replaced (a full disk), "
	  "rewrite it in place", .kind = CB_OPT_FLAG, OFF(in_place) },
	{ "keys", 0, NULL, NULL, "run-meta: print the keys (markdown) and exit",
	  .kind = CB_OPT_FLAG, OFF(keys) },
	{ "help", 'h', NULL, NULL, "print this help", .kind = CB_OPT_FLAG, OFF(help) },
};
#define NOPTS (sizeof(table) / sizeof(table[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " merge OUT IN...\n"
		"       " PROG " traffic [-a ALGO] -n N -b SIZE -c CALLS --append FILE ZERO SIZED\n"
		"       " PROG " set-traffic -n N TRAFFIC FILE...\n"
		"       " PROG " run-meta [--in-place] FILE KEY=VALUE...\n"
		"       " PROG " run-meta --keys\n"
		"       " PROG " place SRC DST\n\n"
		"merge        one CSV of the INs' rows under their one header (the launches'\n"
		"             np<N>.csv into summary.csv, np<N>.ranks.csv into ranks.csv); INs\n"
		"             that are missing or empty are left out; headers must agree\n"
		"traffic      the per-rank traffic of one allreduce of SIZE bytes on N ranks from\n"
		"             two launches under Open MPI's pml monitoring (ZERO at 0 bytes, SIZED\n"
		"             at SIZE, CALLS calls each), appended to FILE as 'nranks bytes rank\n"
		"             tx_bytes rx_bytes calls [ALGO]' lines (ALGO left out for mpi)\n"
		"set-traffic  TRAFFIC's figures into the library rows (mpi, mpi.*) of the\n"
		"             N-rank launch's files\n"
		"             (.csv, .jsonl, allreduce_perf's table .txt)\n"
		"run-meta     the run's meta.json (" CB_SCHEMA_RUN ") from KEY=VALUE words\n"
		"place        SRC copied to DST (a tool's output into a run or plots folder)\n\n"
		"Every file is replaced whole or left as it was.\n\noptions:\n");
	cb_optable_usage(f, table, NOPTS, 22);
	fprintf(f, "\nexit status: 0 done, 1 a file could not be written, 2 usage or input\n");
}

static int fail(int code, const char *msg)
{
	cb_eprintf(PROG ": %s\n", msg);
	return code;
}

/* The file's text, or NULL for a missing or empty file (*err set on a read
 * error). */
static char *slurp(const char *path, size_t *len, int *err)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	*err = 0;
	if (!f) {
		*err = errno != ENOENT;
		return NULL;
	}
	for (;;) {
		if (*len + 65536 > cap) {
			char *grown = realloc(buf, cap = 2 * cap + 65536);

			if (!grown)
				break;
			buf = grown;
		}
		size_t k = fread(buf + *len, 1, cap - *len - 1, f);

		*len += k;
		if (k == 0)
			break;
	}
	*err = ferror(f) || !buf;
	fclose(f);
	if (*err || *len == 0) {
		free(buf);
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}

/* Writes the rows of in (after its header line) to out; the header too when
 * *header is NULL (it then points at in's). Returns 0, 1 (write error), 2
 * (a header that differs from the first, said). */
static int merge_one(const char *path, const char *in, const char **header, size_t *hlen,
		     FILE *out)
{
	const char *nl = strchr(in, '\n');
	size_t h = nl ? (size_t)(nl - in) + 1 : strlen(in);
	char msg[512];

	if (!*header) {
		*header = in, *hlen = h;
		return fwrite(in, 1, strlen(in), out) == strlen(in) ? 0 : 1;
	}
	if (h != *hlen || memcmp(in, *header, h) != 0) {
		snprintf(msg, sizeof(msg), "merge: %s has another header than the first file", path);
		fail(CB_EXIT_USAGE, msg);
		return 2;
	}
	return fwrite(in + h, 1, strlen(in + h), out) == strlen(in + h) ? 0 : 1;
}

static int verb_merge(int argc, char **argv)
{
	char tmp[4096], err[512];
	const char *header = NULL;
	char *text[256] = { 0 };
	size_t hlen = 0, len;
	FILE *out;
	int rc = 0, bad;

	if (argc < 2 || argc - 1 > 256)
		return fail(CB_EXIT_USAGE, "merge: OUT and 1..256 INs (see --help)");
	for (int i = 1; i < argc; i++) {
		text[i - 1] = slurp(argv[i], &len, &bad);
		if (bad) {
			snprintf(err, sizeof(err), "merge: cannot read %s", argv[i]);
			rc = fail(CB_EXIT_USAGE, err);
		}
	}
	if (rc == 0 && cb_replace_open(argv[0], tmp, sizeof(tmp), &out, err, sizeof(err)) != CB_OK)
		rc = fail(EXIT_IO, err);
	if (rc == 0) {
		int e = 0;

		for (int i = 1; i < argc && rc == 0; i++)
			if (text[i - 1])
				rc = merge_one(argv[i], text[i - 1], &header, &hlen, out);
		if (rc == 1) /* a write failed: say why, not just "write error" */
			e = errno;
		if (cb_replace_commit(out, tmp, argv[0], rc == 0, err, sizeof(err)) != CB_OK && rc != 2) {
			if (e)
				snprintf(err, sizeof(err), "cannot write %s: %s", argv[0], strerror(e));
			rc = fail(EXIT_IO, err);
		}
	}
	for (int i = 0; i < argc - 1; i++)
		free(text[i]);
	return rc;
}

static int verb_traffic(const struct cli *c, int argc, char **argv)
{
	char err[4608];
	FILE *out;
	enum cb_status st;

	if (argc != 2 || c->nranks < 1 || c->calls < 1 || !c->append[0])
		return fail(CB_EXIT_USAGE, "traffic: -n N -b SIZE -c CALLS --append FILE ZERO SIZED");
	out = fopen(c->append, "a");
	if (!out) {
		snprintf(err, sizeof(err), "cannot append to %s: %s", c->append, strerror(errno));
		return fail(EXIT_IO, err);
	}
	st = cb_traffic_measure(c->algo, c->nranks, c->bytes, c->calls, argv[0], argv[1], out, err,
				sizeof(err));
	if (fclose(out) != 0 && st == CB_OK) {
		snprintf(err, sizeof(err), "cannot write %s: %s", c->append, strerror(errno));
		st = CB_ERR_IO;
	}
	if (st == CB_OK)
		return 0;
	return fail(st == CB_ERR_IO ? EXIT_IO : CB_EXIT_USAGE, err);
}

static int verb_set_traffic(const struct cli *c, int argc, char **argv)
{
	struct cb_traffic t;
	char err[512];
	enum cb_status st;

	if (argc < 2 || c->nranks < 1)
		return fail(CB_EXIT_USAGE, "set-traffic: -n N TRAFFIC FILE...");
	st = cb_traffic_load(argv[0], &t, err, sizeof(err));
	for (int i = 1; i < argc && st == CB_OK; i++)
		st = cb_traffic_apply(&t, c->nranks, argv[i], err, sizeof(err));
	cb_traffic_free(&t);
	if (st == CB_OK)
		return 0;
	return fail(st == CB_ERR_IO ? EXIT_IO : CB_EXIT_USAGE, err);
}

/* Writes the record of kv[0..n) over path: whole through a temporary, else
 * (in_place: a full disk) into path itself, truncated first (which frees
 * what the old record held). */
static enum cb_status write_meta(const char *path, char *const *kv, size_t n, int in_place,
				 char *err, size_t errlen)
{
	char tmp[4096];
	FILE *out;
	enum cb_status st = cb_replace_open(path, tmp, sizeof(tmp), &out, err, errlen);

	if (st == CB_OK) {
		st = cb_runmeta_write(out, kv, n, err, errlen);
		if (st == CB_ERR_ARG) { /* bad words: the temporary goes, err keeps why */
			char unused[64];

			cb_replace_commit(out, tmp, path, 0, unused, sizeof(unused));
			return st;
		}
		st = cb_replace_commit(out, tmp, path, st == CB_OK, err, errlen);
	}
	if (st != CB_OK && in_place) {
		out = fopen(path, "w");
		if (!out)
			return st;
		st = cb_runmeta_write(out, kv, n, err, errlen);
		if (fclose(out) != 0 && st == CB_OK) {
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
			st = CB_ERR_IO;
		}
	}
	return st;
}

static int verb_run_meta(const struct cli *c, int argc, char **argv)
{
	char err[512] = "";
	enum cb_status st;

	if (c->keys) {
		cb_runmeta_markdown(stdout);
		return cb_close_stdout(PROG, 0, EXIT_IO);
	}
	if (argc < 2)
		return fail(CB_EXIT_USAGE, "run-meta: FILE and KEY=VALUE words (see --help)");
	st = write_meta(argv[0], argv + 1, (size_t)(argc - 1), c->in_place, err, sizeof(err));
	if (st == CB_OK)
		return 0;
	return fail(st == CB_ERR_ARG ? CB_EXIT_USAGE : EXIT_IO, err);
}

static int verb_place(int argc, char **argv)
{
	char tmp[4096], err[512];
	size_t len;
	int bad;
	char *text;
	FILE *out;

	if (argc != 2)
		return fail(CB_EXIT_USAGE, "place: SRC DST");
	text = slurp(argv[0], &len, &bad);
	if (bad || (!text && access(argv[0], R_OK) != 0)) {
		snprintf(err, sizeof(err), "place: cannot read %s", argv[0]);
		free(text);
		return fail(CB_EXIT_USAGE, err);
	}
	if (cb_replace_open(argv[1], tmp, sizeof(tmp), &out, err, sizeof(err)) != CB_OK) {
		free(text);
		return fail(EXIT_IO, err);
	}
	bad = text && fwrite(text, 1, len, out) != len;
	free(text);
	if (cb_replace_commit(out, tmp, argv[1], !bad, err, sizeof(err)) != CB_OK)
		return fail(EXIT_IO, err);
	return 0;
}

int main(int argc, char **argv)
{
	struct cli c;
	char err[512];
	const char *verb;

	memset(&c, 0, sizeof(c));
	if (cb_optable_parse(table, NOPTS, &c, argc, argv, err, sizeof(err)) != CB_OK)
		return fail(CB_EXIT_USAGE, err);
	if (c.help) {
		usage(stdout);
		return cb_close_stdout(PROG, 0, EXIT_IO);
	}
	if (optind >= argc)
		return fail(CB_EXIT_USAGE, "a verb: merge, traffic, set-traffic, run-meta or place (see --help)");
	verb = argv[optind];
	argc -= optind + 1;
	argv += optind + 1;
	if (strcmp(verb, "merge") == 0)
		return verb_merge(argc, argv);
	if (strcmp(verb, "traffic") == 0)
		return verb_traffic(&c, argc, argv);
	if (strcmp(verb, "set-traffic") == 0)
		return verb_set_traffic(&c, argc, argv);
	if (strcmp(verb, "run-meta") == 0)
		return verb_run_meta(&c, argc, argv);
	if (strcmp(verb, "place") == 0)
		return verb_place(argc, argv);
	snprintf(err, sizeof(err), "unknown verb '%s' (merge, traffic, set-traffic, run-meta, place)", verb);
	return fail(CB_EXIT_USAGE, err);
}
