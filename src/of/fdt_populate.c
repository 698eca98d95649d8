/* SPDX-License-Identifier: MIT */
/*
 * Which nodes are devices, as Linux creates them at boot
 * (of_platform_default_populate_init()): every available child of the root
 * with a compatible, and below it only the children of buses in
 * of_default_bus_match_table (simple-bus, simple-mfd, isa, arm,amba-bus);
 * arm,primecell nodes become AMBA devices; the children of /firmware and a
 * few special /reserved-memory regions become devices too. A PCI host
 * controller's driver enumerates its functions: the nodes below it that
 * are not bridges; a simple-pm-bus's driver populates its children. The
 * bus nodes themselves hold devices but do no DMA, so they are left out.
 * Flash partitions, PHYs on an MDIO bus, I2C and SPI clients and
 * power-domain children are their own buses' business; children that
 * other drivers populate at probe (USB glue such as qcom,dwc3, MFDs) are
 * not followed.
 */
#include <stdio.h>
#include <string.h>
#include "../lib/lib.h"
#include "fdt_parse.h"

static const char *const bus_match_table[] = { "simple-bus", "simple-mfd", "isa",
					       "arm,amba-bus" };
/*
 * Nodes the generic early drivers claim before population and mark
 * OF_POPULATED, so no device is made of them: of_clk_init() (fixed clocks)
 * and of_irq_init() (the ARM GICs). SoC-specific early drivers are not
 * listed.
 */
static const char *const claimed_early[] = {
	"fixed-clock", "fixed-factor-clock", "arm,gic-400", "arm,cortex-a15-gic",
	"arm,cortex-a9-gic", "arm,cortex-a7-gic", "arm,arm11mp-gic", "arm,pl390",
	"arm,gic-v3", "qcom,msm-qgic2",
};
/* Buses whose own driver populates their children at probe (drivers/bus/simple-pm-bus.c). */
static const char *const populating_buses[] = { "simple-pm-bus" };
/*
 * Linux makes devices of these bus nodes too, but they only hold other
 * devices and do no DMA: the board lists them nowhere (simple-mfd nodes,
 * real devices with children, stay).
 */
static const char *const pure_buses[] = { "simple-bus", "isa", "arm,amba-bus" };
/* of_platform_default_populate_init()'s reserved_mem_matches, matched anywhere in the tree. */
static const char *const reserved_mem_devices[] = { "phram", "qcom,rmtfs-mem", "qcom,cmd-db",
						    "qcom,smem", "ramoops", "nvmem-rmem",
						    "google,open-dice" };

static bool compatible_any(struct fdt_parse *ps, int node, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (dmamap__fdt_compatible(ps, node, list[i]))
			return true;
	return false;
}

static bool is_pci(struct fdt_parse *ps, int node)
{
	const char *t = fdt_getprop(ps->fdt, node, "device_type", NULL);

	return t && !strcmp(t, "pci");
}

static bool populated(struct fdt_parse *ps, int node)
{
	for (unsigned int i = 0; i < ps->nr_populated; i++)
		if (ps->populated[i].node == node)
			return true;
	return false;
}

static void add(struct fdt_parse *ps, int node, enum fdt_bus bus)
{
	if (populated(ps, node))
		return; /* OF_POPULATED: a node is a device once */
	if (ps->nr_populated == FDT_MAX_POPULATED) {
		if (!ps->warned_populated)
			dmamap__fdt_warn(ps, node, "more than %d devices in the tree: the rest are not read",
					 FDT_MAX_POPULATED);
		ps->warned_populated = true;
		return;
	}
	ps->populated[ps->nr_populated++] = (struct fdt_populated){ node, bus };
}

/* The functions a PCI host's driver finds: through bridges, every node that is not one. */
static void pci_functions(struct fdt_parse *ps, int bus, int depth)
{
	int child;

	if (depth > 32)
		return;
	fdt_for_each_subnode(child, ps->fdt, bus) {
		if (!dmamap__fdt_enabled(ps, child) || !fdt_getprop(ps->fdt, child, "reg", NULL))
			continue;
		if (is_pci(ps, child))
			pci_functions(ps, child, depth + 1);
		else
			add(ps, child, FDT_BUS_PCI);
	}
}

