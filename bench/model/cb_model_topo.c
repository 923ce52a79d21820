/* cb_model_topo: the presets, each with the public specification its numbers
 * come from, and topology files (contract in cb_model_topo.h). */
#include "cb_model_topo.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_catalog.h"
#include "cb_input.h"
#include "cb_status.h"
#include "cb_text.h"

#define TOPO_SCHEMA "collbench-topo-1"
#define GB 1e9
#define US 1e-6
#define MIB ((size_t)1 << 20)
#define TOPO_MAX_BYTES (16 * MIB)

/* Latencies (alpha) are not in any specification: the presets use round
 * numbers of the right order (a GPU kernel launch plus a flag round trip on
 * NVLink or PCIe, an InfiniBand or Ethernet message through the software
 * stack) and say so; fit your own machine to replace them. */
#define ALPHA_NOTE "alpha: an assumption of the right order, not a specification"

/* Sources (bandwidths per direction, 1 GB = 1e9 B):
 *  - H100 SXM5: NVLink 900 GB/s per GPU (both directions: 450 GB/s each way),
 *    HBM3 3.35 TB/s: NVIDIA H100 Tensor Core GPU datasheet.
 *  - DGX H100: 8 H100 SXM5 on 4 NVSwitches, 8 single-port ConnectX-7 400 Gb/s
 *    (one per GPU) for the compute fabric: NVIDIA DGX H100 datasheet.
 *  - H100 PCIe: HBM2e 2.0 TB/s, PCIe Gen5 x16: NVIDIA H100 datasheet.
 *  - A100 40GB PCIe: HBM2 1,555 GB/s, PCIe Gen4 x16: NVIDIA A100 datasheet.
 *  - PCIe 4.0 x16: 16 GT/s x 16 lanes, 128b/130b = 31.5 GB/s; PCIe 5.0 x16:
 *    32 GT/s = 63.0 GB/s (PCI-SIG base specifications 4.0, 5.0).
 *  - 400/200/100 Gb/s NICs: 50/25/12.5 GB/s (line rate; ConnectX-7 NDR,
 *    ConnectX-6 HDR, 100 GbE).
 *  - gamma = memory bandwidth / 3 (a reduce reads two operands and writes
 *    the result); copy = memory bandwidth / 2 (reads one, writes one).
 *  - slices: the backends' own (CB_CUDA_PIPELINE_BYTES on GPU hosts,
 *    CB_HOST_PIPELINE_BYTES on vm-2core: collectives/catalog/cb_catalog.h).
 *  - vm-2core: this 2-core VM's host memory as the fabric, fitted by
 *    collbench-model fit on results/reference of 2026-11-30 (git 070067e;
 *    ps, ring, copy at 2 ranks):
 *    alpha 0.21 us from every size (--tiers auto), beta 16.1, gamma 6.5 and
 *    fused 7.1 GB/s from sizes >= 1 MiB (--tiers 1 --min-bytes 1M); see
 *    docs/model.md. */
/* A GPU host: ranks per host, intra-host link (GB/s, us), network link (GB/s,
 * us, per host or rank), HBM bandwidth (GB/s) giving gamma and the copy. */
#define GPU_HOST(nm, src, rph, ibw, ia, nbw, na, per, hbm)                                 \
	{ .name = nm, .source = src, .ranks_per_host = rph, .intra = { ibw * GB, ia * US },   \
	  .net = { nbw * GB, na * US }, .net_attach = per, .gamma = hbm * GB / 3,             \
	  .copy_bw = hbm * GB / 2, .slice_bytes = CB_CUDA_PIPELINE_BYTES }

