/* cb_output: a tool's results reach their file or stdout whole, or the tool
 * says they did not. Three rules, one per stage of writing:
 *
 * Before the work, can the file exist at all (cb_path_fits). A name longer
 * than the file system allows fails only when the file is opened, which for
 * a run's metadata or a fit's output is after the work; the tools ask this
 * with their options instead (exit 2, nothing run). Every component of path,
 * the last one with suffix more bytes (the longest the writer adds to it:
 * the temporary's ".tmp.<pid>", CB_PATH_REPLACE_SUFFIX), is at most NAME_MAX
 * bytes of the file system that would hold it (pathconf of its nearest
 * existing folder; 255 where that cannot be asked), and the whole, with the
 * suffix, shorter than PATH_MAX (4096 where unknown). Relative paths are
 * measured as given (the kernel resolves them from the working folder, whose
 * own length does not count).
 *
 * A file is written by renaming a temporary over it, so a reader never sees
 * half a file (allreduce_perf --meta, collbench-model fit -o): cb_replace_*.
 * rename(2) replaces whatever the path names, so a path that exists and is
 * not a regular file (a device node, a symbolic link, a FIFO, a folder) is
 * refused and left as it is. The temporary is "<path>.tmp.<pid>", created
 * new (O_EXCL, never through a link).
 *
 * stdout is closed at the end of a tool whose results go there
 * (collbench-compare, collbench-history, collbench-model): a write that
 * failed (a full disk, a reader that went away) may only show when the
 * buffer is flushed at exit, and a tool must not then exit with a status
 * that says its results were given (cb_close_stdout). */
#ifndef CB_OUTPUT_H
#define CB_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "cb_status.h"

/* ".tmp." and the digits of the largest pid (pid_max up to 4194304). */
#define CB_PATH_REPLACE_SUFFIX 12

/* Checks path (named what in messages, e.g. "--csv") by the rule above.
 * Errors: CB_ERR_ARG with "WHAT: the file name 'NAME...' would be N bytes
 * long; this file system allows M (NAME_MAX): give a shorter one" (or the
 * PATH_MAX one) in err. Reads the file system (pathconf), writes nothing. */
enum cb_status cb_path_fits(const char *what, const char *path, size_t suffix, char *err,
			    size_t errlen);

/* 1 when paths a and b name one file, however spelled ("x.csv", "./x.csv",
 * its absolute path, a symbolic or hard link to it): where both exist, the
 * same device and inode (stat, links followed); else the same canonical path
 * (realpath of the folder, plus the last name; a dangling symbolic link
 * stands for the path it points to, up to 40 links deep). 0 otherwise, and
 * when a path cannot be resolved (a missing folder: opening it fails later,
 * with its own message). Reads the file system, writes nothing. */
int cb_path_same_file(const char *a, const char *b);

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
 * err = the reason errno holds from its failed write (ENOSPC, ...), else
 * "write error". */
enum cb_status cb_replace_commit(FILE *f, const char *tmp, const char *path, int ok,
				 char *err, size_t errlen);

/* Closes stdout. When that fails and rc is not fail_rc already (whose
 * message was printed), prints "<prog>: cannot write stdout: <reason>" on
 * stderr and returns fail_rc; else returns rc. Call it once, last. */
int cb_close_stdout(const char *prog, int rc, int fail_rc);

#endif