/* of_platform_bus_create(), strict: no compatible, no device. */
static void bus_create(struct fdt_parse *ps, int node, bool descend, int depth)
{
	int child;

	if (depth > 64 || !fdt_getprop(ps->fdt, node, "compatible", NULL) ||
	    dmamap__fdt_compatible(ps, node, "operating-points-v2") ||
	    compatible_any(ps, node, claimed_early, ARRAY_SIZE(claimed_early)) ||
	    !dmamap__fdt_enabled(ps, node))
		return;
	if (dmamap__fdt_compatible(ps, node, "arm,primecell")) {
		add(ps, node, FDT_BUS_AMBA);
		return;
	}
	if (!compatible_any(ps, node, pure_buses, ARRAY_SIZE(pure_buses)))
		add(ps, node, FDT_BUS_PLATFORM);
	if (is_pci(ps, node))
		pci_functions(ps, node, 0);
	if (!descend || (!compatible_any(ps, node, bus_match_table, ARRAY_SIZE(bus_match_table)) &&
			 !compatible_any(ps, node, populating_buses, ARRAY_SIZE(populating_buses))))
		return;
	fdt_for_each_subnode(child, ps->fdt, node)
		bus_create(ps, child, true, depth + 1);
}

void dmamap__fdt_populate(struct fdt_parse *ps)
{
	int fw = fdt_path_offset(ps->fdt, "/firmware"), node, depth = 0;

	/* for_each_matching_node(): wherever they are. */
	for (node = fdt_next_node(ps->fdt, -1, &depth); node >= 0;
	     node = fdt_next_node(ps->fdt, node, &depth))
		if (compatible_any(ps, node, reserved_mem_devices, ARRAY_SIZE(reserved_mem_devices)) &&
		    dmamap__fdt_enabled(ps, node))
			add(ps, node, FDT_BUS_PLATFORM);
	if (fw >= 0) {
		fdt_for_each_subnode(node, ps->fdt, fw)
			bus_create(ps, node, false, 1);
	}
	fdt_for_each_subnode(node, ps->fdt, 0)
		bus_create(ps, node, true, 1);
}

/* Node names the devicetree specification gives classes of devices that move data themselves. */
static const char *const dma_classes[] = {
	"dma-controller", "dma", "ethernet", "usb", "mmc", "gpu", "display-controller",
	"sata", "video-codec", "crypto", "npu",
};

const char *dmamap__fdt_dma_master_by(struct fdt_parse *ps, int node, enum fdt_bus bus,
				      bool model)
{
	const char *name = fdt_get_name(ps->fdt, node, NULL);
	size_t len = strcspn(name ? name : "", "@");

	if (model)
		return "device model";
	if (bus == FDT_BUS_PCI)
		return "PCI function";
	if (fdt_getprop(ps->fdt, node, "iommus", NULL))
		return "iommus";
	if (fdt_getprop(ps->fdt, node, "memory-region", NULL))
		return "memory-region";
	if (fdt_getprop(ps->fdt, node, "#dma-cells", NULL))
		return "DMA engine (#dma-cells)";
	for (size_t i = 0; name && i < ARRAY_SIZE(dma_classes); i++)
		if (strlen(dma_classes[i]) == len && !strncmp(name, dma_classes[i], len))
			return dma_classes[i];
	return NULL;
}

const char *dmamap__fdt_bus_name(enum fdt_bus bus)
{
	return bus == FDT_BUS_AMBA ? "amba" : bus == FDT_BUS_PCI ? "pci" : "platform";
}

