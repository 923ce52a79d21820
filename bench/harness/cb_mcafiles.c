/* cb_mcafiles: Open MPI's MCA parameter files (contract in cb_mcafiles.h). */
#define _GNU_SOURCE
#include "cb_mcafiles.h"

#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_env.h"
#include "cb_mpit.h"
#include "cb_text.h"

#define LIST_MAX 4096 /* bytes of a file list */

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Each "name = value" line of file f into set as OMPI_MCA_<name>, a later
 * line replacing an earlier one, where the environment's would be recorded.
 * Returns 0, or -1 when out of memory. */
static int parse(FILE *f, json_t *set)
{
	char *line = NULL, *name, *eq, key[320];
	size_t cap = 0;
	int rc = 0;

	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		name = trim(line);
		eq = strchr(name, '=');
		if (*name == '#' || !eq)
			continue;
		*eq = '\0';
		name = trim(name);
		if (!*name || strlen(name) > 256)
			continue;
		snprintf(key, sizeof(key), "OMPI_MCA_%s", name);
		if (cb_env_kind(key) == CB_ENV_NONE)
			continue;
		rc = json_object_set_new(set, key, cb_json_text(trim(eq + 1)));
	}
	free(line);
	return rc;
}

/* The files of the comma-separated list, rightmost first (so that the
 * leftmost wins), into set; each one read into files (in list order). */
static int read_list(const char *list, json_t *files, json_t *set)
{
	char buf[LIST_MAX], *name[64];
	size_t at = json_array_size(files);
	int n = 0, rc = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *p = strtok_r(buf, ",", &save); p && n < 64;
	     p = strtok_r(NULL, ",", &save))
		name[n++] = p;
	for (int i = n - 1; i >= 0 && rc == 0; i--) {
		FILE *f = fopen(name[i], "r");

		if (!f)
			continue;
		rc = parse(f, set);
		fclose(f);
		if (rc == 0)
			rc = json_array_insert_new(files, at, cb_json_text(name[i]));
	}
	return rc;
}

/* The lists Open MPI will read, as cb_mcafiles_before_init found them. */
static struct {
	int found;
	char list[LIST_MAX], over[LIST_MAX];
} files;

void cb_mcafiles_before_init(void)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	int n;

	if (MPI_Get_library_version(lib, &n) != MPI_SUCCESS || !strstr(lib, "Open MPI") ||
	    cb_mpit_open())
		return;
	files.found = cb_mpit_str("mca_base_param_files", files.list, sizeof(files.list)) == 0;
	if (cb_mpit_str("mca_base_override_param_file", files.over, sizeof(files.over)))
		files.over[0] = '\0';
	cb_mpit_close();
}

json_t *cb_mcafiles_collect(void)
{
	json_t *m;

	if (!files.found)
		return json_null();
	m = json_pack("{s:[],s:{},s:{}}", "files", "settings", "override");
	if (m && (read_list(files.list, json_object_get(m, "files"),
			    json_object_get(m, "settings")) ||
		  read_list(files.over, json_object_get(m, "files"),
			    json_object_get(m, "override")))) {
		json_decref(m);
		return NULL;
	}
	return m;
}
