/* cb_topo: the "topology" object of a run's metadata, to and from struct
 * cb_topo (cb_topo.h): one JSON key per field, named as the field. */
#include "cb_topo.h"

#include <stdio.h>
#include <string.h>

json_t *cb_topo_json(const struct cb_topo *t)
{
	return json_pack("{s:b, s:s, s:s, s:i, s:i, s:i, s:f, s:b, s:b, s:i, s:i, s:s}",
			 "known", t->known, "source", t->source, "gpu_model", t->gpu_model,
			 "gpu_count", t->gpu_count, "nvlink_version", t->nvlink_version,
			 "nvlink_links", t->nvlink_links, "nvlink_link_GBps", t->nvlink_link_GBps,
			 "nvswitch", t->nvswitch, "nvls", t->nvls, "pcie_gen", t->pcie_gen,
			 "pcie_width", t->pcie_width, "why_unknown", t->why_unknown);
}

/* The integer (or boolean) member key of o into *v; absent or null: 0.
 * Returns -1 for another type or a negative number. */
static int get_int(const json_t *o, const char *key, int *v)
{
	const json_t *j = json_object_get(o, key);

	*v = 0;
	if (!j || json_is_null(j))
		return 0;
	if (json_is_boolean(j)) {
		*v = json_is_true(j);
		return 0;
	}
	if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > 1 << 24)
		return -1;
	*v = (int)json_integer_value(j);
	return 0;
}

/* The text member key of o into buf; absent or null: "". -1 for another type. */
static int get_text(const json_t *o, const char *key, char *buf, size_t len)
{
	const json_t *j = json_object_get(o, key);

	buf[0] = '\0';
	if (!j || json_is_null(j))
		return 0;
	if (!json_is_string(j))
		return -1;
	snprintf(buf, len, "%s", json_string_value(j));
	return 0;
}

int cb_topo_from_json(const json_t *o, struct cb_topo *t)
{
	const json_t *bw;

	memset(t, 0, sizeof(*t));
	if (!json_is_object(o))
		return -1;
	bw = json_object_get(o, "nvlink_link_GBps");
	if (bw && !json_is_null(bw)) {
		if (!json_is_number(bw) || json_number_value(bw) < 0)
			return -1;
		t->nvlink_link_GBps = json_number_value(bw);
	}
	if (get_int(o, "known", &t->known) || get_int(o, "gpu_count", &t->gpu_count) ||
	    get_int(o, "nvlink_version", &t->nvlink_version) ||
	    get_int(o, "nvlink_links", &t->nvlink_links) || get_int(o, "nvswitch", &t->nvswitch) ||
	    get_int(o, "nvls", &t->nvls) || get_int(o, "pcie_gen", &t->pcie_gen) ||
	    get_int(o, "pcie_width", &t->pcie_width) ||
	    get_text(o, "source", t->source, sizeof(t->source)) ||
	    get_text(o, "gpu_model", t->gpu_model, sizeof(t->gpu_model)) ||
	    get_text(o, "why_unknown", t->why_unknown, sizeof(t->why_unknown))) {
		memset(t, 0, sizeof(*t));
		return -1;
	}
	return 0;
}
