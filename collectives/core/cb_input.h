/* cb_input: a small input file (a plan, a topology) read whole, from a
 * regular file only. A directory, a device (/dev/zero, /dev/urandom), a FIFO
 * or a socket given where a file is meant would otherwise read as endless or
 * failing bytes and end in a parser's message ("'[' or '{' expected", "File
 * too large", "Input/output error") that hides the cause; here it is named
 * before anything is read. */
#ifndef CB_INPUT_H
#define CB_INPUT_H

#include <stddef.h>
#include <sys/types.h>

#include "cb_status.h"

/* What a file of mode m (stat's st_mode) is, as a message: "is a
 * directory", "is not a regular file (a character device)" (or: block
 * device, FIFO, socket); NULL for a regular file. */
const char *cb_input_kind(mode_t m);

/* Reads the file at path, at most max bytes, into a new buffer *buf
 * (NUL-terminated, free() it) of *len bytes. Opens without blocking (a FIFO
 * is refused, never waited on) and checks what the opened path is (fstat,
 * links followed). Errors, with the reason in err (the caller names the
 * file) and *buf NULL: CB_ERR_IO with strerror's text (absent, no
 * permission, a failed read); CB_ERR_ARG (the path names no such input) "is
 * a directory", "is not a regular file (a character device)" (or: block
 * device, FIFO, socket) or "larger than <max> bytes"; CB_ERR_NOMEM "out of
 * memory". */
enum cb_status cb_input_read(const char *path, size_t max, char **buf, size_t *len, char *err,
			     size_t errlen);

#endif
