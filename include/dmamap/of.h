/* SPDX-License-Identifier: MIT */
/*
 * Boards from device trees, read with libfdt the way the kernel learns a
 * board: RAM from /memory nodes, the cache line from the cpus, and for each
 * DMA master its dma-ranges (through the parent buses), dma-coherent and
 * iommus, as of_dma_configure() derives them.
 */
#ifndef DMAMAP_OF_H
#define DMAMAP_OF_H

#include <stdint.h>
#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * dmamap_platform_from_fdt() - a simulated board from a flattened device tree
 * @blob: the .dtb in memory
 * @size: its size in bytes (the blob is never read past it)
 * @err: receives what was wrong and where (node path, property) on failure
 *
 * Nodes compatible with "dmamap,memcpy" become devices with the memcpy
 * engine model, named after their node (e.g. "dma@10000000").
 *
 * Return: the platform, or NULL with @err set:
 *
 * - -EINVAL: a NULL @blob or one shorter than a header; a corrupt or
 *   truncated blob, or one whose header claims more than @size; a format
 *   version below 16; a bad property: cells that do not fit, a truncated
 *   value, an unknown phandle, dma-ranges or reserved regions that do not
 *   fit, an unknown dmamap,cache-arch; no memory node; more RAM banks,
 *   reserved regions or DMA masters with a model than dmamap holds;
 * - -ENOMEM: out of memory;
 * - the errors of dmamap_platform_create() for the board the tree
 *   describes (overlapping RAM is its -EINVAL);
 * - -ENOSYS in a build without libfdt.
 */
DMAMAP_API struct dmamap_platform *dmamap_platform_from_fdt(const void *blob,
							    size_t size,
							    struct dmamap_error *err);

/**
 * dmamap_platform_from_file() - a board from a .dtb, or a .dts compiled with dtc
 * @path: file name; ".dts" files go through the C preprocessor (#include,
 *        macros, as the kernel's build) and dtc(1) first; "-" reads
 *        standard input, a blob or (anything else) source
 * @err: receives the reason on failure
 *
 * Return: the platform, or NULL with @err set: -EINVAL for a NULL @path or
 * an empty standard input;
 * -ENOEXEC for a ".dts" cpp or dtc does not take (a tool missing, a
 * syntax error, an include not found, a file that does not exist: the
 * message is the tool's own, with file and line; standard input's
 * relative includes are searched from the current directory); -EIO when no
 * temporary file can be made or the file does not read (a directory);
 * -ENOENT for a .dtb that cannot be opened; -ENOMEM; and the errors of dmamap_platform_from_fdt(), named
 * with @path (a file over 64 MiB is refused: -EINVAL). -ENOSYS in a build
 * without libfdt.
 */
DMAMAP_API struct dmamap_platform *dmamap_platform_from_file(const char *path,
							     struct dmamap_error *err);

/**
 * struct dmamap_of_options - what the caller knows better than the tree
 * @ram: RAM banks that replace the tree's /memory nodes, which firmware
 *       usually fills in at boot (a .dts often carries placeholders);
 *       NULL: use the tree's
 * @nr_ram: how many, 1..%DMAMAP_MAX_BANKS when @ram is set
 * @include_dirs: for a .dts, directories the C preprocessor searches for
 *       #include and dtc for /include/, after the file's own directory (a
 *       kernel tree's include/ or scripts/dtc/include-prefixes, for its
 *       dt-bindings headers); NULL: none
 * @nr_include_dirs: how many, at most 16
 * @overlays: overlay files (.dtbo, or a .dts with /plugin/) applied to the
 *       tree in order, as a bootloader does; NULL: none
 * @nr_overlays: how many, at most 16
 */
struct dmamap_of_options {
	const struct dmamap_ram_bank *ram;
	unsigned int nr_ram;
	const char *const *include_dirs;
	unsigned int nr_include_dirs;
	const char *const *overlays;
	unsigned int nr_overlays;
};

/**
 * dmamap_platform_from_fdt_opts() - dmamap_platform_from_fdt() with overrides
 * @blob: the .dtb in memory
 * @size: its size in bytes
 * @opts: overrides (may be NULL: none)
 * @err: receives the reason on failure
 *
 * Reserved regions are placed in, and checked against, the overriding
 * RAM, whose banks dmamap_platform_create() checks as any board's.
 *
 * Return: the platform, or NULL with @err set: -EINVAL for a bad @opts
 * (@nr_ram 0 or above %DMAMAP_MAX_BANKS with @ram set) and the errors of
 * dmamap_platform_from_fdt().
 */
