/* SPDX-License-Identifier: MIT */
/*
 * The driver-facing DMA API, with the kernel's names, types and return
 * conventions. A driver written against this header alone runs on any
 * simulated board and on the host.
 *
 * Error conventions: calls that return a DMA address return
 * DMA_MAPPING_ERROR; calls that return a CPU pointer return NULL; actions
 * return 0 or a negative errno; dma_map_sg() returns 0 on failure (the
 * kernel's rule) while dma_map_sgtable() returns a negative errno.
 *
 * What a failure leaves behind besides its return value: most become a
 * report of one kind (<dmamap/debug.h>), counted by dmamap_report_count()
 * whether the checker is on or not, logged while it is on, fatal in strict
 * mode; and a count in the device's errors_by_kind[] (struct
 * dmamap_device_stats). The comments below write the pair as KIND/ERRK:
 * "(INVALID_DIRECTION/BAD_DIR)" is a DMAMAP_DBG_INVALID_DIRECTION report
 * and one more errors_by_kind[DMAMAP_ERRK_BAD_DIR]; "-" stands for none.
 * A NULL device is reported as NULL_DEVICE on the process's counters
 * (dmamap_report_count(NULL, ...)) and counted nowhere: there is no device
 * to count it. What only the checker sees (a wrong size or direction, a
 * mapping that is not live, a sync past its end) is in docs/checker.md and
 * not repeated here.
 */
#ifndef DMAMAP_DMA_MAPPING_H
#define DMAMAP_DMA_MAPPING_H

#include <errno.h>
#include <dmamap/types.h>
#include <dmamap/dma-direction.h>
#include <dmamap/page.h>
#include <dmamap/scatterlist.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMA_MAPPING_ERROR (~(dma_addr_t)0)
/* The low @n bits set; "& 63" keeps the branch not taken defined, for analysers that read both. */
#define DMA_BIT_MASK(n) (((n) >= 64) ? ~0ULL : ((1ULL << ((n) & 63)) - 1))

/*
 * Attributes, with the kernel's names and bit values. Those the library
 * acts on: WRITE_COMBINE and NO_KERNEL_MAPPING (allocations),
 * SKIP_CPU_SYNC, FORCE_CONTIGUOUS (CMA), NO_WARN, MMIO (dma_map_phys()),
 * DEBUGGING_IGNORE_CACHELINES (the driver promises the CPU will not dirty
 * lines this mapping shares: the checker's cache-line reports stay quiet),
 * REQUIRE_COHERENT (a mapping that would need cache maintenance or a bounce
 * copy fails instead: UNREACHABLE/UNREACHABLE), PRIVILEGED (behind an
 * IOMMU, only privileged transactions may use the mapping:
 * dmamap_device_set_privileged()), ALLOC_SINGLE_PAGES (IOMMU coherent and
 * non-contiguous allocations from single pages, not runs). WEAK_ORDERING is accepted
 * and kept with the checker's record of the mapping; the simulated devices
 * order their accesses either way.
 */
#define DMA_ATTR_WEAK_ORDERING (1UL << 1)
#define DMA_ATTR_WRITE_COMBINE (1UL << 2)
#define DMA_ATTR_NO_KERNEL_MAPPING (1UL << 4)
#define DMA_ATTR_SKIP_CPU_SYNC (1UL << 5)
#define DMA_ATTR_FORCE_CONTIGUOUS (1UL << 6)
#define DMA_ATTR_ALLOC_SINGLE_PAGES (1UL << 7)
#define DMA_ATTR_NO_WARN (1UL << 8)
#define DMA_ATTR_PRIVILEGED (1UL << 9)
#define DMA_ATTR_MMIO (1UL << 10)
#define DMA_ATTR_DEBUGGING_IGNORE_CACHELINES (1UL << 11)
#define DMA_ATTR_REQUIRE_COHERENT (1UL << 12)

struct dma_map_ops;

/* Page protection bits for vm_area_struct.vm_page_prot (mmap PROT_* values). */
#define DMAMAP_PROT_READ 0x1UL
#define DMAMAP_PROT_WRITE 0x2UL

/*
 * The user mapping dma_mmap_attrs() fills. vm_start == 0 lets the library
 * choose the address (written back to vm_start/vm_end); vm_end - vm_start
 * is the length; vm_pgoff is the first page of the buffer to map.
 * Release with dmamap_munmap().
 */
struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	unsigned long vm_pgoff;
	unsigned long vm_page_prot;
};

/* ---- streaming mappings ---------------------------------------------- */

/**
 * dma_map_page_attrs() - give part of a page to a device
 * @dev: device
 * @page: first page of the buffer
 * @offset: offset of the buffer in @page
 * @size: length in bytes
 * @dir: DMA_TO_DEVICE, DMA_FROM_DEVICE or DMA_BIDIRECTIONAL
 * @attrs: DMA_ATTR_*: DMA_ATTR_SKIP_CPU_SYNC skips cache maintenance,
 *         DMA_ATTR_NO_WARN leaves a pool or IOVA space that ran out
 *         unreported (the count stays)
 *
 * After this call the device owns the buffer until dma_unmap_page_attrs()
 * or dma_sync_single_for_cpu(). The buffer must be in the board's linear
 * map: pages from dmamap_alloc_pages(), memory from dmamap_kmalloc(). On
 * the host every address is.
 *
 * With the checker on, a mapping that succeeds may still be reported
 * (map-stack, cacheline-overlap, map-unaligned: docs/checker.md).
 *
 * Return: the device address, or DMA_MAPPING_ERROR. The core refuses,
 * whatever the backend, a NULL @dev (NULL_DEVICE), a NULL @page
 * (INVALID_ARGUMENT/NULL_ARG), an invalid @dir (INVALID_DIRECTION/BAD_DIR),
 * a zero @size (ZERO_SIZE/ZERO_SIZE), an @offset that wraps the address
 * space, and a buffer that starts in a RAM bank and runs past its end
 * (INVALID_ARGUMENT/BAD_ARG), and fails when an injected DMAMAP_FAULT_MAP
 * fires (-/NOMEM). Then each backend has its own causes.
 *
 * The direct backend (a device with no ops table):
 *
 * - the buffer is not in the board's linear map: the stack, an uncached
 *   alias from dma_alloc_coherent(), another board's memory
 *   (NOT_LINEAR/NOT_LINEAR);
 * - the device cannot reach it and nothing can bounce it: the platform
 *   has no bounce pool, or swiotlb=noforce (UNREACHABLE/UNREACHABLE);
 * - it must bounce and the pool is full, or the buffer is larger than a
 *   bounce buffer can be (dma_max_mapping_size()) (ALLOC_FAILED/NOMEM);
 * - it must bounce and the device cannot reach the pool either
 *   (UNREACHABLE/UNREACHABLE).
 *
 * Behind an IOMMU:
 *
 * - the buffer is not in the linear map (NOT_LINEAR/NOT_LINEAR);
 * - no IOVA range is free, the range handed out lies above the device's
 *   mask, the buffer is larger than the IOVA space, or memory for the IO
 *   page table ran out (ALLOC_FAILED/NOMEM).
 *
 * dmabounce:
 *
 * - the buffer is not in the linear map (-/-);
 * - it reaches into high memory, which dmabounce cannot bounce
 *   (INVALID_ARGUMENT/BAD_ARG);
 * - it must bounce and no safe buffer can be had: out of memory, or an
 *   injected DMAMAP_FAULT_ALLOC (ALLOC_FAILED/NOMEM);
 * - it need not bounce: as the direct backend.
 *
 * Another table installed with set_dma_ops(): whatever its map_page
 * refuses.
 */
DMAMAP_API dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
					 size_t offset, size_t size,
					 enum dma_data_direction dir,
					 unsigned long attrs);

/**
 * dma_unmap_page_attrs() - take a buffer back from the device
 * @dev: device
 * @addr: address from dma_map_page_attrs()
 * @size: the size that was mapped
 * @dir: the direction that was mapped
 * @attrs: DMA_ATTR_* (DMA_ATTR_SKIP_CPU_SYNC skips cache maintenance)
 *
 * On a non-coherent device the buffer gets the cache maintenance the
 * board's rules ask for; a bounced buffer is copied back
 * (DMA_FROM_DEVICE, DMA_BIDIRECTIONAL) and its slots freed.
 *
 * A NULL @dev (NULL_DEVICE), an invalid @dir (INVALID_DIRECTION/BAD_DIR),
 * a zero @size (ZERO_SIZE/ZERO_SIZE) or an @addr of DMA_MAPPING_ERROR, a
 * failed mapping used (UNMAP_INVALID/BAD_HANDLE), is reported and nothing
 * happens. So is an @addr the backend cannot place: outside the device's
 * window on the direct backend and dmabounce, or not mapped in its IOMMU
 * (UNMAP_INVALID/BAD_HANDLE). An address inside a bounce pool that is no
 * live bounce buffer is ignored without a report; the checker, when on,
 * says why.
 */
DMAMAP_API void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr,
				     size_t size, enum dma_data_direction dir,
				     unsigned long attrs);

