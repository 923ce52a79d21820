/* cb_model_tslice: ranks per CPU and the scheduler's slice (contract in
 * cb_model_tslice.h). */
#include "cb_model_tslice.h"

#include <math.h>
#include <stdlib.h>

double cb_model_ranks_per_cpu(const struct cb_topo *t, int n)
{
	double q = 0;
	int *cnt;

	if (t->cpus_per_host <= 0)
		return 0;
	if (!t->rank_host) /* rank r on host r / ranks_per_host: the first host is the fullest */
		return fmin(n, t->ranks_per_host) > t->cpus_per_host
			       ? fmin(n, t->ranks_per_host) / t->cpus_per_host : 0;
	cnt = calloc((size_t)n, sizeof(int));
	if (!cnt)
		return 0;
	for (int k = 0; k < n; k++)
		if (t->rank_host[k] >= 0 && t->rank_host[k] < n)
			cnt[t->rank_host[k]]++;
	for (int h = 0; h < n; h++)
		if (cnt[h] > t->cpus_per_host)
			q = fmax(q, (double)cnt[h] / t->cpus_per_host);
	free(cnt);
	return q;
}

double cb_model_base_slice(int cpus)
{
	int lg = 0;

	for (int c = cpus < 8 ? cpus : 8; c > 1; c /= 2)
		lg++;
	return 0.75e-3 * (1 + lg);
}

double cb_model_stretch(const struct cb_topo *t, double q, double own)
{
	return q > 0 ? own + (q - 1) * fmax(0, own - cb_model_base_slice(t->cpus_per_host)) : own;
}
