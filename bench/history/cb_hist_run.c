/* cb_hist_run: a run folder (or CSV) as a history run, through the results
 * reader, and runs and keys (contract in cb_hist_run.h). */
#define _GNU_SOURCE
#include "cb_hist_run.h"

#include <errno.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cb_hist_key.h"
#include "cb_hist_time.h"
#include "cb_results.h"
#include "cb_results_load.h"
#include "cb_rowval.h"

/* Adds one file to the hash: its base name, its length, its bytes. */
static enum cb_status hash_file(EVP_MD_CTX *ctx, const char *path, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');
	FILE *f = fopen(path, "rb");
	unsigned char buf[65536];
	unsigned long long total = 0;
	size_t n;
	struct stat sb;

	base = base ? base + 1 : path;
	if (!f || fstat(fileno(f), &sb) != 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return CB_ERR_IO;
	}
	total = (unsigned long long)sb.st_size;
	EVP_DigestUpdate(ctx, base, strlen(base) + 1);
	EVP_DigestUpdate(ctx, &total, sizeof(total));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, n);
	n = (size_t)ferror(f);
	fclose(f);
	if (n) {
		snprintf(err, errlen, "cannot read %s: read error", path);
		return CB_ERR_IO;
	}
	return CB_OK;
}

/* The run folder's meta.json next to the summary, "" when there is none. */
static void run_meta_path(const struct cb_results *res, char *out, size_t len)
{
	const char *slash = strrchr(res->csv, '/');
	struct stat sb;

	out[0] = '\0';
	if (!slash || strcmp(slash + 1, "summary.csv") != 0)
		return;
	snprintf(out, len, "%.*smeta.json", (int)(slash + 1 - res->csv), res->csv);
	if (stat(out, &sb) != 0 || !S_ISREG(sb.st_mode))
		out[0] = '\0';
}

static enum cb_status run_hash(const struct cb_results *res, const char *meta,
			       struct cb_hist_run *run, char *err, size_t errlen)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	enum cb_status st;

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		snprintf(err, errlen, "cannot set up SHA-256 (OpenSSL)");
		return CB_ERR_NOMEM;
	}
	st = hash_file(ctx, res->csv, err, errlen);
	for (size_t i = 0; i < res->nlaunches && st == CB_OK; i++)
		st = hash_file(ctx, res->launches[i].file, err, errlen);
	if (st == CB_OK && *meta)
		st = hash_file(ctx, meta, err, errlen);
	if (st == CB_OK && !EVP_DigestFinal_ex(ctx, md, &mdlen))
		st = CB_ERR_INTERNAL;
	EVP_MD_CTX_free(ctx);
	for (unsigned int i = 0; st == CB_OK && i < mdlen && i < 32; i++)
		snprintf(run->hash + 2 * i, 3, "%02x", md[i]);
	return st;
}

static void copy_json_str(char *dst, size_t cap, const json_t *v)
{
	const char *s = json_string_value(v);

	snprintf(dst, cap, "%s", s ? s : "");
}

/* versions: "collbench V; <MPI library up to its first comma>[; <device from
 * "CUDA driver" up to ", up to">]": what an upgrade changes. */
static void versions_text(const json_t *root, char *out, size_t len)
{
	const char *ver = json_string_value(json_object_get(root, "version"));
	const char *lib = json_string_value(json_object_get(json_object_get(root, "mpi"),
							    "library"));
	const char *dev = json_string_value(json_object_get(root, "device"));
	const char *cuda = dev ? strstr(dev, "CUDA driver") : NULL;
	const char *end = cuda ? strstr(cuda, ", up to") : NULL;

	snprintf(out, len, "collbench %s; %.*s%s%.*s", ver ? ver : "?",
		 lib ? (int)strcspn(lib, ",") : 1, lib ? lib : "?", cuda ? "; " : "",
		 cuda ? (end ? (int)(end - cuda) : 120) : 0, cuda ? cuda : "");
}

/* A launcher field as text: a string as it is, an integer in decimal (a
 * job id may be written as a number); anything else (absent, null) "". */