static const struct cb_topo presets[] = {
	GPU_HOST("dgx-h100", "NVIDIA DGX H100 datasheet: NVLink4/NVSwitch 450 GB/s per direction "
		 "per GPU, 8 x 400 Gb/s ConnectX-7 (one per GPU), HBM3 3.35 TB/s; " ALPHA_NOTE,
		 8, 450, 2, 50, 5, CB_NET_PER_RANK, 3350),
	GPU_HOST("h100-nvlink-400g-host", "8 H100 SXM5 on NVSwitch (450 GB/s per direction per "
		 "GPU), one 400 Gb/s NIC per host; " ALPHA_NOTE,
		 8, 450, 2, 50, 5, CB_NET_PER_HOST, 3350),
	GPU_HOST("pcie5-h100-400g", "8 H100 PCIe per host over PCIe Gen5 x16 (63 GB/s per "
		 "direction), one 400 Gb/s NIC per GPU, HBM2e 2.0 TB/s; " ALPHA_NOTE,
		 8, 63, 3, 50, 5, CB_NET_PER_RANK, 2000),
	GPU_HOST("pcie4-a100-200g", "8 A100 PCIe per host over PCIe Gen4 x16 (31.5 GB/s per "
		 "direction), one 200 Gb/s NIC per host, HBM2 1,555 GB/s; " ALPHA_NOTE,
		 8, 31.5, 3, 25, 5, CB_NET_PER_HOST, 1555),
	GPU_HOST("pcie4-a100-100g", "8 A100 PCIe per host over PCIe Gen4 x16 (31.5 GB/s per "
		 "direction), one 100 Gb/s Ethernet NIC per host, HBM2 1,555 GB/s; " ALPHA_NOTE,
		 8, 31.5, 3, 12.5, 10, CB_NET_PER_HOST, 1555),
	{ .name = "vm-2core",
	  .source = "this 2-core VM's host memory as the fabric, fitted on results/reference "
		    "(ps, ring, copy at 2 ranks: alpha over all sizes, beta, gamma and the "
		    "one-sided reduce over >= 1 MiB in one tier); no network",
	  .ranks_per_host = 2, .intra = { 16.1 * GB, 0.21 * US }, .net_attach = CB_NET_PER_HOST,
	  .gamma = 6.5 * GB, .fused_bw = 7.1 * GB, .copy_bw = 16.1 * GB,
	  .slice_bytes = CB_HOST_PIPELINE_BYTES, .cpus_per_host = 2 },
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

size_t cb_topo_npresets(void)
{
	return NPRESETS;
}

const struct cb_topo *cb_topo_preset_at(size_t i)
{
	return i < NPRESETS ? &presets[i] : NULL;
}

const struct cb_topo *cb_topo_preset(const char *name)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

static int link_ok(const struct cb_link *l)
{
	return isfinite(l->bw) && l->bw > 0 && isfinite(l->alpha) && l->alpha >= 0;
}

enum cb_status cb_topo_check(const struct cb_topo *t, char *err, size_t errlen)
{
	if (t->ranks_per_host < 1)
		return cb_refuse(err, errlen, "%s: ranks_per_host must be >= 1", t->name);
	if (!link_ok(&t->intra))
		return cb_refuse(err, errlen, "%s: intra: bandwidth must be > 0 and alpha >= 0",
				 t->name);
	if (t->net.bw != 0 && !link_ok(&t->net))
		return cb_refuse(err, errlen,
				 "%s: net: bandwidth must be > 0 (0: no network) and alpha "
				 ">= 0",
				 t->name);
	if (!(t->gamma > 0) || isnan(t->gamma))
		return cb_refuse(err, errlen, "%s: gamma must be > 0 (or infinite: free)", t->name);
	if (!(t->fused_bw >= 0) || !isfinite(t->fused_bw))
		return cb_refuse(err, errlen, "%s: fused rate must be > 0 (0: the default)",
				 t->name);
	if (!(t->copy_bw > 0) || !isfinite(t->copy_bw))
		return cb_refuse(err, errlen, "%s: copy bandwidth must be > 0", t->name);
	if (!(t->fresh_bw >= 0) || !isfinite(t->fresh_bw))
		return cb_refuse(err, errlen, "%s: fresh rate must be > 0 (0: free)", t->name);
	if (t->slice_bytes < 1)
		return cb_refuse(err, errlen, "%s: slice_bytes must be >= 1", t->name);
	if (t->cpus_per_host < 0)
		return cb_refuse(err, errlen, "%s: cpus_per_host must be >= 0", t->name);
	return CB_OK;
}

/* A number member in [lo, hi] (lo excluded when lo_open) scaled by mul;
 * absent: *out unchanged when optional, else an error. null is accepted where
 * null_ok (*out = INFINITY). */
static enum cb_status get_num(const json_t *obj, const char *path, const char *key, double lo,
			      int lo_open, double hi, double mul, int optional, int null_ok,
			      double *out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(obj, key);
	double x;

	if (!v) {
		if (optional)
			return CB_OK;
		return cb_refuse(err, errlen, "%s%s: missing", path, key);
	}
	if (json_is_null(v) && null_ok) {
		*out = INFINITY;
		return CB_OK;
	}
	if (!json_is_number(v))
		return cb_refuse(err, errlen, "%s%s: must be a number%s", path, key,
				 null_ok ? " or null" : "");
	x = json_number_value(v);
	if (!isfinite(x) || x < lo || (lo_open && x == lo) || x > hi)
		return cb_refuse(err, errlen, "%s%s: %g is out of range (must be %s %g and <= %g)",
				 path, key, x, lo_open ? ">" : ">=", lo, hi);
	*out = x * mul;
	return CB_OK;
}

/* Refuses keys of obj not in the space-separated list known. */
static enum cb_status only_keys(const json_t *obj, const char *path, const char *known,
				char *err, size_t errlen)
{
	const char *key;
	const json_t *v;

	json_object_foreach((json_t *)obj, key, v) {
		size_t kl = strlen(key);
		const char *p = known;
		int found = 0;

		(void)v;
		while (!found && (p = strstr(p, key)) != NULL) {
			found = (p == known || p[-1] == ' ') && (p[kl] == ' ' || p[kl] == '\0');
			p += kl ? kl : 1;
		}
		if (!found)
			return cb_refuse(err, errlen, "%s%s: unknown key (known: %s)", path, key,
					 known);
	}
	return CB_OK;
}

static enum cb_status parse_link(const json_t *root, const char *key, int optional,
				 struct cb_link *l, enum cb_net_attach *attach, char *err,
				 size_t errlen)
{
	const json_t *o = json_object_get(root, key);
	char path[32];
	enum cb_status st;

	if (!o && optional)
		return CB_OK;
	if (!json_is_object(o))
		return cb_refuse(err, errlen, "%s: %s", key, o ? "must be an object" : "missing");
	snprintf(path, sizeof(path), "%s.", key);
	st = only_keys(o, path, attach ? "bw_GBps alpha_us per" : "bw_GBps alpha_us", err,
		       errlen);
	if (st == CB_OK)
		st = get_num(o, path, "bw_GBps", CB_MODEL_MIN_GBPS, 0, CB_MODEL_MAX_GBPS, GB, 0, 0,
			     &l->bw, err, errlen);
	if (st == CB_OK)
		st = get_num(o, path, "alpha_us", 0, 0, CB_MODEL_MAX_US, US, 0, 0, &l->alpha, err,
			     errlen);
	if (st == CB_OK && attach && json_object_get(o, "per")) {
		const char *per = json_string_value(json_object_get(o, "per"));

		if (per && strcmp(per, "host") == 0)
			*attach = CB_NET_PER_HOST;
		else if (per && strcmp(per, "rank") == 0)
			*attach = CB_NET_PER_RANK;
		else
			st = cb_refuse(err, errlen, "%sper: must be \"host\" or \"rank\"", path);
	}
	return st;
}

/* An integer member in [lo, hi]; absent: *out unchanged when optional. */
static enum cb_status get_int(const json_t *obj, const char *key, long long lo, long long hi,
			      int optional, long long *out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(obj, key);

	if (!v)
		return optional ? CB_OK : cb_refuse(err, errlen, "%s: missing", key);
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return cb_refuse(err, errlen, "%s: must be an integer in [%lld, %lld]", key, lo,
				 hi);
	*out = json_integer_value(v);
	return CB_OK;
}

/* A string member copied into dst[cap]; absent leaves dst unchanged. */
static enum cb_status get_str(const json_t *obj, const char *key, char *dst, size_t cap,
			      char *err, size_t errlen)
{
	const json_t *v = json_object_get(obj, key);

	if (!v)
		return CB_OK;
	if (!json_is_string(v) || strlen(json_string_value(v)) >= cap)
		return cb_refuse(err, errlen, "%s: must be a string of at most %zu bytes", key,
				 cap - 1);
	strcpy(dst, json_string_value(v));
	return CB_OK;
}

#define TOP_KEYS "schema name source ranks_per_host intra net gamma_GBps fused_GBps " \
	"fresh_GBps copy_GBps slice_bytes cpus_per_host switch_us wait_frac"

static enum cb_status parse_root(const json_t *root, struct cb_topo *t, char *err, size_t errlen)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	long long rph = 0, slice = (long long)(16 * MIB), cpus = 0;
	enum cb_status st;

	if (!schema || strcmp(schema, TOPO_SCHEMA) != 0)
		return cb_refuse(err, errlen, "schema: must be \"%s\"", TOPO_SCHEMA);
	st = only_keys(root, "", TOP_KEYS, err, errlen);
	if (st == CB_OK)
		st = get_str(root, "name", t->name, sizeof(t->name), err, errlen);
	if (st == CB_OK)
		st = get_str(root, "source", t->source, sizeof(t->source), err, errlen);
	if (st == CB_OK)
		st = get_int(root, "ranks_per_host", 1, 1 << 20, 0, &rph, err, errlen);
	if (st == CB_OK)
		st = parse_link(root, "intra", 0, &t->intra, NULL, err, errlen);
	if (st == CB_OK)
		st = parse_link(root, "net", 1, &t->net, &t->net_attach, err, errlen);
	if (st == CB_OK)
		st = get_num(root, "", "gamma_GBps", CB_MODEL_MIN_GBPS, 0, CB_MODEL_MAX_GBPS,
			     GB, 0, 1, &t->gamma, err, errlen);
	t->copy_bw = t->intra.bw;
	if (st == CB_OK && !json_is_null(json_object_get(root, "fused_GBps")))
		st = get_num(root, "", "fused_GBps", CB_MODEL_MIN_GBPS, 0, CB_MODEL_MAX_GBPS,
			     GB, 1, 0, &t->fused_bw, err, errlen);
	if (st == CB_OK && !json_is_null(json_object_get(root, "fresh_GBps"))) /* absent: free */
		st = get_num(root, "", "fresh_GBps", CB_MODEL_MIN_GBPS, 0, CB_MODEL_MAX_GBPS,
			     GB, 1, 0, &t->fresh_bw, err, errlen);
	if (st == CB_OK)
		st = get_num(root, "", "copy_GBps", CB_MODEL_MIN_GBPS, 0, CB_MODEL_MAX_GBPS,
			     GB, 1, 0, &t->copy_bw, err, errlen);
	if (st == CB_OK)
		st = get_int(root, "slice_bytes", 1, 1LL << 40, 1, &slice, err, errlen);
	if (st == CB_OK)
		st = get_int(root, "cpus_per_host", 0, 1 << 20, 1, &cpus, err, errlen);
	if (st == CB_OK) /* time slicing's cost per waited round (cb_model.h); absent: 0 */
		st = get_num(root, "", "switch_us", 0, 0, CB_MODEL_MAX_US, US, 1, 0, &t->switch_s,
			     err, errlen);
	if (st == CB_OK)
		st = get_num(root, "", "wait_frac", 0, 0, 1e3, 1, 1, 0, &t->wait_frac, err, errlen);
	t->ranks_per_host = (int)rph;
	t->slice_bytes = (size_t)slice;
	t->cpus_per_host = (int)cpus;
	return st;
}

