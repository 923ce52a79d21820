/* cb_machine: a machine's identity, what collbench-compare matches baselines
 * on and what keeps collbench-history's series apart (docs/regression.md,
 * "A baseline belongs to one machine"; docs/history.md, "Series never mix
 * machines"). One code path makes it for every tool: allreduce_perf
 * records this host's facts in its metadata ("host", "machine"), the results
 * reader turns a metadata file into the identity text, and collbench-history
 * computes this machine's text the same way to find "this machine's series".
 *
 * The identity text: "label (cpu model, N CPUs)", with ", GPU model" inside
 * the parentheses where the backend has one. Memory is recorded ("mem_gib")
 * but is not part of it: the kernel's usable total moves with its version
 * and reservations (tens of MB), so any rounding of it has edges a machine
 * can sit next to (23.54 GiB is 40 MB from the 23.5 GiB edge of rounding to
 * the nearest GiB), and the same machine would become another. Identities
 * written before that ("label (cpu, N CPUs, M GiB[, GPU model])") convert
 * with cb_machine_identity_upgrade. */
#ifndef CB_MACHINE_H
#define CB_MACHINE_H

#include <jansson.h>
#include <stddef.h>

struct cb_machine_host {
	char hostname[256];      /* gethostname(), "" when unknown */
	char cpu_model[256];     /* /proc/cpuinfo's first "model name" */
	int cpu_known;           /* 0: no "model name" line (recorded as null) */
	long cpus;               /* CPUs online (sysconf) */
	long long mem_bytes;     /* total RAM in bytes (sysinfo), 0 when unknown */
};

/* This host's facts into h. Never fails: what cannot be read stays empty / 0. */
void cb_machine_host_read(struct cb_machine_host *h);

/* The metadata's "machine" object of host h for a backend whose GPU model is
 * gpu ("" on host): {"label": CB_MACHINE when set and not empty, else the host
 * name up to its first dot; "label_from": "CB_MACHINE" | "hostname";
 * "cpu_model" (null when unknown); "cpus"; "mem_gib": memory rounded to the
 * nearest GiB (a fact for readers, not part of the identity text);
 * "gpu_model"}. Text follows cb_text's rule for bytes that are not UTF-8.
 * NULL when out of memory. */
json_t *cb_machine_json(const struct cb_machine_host *h, const char *gpu);

/* The identity text of a metadata file into out (len bytes) and its label
 * into label (llen bytes): from its "machine" object when machine is not
 * NULL, else from its "host" object (files older than "machine": host name up
 * to its first dot, cpu_model, cpus_online); gpu is the GPU model ("" for
 * none); what is absent shows as "?". Memory ("mem_gib", "mem_bytes") is not
 * read (see the top), so files of every version give the same text.
 * Returns -1 (out unchanged) when machine is not NULL and not an object. */
int cb_machine_identity(const json_t *machine, const json_t *host, const char *gpu, char *out,
			size_t len, char *label, size_t llen);

/* This machine's identity text for GPU model gpu ("" for host runs), as a run
 * made here now records it (cb_machine_host_read, cb_machine_json,
 * cb_machine_identity); its label into label. Returns -1 when out of memory. */
int cb_machine_here(const char *gpu, char *out, size_t len, char *label, size_t llen);

/* An identity text of the form written before memory left the identity,
 * "label (cpu, N CPUs, M GiB)" or "... M GiB, GPU model)" (M digits or
 * "?"), into the current form (out, len bytes): the ", M GiB" after the
 * first " CPUs" that has one is removed. A text without it is copied as it
 * is. Returns 1 when the text changed, else 0. */
int cb_machine_identity_upgrade(const char *old, char *out, size_t len);

#endif