/**
 * dma_map_single_attrs() - give a linear-map buffer to a device
 * @dev: device
 * @ptr: CPU address (linear map: sim RAM from dmamap_kmalloc(), or host memory)
 * @size: length
 * @dir: direction
 * @attrs: DMA_ATTR_*, as for dma_map_page_attrs()
 *
 * Built on dma_map_page_attrs(), and remembered by the checker as a
 * single mapping, to be undone with dma_unmap_single_attrs().
 *
 * Return: the device address, or DMA_MAPPING_ERROR for a NULL @ptr
 * (INVALID_ARGUMENT/NULL_ARG) and for every cause dma_map_page_attrs()
 * lists: bad arguments, an injected fault, a buffer outside the board's
 * linear map (NOT_LINEAR/NOT_LINEAR on the direct backend, unreported
 * behind an IOMMU or dmabounce), a buffer the device cannot reach, a bounce
 * pool, IOVA space or safe-buffer pool that ran out.
 */
DMAMAP_API dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr,
					   size_t size,
					   enum dma_data_direction dir,
					   unsigned long attrs);

/**
 * dma_unmap_single_attrs() - undo dma_map_single_attrs()
 * @dev: device
 * @addr: device address
 * @size: size mapped
 * @dir: direction mapped
 * @attrs: DMA_ATTR_*
 *
 * Bad arguments and unknown addresses are reported and ignored, as by
 * dma_unmap_page_attrs().
 */
DMAMAP_API void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr,
				       size_t size, enum dma_data_direction dir,
				       unsigned long attrs);

/**
 * dma_map_page() - dma_map_page_attrs() without attributes
 * @dev: device
 * @page: first page of the buffer
 * @offset: offset of the buffer in @page
 * @size: length in bytes
 * @dir: direction
 *
 * Return: as dma_map_page_attrs(): the device address, or
 * DMA_MAPPING_ERROR.
 */
DMAMAP_API dma_addr_t dma_map_page(struct device *dev, struct page *page,
				   size_t offset, size_t size,
				   enum dma_data_direction dir);
/**
 * dma_unmap_page() - dma_unmap_page_attrs() without attributes
 * @dev: device
 * @addr: address from dma_map_page()
 * @size: the size that was mapped
 * @dir: the direction that was mapped
 *
 * Bad arguments and unknown addresses: as dma_unmap_page_attrs().
 */
DMAMAP_API void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir);
/**
 * dma_map_single() - dma_map_single_attrs() without attributes
 * @dev: device
 * @ptr: CPU address in the linear map
 * @size: length
 * @dir: direction
 *
 * Return: as dma_map_single_attrs(): the device address, or
 * DMA_MAPPING_ERROR.
 */
DMAMAP_API dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
				     enum dma_data_direction dir);
/**
 * dma_unmap_single() - dma_unmap_single_attrs() without attributes
 * @dev: device
 * @addr: address from dma_map_single()
 * @size: the size that was mapped
 * @dir: the direction that was mapped
 *
 * Bad arguments and unknown addresses: as dma_unmap_page_attrs().
 */
DMAMAP_API void dma_unmap_single(struct device *dev, dma_addr_t addr,
				 size_t size, enum dma_data_direction dir);

/**
 * dma_mapping_error() - test an address returned by a map call
 * @dev: device (may be NULL)
 * @dma_addr: the address
 *
 * With the checker on, the mapping at @dma_addr is marked as tested, so
 * using or unmapping it is not reported as map-error-not-checked.
 *
 * Return: -ENOMEM if @dma_addr is DMA_MAPPING_ERROR, else 0. The kernel's
 * value, whatever made the mapping fail: the reason is in the reports and
 * the device's errors_by_kind[].
 */
DMAMAP_API int dma_mapping_error(struct device *dev, dma_addr_t dma_addr);

/**
 * dma_map_resource() - give a device access to a physical MMIO range
 * @dev: device
 * @phys_addr: physical address of the resource (not RAM)
 * @size: length
 * @dir: direction
 * @attrs: DMA_ATTR_*
 *
 * No cache maintenance is done: MMIO is not cached. The direct backend
 * hands out @phys_addr itself, untranslated by the device's window, as the
 * kernel does; an IOMMU maps it at an IOVA.
 *
 * Return: the device address, or DMA_MAPPING_ERROR:
 *
 * - a NULL @dev (NULL_DEVICE), an invalid @dir (INVALID_DIRECTION/BAD_DIR),
 *   a zero @size (ZERO_SIZE/ZERO_SIZE);
 * - on a simulated board, @phys_addr is RAM, which dma_map_page() maps
 *   (INVALID_ARGUMENT/BAD_ARG); on the host any address may be a resource;
 * - an injected DMAMAP_FAULT_MAP (-/NOMEM);
 * - the direct backend: the range ends above the device's mask
 *   (UNREACHABLE/UNREACHABLE);
 * - behind an IOMMU: no IOVA range, as for dma_map_page_attrs(), reported
 *   twice (ALLOC_FAILED/NOMEM, then UNREACHABLE/UNREACHABLE);
 * - a table without map_resource, dmabounce's among them: always
 *   (UNREACHABLE/UNREACHABLE).
 */
DMAMAP_API dma_addr_t dma_map_resource(struct device *dev, phys_addr_t phys_addr,
				       size_t size, enum dma_data_direction dir,
				       unsigned long attrs);
/**
 * dma_unmap_resource() - undo dma_map_resource()
 * @dev: device
 * @addr: device address
 * @size: size mapped
 * @dir: direction mapped
 * @attrs: DMA_ATTR_*
 *
 * A NULL @dev, an invalid @dir, a zero @size or an @addr of
 * DMA_MAPPING_ERROR is reported as by dma_unmap_page_attrs() and nothing
 * happens. The direct backend has nothing to undo; behind an IOMMU an
 * @addr that is not mapped is reported (UNMAP_INVALID/BAD_HANDLE) and
 * ignored.
 */
DMAMAP_API void dma_unmap_resource(struct device *dev, dma_addr_t addr,
				   size_t size, enum dma_data_direction dir,
				   unsigned long attrs);

/**
 * dma_map_phys() - give a device a physical range (Linux 6.18+)
 * @dev: device
 * @phys: CPU physical address
 * @size: length
 * @dir: direction
 * @attrs: DMA_ATTR_*; DMA_ATTR_MMIO says @phys is MMIO, not RAM
 *
 * With DMA_ATTR_MMIO, exactly dma_map_resource(): no cache maintenance,
 * no bouncing. Without it, @phys is RAM and the mapping is
 * dma_map_page_attrs() of the page holding it, with every check and
 * backend that implies (cache maintenance, bouncing, the IOMMU).
 *
 * Return: the device address, or DMA_MAPPING_ERROR: as dma_map_resource()
 * with DMA_ATTR_MMIO; else as dma_map_page_attrs(), and for a @phys that is
 * not RAM of the board (NOT_LINEAR/NOT_LINEAR).
 */
DMAMAP_API dma_addr_t dma_map_phys(struct device *dev, phys_addr_t phys, size_t size,
				   enum dma_data_direction dir, unsigned long attrs);
/**
 * dma_unmap_phys() - undo dma_map_phys()
 * @dev: device
 * @addr: device address
 * @size: size mapped
 * @dir: direction mapped
 * @attrs: as mapped; DMA_ATTR_MMIO must match
 *
 * dma_unmap_resource() with DMA_ATTR_MMIO, dma_unmap_page_attrs() without,
 * with their reports.
 */
DMAMAP_API void dma_unmap_phys(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir, unsigned long attrs);

/**
 * dma_map_sg_attrs() - map a scatter-gather list
 * @dev: device
 * @sg: first entry
 * @nents: number of entries to map
 * @dir: direction
 * @attrs: DMA_ATTR_*, as for dma_map_page_attrs()
 *
 * The core maps the entries one by one, each as dma_map_page_attrs()
 * would, for the direct backend and for tables without map_sg
 * (dmabounce); a table's own map_sg takes the whole list (the IOMMU's puts
 * it in one IOVA range and merges entries that meet on a page boundary,
 * within the device's segment size and boundary). If entry k fails,
 * entries 0..k-1 are unmapped before returning.
 *
 * Return: the number of device segments (fewer than @nents when entries
 * were merged), or 0 on any failure: each cause dma_map_sgtable() lists
 * with its errno, with the same reports and counts.
 */
DMAMAP_API unsigned int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg,
					 int nents, enum dma_data_direction dir,
					 unsigned long attrs);
/**
 * dma_unmap_sg_attrs() - undo dma_map_sg_attrs()
 * @dev: device
 * @sg: first entry
 * @nents: the @nents passed to the map call (not its return value)
 * @dir: direction
 * @attrs: DMA_ATTR_*
 *
 * A NULL @dev (NULL_DEVICE), a NULL @sg (INVALID_ARGUMENT/NULL_ARG), an
 * invalid @dir (INVALID_DIRECTION/BAD_DIR) or @nents of 0 or less
 * (ZERO_SIZE/ZERO_SIZE) is reported and nothing is unmapped. Entries
 * mapped one by one are unmapped one by one, the backend reporting an
 * address it cannot place as for dma_unmap_page_attrs(), and a list that
 * ends before @nents is reported where it ends (INVALID_ARGUMENT/BAD_ARG),
 * the entries before it unmapped. A table's own unmap_sg (the IOMMU's)
 * takes the list as its map_sg laid it out and reports nothing.
 */
DMAMAP_API void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg,
				   int nents, enum dma_data_direction dir,
				   unsigned long attrs);
/**
 * dma_map_sg() - dma_map_sg_attrs() without attributes
 * @dev: device
 * @sg: first entry
 * @nents: number of entries to map
 * @dir: direction
 *
 * Return: as dma_map_sg_attrs(): the number of device segments, or 0.
 */
