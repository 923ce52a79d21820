/* cb_env: the environment variables that change a measurement (contract in
 * cb_env.h). */
#define _GNU_SOURCE
#include "cb_env.h"

#include <stdlib.h>
#include <string.h>

/* The first row that matches a name gives its kind: exact names before the
 * prefixes that contain them. (Not all of OMPI_MCA_*: mpirun passes its own
 * plumbing that way, per rank.) */
static const struct {
	const char *name;
	int prefix; /* name is a prefix */
	enum cb_env_kind kind;
} table[] = {
	{ "CB_WAIT_SPIN_NS", 0, CB_ENV_AGREE },	/* cb_wait.c */
	{ "CB_WAIT_YIELD_NS", 0, CB_ENV_AGREE },
	{ "CB_WAIT_TICK_MS", 0, CB_ENV_AGREE },
	{ "CB_CUDA_SYNC", 0, CB_ENV_AGREE },	/* cb_cuda_probe.c */
	{ "CB_CUDA_WAIT", 0, CB_ENV_AGREE },
	{ "CB_MACHINE", 0, CB_ENV_AGREE },	/* cb_machine.c: the label */
	{ "CUDA_VISIBLE_DEVICES", 0, CB_ENV_PER_RANK },
	{ "OMPI_MCA_mpi_oversubscribe", 0, CB_ENV_PER_RANK }, /* mpirun, per host */
	{ "MALLOC_", 1, CB_ENV_AGREE },
	{ "GLIBC_TUNABLES", 0, CB_ENV_AGREE },
	{ "NCCL_", 1, CB_ENV_AGREE },
	{ "UCX_", 1, CB_ENV_AGREE },
	{ "OMPI_MCA_btl", 1, CB_ENV_AGREE },
	{ "OMPI_MCA_pml", 1, CB_ENV_AGREE },
	{ "OMPI_MCA_osc", 1, CB_ENV_AGREE },
	{ "OMPI_MCA_coll", 1, CB_ENV_AGREE },
	{ "OMPI_MCA_op", 1, CB_ENV_AGREE },
	{ "OMPI_MCA_mpi_", 1, CB_ENV_AGREE },
	{ "OMPI_MCA_rmaps_base_oversubscribe", 0, CB_ENV_AGREE },
};

static size_t name_len(const char *entry)
{
	return strcspn(entry, "=");
}

enum cb_env_kind cb_env_kind(const char *entry)
{
	size_t n = name_len(entry);

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		size_t k = strlen(table[i].name);

		if (table[i].prefix ? n >= k && strncmp(entry, table[i].name, k) == 0 :
				      n == k && strncmp(entry, table[i].name, k) == 0)
			return table[i].kind;
	}
	return CB_ENV_NONE;
}

int cb_env_same_name(const char *a, const char *b)
{
	size_t n = name_len(a);

	return n == name_len(b) && strncmp(a, b, n) == 0;
}

/* qsort order of entries by name (then value, for a stable packing) */
static int by_name(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = name_len(x), ny = name_len(y);
	int c = strncmp(x, y, nx < ny ? nx : ny);

	return c ? c : nx != ny ? (nx < ny ? -1 : 1) : strcmp(x, y);
}

char *cb_env_pack(size_t *len)
{
	extern char **environ;
	size_t n = 0, k = 0, total = 0;
	const char **pick;
	char *buf;

	for (char **e = environ; *e; e++)
		n++;
	pick = calloc(n + 1, sizeof(*pick));
	if (!pick)
		return NULL;
	for (char **e = environ; *e; e++)
		if (strchr(*e, '=') && cb_env_kind(*e) != CB_ENV_NONE) {
			pick[k++] = *e;
			total += strlen(*e) + 1;
		}
	qsort(pick, k, sizeof(*pick), by_name);
	buf = malloc(total + 1);
	*len = 0;
	for (size_t i = 0; buf && i < k; i++) {
		size_t m = strlen(pick[i]) + 1;

		memcpy(buf + *len, pick[i], m);
		*len += m;
	}
	free(pick);
	return buf;
}

const char *cb_env_next(const char *buf, size_t len, const char *at)
{
	const char *next = at ? at + strlen(at) + 1 : buf;

	return next < buf + len ? next : NULL;
}

const char *cb_env_find(const char *buf, size_t len, const char *entry)
{
	for (const char *e = cb_env_next(buf, len, NULL); e; e = cb_env_next(buf, len, e))
		if (cb_env_same_name(e, entry))
			return e;
	return NULL;
}
