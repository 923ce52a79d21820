/* Byte sizes: parsing with K/M/G suffixes and human formatting (contract in
 * cb_size.h). */
#include "cb_size.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>

int cb_parse_size(const char *s, size_t *out)
{
	size_t v = 0, mult = 1;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		size_t d = (size_t)(*p - '0');

		if (v > (SIZE_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	switch (*p) {
	case 'K': case 'k': mult = (size_t)1 << 10; p++; break;
	case 'M': case 'm': mult = (size_t)1 << 20; p++; break;
	case 'G': case 'g': mult = (size_t)1 << 30; p++; break;
	default: break;
	}
	if (mult > 1 && *p == 'i' && p[1] == 'B')
		p++;
	if (*p == 'B')
		p++;
	if (*p != '\0' || (v && mult > SIZE_MAX / v))
		return -1;
	*out = v * mult;
	return 0;
}

/* v with 3 decimals, trailing zeros (and a bare point) dropped, then the
 * suffix: 1023.996K, 1000.5K. */
static void trimmed(char *buf, size_t len, double v, char suffix)
{
	char num[64];
	size_t k = (size_t)snprintf(num, sizeof(num), "%.3f", v);

	while (k > 0 && num[k - 1] == '0')
		num[--k] = '\0';
	if (k > 0 && num[k - 1] == '.')
		num[--k] = '\0';
	snprintf(buf, len, "%s%c", num, suffix);
}

void cb_format_size(size_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "KMGT";
	double v = (double)bytes;
	int i = -1;

	while (v >= 1024.0 && i < 3) {
		v /= 1024.0;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%zu", bytes);
	else if (v == (double)(long)v)
		snprintf(buf, len, "%ld%c", (long)v, suffix[i]);
	else if (v < 1000)
		snprintf(buf, len, "%.3g%c", v, suffix[i]);
	else /* 1000 up: %g would write an exponent (1.02e+03K); 3 decimals, trimmed */
		trimmed(buf, len, v, suffix[i]);
}