DMAMAP_API unsigned int dma_map_sg(struct device *dev, struct scatterlist *sg,
				   int nents, enum dma_data_direction dir);
/**
 * dma_unmap_sg() - dma_unmap_sg_attrs() without attributes
 * @dev: device
 * @sg: first entry
 * @nents: the @nents passed to dma_map_sg()
 * @dir: direction
 *
 * Bad arguments: as dma_unmap_sg_attrs().
 */
DMAMAP_API void dma_unmap_sg(struct device *dev, struct scatterlist *sg,
			     int nents, enum dma_data_direction dir);

/**
 * dma_map_sgtable() - map an sg_table, setting its nents
 * @dev: device
 * @sgt: table (orig_nents entries)
 * @dir: direction
 * @attrs: DMA_ATTR_*, as for dma_map_page_attrs()
 *
 * As dma_map_sg_attrs() on @sgt->orig_nents entries, with the reason for
 * a failure in the return value.
 *
 * Return: 0, with @sgt->nents set to the number of device segments. On
 * failure nothing stays mapped, and:
 *
 * -EINVAL for a bad argument: a NULL @dev (NULL_DEVICE); a NULL @sgt or
 * @sgt->sgl (INVALID_ARGUMENT/NULL_ARG); an invalid @dir
 * (INVALID_DIRECTION/BAD_DIR); an orig_nents of 0 or above INT_MAX
 * (ZERO_SIZE/ZERO_SIZE). For a bad entry: one that is missing (the list
 * ends before orig_nents), empty or without a page
 * (INVALID_ARGUMENT/BAD_ARG); on the direct backend, one outside the
 * board's linear map (NOT_LINEAR/NOT_LINEAR). Behind an IOMMU the same bad
 * entries, and entries outside the linear map, are refused by its map_sg
 * without a report or a count.
 *
 * -ENOMEM when something runs out: an injected DMAMAP_FAULT_MAP (-/NOMEM),
 * asked once per entry of a list mapped entry by entry (the IOMMU's map_sg
 * is no injection point); the direct backend's bounce pool is full or an
 * entry is larger than a bounce buffer can be (ALLOC_FAILED/NOMEM); behind
 * an IOMMU, no IOVA range for the whole list is free, or the one handed
 * out lies above the device's mask (ALLOC_FAILED/NOMEM), or memory for the
 * IO page table ran out (-/-).
 *
 * -EIO when an entry cannot be mapped: on the direct backend, the device
 * cannot reach it and nothing can bounce it, or cannot reach the bounce
 * pool either (UNREACHABLE/UNREACHABLE). On dmabounce, and on any table
 * without map_sg, every refusal of its map_page: an ops table's map_page
 * returns DMA_MAPPING_ERROR and cannot say why. So dmabounce out of safe
 * buffers (ALLOC_FAILED/NOMEM), an entry in high memory
 * (INVALID_ARGUMENT/BAD_ARG) and an entry outside the linear map (-/-)
 * give -EIO too. A table's own map_sg that maps nothing (returns 0) gives
 * -EIO.
 *
 * -EOPNOTSUPP for DMA_ATTR_REQUIRE_COHERENT on a device that does not
 * snoop, before any entry, as Linux (UNREACHABLE/UNREACHABLE).
 *
 * A table's own map_sg may return another negative errno; it is passed on.
 * DMA_ATTR_NO_WARN leaves every ALLOC_FAILED above unreported.
 */
DMAMAP_API int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
			       enum dma_data_direction dir, unsigned long attrs);
/**
 * dma_unmap_sgtable() - undo dma_map_sgtable()
 * @dev: device
 * @sgt: table
 * @dir: direction
 * @attrs: DMA_ATTR_*
 *
 * A NULL @sgt is reported (INVALID_ARGUMENT/NULL_ARG, or NULL_DEVICE
 * with a NULL @dev) and nothing happens; otherwise as dma_unmap_sg_attrs()
 * on @sgt->orig_nents entries.
 */
DMAMAP_API void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
				  enum dma_data_direction dir,
				  unsigned long attrs);

/* ---- ownership transfers --------------------------------------------- */

/**
 * dma_sync_single_for_cpu() - give a mapped buffer back to the CPU
 * @dev: device
 * @addr: device address of the mapping (or inside it)
 * @size: bytes to sync
 * @dir: the mapping's direction
 *
 * On a non-coherent device the range gets the cache maintenance the
 * board's rules ask for; a bounced range is copied back from the bounce
 * buffer (DMA_FROM_DEVICE, DMA_BIDIRECTIONAL).
 *
 * A NULL @dev (NULL_DEVICE), an invalid @dir (INVALID_DIRECTION/BAD_DIR),
 * a zero @size (ZERO_SIZE/ZERO_SIZE) or an @addr of DMA_MAPPING_ERROR
 * (UNMAP_INVALID/BAD_HANDLE) is reported and nothing happens. On the
 * direct backend and dmabounce, so is an @addr outside the device's window
 * (UNMAP_INVALID/BAD_HANDLE). A bounce-pool address that is no live bounce
 * buffer, and IOVA pages with nothing mapped, are skipped without a report.
 */
DMAMAP_API void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr,
					size_t size, enum dma_data_direction dir);
/**
 * dma_sync_single_for_device() - give a mapped buffer back to the device
 * @dev: device
 * @addr: device address
 * @size: bytes to sync
 * @dir: the mapping's direction
 *
 * A bounced range is copied to the bounce buffer first (DMA_TO_DEVICE,
 * DMA_BIDIRECTIONAL); on a non-coherent device the range then gets the
 * board's cache maintenance. Bad arguments and addresses are reported and
 * skipped as by dma_sync_single_for_cpu().
 */
DMAMAP_API void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
					   size_t size,
					   enum dma_data_direction dir);
/**
 * dma_sync_single_range_for_cpu() - dma_sync_single_for_cpu() on @addr + @offset
 * @dev: device
 * @addr: mapping start
 * @offset: offset of the range
 * @size: range length
 * @dir: direction
 *
 * Bad arguments: as dma_sync_single_for_cpu(), checked on the sum
 * @addr + @offset.
 */
DMAMAP_API void dma_sync_single_range_for_cpu(struct device *dev,
					      dma_addr_t addr,
					      unsigned long offset, size_t size,
					      enum dma_data_direction dir);
/**
 * dma_sync_single_range_for_device() - dma_sync_single_for_device() on a range
 * @dev: device
 * @addr: mapping start
 * @offset: offset of the range
 * @size: range length
 * @dir: direction
 *
 * Bad arguments: as dma_sync_single_for_device(), checked on the sum
 * @addr + @offset.
 */
DMAMAP_API void dma_sync_single_range_for_device(struct device *dev,
						 dma_addr_t addr,
						 unsigned long offset,
						 size_t size,
						 enum dma_data_direction dir);
/**
 * dma_sync_sg_for_cpu() - dma_sync_single_for_cpu() on each entry
 * @dev: device
 * @sg: first entry
 * @nelems: the nents passed to dma_map_sg()
 * @dir: direction
 *
 * A NULL @dev (NULL_DEVICE), a NULL @sg (INVALID_ARGUMENT/NULL_ARG), an
 * invalid @dir (INVALID_DIRECTION/BAD_DIR) or @nelems of 0 or less
 * (ZERO_SIZE/ZERO_SIZE) is reported and nothing happens. Each entry is
 * then synced, and reported, as dma_sync_single_for_cpu() would; a list
 * that ends before @nelems is reported where it ends
 * (INVALID_ARGUMENT/BAD_ARG). Behind an IOMMU the list is synced from its
 * CPU side and a short list just ends.
 */
DMAMAP_API void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
				    int nelems, enum dma_data_direction dir);
/**
 * dma_sync_sg_for_device() - dma_sync_single_for_device() on each entry
 * @dev: device
 * @sg: first entry
 * @nelems: the nents passed to dma_map_sg()
 * @dir: direction
 *
 * Bad arguments and a short list: as dma_sync_sg_for_cpu().
 */
DMAMAP_API void dma_sync_sg_for_device(struct device *dev,
				       struct scatterlist *sg, int nelems,
				       enum dma_data_direction dir);
/**
 * dma_sync_sgtable_for_cpu() - sync a mapped table for the CPU
 * @dev: device
 * @sgt: table mapped with dma_map_sgtable()
 * @dir: direction
 *
 * A NULL @sgt is reported (INVALID_ARGUMENT/NULL_ARG, or NULL_DEVICE with
 * a NULL @dev) and nothing happens; otherwise as dma_sync_sg_for_cpu() on
 * @sgt->orig_nents entries.
 */
DMAMAP_API void dma_sync_sgtable_for_cpu(struct device *dev, struct sg_table *sgt,
					 enum dma_data_direction dir);
/**
 * dma_sync_sgtable_for_device() - sync a mapped table for the device
 * @dev: device
 * @sgt: table mapped with dma_map_sgtable()
 * @dir: direction
 *
 * A NULL @sgt is reported as by dma_sync_sgtable_for_cpu(); otherwise as
 * dma_sync_sg_for_device() on @sgt->orig_nents entries.
 */
DMAMAP_API void dma_sync_sgtable_for_device(struct device *dev,
					    struct sg_table *sgt,
					    enum dma_data_direction dir);

