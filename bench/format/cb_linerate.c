/* cb_linerate: the bounds and percents of a row (contract and sources in
 * cb_linerate.h). */
#define _GNU_SOURCE
#include "cb_linerate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

double cb_pcie_lane_GBps(int gen)
{
	/* GT/s x encoding efficiency / 8 bits */
	static const double lane[] = { 0, 2.5 * 8 / 10 / 8, 5.0 * 8 / 10 / 8, 8.0 * 128 / 130 / 8,
				       16.0 * 128 / 130 / 8, 32.0 * 128 / 130 / 8,
				       64.0 * 242 / 256 / 8, 128.0 * 242 / 256 / 8 };

	return gen > 0 && gen < (int)(sizeof(lane) / sizeof(lane[0])) ? lane[gen] : 0;
}

int cb_linerate_is_nvls(const char *algo, const char *nccl_algo)
{
	if (algo && strncmp(algo, "nccl.nvls", 9) == 0)
		return 1;
	return nccl_algo && (strcasecmp(nccl_algo, "NVLS") == 0 ||
			     strcasecmp(nccl_algo, "NVLSTree") == 0);
}

/* NaN with the reason in what. */
static double none(char *what, size_t len, const char *reason)
{
	snprintf(what, len, "%s", reason);
	return NAN;
}

double cb_line_bound_GBps(const struct cb_topo *t, const struct cb_summary *s,
			  const char *nccl_algo, char *what, size_t len)
{
	double b = t->nvlink_links * t->nvlink_link_GBps;
	int n = s->nranks;

	if (!t->known)
		return none(what, len, t->why_unknown[0] ? t->why_unknown : "topology unknown");
	if (s->nranks < 2)
		return none(what, len, "one rank: nothing crosses a link");
	if (s->nhosts > 1)
		return none(what, len, "ranks on several hosts: the network bounds them");
	if (t->nvlink_version > 0 && b > 0) {
		if (t->nvls && cb_linerate_is_nvls(s->algo, nccl_algo) &&
		    strcmp(s->collective, "allreduce") == 0) {
			snprintf(what, len, "NVLS: NVLink %d x %g GB/s x 2(n-1)/(n+1)",
				 t->nvlink_links, t->nvlink_link_GBps);
			return b * 2.0 * (n - 1) / (n + 1);
		}
		snprintf(what, len, "NVLink %d x %g GB/s", t->nvlink_links, t->nvlink_link_GBps);
		return b;
	}
	if (t->pcie_gen > 0 && t->pcie_width > 0 && cb_pcie_lane_GBps(t->pcie_gen) > 0) {
		snprintf(what, len, "PCIe gen%d x%d", t->pcie_gen, t->pcie_width);
		return cb_pcie_lane_GBps(t->pcie_gen) * t->pcie_width;
	}
	return none(what, len, "no NVLink or PCIe link known");
}

double cb_pct_line(const struct cb_topo *t, const struct cb_summary *s, const char *nccl_algo,
		   char *why, size_t len)
{
	double bound;

	if (s->status.state != CB_ROW_OK || isnan(s->busbw))
		return none(why, len, "no busbw");
	bound = cb_line_bound_GBps(t, s, nccl_algo, why, len);
	return isnan(bound) ? NAN : 100 * s->busbw / bound;
}

double cb_pct_copy(const struct cb_summary *s, double copy_algbw)
{
	if (s->status.state != CB_ROW_OK || isnan(s->busbw) || s->nranks < 2 ||
	    strcmp(s->algo, "copy") == 0 || isnan(copy_algbw) || copy_algbw <= 0)
		return NAN;
	return 100 * s->busbw / copy_algbw;
}
