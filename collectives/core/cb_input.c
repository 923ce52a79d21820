/* cb_input: a small input file read whole (contract in cb_input.h). */
#define _GNU_SOURCE
#include "cb_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cb_input_kind(mode_t m)
{
	if (S_ISREG(m))
		return NULL;
	if (S_ISDIR(m))
		return "is a directory";
	if (S_ISCHR(m))
		return "is not a regular file (a character device)";
	if (S_ISBLK(m))
		return "is not a regular file (a block device)";
	if (S_ISFIFO(m))
		return "is not a regular file (a FIFO)";
	if (S_ISSOCK(m))
		return "is not a regular file (a socket)";
	return "is not a regular file";
}

static enum cb_status fail(char *err, size_t errlen, enum cb_status st, const char *why)
{
	snprintf(err, errlen, "%s", why);
	return st;
}

/* Reads all of fd (size bytes expected, at most max) into a new buffer. */
static enum cb_status read_all(int fd, size_t size, size_t max, char **buf, size_t *len)
{
	size_t cap = size + 1, n = 0;
	char *b = malloc(cap + 1);

	if (!b)
		return CB_ERR_NOMEM;
	for (;;) {
		ssize_t got = read(fd, b + n, cap - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0) {
				free(b);
				return CB_ERR_IO;
			}
			break;
		}
		n += (size_t)got;
		if (n > max) { /* grew since fstat */
			free(b);
			errno = EFBIG;
			return CB_ERR_IO;
		}
		if (n == cap) {
			char *nb = realloc(b, 2 * cap + 1);

			if (!nb) {
				free(b);
				return CB_ERR_NOMEM;
			}
			b = nb, cap *= 2;
		}
	}
	b[n] = '\0';
	*buf = b, *len = n;
	return CB_OK;
}

enum cb_status cb_input_read(const char *path, size_t max, char **buf, size_t *len, char *err,
			     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	enum cb_status st;
	char limit[64];

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return fail(err, errlen, CB_ERR_IO, strerror(errno));
	if (fstat(fd, &sb) != 0) {
		st = fail(err, errlen, CB_ERR_IO, strerror(errno));
		goto out_close;
	}
	if (cb_input_kind(sb.st_mode)) {
		st = fail(err, errlen, CB_ERR_ARG, cb_input_kind(sb.st_mode));
		goto out_close;
	}
	snprintf(limit, sizeof(limit), "larger than %zu bytes", max);
	if ((unsigned long long)sb.st_size > max) {
		st = fail(err, errlen, CB_ERR_ARG, limit);
		goto out_close;
	}
	st = read_all(fd, (size_t)sb.st_size, max, buf, len);
	if (st == CB_ERR_IO && errno == EFBIG)
		st = fail(err, errlen, CB_ERR_ARG, limit);
	else if (st == CB_ERR_IO)
		fail(err, errlen, st, strerror(errno));
	else if (st == CB_ERR_NOMEM)
		fail(err, errlen, st, "out of memory");
out_close:
	close(fd);
	return st;
}