/* The file's base name without ".json", as the default topology name. */
static void default_name(const char *name, char *dst, size_t cap)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	size_t len = strlen(base);

	if (len > 5 && strcmp(base + len - 5, ".json") == 0)
		len -= 5;
	if (len >= cap)
		len = cap - 1;
	memcpy(dst, base, len);
	dst[len] = '\0';
}

/* Parses len bytes of a topology file (name for messages and the default
 * name). Errors: CB_ERR_ARG with "name: key: what is wrong" in err. */
static enum cb_status topo_parse(const char *buf, size_t len, const char *name, struct cb_topo *t,
				 char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	char why[384];
	enum cb_status st;

	memset(t, 0, sizeof(*t));
	if (!root) {
		snprintf(err, errlen, "%s: not valid JSON: line %d: %s", name, jerr.line, jerr.text);
		return CB_ERR_ARG;
	}
	default_name(name, t->name, sizeof(t->name));
	snprintf(t->source, sizeof(t->source), "%s", name);
	st = json_is_object(root) ? parse_root(root, t, why, sizeof(why))
				  : cb_refuse(why, sizeof(why), "the top level must be an object");
	if (st == CB_OK)
		st = cb_topo_check(t, why, sizeof(why));
	json_decref(root);
	if (st != CB_OK) {
		snprintf(err, errlen, "%s: %s", name, why);
		memset(t, 0, sizeof(*t));
	}
	return st;
}

