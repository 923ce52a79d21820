/* cb_results_load: what a path means (file or run folder) and the launch
 * metadata sidecars (contract in cb_results_load.h). */
#define _GNU_SOURCE
#include "cb_results_load.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cb_machine.h"
#include "cb_runmeta.h"

#define META_SCHEMA "collbench-meta-1"
#define META_SUFFIX ".meta.json"
#define META_MAX_BYTES ((size_t)16 << 20)
#define MAX_LAUNCHES 4096

static enum cb_status meta_fail(const char *name, char *err, size_t errlen, const char *what,
				const char *key)
{
	snprintf(err, errlen, "%s: %s%s%s", name, what, key ? " " : "", key ? key : "");
	return CB_ERR_ARG;
}

/* Copies a JSON string into dst[cap]; absent or null gives "". Returns -1
 * for another type or a string that does not fit. */
static int copy_str(char *dst, size_t cap, const json_t *v)
{
	const char *s;

	dst[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	s = json_string_value(v);
	if (!s || strlen(s) >= cap)
		return -1;
	strcpy(dst, s);
	return 0;
}

/* An integer member in [lo, hi]; absent gives *out = 0 and -1 (or 0 when
 * optional). */
static int get_int(const json_t *obj, const char *key, long long lo, long long hi, int optional,
		   int *out)
{
	const json_t *v = json_object_get(obj, key);
	long long x;

	*out = 0;
	if (!v)
		return optional ? 0 : -1;
	if (!json_is_integer(v))
		return -1;
	x = json_integer_value(v);
	if (x < lo || x > hi)
		return -1;
	*out = (int)x;
	return 0;
}

/* The machine identity text of a sidecar into out->machine, its label into
 * out->machine_label (cb_machine_identity: "machine", else derived from
 * "host" in older files); out->device is the GPU model already read. Returns
 * -1 for a mistyped "machine". */
static int machine_text(const json_t *root, struct cb_res_launch *out)
{
	return cb_machine_identity(json_object_get(root, "machine"),
				   json_object_get(root, "host"), out->device, out->machine,
				   sizeof(out->machine), out->machine_label,
				   sizeof(out->machine_label));
}

/* nccl-tests' timing modes of the launch ("agg_iters" above 1, "blocking",
 * "report_cputime" 1, when present) appended to out->timing_mode as their
 * options (" -m 8 -z 1 -C 1"): a figure they made is not one without them.
 * -1: a key of the wrong type. */
static int nccl_modes(const json_t *root, struct cb_res_launch *out)
{
	static const char *const key[] = { "agg_iters", "blocking", "report_cputime" };
	static const char *const opt[] = { "-m", "-z", "-C" };
	static const int dflt[] = { 1, -1, 0 };
	size_t k = strlen(out->timing_mode);

	for (int i = 0; i < 3; i++) {
		const json_t *v = json_object_get(root, key[i]);

		if (v && !json_is_null(v) && !json_is_integer(v))
			return -1;
		if (v && json_is_integer(v) && json_integer_value(v) != dflt[i] &&
		    k < sizeof(out->timing_mode))
			k += (size_t)snprintf(out->timing_mode + k, sizeof(out->timing_mode) - k,
					      " %s %lld", opt[i], (long long)json_integer_value(v));
	}
	return 0;
}

/* How the launch timed and waited: "timing_mode" ("iter" when absent) with
 * nccl-tests' modes (nccl_modes), and "wait": {"strategy"} ("" when absent). */
static enum cb_status how_timed(const json_t *root, const char *name,
				struct cb_res_launch *out, char *err, size_t errlen)
{
	const json_t *wait = json_object_get(root, "wait");

	if (copy_str(out->timing_mode, sizeof(out->timing_mode),
		     json_object_get(root, "timing_mode")))
		return meta_fail(name, err, errlen, "invalid key", "\"timing_mode\"");
	if (!out->timing_mode[0])
		strcpy(out->timing_mode, "iter");
	if (nccl_modes(root, out) != 0)
		return meta_fail(name, err, errlen, "invalid key",
				 "\"agg_iters\", \"blocking\" or \"report_cputime\"");
	if (wait && !json_is_object(wait))
		return meta_fail(name, err, errlen, "invalid key", "\"wait\"");
	if (copy_str(out->wait, sizeof(out->wait), json_object_get(wait, "strategy")))
		return meta_fail(name, err, errlen, "invalid key", "\"wait.strategy\"");
	return CB_OK;
}

/* The plan file the launch ran (--plan): "plan_file": {"name", "digest"},
 * null or absent for none; "digest" absent in files from before it. */
static enum cb_status plan_of(const json_t *root, const char *name, struct cb_res_launch *out,
			      char *err, size_t errlen)
{
	const json_t *pl = json_object_get(root, "plan_file");

	if (pl && !json_is_null(pl) && !json_is_object(pl))
		return meta_fail(name, err, errlen, "invalid key", "\"plan_file\"");
	if (copy_str(out->plan_name, sizeof(out->plan_name), json_object_get(pl, "name")) ||
	    copy_str(out->plan_digest, sizeof(out->plan_digest), json_object_get(pl, "digest")))
		return meta_fail(name, err, errlen, "invalid key",
				 "\"plan_file.name\" or \"plan_file.digest\"");
	return CB_OK;
}

static enum cb_status meta_fields(const json_t *root, const char *name,
				  struct cb_res_launch *out, char *err, size_t errlen)
{
	const json_t *mpi = json_object_get(root, "mpi"), *host = json_object_get(root, "host");
	const json_t *files;
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const char *status = json_string_value(json_object_get(root, "status"));

	if (!schema || strcmp(schema, META_SCHEMA) != 0)
		return meta_fail(name, err, errlen, "not a launch metadata file: \"schema\" is not",
				 "\"" META_SCHEMA "\"");
	if (copy_str(out->backend, sizeof(out->backend), json_object_get(root, "backend")) ||
	    !out->backend[0])
		return meta_fail(name, err, errlen, "missing or invalid key", "\"backend\"");
	/* "gpu_model" when the backend records one apart from bus ids, else "device" */
	if (json_object_get(root, "gpu_model") ?
		    copy_str(out->device, sizeof(out->device), json_object_get(root, "gpu_model")) :
		    copy_str(out->device, sizeof(out->device), json_object_get(root, "device")))
		return meta_fail(name, err, errlen, "invalid key", "\"device\" or \"gpu_model\"");
	if (host && !json_is_object(host))
		return meta_fail(name, err, errlen, "invalid key", "\"host\"");
	if (copy_str(out->cpu_model, sizeof(out->cpu_model), json_object_get(host, "cpu_model")))
		return meta_fail(name, err, errlen, "invalid key", "\"host.cpu_model\"");
	if (!json_is_object(mpi))
		return meta_fail(name, err, errlen, "missing or invalid key", "\"mpi\"");
	if (get_int(mpi, "nranks", 1, 1 << 24, 0, &out->nranks))
		return meta_fail(name, err, errlen, "missing or invalid key", "\"mpi.nranks\"");
	if (get_int(mpi, "ranks_per_node", 1, 1 << 24, 0, &out->ranks_per_node))
		return meta_fail(name, err, errlen, "missing or invalid key",
				 "\"mpi.ranks_per_node\"");
	if (get_int(mpi, "nnodes", 1, 1 << 24, 1, &out->nnodes))
		return meta_fail(name, err, errlen, "invalid key", "\"mpi.nnodes\"");
	if (machine_text(root, out))
		return meta_fail(name, err, errlen, "invalid key", "\"machine\"");
	files = json_object_get(root, "mca_param_files");
	out->mca_files = json_is_object(files);
	if (cb_libconf_launch(json_object_get(root, "environment"), files, out->libconf,
			      sizeof(out->libconf)) ||
	    cb_libconf_text(json_object_get(root, "environment"), out->libconf_env,
			    sizeof(out->libconf_env)))
		return meta_fail(name, err, errlen, "invalid key \"environment\" or "
				 "\"mca_param_files\" (objects of strings, with at most 4 KiB of "
				 "library settings)", NULL);
	out->complete = status && strcmp(status, "complete") == 0;
	if (plan_of(root, name, out, err, errlen) != CB_OK)
		return CB_ERR_ARG;
	return how_timed(root, name, out, err, errlen);
}

enum cb_status cb_results_parse_meta(const char *buf, size_t len, const char *name,
				     struct cb_res_launch *out, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	enum cb_status st;

	memset(out, 0, sizeof(*out));
	snprintf(out->file, sizeof(out->file), "%s", name);
	if (!root) {
		snprintf(err, errlen, "%s: not valid JSON: line %d: %s", name, je.line, je.text);
		return CB_ERR_ARG;
	}
	if (json_is_object(root))
		st = meta_fields(root, name, out, err, errlen);
	else
		st = meta_fail(name, err, errlen, "not a JSON object", NULL);
	json_decref(root);
	return st;
}

/* Reads a whole file of at most max bytes into a new buffer. */
static enum cb_status read_file(const char *path, size_t max, char **buf, size_t *len,
				char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, cap = 4096;
	char *b, *nb;

	*buf = NULL;
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return CB_ERR_IO;
	}
	b = malloc(cap);
	while (b && (n += fread(b + n, 1, cap - n, f)) == cap && cap <= max) {
		nb = realloc(b, 2 * cap);
		if (!nb)
			free(b);
		b = nb;
		cap *= 2;
	}
	if (!b || ferror(f) || n > max) {
		enum cb_status st = !b ? CB_ERR_NOMEM : ferror(f) ? CB_ERR_IO : CB_ERR_ARG;

		snprintf(err, errlen, "%s: %s", path, !b ? "out of memory" : ferror(f) ?
			 "read error" : "file too large");
		free(b);
		fclose(f);
		return st;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return CB_OK;
}

static enum cb_status add_launch(struct cb_results *res, const char *path, char *err,
				 size_t errlen)
{
	struct cb_res_launch *l;
	enum cb_status st;
	size_t len;
	char *buf;

	if (res->nlaunches == MAX_LAUNCHES) {
		snprintf(err, errlen, "%s: more than %d metadata files", path, MAX_LAUNCHES);
		return CB_ERR_ARG;
	}
	l = realloc(res->launches, (res->nlaunches + 1) * sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "%s: out of memory", path);
		return CB_ERR_NOMEM;
	}
	res->launches = l;
	st = read_file(path, META_MAX_BYTES, &buf, &len, err, errlen);
	if (st != CB_OK)
		return st;
	st = cb_results_parse_meta(buf, len, path, &l[res->nlaunches], err, errlen);
	free(buf);
	if (st == CB_OK)
		res->nlaunches++;
	return st;
}

