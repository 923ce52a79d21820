/* cb_pathlen: can a path exist (contract in cb_pathlen.h). */
#define _GNU_SOURCE
#include "cb_pathlen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cb_status.h"
#include "cb_text.h"

/* pathconf(name) of the nearest existing folder above path; fallback when
 * it cannot be asked. */
static long limit_of(const char *path, int name, long fallback)
{
	char *dir = strdup(path);
	struct stat sb;
	long v = -1;

	while (dir) {
		char *slash = strrchr(dir, '/');

		if (!slash || slash == dir) {
			v = pathconf(slash ? "/" : ".", name);
			break;
		}
		*slash = '\0';
		if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			v = pathconf(dir, name);
			break;
		}
	}
	free(dir);
	return v > 0 ? v : fallback;
}

/* The refusal: a component (whole 0) or the whole path (1) of n bytes. */
static enum cb_status too_long(const char *what, const char *name, size_t n, long max, int whole,
			       char *err, size_t errlen)
{
	char *shown = cb_text_escape(name);
	enum cb_status st;

	st = cb_refuse(err, errlen, "%s: the %s '%.48s...' would be %zu bytes long; this %s "
		       "allows %ld (%s): give a shorter one", what, whole ? "path" : "file name",
		       shown ? shown : name, n, whole ? "system" : "file system", max,
		       whole ? "PATH_MAX" : "NAME_MAX");
	free(shown);
	return st;
}

enum cb_status cb_path_fits(const char *what, const char *path, size_t suffix, char *err,
			    size_t errlen)
{
	long name_max = limit_of(path, _PC_NAME_MAX, 255);
	long path_max = limit_of(path, _PC_PATH_MAX, 4096);
	size_t len = strlen(path);

	for (const char *c = path; *c;) {
		size_t n = strcspn(c, "/");
		int last = c[n] == '\0';

		if (n + (last ? suffix : 0) > (size_t)name_max)
			return too_long(what, c, n + (last ? suffix : 0), name_max, 0, err, errlen);
		c += n + !last;
	}
	if (len + suffix >= (size_t)path_max)
		return too_long(what, path, len + suffix, path_max - 1, 1, err, errlen);
	return CB_OK;
}