/* ---- coherent and non-coherent allocations ---------------------------- */

/**
 * dma_alloc_attrs() - allocate memory both CPU and device may use at once
 * @dev: device
 * @size: bytes (rounded up to pages: the host's, where those are larger
 *        than a board's 4 KiB, so that dma_mmap_attrs() can map them)
 * @dma_handle: receives the device address
 * @gfp: GFP_KERNEL, GFP_ATOMIC... (zone modifiers are ignored: the
 *       coherent mask decides the zone); the memory is always zeroed
 * @attrs: DMA_ATTR_WRITE_COMBINE, DMA_ATTR_NO_KERNEL_MAPPING,
 *         DMA_ATTR_FORCE_CONTIGUOUS, DMA_ATTR_NO_WARN, ...
 *
 * On a non-coherent device the CPU address is an uncached (or, with
 * DMA_ATTR_WRITE_COMBINE, write-combining) alias; with
 * DMA_ATTR_NO_KERNEL_MAPPING it is an opaque cookie for dma_free_attrs().
 *
 * The memory comes from the device's declared pool
 * (dma_declare_coherent_memory()) first; when the pool has no room, from
 * the backend as if there were no pool. The direct backend takes a
 * restricted pool's slots for a device that has one (at most 256 KiB);
 * else CMA, when the board has it, for DMA_ATTR_FORCE_CONTIGUOUS and for
 * blocking (GFP_KERNEL) allocations larger than a page; else, or when CMA
 * fails, pages of the zone the coherent mask reaches. Behind an IOMMU,
 * pages from any zone mapped at one IOVA range: scattered pages when the
 * size is above a page (unless DMA_ATTR_FORCE_CONTIGUOUS or
 * DMA_ATTR_NO_KERNEL_MAPPING), their IOVA checked against no mask;
 * contiguous pages otherwise, their IOVA under the streaming mask. The
 * coherent mask plays no part there.
 *
 * Return: the CPU address or cookie, with *@dma_handle set; NULL when:
 *
 * - @dev is NULL (NULL_DEVICE), @dma_handle is NULL
 *   (INVALID_ARGUMENT/NULL_ARG) or @size is 0 (ZERO_SIZE/ZERO_SIZE);
 * - an injected DMAMAP_FAULT_ALLOC fires at the call (-/NOMEM), or deeper,
 *   in CMA or the page allocator, when nothing else serves the call
 *   (ALLOC_FAILED/NOMEM);
 * - no memory fits: the zones the coherent mask reaches are full, the
 *   restricted pool is full, the table has no alloc (ALLOC_FAILED/NOMEM);
 * - behind an IOMMU, no IOVA range, as for dma_map_page_attrs(): reported
 *   and counted twice (ALLOC_FAILED/NOMEM, then ALLOC_FAILED/NOMEM);
 * - a host device created with host_noncoherent: the host has no uncached
 *   memory to give (ALLOC_FAILED/NOMEM).
 *
 * __GFP_NOWARN or DMA_ATTR_NO_WARN leaves the call's own ALLOC_FAILED
 * unreported.
 */
DMAMAP_API void *dma_alloc_attrs(struct device *dev, size_t size,
				 dma_addr_t *dma_handle, gfp_t gfp,
				 unsigned long attrs);
/**
 * dma_free_attrs() - free memory from dma_alloc_attrs()
 * @dev: device
 * @size: the size allocated
 * @cpu_addr: the CPU address (or cookie) returned
 * @dma_handle: the device address returned
 * @attrs: the attributes used to allocate
 *
 * A NULL @cpu_addr does nothing, as in the kernel. A NULL @dev
 * (NULL_DEVICE) or a zero @size (ZERO_SIZE/ZERO_SIZE) is reported and
 * nothing is freed. Memory the backend does not recognise from
 * @cpu_addr, @dma_handle, @size and @attrs together is reported and not
 * freed (FREE_INVALID/BAD_HANDLE): a declared pool's memory with another
 * address or size, direct memory through another alias, handle, size or
 * attributes, an IOMMU allocation with another CPU address or size. An
 * address in a restricted pool that is no live allocation is ignored
 * without a report.
 */
DMAMAP_API void dma_free_attrs(struct device *dev, size_t size, void *cpu_addr,
			       dma_addr_t dma_handle, unsigned long attrs);
/**
 * dma_alloc_coherent() - dma_alloc_attrs() without attributes
 * @dev: device
 * @size: bytes (rounded up to pages)
 * @dma_handle: receives the device address
 * @gfp: GFP_KERNEL, GFP_ATOMIC...
 *
 * Return: as dma_alloc_attrs(): the CPU address, or NULL.
 */
DMAMAP_API void *dma_alloc_coherent(struct device *dev, size_t size,
				    dma_addr_t *dma_handle, gfp_t gfp);
/**
 * dma_free_coherent() - free dma_alloc_coherent() memory
 * @dev: device
 * @size: the size allocated
 * @cpu_addr: the CPU address returned
 * @dma_handle: the device address returned
 *
 * Bad arguments and unknown memory: as dma_free_attrs().
 */
DMAMAP_API void dma_free_coherent(struct device *dev, size_t size,
				  void *cpu_addr, dma_addr_t dma_handle);
/**
 * dmam_alloc_attrs() - dma_alloc_attrs() released with the driver (devres)
 * @dev: the device being probed (or bound to a driver)
 * @size: bytes (rounded up to pages)
 * @dma_handle: receives the device address
 * @gfp: GFP_KERNEL, GFP_ATOMIC...
 * @attrs: DMA_ATTR_*
 *
 * Freed with dma_free_attrs() when the driver is released
 * (<dmamap/device.h>), or earlier by dmam_free_coherent().
 *
 * Return: as dma_alloc_attrs(): the CPU address, or NULL (also when the
 * device-managed record cannot be allocated, and nothing is left then).
 */
DMAMAP_API void *dmam_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
				  gfp_t gfp, unsigned long attrs);
/**
 * dmam_alloc_coherent() - dma_alloc_coherent() released with the driver (devres)
 * @dev: the device being probed (or bound to a driver)
 * @size: bytes (rounded up to pages)
 * @dma_handle: receives the device address
 * @gfp: GFP_KERNEL, GFP_ATOMIC...
 *
 * Return: as dmam_alloc_attrs().
 */
DMAMAP_API void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle,
				     gfp_t gfp);
/**
 * dmam_free_coherent() - free dmam_alloc_coherent()/dmam_alloc_attrs() memory early
 * @dev: the device it was allocated for
 * @size: the size allocated
 * @cpu_addr: the CPU address returned
 * @dma_handle: the device address returned
 *
 * Memory that no dmam_ call of @dev allocated with this address, handle
 * and size is not freed (a wrong size included: it stays the driver's
 * until release): a line is logged, as the kernel WARNs.
 */
DMAMAP_API void dmam_free_coherent(struct device *dev, size_t size, void *cpu_addr,
				   dma_addr_t dma_handle);
/**
 * dma_alloc_wc() - dma_alloc_attrs() with DMA_ATTR_WRITE_COMBINE
 * @dev: device
 * @size: bytes (rounded up to pages)
 * @dma_handle: receives the device address
 * @gfp: GFP_KERNEL, GFP_ATOMIC...
 *
 * Return: as dma_alloc_attrs(): the CPU address, or NULL.
 */
DMAMAP_API void *dma_alloc_wc(struct device *dev, size_t size,
			      dma_addr_t *dma_handle, gfp_t gfp);
/**
 * dma_free_wc() - free dma_alloc_wc() memory
 * @dev: device
 * @size: the size allocated
 * @cpu_addr: the CPU address returned
 * @dma_handle: the device address returned
 *
 * Bad arguments and unknown memory: as dma_free_attrs().
 */
DMAMAP_API void dma_free_wc(struct device *dev, size_t size, void *cpu_addr,
			    dma_addr_t dma_handle);

/**
 * dma_mmap_attrs() - map a coherent allocation into this process again
 * @dev: device
 * @vma: the mapping to create (see struct vm_area_struct)
 * @cpu_addr: CPU address from dma_alloc_attrs()
 * @dma_addr: device address from dma_alloc_attrs()
 * @size: size allocated
 * @attrs: the attributes used to allocate
 *
 * The new mapping reaches the same RAM: bytes written through it are seen
 * through @cpu_addr and by the device. The memory is found from
 * @dma_addr; @cpu_addr need only be non-NULL.
 *
 * Return: 0, with vm_start and vm_end of @vma set; otherwise:
 *
 * - -EINVAL: a NULL @dev (NULL_DEVICE), a NULL @vma
 *   (INVALID_ARGUMENT/NULL_ARG), a zero @size (ZERO_SIZE/ZERO_SIZE), a
 *   NULL @cpu_addr or an empty @vma (INVALID_ARGUMENT/BAD_ARG); a length
 *   that is not page aligned, a vm_start or vm_pgoff that is not on a
 *   host page (mmap's unit, 16 or 64 KiB on some arm64 hosts), a length
 *   that rounded up to a host page reaches past the allocation, memory
 *   of a declared pool where a host page holds several 4 KiB ones, a @dma_addr outside the
 *   device's windows or not mapped in its IOMMU (INVALID_ARGUMENT/BAD_ARG);
 *   with the checker on, a @dma_addr inside a live streaming mapping
 *   (WRONG_TYPE/BAD_HANDLE: only allocations have this view);
 * - -ENXIO: @vma asks for pages past the end of @size, @dma_addr is not
 *   RAM of the board (on the host: not in the coherent arena), or the ops
 *   table has no mmap (INVALID_ARGUMENT/BAD_ARG);
 * - -ENOMEM: mmap(2) failed, a vm_start already in use included
 *   (ALLOC_FAILED/NOMEM).
 */
