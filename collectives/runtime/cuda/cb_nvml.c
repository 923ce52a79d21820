/* cb_nvml: NVML loaded at run time (contract in cb_nvml.h). The types and
 * function signatures below are NVML's, as its API reference states them
 * (NVML API Reference Guide, docs.nvidia.com/deploy/nvml-api): only what
 * this file uses, so that no nvml.h is needed to build. */
#define _GNU_SOURCE
#include "cb_nvml.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cb_nvml_ret;             /* nvmlReturn_t: NVML_SUCCESS = 0 */
typedef struct cb_nvml_dev *cb_nvml_dev; /* nvmlDevice_t, opaque */

/* nvmlFieldValue_t ("Field Value Queries"): fieldId, scopeId (a link id,
 * or UINT_MAX: summed over links), timestamp, latencyUsec, valueType,
 * nvmlReturn, value (union nvmlValue_t, 8 bytes) */
struct cb_nvml_field {
	unsigned int field_id, scope_id;
	long long timestamp, latency_us;
	int value_type, ret;
	union {
		double d;
		unsigned int ui;
		unsigned long ul;
		unsigned long long ull;
		signed long long sll;
	} value;
};

/* field ids ("Field Value Enums" of nvml.h) */
#define FI_NVLINK_SPEED_MBPS_COMMON 90 /* common speed of the active links, MBps */
#define FI_NVLINK_DATA_TX 138          /* NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, KiB */
#define FI_NVLINK_DATA_RX 139          /* NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, KiB */
#define FI_NVLINK_XMIT_BYTES 202       /* NVML_FI_DEV_NVLINK_COUNT_XMIT_BYTES (NVLink 5), B */
#define FI_NVLINK_RCV_BYTES 204        /* NVML_FI_DEV_NVLINK_COUNT_RCV_BYTES, B */
#define VALUE_TYPE_UINT 1              /* NVML_VALUE_TYPE_UNSIGNED_INT */
#define VALUE_TYPE_ULONG 2
#define VALUE_TYPE_ULLONG 3
#define NVLINK_MAX_LINKS 18            /* NVML_NVLINK_MAX_LINKS (NVML 12) */
#define NVLINK_DEVICE_TYPE_SWITCH 2    /* NVML_NVLINK_DEVICE_TYPE_SWITCH */

struct cb_nvml {
	void *lib; /* dlopen's handle; NULL: the process's own NVML */
	cb_nvml_dev dev;
	cb_nvml_ret (*init)(void);                       /* nvmlInit_v2 */
	cb_nvml_ret (*shutdown)(void);                   /* nvmlShutdown */
	const char *(*error)(cb_nvml_ret);               /* nvmlErrorString */
	cb_nvml_ret (*by_bus)(const char *, cb_nvml_dev *); /* nvmlDeviceGetHandleByPciBusId_v2 */
	cb_nvml_ret (*name)(cb_nvml_dev, char *, unsigned); /* nvmlDeviceGetName */
	cb_nvml_ret (*fields)(cb_nvml_dev, int, struct cb_nvml_field *); /* nvmlDeviceGetFieldValues */
	/* optional (NULL: unknown) */
	cb_nvml_ret (*link_state)(cb_nvml_dev, unsigned, int *);   /* nvmlDeviceGetNvLinkState */
	cb_nvml_ret (*link_version)(cb_nvml_dev, unsigned, unsigned *); /* nvmlDeviceGetNvLinkVersion */
	cb_nvml_ret (*link_remote)(cb_nvml_dev, unsigned, int *);  /* nvmlDeviceGetNvLinkRemoteDeviceType */
	cb_nvml_ret (*pcie_gen)(cb_nvml_dev, unsigned *);   /* nvmlDeviceGetCurrPcieLinkGeneration */
	cb_nvml_ret (*pcie_width)(cb_nvml_dev, unsigned *); /* nvmlDeviceGetCurrPcieLinkWidth */
	char why[CB_NVML_TEXT]; /* the counters' answer once known */
	int read_once;
	unsigned fi_tx, fi_rx, unit; /* the counters' fields and their unit in bytes */
};

static void *sym(struct cb_nvml *nv, const char *name)
{
	return dlsym(nv->lib ? nv->lib : RTLD_DEFAULT, name);
}