enum cb_status cb_topo_load(const char *spec, struct cb_topo *t, char *err, size_t errlen)
{
	const struct cb_topo *p = cb_topo_preset(spec);
	size_t len = 0, off;
	char *buf, why[128];
	enum cb_status st;

	if (p) {
		*t = *p;
		return CB_OK;
	}
	/* a directory or a device is refused before it is read (cb_input.h) */
	st = cb_input_read(spec, TOPO_MAX_BYTES, &buf, &len, why, sizeof(why));
	if (st == CB_ERR_NOMEM) {
		snprintf(err, errlen, "topology '%s': out of memory", spec);
		return st;
	}
	if (st != CB_OK) {
		off = (size_t)snprintf(err, errlen, "topology '%s': not a preset (", spec);
		for (size_t i = 0; i < cb_topo_npresets() && off < errlen; i++)
			off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "",
						cb_topo_preset_at(i)->name);
		if (off < errlen)
			snprintf(err + off, errlen - off, ") and %s: %s", st == CB_ERR_ARG ?
				 "not a topology file" : "not a readable file", why);
		return st;
	}
	st = topo_parse(buf, len, spec, t, err, errlen);
	free(buf);
	return st;
}

enum cb_status cb_topo_write(FILE *f, const struct cb_topo *t)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:i, s:{s:f, s:f}, s:f, s:I, s:i}", "schema",
			      TOPO_SCHEMA, "name", cb_json_text(t->name), "source",
			      cb_json_text(t->source), "ranks_per_host", t->ranks_per_host, "intra",
			      "bw_GBps", t->intra.bw / GB, "alpha_us", t->intra.alpha / US,
			      "copy_GBps", t->copy_bw / GB, "slice_bytes", (json_int_t)t->slice_bytes,
			      "cpus_per_host", t->cpus_per_host);
	enum cb_status st;

	if (!o)
		return CB_ERR_NOMEM;
	if (t->net.bw > 0)
		json_object_set_new(o, "net", json_pack("{s:f, s:f, s:s}", "bw_GBps", t->net.bw / GB,
							"alpha_us", t->net.alpha / US, "per",
							t->net_attach == CB_NET_PER_RANK ? "rank"
											 : "host"));
	json_object_set_new(o, "gamma_GBps",
			    isinf(t->gamma) ? json_null() : json_real(t->gamma / GB));
	if (t->fused_bw > 0)
		json_object_set_new(o, "fused_GBps", json_real(t->fused_bw / GB));
	if (t->fresh_bw > 0)
		json_object_set_new(o, "fresh_GBps", json_real(t->fresh_bw / GB));
	if (t->switch_s > 0)
		json_object_set_new(o, "switch_us", json_real(t->switch_s / US));
	if (t->wait_frac > 0)
		json_object_set_new(o, "wait_frac", json_real(t->wait_frac));
	st = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', f) != EOF
		     ? CB_OK
		     : CB_ERR_IO;
	json_decref(o);
	return st;
}

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
