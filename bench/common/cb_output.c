/* cb_output: results written whole (contract in cb_output.h): whether a
 * path can exist, a file replaced through a temporary, stdout closed. */
#define _GNU_SOURCE
#include "cb_output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The canonical name of path in out (PATH_MAX bytes): realpath when it
 * exists; a dangling symbolic link's target, resolved from the link's folder;
 * else realpath of its folder and its last name. 0, or -1 when the folder
 * cannot be resolved (or links nest deeper than depth allows). */
static int canonical(const char *path, char *out, int depth)
{
	char link[PATH_MAX], next[PATH_MAX], dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	struct stat st;
	ssize_t k;

	if (realpath(path, out))
		return 0;
	if (depth > 0 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		k = readlink(path, link, sizeof(link) - 1);
		if (k < 0)
			return -1;
		link[k] = '\0';
		if (snprintf(next, sizeof(next), "%.*s%s", link[0] == '/' ? 0 : (int)(name - path),
			     path, link) >= (int)sizeof(next))
			return -1;
		return canonical(next, out, depth - 1);
	}
	if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return -1;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	if (!realpath(dir, link))
		return -1;
	return snprintf(out, PATH_MAX, "%s/%s", strcmp(link, "/") ? link : "", name) < PATH_MAX
		       ? 0 : -1;
}

int cb_path_same_file(const char *a, const char *b)
{
	char ca[PATH_MAX], cbuf[PATH_MAX];
	struct stat sa, sb;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return canonical(a, ca, 40) == 0 && canonical(b, cbuf, 40) == 0 && strcmp(ca, cbuf) == 0;
}

enum cb_status cb_replace_check(const char *path, char *err, size_t errlen)
{
	struct stat sb;
	char *shown;

	if (lstat(path, &sb) != 0 || S_ISREG(sb.st_mode))
		return CB_OK;
	shown = cb_text_escape(path);
	snprintf(err, errlen, "%s exists and is not a regular file; not replacing it",
		 shown ? shown : path);
	free(shown);
	return CB_ERR_IO;
}

/* err = "cannot write <name>: <reason>" */
static void cannot(char *err, size_t errlen, const char *name, const char *reason)
{
	char *shown = cb_text_escape(name);

	snprintf(err, errlen, "cannot write %s: %s", shown ? shown : name, reason);
	free(shown);
}

enum cb_status cb_replace_open(const char *path, char *tmp, size_t tmplen, FILE **out,
			       char *err, size_t errlen)
{
	int fd, n;

	*out = NULL;
	if (cb_replace_check(path, err, errlen) != CB_OK)
		return CB_ERR_IO;
	n = snprintf(tmp, tmplen, "%s.tmp.%ld", path, (long)getpid());
	if (n < 0 || (size_t)n >= tmplen) {
		cannot(err, errlen, path, "path too long");
		return CB_ERR_ARG;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		cannot(err, errlen, tmp, strerror(errno));
		return CB_ERR_IO;
	}
	*out = fdopen(fd, "w");
	if (!*out) {
		cannot(err, errlen, tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return CB_ERR_IO;
	}
	return CB_OK;
}

enum cb_status cb_replace_commit(FILE *f, const char *tmp, const char *path, int ok,
				 char *err, size_t errlen)
{
	int e = ok ? 0 : errno; /* a failed write's reason (ENOSPC), kept */

	errno = 0;
	if (fclose(f) != 0) {
		ok = 0;
		e = errno ? errno : e;
	}
	if (!ok) {
		cannot(err, errlen, path, e ? strerror(e) : "write error");
		unlink(tmp);
		return CB_ERR_IO;
	}
	/* checked again: the path may have changed while the file was written */
	if (cb_replace_check(path, err, errlen) != CB_OK) {
		unlink(tmp);
		return CB_ERR_IO;
	}
	if (rename(tmp, path) != 0) {
		cannot(err, errlen, path, strerror(errno));
		unlink(tmp);
		return CB_ERR_IO;
	}
	return CB_OK;
}

int cb_close_stdout(const char *prog, int rc, int fail_rc)
{
	errno = 0;
	if (fclose(stdout) != 0 && rc != fail_rc) {
		fprintf(stderr, "%s: cannot write stdout: %s\n", prog,
			errno ? strerror(errno) : "write error");
		return fail_rc;
	}
	return rc;
}
