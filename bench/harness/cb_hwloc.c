/* cb_hwloc: a PCI device's NUMA nodes, CPUs and nearby NICs from hwloc
 * (contract in cb_hwloc.h; hwloc 2.x API: hwloc_get_pcidev_by_busidstring,
 * hwloc_get_non_io_ancestor_obj, hwloc_get_next_osdev). */
#define _GNU_SOURCE
#include "cb_hwloc.h"

#include <hwloc.h>
#include <stdio.h>
#include <string.h>

/* The network and openfabrics OS devices under ancestor anc, into buf. */
static void nics(hwloc_topology_t topo, hwloc_obj_t anc, char *buf, size_t cap)
{
	hwloc_obj_t os = NULL;
	size_t used = 0;

	buf[0] = 0;
	while ((os = hwloc_get_next_osdev(topo, os))) {
		hwloc_obj_t a;

		if (os->attr->osdev.type != HWLOC_OBJ_OSDEV_NETWORK &&
		    os->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS)
			continue;
		a = hwloc_get_non_io_ancestor_obj(topo, os);
		if (!a || !(a == anc || hwloc_obj_is_in_subtree(topo, a, anc)))
			continue;
		used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "%s%s", used ? "," : "",
					 os->name ? os->name : "?");
	}
	if (used >= cap && cap > 0)
		buf[cap - 1] = 0;
}

void cb_gpu_near(const char *bus_id, struct cb_gpu_near *n)
{
	hwloc_topology_t topo;
	hwloc_obj_t pci, anc;

	memset(n, 0, sizeof(*n));
	if (hwloc_topology_init(&topo) != 0) {
		snprintf(n->why, sizeof(n->why), "hwloc: cannot start (hwloc_topology_init)");
		return;
	}
	hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	if (hwloc_topology_load(topo) != 0) {
		snprintf(n->why, sizeof(n->why), "hwloc: cannot read the topology");
		goto out_destroy;
	}
	pci = hwloc_get_pcidev_by_busidstring(topo, bus_id);
	anc = pci ? hwloc_get_non_io_ancestor_obj(topo, pci) : NULL;
	if (!anc) {
		snprintf(n->why, sizeof(n->why), "hwloc knows no PCI device %.40s", bus_id);
		goto out_destroy;
	}
	n->known = 1;
	hwloc_bitmap_list_snprintf(n->numa, sizeof(n->numa), anc->nodeset);
	hwloc_bitmap_list_snprintf(n->cpus, sizeof(n->cpus), anc->cpuset);
	nics(topo, anc, n->nics, sizeof(n->nics));

out_destroy:
	hwloc_topology_destroy(topo);
}
