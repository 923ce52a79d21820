/* cb_report_modes: the table with both modes on each line (contract in
 * cb_report_modes.h). */
#include "cb_report_modes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* one mode's columns: time algbw busbw #wrong tx_total */
#define GROUP_FMT "%11s %8s %8s %6s %12s"
#define GROUP_WIDTH (11 + 1 + 8 + 1 + 8 + 1 + 6 + 1 + 12)
#define LINE_FMT "%*s %12s %12s %8s %6s  " GROUP_FMT "  " GROUP_FMT "  %s\n"

/* label centred in a field of GROUP_WIDTH, between dashes */
static void group_label(char *buf, const char *label)
{
	size_t n = strlen(label), left = (GROUP_WIDTH - n - 2) / 2;

	memset(buf, '-', GROUP_WIDTH);
	buf[GROUP_WIDTH] = '\0';
	buf[left] = ' ';
	memcpy(buf + left + 1, label, n);
	buf[left + 1 + n] = ' ';
}

void cb_report_modes_header(char *buf, size_t len, int algo_width)
{
	char g[2][GROUP_WIDTH + 1];
	int k;

	group_label(g[0], "out-of-place");
	group_label(g[1], "in-place");
	k = snprintf(buf, len, "# out-of-place and in-place on each line (--inplace both); each "
		     "mode's median, txrx_max and imbal: in --csv and --json\n");
	k += snprintf(buf + k, len - (size_t)k, "#%*s %12s %12s %8s %6s  %s  %s\n", algo_width, "",
		      "", "", "", "", g[0], g[1]);
	k += snprintf(buf + k, len - (size_t)k, "#" LINE_FMT, algo_width, "algo", "size", "count",
		      "type", "redop", "time", "algbw", "busbw", "#wrong", "tx_total", "time", "algbw",
		      "busbw", "#wrong", "tx_total", "status");
	snprintf(buf + k, len - (size_t)k, "#" LINE_FMT, algo_width, "", "(B)", "(elements)", "", "",
		 "(us)", "(GB/s)", "(GB/s)", "", "(B)", "(us)", "(GB/s)", "(GB/s)", "", "(B)", "");
}

/* One mode's five fields into f[5] (text in b[5][32]); s NULL: all "-". */
static void half(const struct cb_summary *s, char b[5][32], const char *f[5])
{
	for (int i = 0; i < 5; i++)
		f[i] = "-";
	if (!s)
		return;
	if (!isnan(s->time_us))
		snprintf(b[0], 32, "%.2f", s->time_us), f[0] = b[0];
	else
		f[0] = s->status.state == CB_ROW_SKIPPED ? "skipped" : "error";
	for (int i = 1; i < 3; i++) {
		double v = i == 1 ? s->algbw : s->busbw;

		if (!isnan(v))
			snprintf(b[i], 32, v != 0 && v < 0.01 ? "%.2e" : "%.3f", v), f[i] = b[i];
	}
	if (s->wrong != CB_NO_U64)
		snprintf(b[3], 32, "%llu", s->wrong), f[3] = b[3];
	if (s->tx_total != CB_NO_U64)
		snprintf(b[4], 32, "%llu", s->tx_total), f[4] = b[4];
}

/* The status column: one word when both modes agree, else each mode's; a
 * mode that did not run is said so. */
static void status(char *buf, size_t len, const struct cb_summary *oop,
		   const struct cb_summary *ip)
{
	char st[2][CB_REASON_MAX + 16] = { "-", "-" };

	if (oop)
		cb_row_status_format(&oop->status, st[0], sizeof(st[0]));
	if (ip)
		cb_row_status_format(&ip->status, st[1], sizeof(st[1]));
	if (!oop || !ip)
		snprintf(buf, len, "%s (%s only)", st[oop ? 0 : 1], oop ? "out-of-place" : "in-place");
	else if (strcmp(st[0], st[1]) == 0)
		snprintf(buf, len, "%s", st[0]);
	else
		snprintf(buf, len, "out-of-place %s; in-place %s", st[0], st[1]);
}

void cb_report_modes_line(char *buf, size_t len, int algo_width, const struct cb_summary *oop,
			  const struct cb_summary *ip)
{
	const struct cb_summary *s = oop ? oop : ip;
	char key[2][32], b[2][5][32], st[2 * CB_REASON_MAX + 64];
	const char *f[2][5];

	snprintf(key[0], 32, "%llu", s->bytes);
	snprintf(key[1], 32, "%llu", s->count);
	half(oop, b[0], f[0]);
	half(ip, b[1], f[1]);
	status(st, sizeof(st), oop, ip);
	snprintf(buf, len, " " LINE_FMT, algo_width, s->algo, key[0], key[1], s->dtype, s->op,
		 f[0][0], f[0][1], f[0][2], f[0][3], f[0][4], f[1][0], f[1][1], f[1][2], f[1][3],
		 f[1][4], st);
}

int cb_report_modes_pair(const struct cb_summary *a, const struct cb_summary *b)
{
	return !strcmp(a->algo, b->algo) && a->bytes == b->bytes && !strcmp(a->dtype, b->dtype) &&
	       !strcmp(a->op, b->op) && !a->in_place && b->in_place;
}