/* The library: the process's own NVML, else CB_NVML_LIB or the driver's. */
static int load(struct cb_nvml *nv, char *why, size_t cap)
{
	const char *path = getenv("CB_NVML_LIB");

	if (dlsym(RTLD_DEFAULT, "nvmlInit_v2"))
		return 1;
	if (!path || !*path)
		path = "libnvidia-ml.so.1";
	nv->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!nv->lib) {
		snprintf(why, cap, "no NVML (%s)", dlerror());
		return 0;
	}
	return 1;
}

/* The functions every use needs; 0 with why when one is missing. */
static int resolve(struct cb_nvml *nv, char *why, size_t cap)
{
	static const char *const need[] = { "nvmlInit_v2", "nvmlShutdown", "nvmlErrorString",
					    "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetName",
					    "nvmlDeviceGetFieldValues" };
	void *p[6];

	for (int i = 0; i < 6; i++)
		if (!(p[i] = sym(nv, need[i]))) {
			snprintf(why, cap, "no NVML (%s lacks %s)", nv->lib ? "the library" : "the process",
				 need[i]);
			return 0;
		}
	*(void **)&nv->init = p[0];
	*(void **)&nv->shutdown = p[1];
	*(void **)&nv->error = p[2];
	*(void **)&nv->by_bus = p[3];
	*(void **)&nv->name = p[4];
	*(void **)&nv->fields = p[5];
	*(void **)&nv->link_state = sym(nv, "nvmlDeviceGetNvLinkState");
	*(void **)&nv->link_version = sym(nv, "nvmlDeviceGetNvLinkVersion");
	*(void **)&nv->link_remote = sym(nv, "nvmlDeviceGetNvLinkRemoteDeviceType");
	*(void **)&nv->pcie_gen = sym(nv, "nvmlDeviceGetCurrPcieLinkGeneration");
	*(void **)&nv->pcie_width = sym(nv, "nvmlDeviceGetCurrPcieLinkWidth");
	return 1;
}

struct cb_nvml *cb_nvml_open(const char *bus_id, char *why, size_t cap)
{
	struct cb_nvml *nv = calloc(1, sizeof(*nv));
	cb_nvml_ret r;

	if (!nv) {
		snprintf(why, cap, "no NVML (out of memory)");
		return NULL;
	}
	if (!load(nv, why, cap) || !resolve(nv, why, cap))
		goto out_free;
	r = nv->init();
	if (r != 0) {
		snprintf(why, cap, "no NVML (nvmlInit: %s)", nv->error(r));
		goto out_free;
	}
	r = nv->by_bus(bus_id, &nv->dev);
	if (r != 0) {
		snprintf(why, cap, "NVML does not know GPU %s (%s)", bus_id, nv->error(r));
		nv->shutdown();
		goto out_free;
	}
	return nv;

out_free:
	if (nv->lib)
		dlclose(nv->lib);
	free(nv);
	return NULL;
}

void cb_nvml_close(struct cb_nvml *nv)
{
	if (!nv)
		return;
	nv->shutdown();
	if (nv->lib)
		dlclose(nv->lib);
	free(nv);
}

/* A field's value as an integer; 0 with *ok 0 where NVML has none. */
static unsigned long long field_value(const struct cb_nvml_field *f, int *ok)
{
	*ok = f->ret == 0;
	if (!*ok)
		return 0;
	switch (f->value_type) {
	case VALUE_TYPE_UINT: return f->value.ui;
	case VALUE_TYPE_ULONG: return f->value.ul;
	case VALUE_TYPE_ULLONG: return f->value.ull;
	default: return (unsigned long long)f->value.sll;
	}
}

/* Active links, their version and whether one ends at an NVSwitch. */
static void links(struct cb_nvml *nv, struct cb_nvml_facts *f)
{
	for (unsigned l = 0; nv->link_state && l < NVLINK_MAX_LINKS; l++) {
		int on = 0, remote = -1;
		unsigned v = 0;

		if (nv->link_state(nv->dev, l, &on) != 0)
			break; /* no such link (NVML_ERROR_INVALID_ARGUMENT / NOT_SUPPORTED) */
		if (!on)
			continue;
		f->nvlink_links++;
		if (!f->nvlink_version && nv->link_version && nv->link_version(nv->dev, l, &v) == 0)
			f->nvlink_version = (int)v;
		if (nv->link_remote && nv->link_remote(nv->dev, l, &remote) == 0 &&
		    remote == NVLINK_DEVICE_TYPE_SWITCH)
			f->nvswitch = 1;
	}
}

