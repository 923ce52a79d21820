/* cb_topo: the topology stamp as JSON (contract in cb_topo.h, cb_topo.c
 * section): an object with struct cb_topo's field names; a reader takes an
 * absent key as 0 or "" (a stamp written by a later version with fewer
 * facts, or a hand-written fixture), a key of another type as an error. */
#include "cb_topo.h"

#include <stdio.h>
#include <string.h>

json_t *cb_topo_json(const struct cb_topo *t)
{
	return json_pack("{s:b,s:s,s:s,s:i,s:i,s:i,s:f,s:b,s:b,s:i,s:i,s:s}", "known", t->known,
			 "source", t->source, "gpu_model", t->gpu_model, "gpu_count", t->gpu_count,
			 "nvlink_version", t->nvlink_version, "nvlink_links", t->nvlink_links,
			 "nvlink_link_GBps", t->nvlink_link_GBps, "nvswitch", t->nvswitch, "nvls",
			 t->nvls, "pcie_gen", t->pcie_gen, "pcie_width", t->pcie_width, "why_unknown",
			 t->why_unknown);
}

/* A text field of o into buf (cap bytes; absent or null: ""); -1 when it is
 * another type. */
static int text(const json_t *o, const char *key, char *buf, size_t cap)
{
	const json_t *v = json_object_get(o, key);

	buf[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	snprintf(buf, cap, "%s", json_string_value(v));
	return 0;
}

int cb_topo_from_json(const json_t *o, struct cb_topo *t)
{
	int known = 0, nvswitch = 0, nvls = 0;
	double gbps = 0;

	memset(t, 0, sizeof(*t));
	if (!json_is_object(o) ||
	    json_unpack((json_t *)o, "{s?b,s?i,s?i,s?i,s?F,s?b,s?b,s?i,s?i}", "known", &known,
			"gpu_count", &t->gpu_count, "nvlink_version", &t->nvlink_version,
			"nvlink_links", &t->nvlink_links, "nvlink_link_GBps", &gbps, "nvswitch",
			&nvswitch, "nvls", &nvls, "pcie_gen", &t->pcie_gen, "pcie_width",
			&t->pcie_width) != 0 ||
	    text(o, "source", t->source, sizeof(t->source)) ||
	    text(o, "gpu_model", t->gpu_model, sizeof(t->gpu_model)) ||
	    text(o, "why_unknown", t->why_unknown, sizeof(t->why_unknown))) {
		memset(t, 0, sizeof(*t));
		return -1;
	}
	t->known = known;
	t->nvlink_link_GBps = gbps;
	t->nvswitch = nvswitch;
	t->nvls = nvls;
	return 0;
}