DMAMAP_API int dma_mmap_attrs(struct device *dev, struct vm_area_struct *vma,
			      void *cpu_addr, dma_addr_t dma_addr, size_t size,
			      unsigned long attrs);
/**
 * dma_mmap_coherent() - dma_mmap_attrs() without attributes
 * @dev: device
 * @vma: the mapping to create
 * @cpu_addr: CPU address from dma_alloc_coherent()
 * @dma_addr: device address from dma_alloc_coherent()
 * @size: size allocated
 *
 * Return: as dma_mmap_attrs(): 0, -EINVAL, -ENXIO or -ENOMEM.
 */
DMAMAP_API int dma_mmap_coherent(struct device *dev, struct vm_area_struct *vma,
				 void *cpu_addr, dma_addr_t dma_addr,
				 size_t size);
/**
 * dma_mmap_wc() - dma_mmap_attrs() with DMA_ATTR_WRITE_COMBINE
 * @dev: device
 * @vma: the mapping to create
 * @cpu_addr: CPU address from dma_alloc_wc()
 * @dma_addr: device address from dma_alloc_wc()
 * @size: size allocated
 *
 * Return: as dma_mmap_attrs(): 0, -EINVAL, -ENXIO or -ENOMEM.
 */
DMAMAP_API int dma_mmap_wc(struct device *dev, struct vm_area_struct *vma,
			   void *cpu_addr, dma_addr_t dma_addr, size_t size);

/* ---- the two-step IOVA API (Linux 6.16+) --------------------------------- */

/*
 * One IOVA range, taken by dma_iova_try_alloc(): its device address and
 * size. All zero when none was taken (no IOMMU: map with dma_map_*()).
 */
struct dma_iova_state {
	dma_addr_t addr;
	u64 __size;
};

/* Set in __size by Linux when the range bounces; never here (no untrusted devices). */
#define DMA_IOVA_USE_SWIOTLB (1ULL << 63)

/**
 * dma_iova_size() - the size of the range @state holds
 * @state: from dma_iova_try_alloc()
 *
 * Return: bytes; 0 when no range was taken.
 */
static inline size_t dma_iova_size(struct dma_iova_state *state)
{
	return (size_t)(state->__size & ~DMA_IOVA_USE_SWIOTLB);
}

/**
 * dma_use_iova() - whether @state holds a range
 * @state: from dma_iova_try_alloc()
 *
 * Return: true if dma_iova_try_alloc() took one.
 */
static inline bool dma_use_iova(struct dma_iova_state *state)
{
	return state->__size != 0;
}

/**
 * dma_iova_try_alloc() - take an IOVA range for a request's pieces
 * @dev: device
 * @state: receives the range (zeroed first, whatever happens)
 * @phys: where the first piece's memory starts: the range starts at the
 *        same offset in its page
 * @size: bytes, every piece together
 *
 * Only behind an IOMMU (whose table the device uses): the range is taken
 * from the IOVA space and below the device's mask, mapped to nothing. An
 * injected DMAMAP_FAULT_MAP makes it fail.
 *
 * Return: true with the range in @state; false for a device without an
 * IOMMU (map with dma_map_*() instead, as in Linux), a NULL @dev or
 * @state, a zero @size, a @size that wraps with @phys's page offset or
 * has bit 63 (DMA_IOVA_USE_SWIOTLB) set (reported, INVALID_ARGUMENT/
 * BAD_ARG), or when no range is free (counted NOMEM, not reported: the
 * driver falls back).
 */
DMAMAP_API bool dma_iova_try_alloc(struct device *dev, struct dma_iova_state *state,
				   phys_addr_t phys, size_t size);
/**
 * dma_iova_free() - give a range back without unlinking anything
 * @dev: device
 * @state: the range; emptied
 *
 * For a range with nothing linked, or whose links are already gone. Links
 * still in place stay mapped, as in Linux; with the checker on they are
 * reported (leak) and forgotten.
 */
DMAMAP_API void dma_iova_free(struct device *dev, struct dma_iova_state *state);
/**
 * dma_iova_link() - map a physical piece into the range
 * @dev: device
 * @state: the range
 * @phys: the piece's physical address
 * @offset: where in the range it goes; @phys and the range's address at
 *          @offset must sit at the same offset in their pages
 * @size: bytes
 * @dir: direction
 * @attrs: DMA_ATTR_SKIP_CPU_SYNC, DMA_ATTR_MMIO (not RAM: no maintenance),
 *         DMA_ATTR_NO_WARN
 *
 * The pages get the permissions @dir allows and, for a device that does
 * not snoop, are cleaned for it. The checker records the piece as an
 * "iova link".
 *
 * Links and unlinks are not counted as maps and unmaps in the device's
 * statistics (an unlink may cover any number of links).
 *
 * Return: 0; -EINVAL for a NULL @dev, an invalid @dir, a zero @size, a
 * piece outside the range, disagreeing page offsets (INVALID_ARGUMENT/
 * BAD_ARG), or memory that is not RAM without DMA_ATTR_MMIO (NOT_LINEAR/
 * NOT_LINEAR); -EIO for an @offset other than 0 into a range that starts
 * mid-page, as Linux; -EEXIST when a page of the piece is already linked
 * (INVALID_ARGUMENT/BAD_ARG); -EOPNOTSUPP for DMA_ATTR_REQUIRE_COHERENT on
 * a device that does not snoop (UNREACHABLE/UNREACHABLE); -ENOMEM when
 * the IO page table cannot grow (ALLOC_FAILED/NOMEM).
 */
DMAMAP_API int dma_iova_link(struct device *dev, struct dma_iova_state *state,
			     phys_addr_t phys, size_t offset, size_t size,
			     enum dma_data_direction dir, unsigned long attrs);
/**
 * dma_iova_sync() - make the links of [@offset, +@size) visible to the device
 * @dev: device
 * @state: the range
 * @offset: first byte
 * @size: bytes
 *
 * The simulated IOMMU shows a link at once; the call checks its
 * arguments, so a driver that forgets it on real hardware is no worse here.
 *
 * Return: 0; -EINVAL for a range that is not inside @state (reported).
 */
DMAMAP_API int dma_iova_sync(struct device *dev, struct dma_iova_state *state, size_t offset,
			     size_t size);
/**
 * dma_iova_unlink() - unmap [@offset, +@size) of the range
 * @dev: device
 * @state: the range (kept: link into it again, or free it)
 * @offset: first byte
 * @size: bytes; may cover several links
 * @dir: direction linked
 * @attrs: DMA_ATTR_SKIP_CPU_SYNC, DMA_ATTR_MMIO as linked
 *
 * The CPU side of the cache maintenance first, then the pages unmapped and
 * the IOTLB invalidated once for the whole piece. With the checker on,
 * every link that starts inside the piece goes; none at all is reported
 * (not-mapped). A piece outside the range is reported and ignored.
 */
DMAMAP_API void dma_iova_unlink(struct device *dev, struct dma_iova_state *state,
				size_t offset, size_t size, enum dma_data_direction dir,
				unsigned long attrs);
/**
 * dma_iova_destroy() - unlink the first @mapped_len bytes and free the range
 * @dev: device
 * @state: the range; emptied
 * @mapped_len: how much was linked from the start (0: nothing)
 * @dir: direction linked
 * @attrs: as linked
 */
DMAMAP_API void dma_iova_destroy(struct device *dev, struct dma_iova_state *state,
				 size_t mapped_len, enum dma_data_direction dir,
				 unsigned long attrs);

/* ---- pages and non-contiguous memory ---------------------------------- */

/**
 * dma_alloc_pages() - cacheable pages for streaming use, as pages
 * @dev: device
 * @size: bytes
 * @dma_handle: receives the device address
 * @dir: the direction the memory will be used in
 * @gfp: GFP_KERNEL, GFP_ATOMIC...
 *
 * dma_alloc_noncoherent() returning the first page: the CPU owns the
 * memory after the call and hands it over with dma_sync_single_for_device()
 * and back with dma_sync_single_for_cpu(), as for a streaming mapping.
 *
 * Return: the first page, or NULL with the causes and reports of
 * dma_alloc_noncoherent().
 */
DMAMAP_API struct page *dma_alloc_pages(struct device *dev, size_t size,
					dma_addr_t *dma_handle, enum dma_data_direction dir,
					gfp_t gfp);
/**
 * dma_free_pages() - free dma_alloc_pages() memory
 * @dev: device
 * @size: as allocated
 * @page: as returned (NULL: nothing happens)
 * @dma_handle: as returned
 * @dir: as allocated
 *
 * As dma_free_noncoherent() of page_address(@page), with its reports.
 */
DMAMAP_API void dma_free_pages(struct device *dev, size_t size, struct page *page,
			       dma_addr_t dma_handle, enum dma_data_direction dir);