/* Reads fields tx_id and rx_id (summed over links) times unit into *tx,
 * *rx; 0, or the NVML error of the first that failed. */
static cb_nvml_ret read_pair(struct cb_nvml *nv, unsigned tx_id, unsigned rx_id, unsigned unit,
			     uint64_t *tx, uint64_t *rx)
{
	struct cb_nvml_field f[2] = { { .field_id = tx_id, .scope_id = UINT_MAX },
				      { .field_id = rx_id, .scope_id = UINT_MAX } };
	cb_nvml_ret r = nv->fields(nv->dev, 2, f);
	int ok_tx, ok_rx;

	*tx = field_value(&f[0], &ok_tx) * unit;
	*rx = field_value(&f[1], &ok_rx) * unit;
	return r != 0 ? r : !ok_tx ? f[0].ret : !ok_rx ? f[1].ret : 0;
}

/* The first read: is there an active link, and which counters answer: the
 * THROUGHPUT_DATA pair (KiB), else NVLink 5's COUNT bytes pair (drivers
 * where the former is not supported). */
static const char *first_read(struct cb_nvml *nv, uint64_t *tx, uint64_t *rx)
{
	struct cb_nvml_facts facts = { 0 };
	cb_nvml_ret r;

	nv->read_once = 1;
	links(nv, &facts);
	if (nv->link_state && !facts.nvlink_links) {
		/* nvmlDeviceGetPcieThroughput is a rate sampled over 20 ms, not a
		 * counter: PCIe traffic stays unmeasured */
		snprintf(nv->why, sizeof(nv->why), "no NVLink counters (no active NVLink link)");
		return nv->why;
	}
	nv->fi_tx = FI_NVLINK_DATA_TX, nv->fi_rx = FI_NVLINK_DATA_RX, nv->unit = 1024;
	r = read_pair(nv, nv->fi_tx, nv->fi_rx, nv->unit, tx, rx);
	if (r == 0)
		return NULL;
	nv->fi_tx = FI_NVLINK_XMIT_BYTES, nv->fi_rx = FI_NVLINK_RCV_BYTES, nv->unit = 1;
	if (read_pair(nv, nv->fi_tx, nv->fi_rx, nv->unit, tx, rx) == 0)
		return NULL;
	snprintf(nv->why, sizeof(nv->why), "no NVLink counters (%s)", nv->error(r));
	return nv->why;
}

const char *cb_nvml_read(struct cb_nvml *nv, uint64_t *tx, uint64_t *rx)
{
	cb_nvml_ret r;

	if (nv->read_once && nv->why[0])
		return nv->why;
	if (!nv->read_once)
		return first_read(nv, tx, rx);
	r = read_pair(nv, nv->fi_tx, nv->fi_rx, nv->unit, tx, rx);
	if (r != 0)
		snprintf(nv->why, sizeof(nv->why), "no NVLink counters (%s)", nv->error(r));
	return nv->why[0] ? nv->why : NULL;
}

void cb_nvml_facts(struct cb_nvml *nv, struct cb_nvml_facts *f)
{
	struct cb_nvml_field speed = { .field_id = FI_NVLINK_SPEED_MBPS_COMMON };
	unsigned g = 0, w = 0;
	int ok;

	memset(f, 0, sizeof(*f));
	f->known = 1;
	if (nv->name(nv->dev, f->name, sizeof(f->name)) != 0)
		snprintf(f->name, sizeof(f->name), "unknown");
	links(nv, f);
	/* MBps: 1e6 bytes per second, per link and direction */
	if (f->nvlink_links && nv->fields(nv->dev, 1, &speed) == 0)
		f->link_GBps = (double)field_value(&speed, &ok) / 1e3;
	if (nv->pcie_gen && nv->pcie_gen(nv->dev, &g) == 0)
		f->pcie_gen = (int)g;
	if (nv->pcie_width && nv->pcie_width(nv->dev, &w) == 0)
		f->pcie_width = (int)w;
}
