/* cb_pathlen: whether a file a tool is about to write can exist at all. A
 * name longer than the file system allows fails only when the file is
 * opened, which for a run's metadata or a fit's output is after the work;
 * the tools ask this with their options instead (exit 2, nothing run).
 *
 * The rule: every component of path, the last one with suffix more bytes
 * (the longest the writer adds to it: cb_replace's ".tmp.<pid>",
 * CB_PATH_REPLACE_SUFFIX), at most NAME_MAX bytes of the file system that
 * would hold it (pathconf of its nearest existing folder; 255 where that
 * cannot be asked), and the whole, with the suffix, shorter than PATH_MAX
 * (4096 where unknown). Relative paths are measured as given (the kernel
 * resolves them from the working folder, whose own length does not count). */
#ifndef CB_PATHLEN_H
#define CB_PATHLEN_H

#include <stddef.h>

#include "cb_status.h"

/* ".tmp." and the digits of the largest pid (pid_max up to 4194304). */
#define CB_PATH_REPLACE_SUFFIX 12

/* Checks path (named what in messages, e.g. "--csv") by the rule above.
 * Errors: CB_ERR_ARG with "WHAT: the file name 'NAME...' would be N bytes
 * long; this file system allows M (NAME_MAX): give a shorter one" (or the
 * PATH_MAX one) in err. Reads the file system (pathconf), writes nothing. */
enum cb_status cb_path_fits(const char *what, const char *path, size_t suffix, char *err,
			    size_t errlen);

#endif
