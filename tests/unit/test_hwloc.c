/* Unit test: what sits near a PCI device (cb_hwloc.c), on this machine's
 * own topology: a device hwloc lists gets its CPUs and NUMA nodes (a
 * non-empty CPU list, the NUMA list hwloc gives its ancestor), a bus id
 * that is no device gets known 0 and the reason. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <dlfcn.h>
#include <hwloc.h>

#include "cb_hwloc.h"

static void test_listed_device(void **state)
{
	hwloc_topology_t topo;
	hwloc_obj_t pci;
	struct cb_gpu_near n;
	char bus[32];

	(void)state;
	assert_int_equal(hwloc_topology_init(&topo), 0);
	hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	assert_int_equal(hwloc_topology_load(topo), 0);
	pci = hwloc_get_next_pcidev(topo, NULL);
	if (!pci) {
		hwloc_topology_destroy(topo);
		skip(); /* a machine (container) whose PCI devices hwloc cannot see */
	}
	snprintf(bus, sizeof(bus), "%04x:%02x:%02x.%01x", pci->attr->pcidev.domain, pci->attr->pcidev.bus,
		 pci->attr->pcidev.dev, pci->attr->pcidev.func);
	hwloc_topology_destroy(topo);
	cb_gpu_near(bus, &n);
	assert_true(n.known);
	assert_true(n.cpus[0] != 0);
	assert_string_equal(n.why, "");
}

static void test_no_device(void **state)
{
	struct cb_gpu_near n;

	(void)state;
	cb_gpu_near("0000:fe:1f.7", &n);
	assert_false(n.known);
	assert_string_equal(n.why, "hwloc knows no PCI device 0000:fe:1f.7");
	assert_string_equal(n.cpus, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listed_device),
		cmocka_unit_test(test_no_device),
	};

	/* hwloc's pci plugin loads libpciaccess, whose globals hold what it
	 * allocated, and unloads both at the topology's end: LeakSanitizer (the
	 * sanitizer build) then finds that memory unreachable, in an unknown
	 * module. Kept loaded, it stays reachable, as in a process that exits
	 * with the library loaded. Absent: nothing to keep. */
	dlopen("libpciaccess.so.0", RTLD_LAZY | RTLD_NODELETE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
