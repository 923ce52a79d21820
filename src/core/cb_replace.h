/* cb_replace: writing a file by renaming a temporary over it, so a reader
 * never sees half a file (allreduce_perf --meta, collbench-model fit -o).
 *
 * The rule, in one place: rename(2) replaces whatever the path names, so a
 * path that exists and is not a regular file (a device node, a symbolic
 * link, a FIFO, a folder) is refused and left as it is. The temporary is
 * "<path>.tmp.<pid>", created new (O_EXCL, never through a link). */
#ifndef CB_REPLACE_H
#define CB_REPLACE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_status.h"

/* CB_OK when path does not exist or is a regular file (lstat: a link is not
 * followed). Else CB_ERR_IO with err = "<path> exists and is not a regular
 * file; not replacing it" (path under the \xHH rule of cb_text). */
enum cb_status cb_replace_check(const char *path, char *err, size_t errlen);

/* Checks path (above) and creates its temporary, named in tmp (tmplen
 * bytes), open for writing in *out. On error returns CB_ERR_IO (or
 * CB_ERR_ARG: the name does not fit in tmp) with err set; creates nothing. */
enum cb_status cb_replace_open(const char *path, char *tmp, size_t tmplen, FILE **out,
			       char *err, size_t errlen);

/* Closes f and, when ok and the close succeeded, checks path again and
 * renames tmp over it. On any failure removes tmp, leaves path as it was
 * and returns CB_ERR_IO with err set; a caller's failure (ok 0) gives
 * err = "write error" unless errno says more. */
enum cb_status cb_replace_commit(FILE *f, const char *tmp, const char *path, int ok,
				 char *err, size_t errlen);

#endif
