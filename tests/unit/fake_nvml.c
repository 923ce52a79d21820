/* A fake libnvidia-ml for test_nvml.c: NVML's functions that cb_nvml.c
 * loads, with NVML's signatures (its API reference), failing as
 * FAKE_NVML says: "init" (nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED), "bus"
 * (no GPU of that bus id: NVML_ERROR_NOT_FOUND), "nolinks" (no NVLink:
 * nvmlDeviceGetNvLinkState NOT_SUPPORTED), "counters" (links, but the
 * throughput fields NOT_SUPPORTED), "count5" (those NOT_SUPPORTED, NVLink
 * 5's byte counters 202/204: 5000 B and 7000 B); unset: 2 active links,
 * 5 KiB sent and 7 KiB received. */
#include <stdlib.h>
#include <string.h>

struct field { /* nvmlFieldValue_t */
	unsigned int field_id, scope_id;
	long long timestamp, latency_us;
	int value_type, ret;
	union {
		unsigned int ui;
		unsigned long long ull;
	} value;
};

int nvmlInit_v2(void);
int nvmlShutdown(void);
const char *nvmlErrorString(int r);
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev);
int nvmlDeviceGetName(void *dev, char *name, unsigned int len);
int nvmlDeviceGetFieldValues(void *dev, int n, struct field *f);
int nvmlDeviceGetNvLinkState(void *dev, unsigned int link, int *on);

static int is(const char *what)
{
	const char *v = getenv("FAKE_NVML");

	return v && strcmp(v, what) == 0;
}

int nvmlInit_v2(void)
{
	return is("init") ? 9 : 0; /* NVML_ERROR_DRIVER_NOT_LOADED */
}

int nvmlShutdown(void)
{
	return 0;
}

const char *nvmlErrorString(int r)
{
	return r == 9 ? "Driver Not Loaded" : r == 6 ? "Not Found" : r == 3 ? "Not Supported" : "Success";
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev)
{
	(void)bus;
	*dev = (void *)1;
	return is("bus") ? 6 : 0;
}

int nvmlDeviceGetName(void *dev, char *name, unsigned int len)
{
	(void)dev;
	strncpy(name, "Fake GPU", len);
	return 0;
}

int nvmlDeviceGetNvLinkState(void *dev, unsigned int link, int *on)
{
	(void)dev;
	if (is("nolinks"))
		return 3;
	*on = 1;
	return link < 2 ? 0 : 2;
}

int nvmlDeviceGetFieldValues(void *dev, int n, struct field *f)
{
	(void)dev;
	for (int i = 0; i < n; i++) {
		int count5 = f[i].field_id >= 200;

		f[i].ret = is("counters") || (is("count5") != count5) ? 3 : 0;
		f[i].value_type = 3;
		f[i].value.ull = (f[i].field_id == 138 || f[i].field_id == 202 ? 5 : 7) * (count5 ? 1000 : 1);
	}
	return 0;
}