/**
 * dma_mmap_pages() - map dma_alloc_pages() memory into this process again
 * @dev: device
 * @vma: the mapping to make (vm_start 0: anywhere; vm_pgoff: first page)
 * @size: as allocated
 * @page: as returned
 *
 * The user mapping is cacheable, as the memory is: the CPU still owns it
 * only between dma_sync_single_for_cpu() and dma_sync_single_for_device().
 *
 * Return: 0; -EINVAL for a NULL @dev, @vma or @page, a zero @size, or a
 * vma that is not page aligned; -ENXIO for pages past @size or memory
 * that cannot be mapped again (on the host, outside the coherent arena);
 * -ENOMEM if mmap(2) fails.
 */
DMAMAP_API int dma_mmap_pages(struct device *dev, struct vm_area_struct *vma, size_t size,
			      struct page *page);
/**
 * dma_alloc_noncontiguous() - cacheable memory the device sees as one range
 * @dev: device
 * @size: bytes
 * @dir: the direction the memory will be used in
 * @gfp: GFP_KERNEL, GFP_ATOMIC...
 * @attrs: 0 or DMA_ATTR_ALLOC_SINGLE_PAGES; any other attribute is refused
 *
 * Behind an IOMMU: pages taken in runs as long as the page allocator has
 * them (single pages with DMA_ATTR_ALLOC_SINGLE_PAGES), zeroed, listed in
 * the table's CPU entries (orig_nents; contiguous pages merged) and mapped
 * at one IOVA range: the device segments (nents, sg_dma_address()) are
 * contiguous in IOVA space, one segment unless the range is longer than
 * the device's max segment size. Without an IOMMU: contiguous memory from
 * dma_alloc_noncoherent()'s allocator, one entry. The CPU owns the memory
 * after the call; the checker records it as a mapped list.
 *
 * Return: the table (free with dma_free_noncontiguous(), never
 * sg_free_table()); NULL for a NULL @dev, a zero @size, an invalid @dir or
 * another attribute (reported, INVALID_ARGUMENT/BAD_ARG), or when memory
 * or IOVA space runs out.
 */
DMAMAP_API struct sg_table *dma_alloc_noncontiguous(struct device *dev, size_t size,
						    enum dma_data_direction dir, gfp_t gfp,
						    unsigned long attrs);
/**
 * dma_free_noncontiguous() - free dma_alloc_noncontiguous() memory
 * @dev: device
 * @size: as allocated
 * @sgt: as returned
 * @dir: as allocated
 *
 * A table that is not from dma_alloc_noncontiguous() for @dev is refused
 * and reported (FREE_INVALID/BAD_HANDLE); a @size or @dir other than the
 * allocation's is reported and the memory freed anyway. Any vmap of it
 * goes too.
 */
DMAMAP_API void dma_free_noncontiguous(struct device *dev, size_t size, struct sg_table *sgt,
				       enum dma_data_direction dir);
/**
 * dma_vmap_noncontiguous() - a contiguous CPU view of the memory
 * @dev: device
 * @size: as allocated
 * @sgt: as returned by dma_alloc_noncontiguous()
 *
 * Behind an IOMMU, each page mapped again, in order, into one range (the
 * same RAM: what the CPU writes there the pages hold); without one, the
 * memory's own linear address. The view is cacheable and lasts until the
 * memory is freed; asking twice gives the same view.
 *
 * Return: the address; NULL for a table that is not from
 * dma_alloc_noncontiguous() for @dev (reported), or when the pages cannot
 * be mapped again (on the host, memory outside the coherent arena).
 */
DMAMAP_API void *dma_vmap_noncontiguous(struct device *dev, size_t size,
					struct sg_table *sgt);
/**
 * dma_vunmap_noncontiguous() - give a vmap back
 * @dev: device
 * @vaddr: the view
 *
 * Nothing happens: the view is unmapped when the memory is freed.
 */
DMAMAP_API void dma_vunmap_noncontiguous(struct device *dev, void *vaddr);
/**
 * dma_mmap_noncontiguous() - map the memory into this process again
 * @dev: device
 * @vma: the mapping to make (vm_start 0: anywhere; vm_pgoff: first page)
 * @size: as allocated
 * @sgt: as returned by dma_alloc_noncontiguous()
 *
 * Return: 0; -EINVAL for a table that is not from
 * dma_alloc_noncontiguous() for @dev (reported), a NULL @vma or a vma that
 * is not page aligned; -ENXIO for pages past the allocation or memory that
 * cannot be mapped again; -ENOMEM if mmap(2) fails.
 */
DMAMAP_API int dma_mmap_noncontiguous(struct device *dev, struct vm_area_struct *vma,
				      size_t size, struct sg_table *sgt);

/**
 * dmamap_munmap() - remove a mapping made by dma_mmap_attrs()
 * @vma: the filled vm_area_struct
 *
 * The range is unmapped as @vma gives it, and @vma emptied: the call
 * cannot tell a vma dma_mmap_attrs() filled from another, and a failure
 * of munmap(2) is not returned.
 *
 * Return: 0, or -EINVAL for a NULL @vma or one whose vm_end is not above
 * its vm_start. Nothing is reported.
 */
DMAMAP_API int dmamap_munmap(struct vm_area_struct *vma);

/**
 * dma_get_sgtable_attrs() - describe a coherent allocation as an sg_table
 * @dev: device
 * @sgt: table to allocate and fill (free with sg_free_table())
 * @cpu_addr: CPU address from dma_alloc_attrs() (not used: the memory is
 *            found from @dma_addr)
 * @dma_addr: device address from dma_alloc_attrs()
 * @size: size allocated
 * @attrs: attributes used to allocate
 *
 * Contiguous memory becomes one entry, a scattered IOMMU allocation one
 * entry per page.
 *
 * Return: 0; otherwise:
 *
 * - -EINVAL: a NULL @dev (NULL_DEVICE), a NULL @sgt
 *   (INVALID_ARGUMENT/NULL_ARG) or a zero @size (ZERO_SIZE/ZERO_SIZE);
 *   with the checker on, a @dma_addr inside a live streaming mapping
 *   (WRONG_TYPE/BAD_HANDLE: only allocations have a table; Linux leaves
 *   this undefined);
 * - -ENXIO: @dma_addr is not memory of this device: outside its windows,
 *   not RAM of the board, not mapped in its IOMMU; or the ops table has no
 *   get_sgtable (INVALID_ARGUMENT/BAD_ARG). On the host every address is
 *   memory;
 * - -ENOMEM: the table cannot be allocated (ALLOC_FAILED/NOMEM).
 *
 * @sgt is left as it was on -EINVAL and -ENXIO, empty on -ENOMEM.
 */
DMAMAP_API int dma_get_sgtable_attrs(struct device *dev, struct sg_table *sgt,
				     void *cpu_addr, dma_addr_t dma_addr,
				     size_t size, unsigned long attrs);
/* dma_get_sgtable() - dma_get_sgtable_attrs() without attributes, as in Linux */
#define dma_get_sgtable(dev, sgt, cpu_addr, dma_addr, size) \
	dma_get_sgtable_attrs(dev, sgt, cpu_addr, dma_addr, size, 0)

/**
 * dma_alloc_noncoherent() - allocate cacheable memory for streaming use
 * @dev: device
 * @size: bytes (rounded up to pages)
 * @dma_handle: receives the device address
 * @dir: direction the buffer will be used in
 * @gfp: allocation flags (__GFP_NOWARN: no report on failure)
 *
 * The CPU address is cached: ownership moves with dma_sync_single_for_*
 * exactly as for a streaming mapping, starting with the CPU. The direct
 * backend takes pages under the streaming mask (dma_set_mask()), not the
 * coherent one, and never from a declared or restricted pool; behind an
 * IOMMU, pages from any zone mapped at one IOVA range.
 *
 * Return: CPU address, with *@dma_handle set; NULL when:
 *
 * - @dev is NULL (NULL_DEVICE), @dma_handle is NULL
 *   (INVALID_ARGUMENT/NULL_ARG), @size is 0 (ZERO_SIZE/ZERO_SIZE) or @dir
 *   is invalid (INVALID_DIRECTION/BAD_DIR);
 * - an injected DMAMAP_FAULT_ALLOC fires at the call (-/NOMEM) or in the
 *   page allocator (ALLOC_FAILED/NOMEM);
 * - no pages under the mask are free, or the table has no
 *   alloc_noncoherent (ALLOC_FAILED/NOMEM);
 * - behind an IOMMU, no IOVA range: reported and counted twice, as for
 *   dma_alloc_attrs().
 */
DMAMAP_API void *dma_alloc_noncoherent(struct device *dev, size_t size,
				       dma_addr_t *dma_handle,
				       enum dma_data_direction dir, gfp_t gfp);
/**
 * dma_free_noncoherent() - free dma_alloc_noncoherent() memory
 * @dev: device
 * @size: size allocated
 * @vaddr: CPU address
 * @dma_handle: device address
 * @dir: direction given at allocation
 *
 * A NULL @vaddr does nothing. A NULL @dev (NULL_DEVICE) or a zero @size
 * (ZERO_SIZE/ZERO_SIZE) is reported and nothing is freed; so is memory
 * the backend did not allocate so, or with another handle or size
 * (FREE_INVALID/BAD_HANDLE).
 */
DMAMAP_API void dma_free_noncoherent(struct device *dev, size_t size,
				     void *vaddr, dma_addr_t dma_handle,
				     enum dma_data_direction dir);

