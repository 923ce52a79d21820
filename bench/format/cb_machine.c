/* cb_machine: machine identity (contract in cb_machine.h). */
#define _GNU_SOURCE
#include "cb_machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "cb_text.h"

/* /proc/cpuinfo's first "model name" into h; cpu_known 0 when there is none. */
static void read_cpu_model(struct cb_machine_host *h)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) == 0 && colon) {
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", colon[1] ? colon + 2 : "");
			h->cpu_known = 1;
			break;
		}
	}
	fclose(f);
}

void cb_machine_host_read(struct cb_machine_host *h)
{
	struct sysinfo si;

	memset(h, 0, sizeof(*h));
	if (gethostname(h->hostname, sizeof(h->hostname) - 1) != 0)
		h->hostname[0] = '\0';
	read_cpu_model(h);
	h->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (sysinfo(&si) == 0)
		h->mem_bytes = (long long)si.totalram * (long long)si.mem_unit;
}

json_t *cb_machine_json(const struct cb_machine_host *h, const char *gpu)
{
	const char *label = getenv("CB_MACHINE");
	char shorthost[256];
	int from_env = label && *label;

	snprintf(shorthost, sizeof(shorthost), "%.*s", (int)strcspn(h->hostname, "."),
		 h->hostname);
	return json_pack("{s:o,s:s,s:o,s:I,s:I,s:o}", "label",
			 cb_json_text(from_env ? label : shorthost), "label_from",
			 from_env ? "CB_MACHINE" : "hostname", "cpu_model",
			 h->cpu_known ? cb_json_text(h->cpu_model) : json_null(), "cpus",
			 (json_int_t)h->cpus, "mem_gib",
			 (json_int_t)((h->mem_bytes + (1LL << 29)) >> 30), "gpu_model",
			 cb_json_text(gpu));
}

/* An integer member as text, "?" when absent or not an integer >= 0. */
static void int_text(const json_t *v, char *buf, size_t len)
{
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else
		snprintf(buf, len, "?");
}

int cb_machine_identity(const json_t *machine, const json_t *host, const char *gpu, char *out,
			size_t len, char *label, size_t llen)
{
	const char *name, *cpu;
	char cpus[32], lab[256];

	if (machine && !json_is_object(machine))
		return -1;
	if (machine) {
		name = json_string_value(json_object_get(machine, "label"));
		cpu = json_string_value(json_object_get(machine, "cpu_model"));
		int_text(json_object_get(machine, "cpus"), cpus, sizeof(cpus));
		snprintf(lab, sizeof(lab), "%s", name ? name : "?");
	} else {
		name = json_string_value(json_object_get(host, "hostname"));
		cpu = json_string_value(json_object_get(host, "cpu_model"));
		int_text(json_object_get(host, "cpus_online"), cpus, sizeof(cpus));
		snprintf(lab, sizeof(lab), "%.*s", name ? (int)strcspn(name, ".") : 1,
			 name ? name : "?");
	}
	snprintf(out, len, "%.60s (%.80s, %s CPUs%s%.60s)", lab, cpu ? cpu : "?", cpus,
		 *gpu ? ", GPU " : "", gpu);
	snprintf(label, llen, "%.60s", lab);
	return 0;
}

int cb_machine_here(const char *gpu, char *out, size_t len, char *label, size_t llen)
{
	struct cb_machine_host h;
	json_t *m;
	int rc;

	cb_machine_host_read(&h);
	m = cb_machine_json(&h, gpu);
	if (!m)
		return -1;
	rc = cb_machine_identity(m, NULL, gpu, out, len, label, llen);
	json_decref(m);
	return rc;
}

/* The length of ", M GiB" at p when what follows it ends the identity
 * (")" and the end) or goes on with ", GPU "; else 0. */
static size_t mem_part(const char *p)
{
	size_t k = 2, digits;

	if (strncmp(p, ", ", 2) != 0)
		return 0;
	digits = p[k] == '?' ? 1 : strspn(p + k, "0123456789");
	if (digits == 0 || strncmp(p + k + digits, " GiB", 4) != 0)
		return 0;
	k += digits + 4;
	return strcmp(p + k, ")") == 0 || strncmp(p + k, ", GPU ", 6) == 0 ? k : 0;
}

int cb_machine_identity_upgrade(const char *old, char *out, size_t len)
{
	const char *p = old;

	while ((p = strstr(p, " CPUs")) != NULL) {
		size_t k;

		p += 5;
		k = mem_part(p);
		if (k) {
			snprintf(out, len, "%.*s%s", (int)(p - old), old, p + k);
			return 1;
		}
	}
	snprintf(out, len, "%s", old);
	return 0;
}
