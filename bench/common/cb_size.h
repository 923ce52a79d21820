/* cb_size: byte sizes as people write them (K, M, G suffixes) and read them
 * back. A leaf: allreduce_perf's options, collbench-compare's --min-bytes and
 * cuda_bw all parse and print sizes through it. */
#ifndef CB_SIZE_H
#define CB_SIZE_H

#include <stddef.h>

/* Parses a byte size: decimal digits with an optional K, M or G suffix
 * (powers of 1024; a trailing "B" or "iB" is accepted: 4K, 4KB, 4KiB).
 * Returns 0 and sets *out, or -1 for empty, negative, garbage or values that
 * overflow size_t (out untouched). */
int cb_parse_size(const char *s, size_t *out);

/* Formats bytes as a short human size ("8", "1K", "64M", "1.5G"; from 1000
 * of a unit with up to 3 decimals, never an exponent: "1023.996K"). */
void cb_format_size(size_t bytes, char *buf, size_t len);

#endif
