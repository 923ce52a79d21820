/* cb_hwtraffic: the hardware's bytes per rank and row, and the topology
 * stamp (contract in cb_hwtraffic.h). */
#define _GNU_SOURCE
#include "cb_hwtraffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_hwloc.h"
#include "cb_nvml.h"
#include "cb_row_time.h"
#include "cb_world.h"

/* The reasons, as hw_traffic tokens (index: the code gathered). */
static const char *const tokens[] = { "nvml", "host_backend", "no_nvml", "gpu_not_in_nvml",
				      "no_nvlink", "counters_back" };

/* Rank 0: every rank has a GPU of its own (cb_hw_topo found as many GPUs
 * as ranks). Else the check is off: ranks that share a GPU move bytes
 * between them that no link carries. */
static int gpu_each;

static int code_of(const char *why)
{
	if (!why)
		return 0;
	if (strncmp(why, "no NVML", 7) == 0)
		return 2;
	if (strncmp(why, "NVML does not know", 18) == 0)
		return 3;
	return 4;
}

/* A barrier, read, barrier (cb_hwtraffic.h); ns: the barriers' time. */
static enum cb_status fenced_read(struct cb_backend *be, struct cb_hw_mark *mk, uint64_t *tx,
				  uint64_t *rx)
{
	uint64_t ns = 0;
	enum cb_status st = cb_row_barrier(be, &ns);

	if (st != CB_OK)
		return st;
	mk->why = be->ops->hw_bytes(be, tx, rx);
	mk->code = code_of(mk->why);
	return cb_row_barrier(be, &ns);
}

enum cb_status cb_hw_mark_begin(struct cb_backend *be, struct cb_hw_mark *mk)
{
	memset(mk, 0, sizeof(*mk));
	if (!be->ops->hw_bytes) {
		mk->code = 1;
		mk->why = "host backend";
		return CB_OK;
	}
	return fenced_read(be, mk, &mk->tx0, &mk->rx0);
}

enum cb_status cb_hw_mark_end(struct cb_backend *be, struct cb_hw_mark *mk)
{
	enum cb_status st;

	if (!be->ops->hw_bytes)
		return CB_OK;
	if (mk->code) /* every rank reads (the barriers), the unmeasured ignore it */
		return fenced_read(be, &(struct cb_hw_mark){ 0 }, &(uint64_t){ 0 }, &(uint64_t){ 0 });
	st = fenced_read(be, mk, &mk->tx1, &mk->rx1);
	if (!mk->code && (mk->tx1 < mk->tx0 || mk->rx1 < mk->rx0)) {
		mk->code = 5; /* a driver reload or a counter reset meanwhile */
		mk->why = "the counters went back";
	}
	return st;
}

enum cb_status cb_hw_gather(struct cb_backend *be, const struct cb_hw_mark *mk, uint64_t calls,
			    struct cb_row *row)
{
	static int told;
	uint64_t mine[3] = { 0, 0, (uint64_t)mk->code }, *all = NULL;
	int n = be->world_size, first = 0;
	enum cb_status st;

	if (!mk->code && calls) {
		mine[0] = (mk->tx1 - mk->tx0) / calls;
		mine[1] = (mk->rx1 - mk->rx0) / calls;
	}
	if (mk->code > 1 && mk->why && !told++ && be->world_rank == 0)
		cb_log("hardware traffic unmeasured: %s", mk->why);
	if (be->world_rank == 0 && !(all = calloc((size_t)n * 3, sizeof(*all))))
		return CB_ERR_NOMEM;
	st = cb_world_gather(be, mine, 3, MPI_UINT64_T, all, 0);
	if (st != CB_OK || be->world_rank != 0) {
		free(all);
		return st;
	}
	row->hw = 1;
	for (int r = 0; r < n; r++) {
		row->hw_tx[r] = all[3 * r];
		row->hw_rx[r] = all[3 * r + 1];
		if (all[3 * r + 2] && row->hw) {
			row->hw = 0;
			first = (int)all[3 * r + 2];
		}
	}
	snprintf(row->s.hw_traffic, sizeof(row->s.hw_traffic), "%s",
		 tokens[first < 6 ? first : 4]);
	free(all);
	return CB_OK;
}

double cb_hw_tolerance(uint64_t counted, uint64_t calls)
{
	return 0.05 * (double)counted + 4096.0 + 2.0 * 18 * 1024.0 / (double)(calls ? calls : 1);
}