DMAMAP_API struct dmamap_platform *
dmamap_platform_from_fdt_opts(const void *blob, size_t size,
			      const struct dmamap_of_options *opts,
			      struct dmamap_error *err);

/**
 * dmamap_platform_from_file_opts() - dmamap_platform_from_file() with overrides
 * @path: file name (.dtb, or .dts compiled with cpp and dtc)
 * @opts: overrides (may be NULL: none)
 * @err: receives the reason on failure
 *
 * A .dts goes through cpp and dtc with @opts' include directories; the
 * overlays are applied to the result (or to the .dtb) with libfdt before
 * the tree is read.
 *
 * Return: the platform, or NULL with @err set: the errors of
 * dmamap_platform_from_file() and dmamap_platform_from_fdt_opts(); -EINVAL
 * for more than 16 include directories or overlays, for an overlay given
 * as @path (a tree of fragments is no board), or for an overlay that is
 * not one; -ENOENT for an overlay that cannot be read; -ENOEXEC for one
 * that does not compile or apply (libfdt's reason: a label the base tree
 * lacks, say — a base .dts is compiled with its labels for this).
 */
DMAMAP_API struct dmamap_platform *
dmamap_platform_from_file_opts(const char *path, const struct dmamap_of_options *opts,
			       struct dmamap_error *err);


/**
 * dmamap_of_explain() - how Linux derives one node's DMA configuration
 * @blob: the .dtb in memory
 * @size: its size in bytes
 * @opts: overrides, as for dmamap_platform_from_fdt_opts() (may be NULL)
 * @path: the node's full path ("/soc/dma@1000")
 * @out: receives the derivation, one step per line, each naming the
 *       kernel function whose rule it applies: whether and how Linux makes
 *       a device of the node, where the dma-ranges walk starts and every
 *       node it visits, each window translated to the CPU, the map, limit
 *       and masks, which node decided coherency, the IOMMU and every id,
 *       the pools its memory-region gives
 * @len: room in @out; a longer derivation is cut at a line's end
 * @err: receives the reason on failure
 *
 * Return: 0; -EINVAL for a NULL @path or @out, a zero @len, a bad blob or
 * @opts, or a tree dmamap_platform_from_fdt_opts() would refuse (@out then
 * holds the steps up to the failure); -ENOENT when the tree has no node at
 * @path; -ENOMEM; -ENOSYS in a build without libfdt.
 */
DMAMAP_API int dmamap_of_explain(const void *blob, size_t size,
				 const struct dmamap_of_options *opts, const char *path,
				 char *out, size_t len, struct dmamap_error *err);

/* ---- a device's node, for its driver (as <linux/of.h>) ------------------ */

/* A node of the board's device tree; dev_of_node() gives a device's. */
struct device_node;

/* One line of a driver's match table, ended by an empty one. */
struct of_device_id {
	char name[32];
	char type[32];
	char compatible[128];
	const void *data;
};

/* Kept for the kernel's source: the table needs no exporting here. */
#define MODULE_DEVICE_TABLE(type, name)

/**
 * dmamap_dev_of_node() - dev_of_node(): the device tree node a device came from
 * @dev: a device
 *
 * Return: the node, valid while the board lives; NULL for a NULL @dev, a
 * device not from a tree, or a build without libfdt.
 */
DMAMAP_API struct device_node *dmamap_dev_of_node(struct device *dev);
#define dev_of_node(dev) dmamap_dev_of_node(dev)

/**
 * dmamap_of_node_name() - the node's full path ("/soc/dma@1000")
 * @np: a node
 *
 * Return: the path; "" for a NULL @np.
 */
DMAMAP_API const char *dmamap_of_node_name(const struct device_node *np);
#define of_node_full_name(np) dmamap_of_node_name(np)

/**
 * dmamap_of_find_property() - of_find_property(): a property's raw value
 * @np: a node
 * @name: the property's name
 * @lenp: receives its length in bytes (may be NULL)
 *
 * Return: the value (big-endian cells, as in the tree); NULL for a NULL
 * @np or @name, or a property the node does not have.
 */