/* Why of_platform_populate() never reached @node: its first ancestor that stops the walk. */
static void why_not(struct fdt_parse *ps, int node, char *out, size_t len)
{
	char path[DMAMAP_PATH_MAX] = "?";
	int parent = dmamap__fdt_parent(ps, node);

	if (node == 0) {
		snprintf(out, len, "the root is the board itself");
		return;
	}
	if (!dmamap__fdt_enabled(ps, node)) {
		snprintf(out, len, "its status is \"%s\"",
			 (const char *)fdt_getprop(ps->fdt, node, "status", NULL));
		return;
	}
	if (!fdt_getprop(ps->fdt, node, "compatible", NULL)) {
		snprintf(out, len, "it has no compatible: of_platform_bus_create() skips it");
		return;
	}
	if (compatible_any(ps, node, pure_buses, ARRAY_SIZE(pure_buses))) {
		snprintf(out, len, "it is a bus: Linux makes a device of it that only holds its children and does no DMA");
		return;
	}
	if (dmamap__fdt_compatible(ps, node, "operating-points-v2")) {
		snprintf(out, len, "an operating-points table: of_skipped_node_table");
		return;
	}
	if (compatible_any(ps, node, claimed_early, ARRAY_SIZE(claimed_early))) {
		snprintf(out, len, "of_clk_init() or of_irq_init() claims it first and marks it populated");
		return;
	}
	for (int n = parent; n > 0; n = dmamap__fdt_parent(ps, n)) {
		if (!dmamap__fdt_enabled(ps, n)) {
			fdt_get_path(ps->fdt, n, path, sizeof(path));
			snprintf(out, len, "its ancestor %s is disabled", path);
			return;
		}
	}
	if (parent > 0) {
		fdt_get_path(ps->fdt, parent, path, sizeof(path));
		if (!compatible_any(ps, parent, bus_match_table, ARRAY_SIZE(bus_match_table)))
			snprintf(out, len,
				 "its parent %s is no bus of_platform_populate() descends into (simple-bus, simple-mfd, isa, arm,amba-bus): the parent's own driver creates what it needs (I2C and SPI clients, flash partitions, PHYs, power domains; a glue driver that populates its children, such as qcom,dwc3, is not followed here)",
				 path);
		else
			snprintf(out, len, "its parent %s is not populated itself", path);
		return;
	}
	snprintf(out, len, "the tree has more devices than dmamap reads");
}

void dmamap__fdt_explain_population(struct fdt_parse *ps, int node, bool model)
{
	char path[DMAMAP_PATH_MAX] = "/", why[400];
	int parent = dmamap__fdt_parent(ps, node);
	bool was = ps->explaining;

	ps->explaining = true;
	if (parent > 0)
		fdt_get_path(ps->fdt, parent, path, sizeof(path));
	for (unsigned int i = 0; i < ps->nr_populated; i++) {
		const struct fdt_populated *pop = &ps->populated[i];
		const char *by;

		if (pop->node != node)
			continue;
		if (pop->bus == FDT_BUS_PCI)
			dmamap__fdt_say(ps, "a PCI function below %s: the host controller's driver enumerates it", path);
		else if (pop->bus == FDT_BUS_AMBA)
			dmamap__fdt_say(ps, "arm,primecell: of_platform_bus_create() makes an AMBA device of it");
		else if (parent == 0)
			dmamap__fdt_say(ps, "a child of the root with a compatible: of_platform_populate() makes a platform device of it");
		else
			dmamap__fdt_say(ps, "a child of %s: of_platform_populate() makes a platform device of it", path);
		by = dmamap__fdt_dma_master_by(ps, node, pop->bus, model);
		if (by)
			dmamap__fdt_say(ps, "a DMA master by its binding: %s", by);
		else
			dmamap__fdt_say(ps, "nothing in its binding says it does DMA itself (no iommus, memory-region, #dma-cells, DMA-capable node name)");
		ps->explaining = was;
		return;
	}
	why_not(ps, node, why, sizeof(why));
	dmamap__fdt_say(ps, "not a device: %s", why);
	ps->explaining = was;
}
