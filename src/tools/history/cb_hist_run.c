/* cb_hist_run: runs and keys (contract in cb_hist_run.h). */
#include "cb_hist_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_rowval.h"

void cb_hist_run_free(struct cb_hist_run *run)
{
	free(run->rows);
	memset(run, 0, sizeof(*run));
}

int cb_hist_key_eq(const struct cb_hist_key *a, const struct cb_hist_key *b)
{
	return cb_res_key_cmp(&a->row, &b->row) == 0 && strcmp(a->transport, b->transport) == 0;
}

void cb_hist_key_name(const struct cb_hist_key *k, char *buf, size_t len)
{
	struct cb_summary v = k->row.v;

	snprintf(v.transport, sizeof(v.transport), "%s", k->transport);
	cb_row_name(&v, buf, len);
}