/**
 * dma_declare_coherent_memory() - give a device its own coherent memory
 * @dev: device
 * @phys_addr: CPU physical address of the memory: board RAM (on the
 *             host, any memory)
 * @device_addr: the address the device uses for its first byte
 * @size: bytes (whole pages)
 *
 * dma_alloc_attrs() takes from this pool first and, when it has no room,
 * goes on as if there were none. The CPU reaches the pool uncached.
 * Nothing keeps the page allocator, CMA or a bounce pool out of the
 * range: give memory the board reserves (struct dmamap_board's
 * reserved[]).
 *
 * Return: 0; otherwise:
 *
 * - -EINVAL: a NULL @dev (NULL_DEVICE); a zero @size, a @phys_addr,
 *   @device_addr or @size that is not page aligned, or a device range
 *   that wraps (INVALID_ARGUMENT/BAD_ARG); on a simulated board, a range
 *   that is not inside one RAM bank (INVALID_ARGUMENT/BAD_ARG);
 * - -EBUSY: the device already has a pool (-/-);
 * - -ENOMEM: out of memory, or an injected DMAMAP_FAULT_ALLOC (-/-).
 */
DMAMAP_API int dma_declare_coherent_memory(struct device *dev,
					   phys_addr_t phys_addr,
					   dma_addr_t device_addr, size_t size);

/* ---- masks and limits -------------------------------------------------- */

/**
 * dma_set_mask() - set the addresses the device can generate for streaming DMA
 * @dev: device
 * @mask: DMA_BIT_MASK(n)
 *
 * A table with its own set_dma_mask decides (dmabounce's takes what the
 * direct backend supports). Otherwise the mask is kept if dma_supported()
 * accepts it: the direct backend takes, as Linux's dma_direct_supported(),
 * every mask of 32 bits or more (what the device cannot reach bounces),
 * and a narrower one if it reaches, through the device's window, the top
 * of the lowest zone (ZONE_DMA, else 4 GiB, or the top of RAM when that
 * is lower), where a fallback allocation comes from; a table without
 * dma_supported, the IOMMU's, takes any mask, 0 too.
 *
 * Return: 0; -EINVAL for a NULL @dev (NULL_DEVICE); -EIO when the mask
 * cannot be supported (MASK_UNSUPPORTED/BAD_MASK), the mask unchanged. A
 * table's set_dma_mask may return another errno: passed on, and reported
 * the same way.
 */
DMAMAP_API int dma_set_mask(struct device *dev, u64 mask);
/**
 * dma_set_coherent_mask() - set the addresses coherent allocations may have
 * @dev: device
 * @mask: DMA_BIT_MASK(n)
 *
 * The mask is kept if dma_supported() accepts it; a table's set_dma_mask
 * plays no part.
 *
 * Return: 0; -EINVAL for a NULL @dev (NULL_DEVICE); -EIO when the mask
 * cannot be supported (MASK_UNSUPPORTED/BAD_MASK), the mask unchanged.
 */
DMAMAP_API int dma_set_coherent_mask(struct device *dev, u64 mask);
/**
 * dma_set_mask_and_coherent() - both masks at once
 * @dev: device
 * @mask: DMA_BIT_MASK(n)
 *
 * dma_set_mask(), then dma_set_coherent_mask(): if the second fails the
 * streaming mask stays set.
 *
 * Return: 0; the first error of the two, as dma_set_mask() lists them
 * (-EINVAL, -EIO, or a table's own errno).
 */
DMAMAP_API int dma_set_mask_and_coherent(struct device *dev, u64 mask);
/**
 * dma_coerce_mask_and_coherent() - both masks, for a device without a streaming mask
 * @dev: device
 * @mask: DMA_BIT_MASK(n)
 *
 * In Linux, for platform devices whose dma_mask pointer was never set;
 * every dmamap device has one, so this is dma_set_mask_and_coherent().
 *
 * Return: as dma_set_mask_and_coherent().
 */
DMAMAP_API int dma_coerce_mask_and_coherent(struct device *dev, u64 mask);
/**
 * dma_supported() - whether the device's ops can work with @mask
 * @dev: device
 * @mask: candidate mask
 *
 * Return: 1 if the device's table accepts @mask (a table without
 * dma_supported, the IOMMU's, accepts every mask); 0 if not, or if @dev
 * is NULL. Nothing is reported.
 */
DMAMAP_API int dma_supported(struct device *dev, u64 mask);
/**
 * dma_get_mask() - the streaming mask
 * @dev: device
 *
 * Return: the mask; DMA_BIT_MASK(32) for a NULL @dev or a mask of 0.
 */
DMAMAP_API u64 dma_get_mask(struct device *dev);
/**
 * dma_get_required_mask() - the smallest mask that reaches all RAM
 * @dev: device
 *
 * As Linux: on the direct backend, the mask that covers the device address
 * of the last page of RAM (the highest bank), through the device's window;
 * a table's own get_required_mask; DMA_BIT_MASK(32) for a table without
 * one (the IOMMU's, whose IOVAs need no more).
 *
 * Return: the mask; DMA_BIT_MASK(64) when the top of RAM is outside the
 * device's window (no mask reaches it) and on the host; 0 for a NULL @dev.
 */
DMAMAP_API u64 dma_get_required_mask(struct device *dev);
/**
 * dma_addressing_limited() - whether the device cannot reach all RAM itself
 * @dev: device
 *
 * True when the mask (narrowed by the bus limit) is below
 * dma_get_required_mask(), or, on the direct backend, when the device's
 * window leaves some RAM without a device address. Such a device's
 * streaming mappings may bounce. An IOMMU's table reaches whatever it maps.
 *
 * Return: true or false; false for a NULL @dev.
 */
DMAMAP_API bool dma_addressing_limited(struct device *dev);
/**
 * dma_max_mapping_size() - the largest size one mapping may have
 * @dev: device
 *
 * Return: bytes: on the direct backend, when a bounce pool may be used
 * (the platform's, unless swiotlb=noforce, or the device's restricted
 * one) and the device may have to bounce (dma_addressing_limited(),
 * swiotlb=force or a restricted pool), the largest bounce (256 KiB less
 * what min_align_mask may cost); SIZE_MAX otherwise, as in Linux, and for
 * tables without max_mapping_size (the IOMMU's, dmabounce's); 0 for a
 * NULL @dev.
 */
DMAMAP_API size_t dma_max_mapping_size(struct device *dev);

/**
 * dma_set_min_align_mask() - keep these low address bits when bouncing
 * @dev: device
 * @min_align_mask: e.g. 0xfff for NVMe-style devices that need the offset
 *                  inside a 4 KiB page preserved
 *
 * Only bounce buffers (swiotlb) look at it.
 *
 * Return: 0, or -EINVAL for a NULL @dev (not reported).
 */
DMAMAP_API int dma_set_min_align_mask(struct device *dev,
				      unsigned int min_align_mask);
/**
 * dma_get_min_align_mask() - the mask dma_set_min_align_mask() set
 * @dev: device
 *
 * Return: the mask; 0 when none was set or @dev is NULL.
 */
DMAMAP_API unsigned int dma_get_min_align_mask(struct device *dev);

/* ---- segment limits and queries ---------------------------------------- */

/*
 * The largest cache line any board may have (ARCH_DMA_MINALIGN); one
 * platform's own line is dmamap_cache_line_size().
 */
#define DMAMAP_MAX_CACHE_LINE 256

/**
 * dma_get_cache_alignment() - the alignment that keeps DMA buffers apart
 * @void: no arguments, as in Linux
 *
 * A buffer aligned (start and length) to this never shares a cache line
 * with other data, on any board.
 *
 * Return: DMAMAP_MAX_CACHE_LINE.
 */
DMAMAP_API int dma_get_cache_alignment(void);
/**
 * dma_set_max_seg_size() - the longest segment the device takes
 * @dev: device
 * @size: bytes
 *
 * Merging in an IOMMU's map_sg keeps device segments within it, and the
 * checker reports sg segments longer than it (sg-segment-too-long).
 * Linux 6.11+ returns nothing; the int return keeps older drivers' "if
 * (dma_set_max_seg_size(...))" compiling.
 *
 * Return: 0; -EINVAL for a NULL @dev or a zero @size (not reported).
 */
DMAMAP_API int dma_set_max_seg_size(struct device *dev, unsigned int size);
/**
 * dma_get_max_seg_size() - the longest segment the device takes
 * @dev: device
 *
 * Return: what dma_set_max_seg_size() (or the device's description) set;
 * 64 KiB, Linux's default, for a NULL @dev.
 */
DMAMAP_API unsigned int dma_get_max_seg_size(struct device *dev);
/**
 * dma_set_seg_boundary() - a boundary no device segment may cross
 * @dev: device
 * @mask: boundary - 1 (e.g. 0xffffffff: no segment crosses a 4 GiB line)
 *
 * Honoured and checked as dma_set_max_seg_size().
 *
 * Return: 0; -EINVAL for a NULL @dev (not reported).
 */
DMAMAP_API int dma_set_seg_boundary(struct device *dev, unsigned long mask);
/**
 * dma_get_seg_boundary() - the boundary mask
 * @dev: device
 *
 * Return: the mask; ULONG_MAX (no boundary) when none was set or @dev is
 * NULL.
 */
DMAMAP_API unsigned long dma_get_seg_boundary(struct device *dev);
/**
 * dma_get_seg_boundary_nr_pages() - the boundary in pages of 1 << @page_shift
 * @dev: device, or NULL
 * @page_shift: log2 of the page size the caller counts in
 *
 * Return: (dma_get_seg_boundary() >> @page_shift) + 1; for a NULL @dev,
 * (U32_MAX >> @page_shift) + 1, as in Linux.
 */