static int is_sidecar(const struct dirent *d)
{
	size_t n = strlen(d->d_name), k = strlen(META_SUFFIX);

	return n > k && strcmp(d->d_name + n - k, META_SUFFIX) == 0;
}

/* Every <x>.meta.json of folder dir, in name order. */
static enum cb_status add_folder_sidecars(struct cb_results *res, const char *dir, char *err,
					  size_t errlen)
{
	struct dirent **names;
	int n = scandir(dir, &names, is_sidecar, alphasort);
	enum cb_status st = CB_OK;

	if (n < 0) {
		snprintf(err, errlen, "cannot list %s: %s", dir, strerror(errno));
		return CB_ERR_IO;
	}
	for (int i = 0; i < n; i++) {
		char path[CB_RES_PATH + 256];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (st == CB_OK)
			st = add_launch(res, path, err, errlen);
		free(names[i]);
	}
	free(names);
	return st;
}

static int launch_cmp(const void *a, const void *b)
{
	const struct cb_res_launch *x = a, *y = b;

	return (x->nranks > y->nranks) - (x->nranks < y->nranks);
}

/* Whether a folder holds a run folder (a folder with a summary.csv) one
 * level down, as results/baseline/ does: for the message that refuses it. */
static int holds_runs(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char sub[CB_RES_PATH + 300];
	int found = 0;

	while (d && !found && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s/summary.csv", path, e->d_name);
			found = access(sub, R_OK) == 0;
		}
	if (d)
		closedir(d);
	return found;
}

