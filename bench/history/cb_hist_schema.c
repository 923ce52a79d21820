/* cb_hist_schema: the metric column names and small helpers (contract in
 * cb_hist_schema.h). */
#include "cb_hist_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_options.h"

#define CB_HIST_NAME_(e, name) name,
const char *const cb_hist_metric_names[CB_HIST_NMETRICS] = { CB_HIST_METRICS(CB_HIST_NAME_) };
#undef CB_HIST_NAME_

void cb_hist_run_free(struct cb_hist_run *run)
{
	free(run->rows);
	memset(run, 0, sizeof(*run));
}

void cb_hist_key_name(const struct cb_hist_key *k, char *buf, size_t len)
{
	int host = strcmp(k->backend, "host") == 0;
	char size[32];

	cb_format_size((size_t)k->bytes, size, sizeof(size));
	snprintf(buf, len, "%s%s%s np%d %s %s %s%s%s%s", host ? "" : k->backend, host ? "" : " ",
		 k->algo, k->nranks, size, k->dtype, k->op, k->in_place ? " in-place" : "",
		 k->transport[0] ? " " : "", k->transport);
}