int cb_hw_check(const struct cb_row *row, uint64_t calls)
{
	int bad = 0;

	if (!row->hw || !row->traffic || !gpu_each)
		return 0;
	for (int r = 0; r < row->s.nranks; r++) {
		double tol_tx = cb_hw_tolerance(row->tx[r], calls);
		double tol_rx = cb_hw_tolerance(row->rx[r], calls);

		if (fabs((double)row->hw_tx[r] - (double)row->tx[r]) <= tol_tx &&
		    fabs((double)row->hw_rx[r] - (double)row->rx[r]) <= tol_rx)
			continue;
		bad++;
		cb_log("hw traffic check: %s %llu B rank %d: NVLink tx %llu rx %llu B per call, "
		       "counted tx %llu rx %llu (tolerance %.0f / %.0f B)", row->s.algo, row->s.bytes, r,
		       (unsigned long long)row->hw_tx[r], (unsigned long long)row->hw_rx[r],
		       (unsigned long long)row->tx[r], (unsigned long long)row->rx[r], tol_tx, tol_rx);
	}
	return bad;
}

/* Distinct bus ids among n of 32 bytes each. */
static int distinct(const char (*ids)[32], int n)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		int seen = 0;

		for (int j = 0; j < i && !seen; j++)
			seen = strncmp(ids[i], ids[j], 32) == 0;
		k += !seen;
	}
	return k;
}

/* Rank 0: the array of every rank's locality (ids: bus ids; near[]). */
static json_t *near_json(const char (*ids)[32], const struct cb_gpu_near *near, int n)
{
	json_t *a = json_array();

	for (int r = 0; a && r < n; r++)
		json_array_append_new(a, json_pack("{s:i,s:s,s:b,s:s,s:s,s:s,s:s}", "rank", r, "bus_id", ids[r],
						   "known", near[r].known, "numa", near[r].numa, "cpus",
						   near[r].cpus, "nics", near[r].nics, "why_unknown", near[r].why));
	return a;
}

/* Every rank's GPU's locality (cb_hwloc.h) to rank 0, as *out there. */
static enum cb_status locality(struct cb_backend *be, const char *bus, const char (*ids)[32],
			       json_t **out)
{
	struct cb_gpu_near mine, *all = NULL;
	enum cb_status st;

	if (be->ops->hw_facts) {
		cb_gpu_near(bus, &mine);
	} else {
		memset(&mine, 0, sizeof(mine));
		snprintf(mine.why, sizeof(mine.why), "host backend");
	}
	if (be->world_rank == 0 && !(all = calloc((size_t)be->world_size, sizeof(*all))))
		return CB_ERR_NOMEM;
	st = cb_world_gather(be, &mine, (int)sizeof(mine), MPI_BYTE, all, 0);
	if (st == CB_OK && be->world_rank == 0)
		*out = near_json(ids, all, be->world_size);
	free(all);
	return st;
}

enum cb_status cb_hw_topo(struct cb_backend *be, struct cb_topo *t, json_t **near)
{
	struct cb_nvml_facts f = { 0 };
	char bus[32] = "", (*ids)[32] = calloc((size_t)be->world_size, sizeof(*ids));
	enum cb_status st;

	memset(t, 0, sizeof(*t));
	if (!ids)
		return CB_ERR_NOMEM; /* every rank: the gather needs them all */
	if (be->ops->hw_facts)
		be->ops->hw_facts(be, &f, bus, sizeof(bus));
	else
		snprintf(f.why, sizeof(f.why), "host backend");
	st = cb_world_gather(be, bus, 32, MPI_CHAR, ids, 0);
	if (st == CB_OK) {
		t->known = f.known;
		snprintf(t->source, sizeof(t->source), "%s", f.known ? "nvml" : "");
		snprintf(t->gpu_model, sizeof(t->gpu_model), "%s", f.name);
		t->gpu_count = be->ops->hw_facts ? distinct((const char (*)[32])ids, be->world_size) : 0;
		gpu_each = t->gpu_count == be->world_size;
		t->nvlink_version = f.nvlink_version;
		t->nvlink_links = f.nvlink_links;
		t->nvlink_link_GBps = f.link_GBps;
		t->nvswitch = f.nvswitch;
		t->nvls = f.nvls;
		t->pcie_gen = f.pcie_gen;
		t->pcie_width = f.pcie_width;
		snprintf(t->why_unknown, sizeof(t->why_unknown), "%s", f.known ? "" : f.why);
	}
	*near = NULL;
	if (st == CB_OK)
		st = locality(be, bus, (const char (*)[32])ids, near);
	free(ids);
	return st;
}