/* The message for a folder without a summary.csv; one that holds run folders
 * says to name them (a folder of runs is not read as its runs: each run is
 * named, so none is skipped unseen). */
static void not_a_run(const char *path, char *err, size_t errlen)
{
	size_t k = strlen(path);

	while (k > 1 && path[k - 1] == '/')
		k--;
	if (holds_runs(path))
		snprintf(err, errlen, "%s: not a run folder (no summary.csv in it); it holds run "
			 "folders: name them, e.g. %.*s/*/", path, (int)k, path);
	else
		snprintf(err, errlen, "%s: not a run folder (no summary.csv in it)", path);
}

/* The run folder's meta.json in folder dir (scripts/sweep.sh's), when there
 * is one and it is a JSON object: its "schema" must be CB_SCHEMA_RUN, as a
 * sidecar's must be META_SCHEMA (a future version is refused, not read as
 * this one). Other content is left to the tools that read the file. */
static enum cb_status check_run_meta(const char *dir, char *err, size_t errlen)
{
	char path[CB_RES_PATH + 64]; /* dir: at most CB_RES_PATH + 32 bytes */
	const char *schema;
	enum cb_status st = CB_OK;
	json_t *root;
	size_t len;
	char *buf;

	snprintf(path, sizeof(path), "%s%smeta.json", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
	if (access(path, F_OK) != 0)
		return CB_OK;
	st = read_file(path, META_MAX_BYTES, &buf, &len, err, errlen);
	if (st != CB_OK)
		return st;
	root = json_loadb(buf, len, 0, NULL);
	free(buf);
	schema = json_string_value(json_object_get(root, "schema"));
	if (json_is_object(root) && (!schema || strcmp(schema, CB_SCHEMA_RUN) != 0))
		st = meta_fail(path, err, errlen, "not a run metadata file: \"schema\" is not",
			       "\"" CB_SCHEMA_RUN "\"");
	json_decref(root);
	return st;
}

/* The CSV and sidecars of a path that exists. */
static enum cb_status load_parts(const char *path, int is_dir, struct cb_results *res,
				 char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');
	size_t plen = strlen(path);
	char side[CB_RES_PATH + 32];
	enum cb_status st;

	base = base ? base + 1 : path;
	if (plen + 16 >= CB_RES_PATH) {
		snprintf(err, errlen, "path too long: %.80s...", path);
		return CB_ERR_ARG;
	}
	if (is_dir || strcmp(base, "summary.csv") == 0) {
		snprintf(side, sizeof(side), "%.*s", is_dir ? (int)plen : (int)(base - path), path);
		if (!side[0])
			strcpy(side, ".");
		snprintf(res->csv, sizeof(res->csv), "%s%s", path, is_dir ? "/summary.csv" : "");
		st = cb_results_read_csv(res->csv, res, err, errlen);
		if (st == CB_ERR_IO && is_dir)
			not_a_run(path, err, errlen);
		if (st == CB_OK)
			st = add_folder_sidecars(res, side, err, errlen);
		if (st == CB_OK)
			st = check_run_meta(side, err, errlen);
		res->meta_missing = st == CB_OK && res->nlaunches == 0;
		return st;
	}
	snprintf(res->csv, sizeof(res->csv), "%s", path);
	st = cb_results_read_csv(path, res, err, errlen);
	plen -= plen > 4 && strcmp(path + plen - 4, ".csv") == 0 ? 4 : 0;
	snprintf(side, sizeof(side), "%.*s" META_SUFFIX, (int)plen, path);
	if (st == CB_OK && access(side, F_OK) == 0)
		st = add_launch(res, side, err, errlen);
	else if (st == CB_OK)
		res->meta_missing = 1;
	return st;
}

enum cb_status cb_results_load(const char *path, struct cb_results *res, char *err,
			       size_t errlen)
{
	struct stat sb;
	enum cb_status st;

	memset(res, 0, sizeof(*res));
	if (stat(path, &sb) != 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return CB_ERR_IO;
	}
	st = load_parts(path, S_ISDIR(sb.st_mode), res, err, errlen);
	if (st != CB_OK) {
		cb_results_free(res);
		return st;
	}
	if (res->nlaunches > 1)
		qsort(res->launches, res->nlaunches, sizeof(*res->launches), launch_cmp);
	return CB_OK;
}
