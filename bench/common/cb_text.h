/* cb_text: text that comes from outside the program (paths, arguments, host
 * names, CPU names, environment values) on its way into JSON, which must be
 * UTF-8. Such text is arbitrary bytes on Linux; the JSON library refuses a
 * string that is not valid UTF-8, and collbench must neither lose the run nor
 * the text because of one byte.
 *
 * The rule (docs/output.md, "Bytes that are not UTF-8"): a string that is valid UTF-8
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) is
 * written unchanged; in a string that is not, every byte that is not part of
 * a valid UTF-8 sequence is written as the four characters \xHH (HH: two
 * lower-case hex digits) and everything else is kept. Readers get valid JSON
 * and can recover each such byte from its \xHH. */
#ifndef CB_TEXT_H
#define CB_TEXT_H

#include <jansson.h>
#include <stddef.h>

/* Length in bytes (1..4) of the valid UTF-8 sequence that starts at s, of at
 * most n bytes; 0 when s[0] does not start one. */
size_t cb_utf8_seq_len(const unsigned char *s, size_t n);

/* 1 when the NUL-terminated s is valid UTF-8, else 0. */
int cb_text_is_utf8(const char *s);

/* s under the rule above, in a new string (free() it); NULL only when out of
 * memory. */
char *cb_text_escape(const char *s);

/* A JSON string of s under the rule above: never refused for its bytes.
 * NULL (s NULL: a JSON null instead) only when out of memory. */
json_t *cb_json_text(const char *s);

/* Prints the message fmt formats on stderr under the rule above: the
 * diagnostics of collbench-compare, -history and -model echo paths, names
 * and fields that may hold any bytes. Returns fputs's result (EOF on a
 * failed write); prints the bytes as they are only when out of memory. */
int cb_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