static void id_text(char *dst, size_t cap, const json_t *v)
{
	if (json_is_integer(v))
		snprintf(dst, cap, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else
		copy_json_str(dst, cap, v);
}

/* launcher and job_id from a metadata object, where run has none yet:
 * "launcher" as an object {"name", "job_id"} (allreduce_perf's sidecar) or
 * a string, and a top-level "job_id"; absent keys leave them "". */
static void read_launcher(const json_t *root, struct cb_hist_run *run)
{
	const json_t *l = json_object_get(root, "launcher");
	const json_t *name = json_is_object(l) ? json_object_get(l, "name") : l;
	const json_t *job = json_is_object(l) ? json_object_get(l, "job_id") : NULL;

	if (!run->launcher[0])
		id_text(run->launcher, sizeof(run->launcher), name);
	if (!run->job_id[0])
		id_text(run->job_id, sizeof(run->job_id), job ? job : json_object_get(root, "job_id"));
}

/* The time of key in root (file, for messages) as the run's start when it
 * is the earliest so far (cb_hist_time: normalised to UTC). Absent or null:
 * nothing. CB_ERR_ARG (said in err) when it is there but not a time. */
static enum cb_status take_time(const json_t *root, const char *key, const char *file,
				struct cb_hist_run *run, char *err, size_t errlen)
{
	const json_t *v = json_object_get(root, key);
	char norm[CB_HIST_TIME], why[160];
	long long e;

	if (!v || json_is_null(v))
		return CB_OK;
	if (!json_is_string(v)) {
		snprintf(err, errlen, "%s: \"%s\": not a time (not a string)", file, key);
		return CB_ERR_ARG;
	}
	if (cb_hist_time_parse(json_string_value(v), norm, &e, why, sizeof(why)) != CB_OK) {
		snprintf(err, errlen, "%s: \"%s\": '%.64s' is %s", file, key, json_string_value(v),
			 why);
		return CB_ERR_ARG;
	}
	if (!run->time_utc[0] || e < run->epoch) {
		snprintf(run->time_utc, sizeof(run->time_utc), "%s", norm);
		run->epoch = e;
	}
	return CB_OK;
}

/* Versions, commit and launcher of the first sidecar; the earliest start
 * time of all; the command line (a new string into *command, "" when it
 * has none; NULL when out of memory). */
static enum cb_status read_sidecar(const char *file, int first, struct cb_hist_run *run,
				   char **command, char *err, size_t errlen)
{
	const char *cmd;

	json_error_t je;
	json_t *root = json_load_file(file, JSON_REJECT_DUPLICATES, &je);

	if (!root) {
		snprintf(err, errlen, "%s: not valid JSON: line %d: %s", file, je.line, je.text);
		return CB_ERR_ARG;
	}
	if (take_time(root, "start_utc", file, run, err, errlen) != CB_OK) {
		json_decref(root);
		return CB_ERR_ARG;
	}
	cmd = json_string_value(json_object_get(root, "command_line"));
	*command = strdup(cmd ? cmd : "");
	if (first) {
		copy_json_str(run->version, sizeof(run->version), json_object_get(root, "version"));
		copy_json_str(run->git_commit, sizeof(run->git_commit),
			      json_object_get(root, "git_commit"));
		read_launcher(root, run);
		versions_text(root, run->versions, sizeof(run->versions));
	}
	json_decref(root);
	return CB_OK;
}

/* name and, failing the sidecars, the time from the folder's meta.json
 * ("created_utc": "20261129T102150Z"); CB_ERR_ARG (said) when the file is
 * there but not a JSON object (it is part of the run, hashed with it), or
 * when the time is needed and is not one. */
static enum cb_status read_run_meta(const char *meta, struct cb_hist_run *run, char *err,
				    size_t errlen)
{
	json_error_t je;
	json_t *root = *meta ? json_load_file(meta, JSON_REJECT_DUPLICATES, &je) : NULL;
	const char *id = json_string_value(json_object_get(root, "run_id"));
	enum cb_status st = CB_OK;

	if (*meta && !json_is_object(root)) {
		if (root)
			snprintf(err, errlen, "%s: not a JSON object (the run folder's metadata)", meta);
		else
			snprintf(err, errlen, "%s: not valid JSON (the run folder's metadata): line %d: "
				 "%s", meta, je.line, je.text);
		json_decref(root);
		return CB_ERR_ARG;
	}
	if (id)
		snprintf(run->name, sizeof(run->name), "%s", id);
	read_launcher(root, run);
	if (!run->time_utc[0])
		st = take_time(root, "created_utc", meta, run, err, errlen);
	json_decref(root);
	return st;
}

/* The folder's (or CSV's) base name, as the run's name. */
static void base_name(const char *csv, char *out, size_t len)
{
	const char *slash = strrchr(csv, '/'), *end = csv + strlen(csv), *start;

	if (slash && strcmp(slash + 1, "summary.csv") == 0) {
		end = slash;
		for (start = end; start > csv && start[-1] != '/'; start--)
			;
	} else {
		start = slash ? slash + 1 : csv;
	}
	snprintf(out, len, "%.*s", (int)(end - start), start);
	if (!out[0])
		snprintf(out, len, ".");
}

static enum cb_status check_launches(const struct cb_results *res, char *err, size_t errlen)
{
	if (res->nlaunches == 0) {
		snprintf(err, errlen, "%s: no metadata sidecar (*.meta.json): the machine is unknown, "
			 "and a history series belongs to one machine", res->csv);
		return CB_ERR_ARG;
	}
	for (size_t i = 1; i < res->nlaunches; i++)
		if (strcmp(res->launches[i].machine, res->launches[0].machine) != 0) {
			snprintf(err, errlen, "%s and %s: launches of one run on two machines ('%s', "
				 "'%s'): not one run of one machine", res->launches[0].file,
				 res->launches[i].file, res->launches[0].machine,
				 res->launches[i].machine);
			return CB_ERR_ARG;
		}
	for (size_t i = 1; i < res->nlaunches; i++)
		if (strcmp(res->launches[i].libconf, res->launches[0].libconf) != 0) {
			char name[256], a[256], b[256];

			cb_libconf_diff(res->launches[0].libconf, res->launches[i].libconf, name, a,
					b, sizeof(name));
			snprintf(err, errlen, "%s and %s: launches of one run under two library "
				 "configurations (%s '%s' and '%s'): not one run", res->launches[0].file,
				 res->launches[i].file, name, a, b);
			return CB_ERR_ARG;
		}
	return CB_OK;
}

/* Every sidecar's facts (read_sidecar) and the command key of their command
 * lines. */
static enum cb_status read_sidecars(const struct cb_results *res, struct cb_hist_run *run,
				    char *err, size_t errlen)
{
	char **cmds = calloc(res->nlaunches + 1, sizeof(*cmds));
	enum cb_status st = cmds ? CB_OK : CB_ERR_NOMEM;

	for (size_t i = 0; i < res->nlaunches && st == CB_OK; i++) {
		st = read_sidecar(res->launches[i].file, i == 0, run, &cmds[i], err, errlen);
		if (st == CB_OK && !cmds[i])
			st = CB_ERR_NOMEM;
	}
	if (st == CB_OK)
		st = cb_hist_text_key((const char *const *)cmds, res->nlaunches, run->command_key);
	for (size_t i = 0; cmds && i < res->nlaunches; i++)
		free(cmds[i]);
	free(cmds);
	if (st == CB_ERR_NOMEM)
		snprintf(err, errlen, "%s: out of memory", res->csv);
	return st;
}

/* The launches' plan files into run->plans ("NAME=DIGEST\n" each, in the
 * launches' order; a launch whose metadata records no digest adds none).
 * CB_ERR_ARG when two launches name one plan with two digests (not one run),
 * or the text does not fit. */
static enum cb_status fill_plans(const struct cb_results *res, struct cb_hist_run *run,
				 char *err, size_t errlen)
{
	size_t n = 0;

	run->plans[0] = '\0';
	for (size_t i = 0; i < res->nlaunches; i++) {
		const struct cb_res_launch *l = &res->launches[i];
		char entry[2 * CB_NAME_MAX + 2], *at;
		int k;

		if (!l->plan_name[0] || !l->plan_digest[0])
			continue;
		k = snprintf(entry, sizeof(entry), "%s=", l->plan_name);
		at = strstr(run->plans, entry);
		if (at && (at == run->plans || at[-1] == '\n')) {
			if (strncmp(at + k, l->plan_digest, strlen(l->plan_digest)) != 0 ||
			    at[k + strlen(l->plan_digest)] != '\n') {
				snprintf(err, errlen, "%s: launches of one run under two plans named "
					 "'%s' (digest %s in %s): not one run", res->csv,
					 l->plan_name, l->plan_digest, l->file);
				return CB_ERR_ARG;
			}
			continue;
		}
		k = snprintf(run->plans + n, sizeof(run->plans) - n, "%s%s\n", entry,
			     l->plan_digest);
		if (k < 0 || (size_t)k >= sizeof(run->plans) - n) {
			snprintf(err, errlen, "%s: too many plan files to keep", res->csv);
			return CB_ERR_ARG;
		}
		n += (size_t)k;
	}
	return CB_OK;
}

static enum cb_status fill_run(struct cb_results *res, struct cb_hist_run *run,
			       char *err, size_t errlen)
{
	char meta[CB_HIST_PATH + 16];
	enum cb_status st = check_launches(res, err, errlen);

	if (st == CB_OK && res->nrows == 0) {
		snprintf(err, errlen, "%s: no rows (a header only): nothing to ingest", res->csv);
		return CB_ERR_ARG;
	}

	run_meta_path(res, meta, sizeof(meta));
	if (st == CB_OK)
		st = run_hash(res, meta, run, err, errlen);
	if (st == CB_OK)
		st = read_sidecars(res, run, err, errlen);
	if (st != CB_OK)
		return st;
	snprintf(run->machine.identity, sizeof(run->machine.identity), "%s",
		 res->launches[0].machine);
	snprintf(run->machine.label, sizeof(run->machine.label), "%s",
		 res->launches[0].machine_label);
	snprintf(run->libconf, sizeof(run->libconf), "%s", res->launches[0].libconf);
	if (fill_plans(res, run, err, errlen) != CB_OK)
		return CB_ERR_ARG; /* said */
	run->complete = 1;
	for (size_t i = 0; i < res->nlaunches; i++)
		run->complete &= res->launches[i].complete;
	base_name(res->csv, run->name, sizeof(run->name));
	if (read_run_meta(meta, run, err, errlen) != CB_OK)
		return CB_ERR_ARG; /* said */
	if (!run->time_utc[0]) {
		snprintf(err, errlen, "%s: no start time (\"start_utc\" in the sidecars, "
			 "\"created_utc\" in meta.json): cannot place the run in time", res->csv);
		return CB_ERR_ARG;
	}
	/* the reader's rows, taken over */
	run->rows = res->rows;
	run->nrows = res->nrows;
	res->rows = NULL;
	res->nrows = 0;
	return CB_OK;
}

enum cb_status cb_hist_run_load(const char *path, const char *label, struct cb_hist_run *run,
				char *err, size_t errlen)
{
	struct cb_results res;
	enum cb_status st;

	memset(run, 0, sizeof(*run));
	st = cb_results_load(path, &res, err, errlen);
	if (st != CB_OK)
		return st;
	snprintf(run->source, sizeof(run->source), "%s", path);
	snprintf(run->label, sizeof(run->label), "%s", label ? label : "");
	st = fill_run(&res, run, err, errlen);
	cb_results_free(&res);
	if (st != CB_OK)
		cb_hist_run_free(run);
	return st;
}

void cb_hist_run_free(struct cb_hist_run *run)
{
	free(run->rows);
	memset(run, 0, sizeof(*run));
}

int cb_hist_key_eq(const struct cb_hist_key *a, const struct cb_hist_key *b)
{
	return cb_res_key_cmp(&a->row, &b->row) == 0 && strcmp(a->transport, b->transport) == 0 &&
	       strcmp(a->libconf, b->libconf) == 0 && strcmp(a->plan_digest, b->plan_digest) == 0;
}

void cb_hist_key_name(const struct cb_hist_key *k, char *buf, size_t len)
{
	struct cb_summary v = k->row.v;

	size_t n;

	snprintf(v.transport, sizeof(v.transport), "%s", k->transport);
	cb_row_name(&v, buf, len);
	n = strlen(buf);
	if (k->libconf[0] && n + 4 < len) { /* " [A=1 B=2]" */
		snprintf(buf + n, len - n, " [");
		cb_libconf_line(k->libconf, buf + n + 2, len - n - 3);
		n = strlen(buf);
		snprintf(buf + n, len - n, "]");
		n = strlen(buf);
	}
	if (k->plan_digest[0] && n < len) /* " [plan 14d5ff8a37019067]" */
		snprintf(buf + n, len - n, " [plan %s]", k->plan_digest);
}
