/* cb_stdout: the end of a tool whose results go to stdout (collbench-compare,
 * collbench-history, collbench-model). A write to stdout that failed (a full disk, a reader
 * that went away) may only show when the buffer is flushed at exit; a tool
 * must not then exit with a status that says its results were given. */
#ifndef CB_STDOUT_H
#define CB_STDOUT_H

/* Closes stdout. When that fails and rc is not fail_rc already (whose
 * message was printed), prints "<prog>: cannot write stdout: <reason>" on
 * stderr and returns fail_rc; else returns rc. Call it once, last. */
int cb_close_stdout(const char *prog, int rc, int fail_rc);

#endif