DMAMAP_API unsigned long dma_get_seg_boundary_nr_pages(struct device *dev,
						       unsigned int page_shift);
/**
 * dma_opt_mapping_size() - the largest mapping that costs no more than a small one
 * @dev: device
 *
 * Behind an IOMMU, the largest IOVA size the per-thread caches keep (128
 * KiB); otherwise no such bound. Never above dma_max_mapping_size().
 *
 * Return: bytes; 0 for a NULL @dev.
 */
DMAMAP_API size_t dma_opt_mapping_size(struct device *dev);
/**
 * dma_get_merge_boundary() - the granule within which an IOMMU merges segments
 * @dev: device
 *
 * Return: the IOMMU page size - 1 behind an IOMMU (sg entries that meet at
 * such a boundary can become one device segment); 0 when the device's
 * table cannot merge (direct, dmabounce) or @dev is NULL.
 */
DMAMAP_API unsigned long dma_get_merge_boundary(struct device *dev);
/**
 * dma_can_mmap() - whether dma_mmap_attrs() works for this device
 * @dev: device
 *
 * Return: true on the direct backend (coherent or not: a non-coherent
 * device's allocation is mapped uncached) and behind an IOMMU; for
 * another table, whether it has mmap; false for a NULL @dev.
 */
DMAMAP_API bool dma_can_mmap(struct device *dev);
/**
 * dma_need_sync() - whether syncs of this mapping do anything
 * @dev: device
 * @dma_addr: a streaming mapping's address
 *
 * As Linux with CONFIG_DMA_API_DEBUG: on the direct backend, true for a
 * non-coherent device or a bounced mapping; true for every other table.
 * A driver may skip dma_sync_*() when false.
 *
 * Return: true or false; false for a NULL @dev.
 */
DMAMAP_API bool dma_need_sync(struct device *dev, dma_addr_t dma_addr);
/**
 * dma_need_unmap() - whether dma_unmap_*() does anything for this device
 * @dev: device
 *
 * False only for a coherent device on the direct backend that never
 * bounces (no swiotlb=force, no restricted pool, reaches all RAM) and
 * whose checker is off; a driver may then forget its mappings'
 * addresses (DEFINE_DMA_UNMAP_ADDR). With the checker on, true: the
 * checker wants every unmap, as Linux's dma-debug does.
 *
 * Return: true or false; true for a NULL @dev.
 */
DMAMAP_API bool dma_need_unmap(struct device *dev);

/*
 * Fields a driver keeps only when unmapping needs them, as in Linux: with
 * dmamap they are always kept (dma_need_unmap() is the run-time test).
 */
#define DEFINE_DMA_UNMAP_ADDR(name) dma_addr_t name
#define DEFINE_DMA_UNMAP_LEN(name) uint32_t name
#define dma_unmap_addr(ptr, name) ((ptr)->name)
#define dma_unmap_addr_set(ptr, name, val) (((ptr)->name) = (val))
#define dma_unmap_len(ptr, name) ((ptr)->name)
#define dma_unmap_len_set(ptr, name, val) (((ptr)->name) = (val))

/* ---- ops --------------------------------------------------------------- */

/**
 * get_dma_ops() - the ops table in force for a device
 * @dev: device
 *
 * Return: the table set with set_dma_ops() (or by an IOMMU or dmabounce),
 * else the platform default, the direct table; NULL for a NULL @dev.
 */
DMAMAP_API const struct dma_map_ops *get_dma_ops(struct device *dev);
/**
 * set_dma_ops() - install an ops table on a device
 * @dev: device
 * @ops: table, or NULL to return to the platform default
 *
 * A NULL @dev is ignored. Only the table changes: a device behind an
 * IOMMU keeps its domain, whose page table still translates what the
 * device reads and writes, and a dmabounce device its pools; use it on
 * plain devices.
 *
 * Every member but map_page is optional (without map_sg the core maps
 * each entry with map_page; without alloc, allocation fails). A table
 * without map_page is refused: the device keeps the table it had, and
 * the refusal is reported (DMAMAP_DBG_INVALID_ARGUMENT, naming the table
 * and the member) and counted as DMAMAP_ERRK_BAD_ARG.
 */
DMAMAP_API void set_dma_ops(struct device *dev, const struct dma_map_ops *ops);

/* ---- board services a driver needs ------------------------------------- */

/**
 * dev_name() - a device's name
 * @dev: device
 *
 * Return: the name; "(null)" for a NULL @dev.
 */
DMAMAP_API const char *dev_name(const struct device *dev);
/**
 * dmamap_device_platform() - the board a device sits on
 * @dev: device
 *
 * Return: the platform; NULL for a NULL @dev.
 */
DMAMAP_API struct dmamap_platform *dmamap_device_platform(const struct device *dev);

/**
 * dmamap_kmalloc() - kmalloc() from a board's RAM
 * @p: platform
 * @size: bytes
 * @flags: GFP_* plus DMAMAP_GFP_DMA (DMA zone) and DMAMAP_GFP_DMA_ALIGN
 *         (align to the platform's ARCH_DMA_MINALIGN); __GFP_ZERO zeroes
 *
 * As in the kernel, small objects are packed and may share cache lines
 * unless DMAMAP_GFP_DMA_ALIGN is given. Objects larger than the largest
 * slab take whole pages. On the host it is malloc() (aligned_alloc() with
 * DMAMAP_GFP_DMA_ALIGN), and DMAMAP_GFP_DMA does nothing.
 *
 * Return: linear-map address, or NULL for a NULL @p or a zero @size, a
 * size that overflows when aligned, an injected DMAMAP_FAULT_ALLOC, or no
 * memory (a board's zone full, more than 16 MiB asked). Nothing is
 * reported or counted.
 */
DMAMAP_API void *dmamap_kmalloc(struct dmamap_platform *p, size_t size,
				gfp_t flags);
/**
 * dmamap_kfree() - free dmamap_kmalloc() memory
 * @p: platform
 * @ptr: address from dmamap_kmalloc(), or NULL
 *
 * A NULL @p or @ptr does nothing. On a board, an address
 * dmamap_kmalloc() did not return, or one freed twice, is reported as
 * FREE_INVALID (on @p's counters) and left alone. On the host it is
 * free(), which checks nothing.
 */
DMAMAP_API void dmamap_kfree(struct dmamap_platform *p, void *ptr);
/**
 * dmamap_alloc_pages() - 2^@order contiguous pages of a board's RAM
 * @p: platform
 * @order: log2 of the page count (at most 12)
 * @flags: GFP_* (__GFP_DMA, __GFP_DMA32 or __GFP_HIGHMEM for the zone,
 *         __GFP_ZERO)
 *
 * The pages come from the zone @flags names, or a lower one; a zone the
 * board lacks is served from its lowest. On the host they come from the
 * coherent arena.
 *
 * Return: first page, or NULL for a NULL @p, an @order above 12, an
 * injected DMAMAP_FAULT_ALLOC, or no free block of that order. Nothing is
 * reported.
 */
DMAMAP_API struct page *dmamap_alloc_pages(struct dmamap_platform *p,
					   unsigned int order, gfp_t flags);
/**
 * dmamap_free_pages() - free dmamap_alloc_pages() pages
 * @p: platform
 * @page: first page, as allocated
 * @order: the order allocated
 *
 * A NULL @p or @page does nothing. A @page that is not an allocated block
 * of @order is reported as FREE_INVALID (on @p's counters) and nothing is
 * freed.
 */
DMAMAP_API void dmamap_free_pages(struct dmamap_platform *p, struct page *page,
				  unsigned int order);

/**
 * dmamap_mmio_write32() - write a device register
 * @dev: device with a device model
 * @reg: register offset
 * @val: value
 *
 * The same as writel() on the device's register block
 * (<dmamap/io.h>): a yield point, where the board's devices step before
 * the write reaches the model. The memcpy engine works through the
 * descriptors a TAIL write names in its own steps after it.
 *
 * Return: 0; -EINVAL for a NULL @dev; -ENODEV if the device has no model,
 * or its model has no mmio_write; else what the model returns. The memcpy
 * engine (<dmamap/hw/memcpy-engine.h>) returns -EINVAL for a read-only or
 * unknown register and for a RING_SIZE that is 0 or not a power of two,
 * -EIO for a TAIL write while it is disabled or has no ring size. A
 * descriptor that faults is no error of the call: the engine marks it
 * MCE_DESC_FAULT and sets MCE_STATUS_ERROR, and the device access is
 * reported as a DEVICE_FAULT. Nothing else is reported.
 */
DMAMAP_API int dmamap_mmio_write32(struct device *dev, uint32_t reg,
				   uint32_t val);
/**
 * dmamap_mmio_read32() - read a device register
 * @dev: device with a device model
 * @reg: register offset
 * @val: receives the value
 *
 * Return: 0; -EINVAL for a NULL @dev or @val; -ENODEV if the device has no
 * model, or its model has no mmio_read; else what the model returns. The
 * memcpy engine returns -EINVAL for a write-only (TAIL) or unknown
 * register, leaving *@val as it was. Nothing is reported.
 */
DMAMAP_API int dmamap_mmio_read32(struct device *dev, uint32_t reg,
				  uint32_t *val);

#ifdef __cplusplus
}
#endif
#endif
