/* cb_replace: a file replaced through a temporary (contract in cb_replace.h). */
#define _GNU_SOURCE
#include "cb_replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cb_text.h"

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
	errno = 0;
	ok = (fclose(f) == 0) && ok;
	if (!ok) {
		cannot(err, errlen, path, errno ? strerror(errno) : "write error");
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
