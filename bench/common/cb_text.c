/* cb_text: the \xHH rule for text that is not UTF-8 (contract in cb_text.h). */
#define _GNU_SOURCE
#include "cb_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t cb_utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (n == 0)
		return 0;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0; /* a continuation byte, C0/C1 (overlong) or F5..FF */
	/* the second byte's range excludes overlong forms, surrogates and > U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

int cb_text_is_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	while (n > 0) {
		size_t k = cb_utf8_seq_len(p, n);

		if (k == 0)
			return 0;
		p += k;
		n -= k;
	}
	return 1;
}

char *cb_text_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;
	char *out = malloc(4 * n + 1); /* every byte escaped at worst */

	if (!out)
		return NULL;
	while (n > 0) {
		size_t k = cb_utf8_seq_len(p, n);

		if (k == 0) {
			snprintf(out + o, 5, "\\x%02x", p[0]);
			o += 4;
			k = 1;
		} else {
			memcpy(out + o, p, k);
			o += k;
		}
		p += k;
		n -= k;
	}
	out[o] = '\0';
	return out;
}

json_t *cb_json_text(const char *s)
{
	json_t *j;
	char *e;

	if (!s)
		return json_null();
	if (cb_text_is_utf8(s))
		return json_string(s);
	e = cb_text_escape(s);
	if (!e)
		return NULL;
	j = json_string(e);
	free(e);
	return j;
}

int cb_eprintf(const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL, *shown;
	int n, rc;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		va_start(ap, fmt);
		rc = vfprintf(stderr, fmt, ap);
		va_end(ap);
		return rc < 0 ? EOF : 0;
	}
	shown = cb_text_escape(msg);
	rc = fputs(shown ? shown : msg, stderr);
	free(shown);
	free(msg);
	return rc;
}
