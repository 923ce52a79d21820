/* cb_libconf: a launch's library configuration (contract in cb_libconf.h). */
#include "cb_libconf.h"

#include <stdlib.h>
#include <string.h>

/* Prefixes that are library configuration, and the names under them that
 * are not. */
static const char *const prefixes[] = { "OMPI_MCA_", "NCCL_", "UCX_" };
static const char *const not_config[] = {
	"OMPI_MCA_mpi_oversubscribe", "OMPI_MCA_rmaps_base_oversubscribe", /* placement */
	/* lets the coll_tuned_* settings count; alone it changes nothing (with no
	 * algorithm forced and no rules file coll/tuned takes its fixed decision):
	 * sweep.sh sets it for the mpi.* rows, whose runs stay comparable */
	"OMPI_MCA_coll_tuned_use_dynamic_rules",
	"NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_FILE", "UCX_LOG_LEVEL", /* logging */
};

int cb_libconf_var(const char *name)
{
	int lib = 0;

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		lib |= strncmp(name, prefixes[i], strlen(prefixes[i])) == 0;
	for (size_t i = 0; lib && i < sizeof(not_config) / sizeof(not_config[0]); i++)
		lib = strcmp(name, not_config[i]) != 0;
	return lib;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int cb_libconf_text(const json_t *env, char *out, size_t cap)
{
	const char *key, **names;
	const json_t *v;
	size_t n = 0, k = 0;
	int rc = 0;

	out[0] = '\0';
	if (!env)
		return 0;
	if (!json_is_object(env))
		return -1;
	names = malloc((json_object_size(env) + 1) * sizeof(*names));
	if (!names)
		return -1;
	json_object_foreach ((json_t *)env, key, v) {
		if (!json_is_string(v))
			rc = -1;
		else if (cb_libconf_var(key))
			names[n++] = key;
	}
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const char *val = json_string_value(json_object_get(env, names[i]));
		size_t need = strlen(names[i]) + strlen(val) + 2;

		if (k + need >= cap) {
			rc = -1;
			break;
		}
		k += (size_t)snprintf(out + k, cap - k, "%s=%s\n", names[i], val);
	}
	free(names);
	return rc;
}

/* Sets into to each string of the object from (NULL or null: none); where
 * keep, not over a name into already has. Returns 0, or -1 when from is not
 * an object of strings. */
static int merge(json_t *into, const json_t *from, int keep)
{
	const char *key;
	json_t *v;

	if (!from || json_is_null(from))
		return 0;
	if (!json_is_object(from))
		return -1;
	json_object_foreach ((json_t *)from, key, v) {
		if (!json_is_string(v))
			return -1;
		if ((!keep || !json_object_get(into, key)) &&
		    json_object_set(into, key, v) != 0)
			return -1;
	}
	return 0;
}

int cb_libconf_launch(const json_t *env, const json_t *files, char *out, size_t cap)
{
	json_t *all;
	int rc;

	if (!files || json_is_null(files))
		return cb_libconf_text(env, out, cap);
	out[0] = '\0';
	if (!json_is_object(files) || (env && !json_is_object(env)))
		return -1;
	all = env ? json_copy((json_t *)env) : json_object();
	rc = all ? 0 : -1;
	if (rc == 0)
		rc = merge(all, json_object_get(files, "settings"), 1);
	if (rc == 0)
		rc = merge(all, json_object_get(files, "override"), 0);
	if (rc == 0)
		rc = cb_libconf_text(all, out, cap);
	json_decref(all);
	return rc;
}

/* The entry at *p ("NAME=VALUE\n"): its name and value lengths; advances *p. */
static const char *next_entry(const char **p, size_t *nlen, const char **val, size_t *vlen)
{
	const char *e = *p, *eq, *nl;

	if (!*e)
		return NULL;
	nl = strchr(e, '\n');
	if (!nl)
		nl = e + strlen(e);
	eq = memchr(e, '=', (size_t)(nl - e));
	if (!eq)
		eq = nl;
	*nlen = (size_t)(eq - e);
	*val = eq < nl ? eq + 1 : nl;
	*vlen = (size_t)(nl - *val);
	*p = *nl ? nl + 1 : nl;
	return e;
}

static void put(char *dst, size_t len, const char *s, size_t n)
{
	snprintf(dst, len, "%.*s", (int)(n < len ? n : len - 1), s);
}

/* Negative when name x (length xn) sorts before y, as strcmp over names. */
static int cmp_names(const char *x, size_t xn, const char *y, size_t yn)
{
	int c = strncmp(x, y, xn < yn ? xn : yn);

	return c ? c : (xn > yn) - (xn < yn);
}

int cb_libconf_diff(const char *a, const char *b, char *name, char *va, char *vb, size_t len)
{
	const char *pa = a, *pb = b, *ea, *eb, *xa = "", *xb = "";
	size_t na = 0, nb = 0, la = 0, lb = 0;

	ea = next_entry(&pa, &na, &xa, &la);
	eb = next_entry(&pb, &nb, &xb, &lb);
	while (ea || eb) {
		int c = !ea ? 1 : !eb ? -1 : cmp_names(ea, na, eb, nb);

		if (c == 0 && la == lb && strncmp(xa, xb, la) == 0) {
			ea = next_entry(&pa, &na, &xa, &la);
			eb = next_entry(&pb, &nb, &xb, &lb);
			continue;
		}
		put(name, len, c <= 0 ? ea : eb, c <= 0 ? na : nb);
		put(va, len, c <= 0 ? xa : "", c <= 0 ? la : 0);
		put(vb, len, c >= 0 ? xb : "", c >= 0 ? lb : 0);
		return 1;
	}
	return 0;
}

void cb_libconf_line(const char *text, char *out, size_t cap)
{
	size_t k = 0;

	for (const char *p = text; *p && k + 1 < cap; p++)
		out[k++] = *p == '\n' ? ' ' : *p;
	while (k > 0 && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
}