DMAMAP_API const void *dmamap_of_find_property(const struct device_node *np, const char *name,
					       int *lenp);
#define of_get_property(np, name, lenp) dmamap_of_find_property(np, name, lenp)

/**
 * dmamap_of_property_read_u32_array() - of_property_read_u32_array()
 * @np: a node
 * @name: the property's name
 * @out: receives @n values, converted from big-endian
 * @n: how many to read
 *
 * Return: 0; -EINVAL if the property is missing (or @np, @name or @out is
 * NULL); -ENODATA if it has no value; -EOVERFLOW if it holds fewer than
 * @n values. @out is left alone on error.
 */
DMAMAP_API int dmamap_of_property_read_u32_array(const struct device_node *np, const char *name,
						 uint32_t *out, size_t n);
/**
 * dmamap_of_property_read_u64() - of_property_read_u64(): two cells, high first
 * @np: a node
 * @name: the property's name
 * @out: receives the value
 *
 * Return: as dmamap_of_property_read_u32_array().
 */
DMAMAP_API int dmamap_of_property_read_u64(const struct device_node *np, const char *name,
					   uint64_t *out);
/**
 * dmamap_of_property_read_string() - of_property_read_string()
 * @np: a node
 * @name: the property's name
 * @out: receives the first string, valid while the board lives
 *
 * Return: 0; -EINVAL if the property is missing (or an argument NULL);
 * -ENODATA if it has no value; -EILSEQ if it is not NUL-terminated.
 */
DMAMAP_API int dmamap_of_property_read_string(const struct device_node *np, const char *name,
					      const char **out);
/**
 * dmamap_of_property_match_string() - of_property_match_string()
 * @np: a node
 * @name: the property's name (a string list)
 * @string: what to find
 *
 * Return: the index of @string in the list; -EINVAL if the property is
 * missing; -ENODATA if @string is not in it; -EILSEQ for a list that is
 * not NUL-terminated.
 */
DMAMAP_API int dmamap_of_property_match_string(const struct device_node *np, const char *name,
					       const char *string);
#define of_property_read_u32_array(np, name, out, n) \
	dmamap_of_property_read_u32_array(np, name, out, n)
#define of_property_read_u32(np, name, out) dmamap_of_property_read_u32_array(np, name, out, 1)
#define of_property_read_u64(np, name, out) dmamap_of_property_read_u64(np, name, out)
#define of_property_read_string(np, name, out) dmamap_of_property_read_string(np, name, out)
#define of_property_match_string(np, name, s) dmamap_of_property_match_string(np, name, s)
#define of_property_present(np, name) (dmamap_of_find_property(np, name, NULL) != NULL)
#define of_property_read_bool(np, name) of_property_present(np, name)
#define of_device_is_compatible(np, compat) \
	(dmamap_of_property_match_string(np, "compatible", compat) >= 0)
/* The unified property API, on the device's node. */
#define device_property_read_u32(dev, name, out) \
	dmamap_of_property_read_u32_array(dmamap_dev_of_node(dev), name, out, 1)
#define device_property_read_u32_array(dev, name, out, n) \
	dmamap_of_property_read_u32_array(dmamap_dev_of_node(dev), name, out, n)
#define device_property_read_u64(dev, name, out) \
	dmamap_of_property_read_u64(dmamap_dev_of_node(dev), name, out)
#define device_property_read_string(dev, name, out) \
	dmamap_of_property_read_string(dmamap_dev_of_node(dev), name, out)
#define device_property_present(dev, name) \
	(dmamap_of_find_property(dmamap_dev_of_node(dev), name, NULL) != NULL)
#define device_property_read_bool(dev, name) device_property_present(dev, name)

/**
 * dmamap_device_get_match_data() - of_device_get_match_data(): the matched line's data
 * @dev: a bound device
 *
 * Return: the .data of the of_match_table line its driver matched it by;
 * NULL for a NULL or unbound @dev, or one bound by name.
 */
DMAMAP_API const void *dmamap_device_get_match_data(const struct device *dev);
#define of_device_get_match_data(dev) dmamap_device_get_match_data(dev)
#define device_get_match_data(dev) dmamap_device_get_match_data(dev)

#ifdef __cplusplus
}
#endif
#endif
