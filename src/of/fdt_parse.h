/* SPDX-License-Identifier: MIT */
/*
 * The tree reader's own header: one reading of a blob into a board, shared
 * by the files that each apply one group of Linux's rules (reserved memory,
 * a device's DMA configuration, which nodes are devices). Private to
 * src/of/.
 */
#ifndef DMAMAP_OF_FDT_PARSE_H
#define DMAMAP_OF_FDT_PARSE_H

#include <libfdt.h>
#include <dmamap/platform.h>
#include <dmamap/of.h>

#define FDT_MAX_DEVICES 1024
#define FDT_MAX_POPULATED 4096

/* The bus a node's device sits on, as Linux creates it. */
enum fdt_bus { FDT_BUS_PLATFORM, FDT_BUS_AMBA, FDT_BUS_PCI };

struct fdt_populated {
	int node;
	enum fdt_bus bus;
};

/* What a /reserved-memory region became, as Linux's init function for its compatible decides. */
enum fdt_region_kind {
	REGION_OTHER,      /* reserved (or no-map), no DMA use */
	REGION_POOL,       /* shared-dma-pool: a device's coherent pool */
	REGION_CMA,        /* reusable shared-dma-pool: the default CMA area */
	REGION_CMA_DEVICE, /* reusable shared-dma-pool without linux,cma-default */
	REGION_RESTRICTED, /* restricted-dma-pool */
	REGION_RELEASED,   /* its init function refused it: the memory went back to the allocator */
	REGION_NOT_PLACED, /* dynamic, and no room was found */
};

struct fdt_region {
	int node; /* -1: a /memreserve/ entry */
	enum fdt_region_kind kind;
	phys_addr_t start;
	u64 size;
	bool dynamic; /* placed by size/alloc-ranges, not by reg */
	char how[160]; /* where it came from and why it landed there (or is unused) */
};

struct fdt_parse {
	const void *fdt;
	struct dmamap_error *err;
	struct dmamap_board board;
	unsigned int nr_regions;
	struct fdt_region regions[DMAMAP_MAX_RESERVED];
	/* The same, as the board lists them for its readers. */
	struct dmamap_region region_notes[DMAMAP_MAX_RESERVED];
	char region_names[DMAMAP_MAX_RESERVED][DMAMAP_PATH_MAX];
	struct dmamap_device_desc devs[FDT_MAX_DEVICES];
	char names[FDT_MAX_DEVICES][DMAMAP_NAME_MAX];
	char paths[FDT_MAX_DEVICES][DMAMAP_PATH_MAX];
	char iommus[FDT_MAX_DEVICES][DMAMAP_NAME_MAX];
	bool warned_devices;
	char board_name[DMAMAP_NAME_MAX];
	unsigned int nr_populated;
	struct fdt_populated populated[FDT_MAX_POPULATED];
	bool warned_populated;
	/* dmamap_of_explain(): the node whose derivation is told, and where to. */
	int explain_node;   /* -1: none */
	bool explaining;    /* the rules now at work are that node's */
	char *explain;
	size_t explain_len;
	/* The node each device was made of (devs[i]). */
	int dev_nodes[FDT_MAX_DEVICES];
	/* Every node's parent, by offset (fdt_parents.c); NULL: none, libfdt walks. */
	int *node_offsets, *node_parents;
	unsigned int nr_nodes;
};

/*
 * Index every node's parent (dmamap__fdt_parents_free() undoes it). Out of
 * memory, nothing is indexed and lookups walk the tree as libfdt does.
 */
void dmamap__fdt_parents_index(struct fdt_parse *ps);
void dmamap__fdt_parents_free(struct fdt_parse *ps);
/* fdt_parent_offset(), from the index where it has @node. */
int dmamap__fdt_parent(struct fdt_parse *ps, int node);

/* Sets ps->err to "PATH[:PROP]: what" and returns -EINVAL. */
int dmamap__fdt_fail(struct fdt_parse *ps, int node, const char *prop, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A warning naming the node, as the kernel's pr_err/pr_warn lines that do not stop a boot. */
void dmamap__fdt_warn(struct fdt_parse *ps, int node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* #address-cells / #size-cells of @node, inherited upward (@root_default at the root); -1 if bad. */
int dmamap__fdt_cells(struct fdt_parse *ps, int node, const char *name, int root_default);
/* A number of @n cells (a PCI-style 3-cell address drops its flags cell). */
u64 dmamap__fdt_number(const fdt32_t *p, int n);
/* An optional 1- or 2-cell integer property; @def when absent. */
int dmamap__fdt_u64_prop(struct fdt_parse *ps, int node, const char *name, u64 def, u64 *out);
/* status absent, "okay" or "ok". */
bool dmamap__fdt_enabled(struct fdt_parse *ps, int node);
bool dmamap__fdt_compatible(struct fdt_parse *ps, int node, const char *c);

/* Everything before the board is made: 0, or an error with ps->err set. */
int dmamap__fdt_parse(struct fdt_parse *ps, const void *blob, const struct dmamap_of_options *opts);
/* One line of the explained node's derivation (only while ps->explaining). */
void dmamap__fdt_say(struct fdt_parse *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Why @node is, or is not, a device: the last lines of its explanation. */
void dmamap__fdt_explain_population(struct fdt_parse *ps, int node, bool model);

/* /memreserve/ and /reserved-memory into ps->board (reserved, CMA) and ps->regions. */
int dmamap__fdt_reserved_memory(struct fdt_parse *ps);
/* The regions a device's memory-region names: its pool, CMA area, restricted pool. */
int dmamap__fdt_memory_regions(struct fdt_parse *ps, int node, int dma_node,
			       struct dmamap_device_desc *d);
/* A node's DMA configuration as of_dma_configure_id() computes it, into @d. */
int dmamap__fdt_dma_configure(struct fdt_parse *ps, int node, bool coherent_default,
			      struct dmamap_device_desc *d, char *iommu_name);

/*
 * The last byte of ZONE_DMA as arm64 sizes it from the tree
 * (zone_sizes_init() with of_dma_get_max_cpu_address()), RAM known.
 */
phys_addr_t dmamap__fdt_zone_dma_limit(struct fdt_parse *ps);
/* The nodes Linux makes devices of, in tree order, into ps->populated. */
void dmamap__fdt_populate(struct fdt_parse *ps);
/* Why the tree says a device does DMA itself (a static string), or NULL: merely populated. */
const char *dmamap__fdt_dma_master_by(struct fdt_parse *ps, int node, enum fdt_bus bus,
				      bool model);
const char *dmamap__fdt_bus_name(enum fdt_bus bus);

#endif
