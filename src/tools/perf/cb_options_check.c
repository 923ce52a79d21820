/* Options: checks across several options. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cb_backend.h"
#include "cb_options.h"
#include "cb_options_int.h"
#include "cb_output.h"

/* --meta defaults to --csv with .csv replaced by .meta.json; every output's
 * name must fit the file system (cb_path_fits: the metadata is written at
 * the start and again at the end of a run); no two outputs may share a path
 * (they would overwrite one another). */
static enum cb_status check_paths(struct cb_options *o, char *err, size_t n)
{
	const char *names[] = { "--csv", "--rank-csv", "--json", "--meta" };
	const char *paths[] = { o->csv, o->rank_csv, o->json, o->meta };
	size_t len = strlen(o->csv);
	int derived = !o->meta[0] && len;

	if (derived) {
		if (len > 4 && strcmp(o->csv + len - 4, ".csv") == 0)
			len -= 4;
		if (len + sizeof(".meta.json") > sizeof(o->meta)) {
			snprintf(err, n, "--csv: path too long to derive the metadata path (give --meta)");
			return CB_ERR_ARG;
		}
		snprintf(o->meta, sizeof(o->meta), "%.*s.meta.json", (int)len, o->csv);
	}
	/* every file a run writes can exist (--meta through cb_replace_open's temporary) */
	for (int i = 0; i < 4; i++)
		if (*paths[i] && cb_path_fits(i == 3 && derived ? "--csv (its metadata file, "
					      "X.meta.json)" : names[i], paths[i],
					      i == 3 ? CB_PATH_REPLACE_SUFFIX : 0, err, n) != CB_OK)
			return CB_ERR_ARG;
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (*paths[i] && strcmp(paths[i], paths[j]) == 0) {
				snprintf(err, n, "%s and %s name the same file '%s'", names[i], names[j],
					 paths[i]);
				return CB_ERR_ARG;
			}
	return CB_OK;
}

/* Checks that need several options together. */
enum cb_status cb_options_check(struct cb_options *o, char *err, size_t n)
{
	enum cb_status st;

	if (o->minbytes > o->maxbytes) {
		snprintf(err, n, "-b/--minbytes (%zu) is larger than -e/--maxbytes (%zu)",
			 o->minbytes, o->maxbytes);
		return CB_ERR_ARG;
	}
	if (o->stepfactor <= 1 && o->stepbytes == 0 && o->minbytes < o->maxbytes) {
		snprintf(err, n, "-i/--stepbytes 0 with -f 1 never reaches -e/--maxbytes");
		return CB_ERR_ARG;
	}
	/* -B was checked by its setter: a known backend built into this binary */
	if (cb_transport_refuses(o->transport, cb_catalog_backend(o->backend), err, n))
		return CB_ERR_ARG;
	st = cb_sweep_build(o, err, n);
	if (st == CB_OK)
		st = check_paths(o, err, n);
	if (st != CB_OK)
		cb_options_free(o);
	return st;
}
