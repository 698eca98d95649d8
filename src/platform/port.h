/* SPDX-License-Identifier: MIT */
/*
 * The platform port: everything the layers above need from the machine
 * they run on, and nothing about which machine it is. Two machines
 * implement it: the host (this process's memory, coherent, identity) and
 * the simulated SoC (RAM banks behind a non-coherent cache model). Only
 * src/platform/ knows which one is behind a platform; the layers above
 * ask what the machine offers.
 *
 * Cache maintenance is the public arch hooks of <dmamap/dma-map-ops.h>,
 * dmamap_arch_sync_dma_for_device() and dmamap_arch_sync_dma_for_cpu().
 */
#ifndef DMAMAP_PLATFORM_PORT_H
#define DMAMAP_PLATFORM_PORT_H

#include "../lib/lib.h"
#include "../base/device.h"
#include "../lib/mem.h"

/* ---- machines ------------------------------------------------------------ */

/* The simulated SoC a board describes: its RAM, line size and cache rules. */
int dmamap__port_init_board(struct dmamap_platform *p, const struct dmamap_board *board,
			    struct dmamap_error *err);
/*
 * This process: an arena of @arena_size bytes (0: 256 MiB, committed as
 * touched) for coherent allocations; every address is memory.
 */
int dmamap__port_init_host(struct dmamap_platform *p, u64 arena_size, struct dmamap_error *err);
void dmamap__port_fini(struct dmamap_platform *p);

/* Whether bus masters snoop the CPU's cache unless told otherwise (the host). */
static inline bool dmamap__port_coherent(const struct dmamap_platform *p)
{
	return p->mach.kind == MACHINE_HOST;
}

/*
 * What the host maps, remaps and protects at once: its page, which on a
 * 16K or 64K-page host holds several simulated ones (PAGE_SIZE is the
 * board's). Memory that may be mapped into a process again (coherent and
 * non-coherent allocations, their scattered runs) comes in these units, so
 * that each unit lies at a file offset mmap takes.
 */
static inline unsigned int dmamap__port_map_order(void)
{
	unsigned int host = dmamap__host_page_shift();

	return host > PAGE_SHIFT ? host - PAGE_SHIFT : 0;
}

static inline size_t dmamap__port_map_size(size_t size)
{
	size_t unit = (size_t)PAGE_SIZE << dmamap__port_map_order();

	return (size + unit - 1) & ~(unit - 1);
}

/*
 * A user mapping of @n simulated pages from page @pgoff of @npages: the
 * whole host pages that covers (more than @n where a host page holds
 * several; the caller's vma keeps its length), or 0 when it starts off a
 * host page or would reach past @npages.
 */
static inline unsigned long dmamap__port_map_pages(unsigned long n, unsigned long pgoff,
						   unsigned long npages)
{
	unsigned long k = 1UL << dmamap__port_map_order();
	unsigned long whole = (n + k - 1) & ~(k - 1);

	return (pgoff & (k - 1)) || whole > npages - pgoff ? 0 : whole;
}

/*
 * Whether a device that does not snoop can be served: always on a board;
 * on the host where user space can maintain the data cache (arm64, x86).
 */
bool dmamap__port_noncoherent_ok(const struct dmamap_platform *p);

/* Whether the machine has uncached aliases of its memory to give for coherent allocations (not the host). */
static inline bool dmamap__port_has_uncached(const struct dmamap_platform *p)
{
	return p->mach.kind == MACHINE_SIM;
}

/*
 * Whether every address of the process is memory at the same physical
 * address (the host): pointers are physical addresses, any buffer is RAM.
 */
static inline bool dmamap__port_identity(const struct dmamap_platform *p)
{
	return p->mach.kind == MACHINE_HOST;
}

/* Whether [@phys, +@len) is in one RAM bank of the machine (on the host: its arena). */
bool dmamap__port_is_ram(struct dmamap_platform *p, phys_addr_t phys, u64 len);
/*
 * Where RAM may be: the board's banks, or on the host the whole address
 * space. Fills up to @max ranges of @out; returns how many there are.
 */
unsigned int dmamap__port_ram_ranges(struct dmamap_platform *p, struct dmamap_ram_bank *out,
				     unsigned int max);
/* The last byte any RAM may sit at (on the host, the top of the address space). */
phys_addr_t dmamap__port_ram_last(struct dmamap_platform *p);
/* The RAM bank at the lowest address, where bounce pools and CMA go. */
const struct dmamap_bank *dmamap__port_lowest_bank(struct dmamap_platform *p);
/* The machine's total RAM in bytes. */
u64 dmamap__port_ram_total(struct dmamap_platform *p);

/* ---- addresses --------------------------------------------------------------- */

/* The CPU's ways to a byte of RAM: cached (linear map), uncached, write-combining. */
enum dmamap_view { VIEW_NONE, VIEW_CPU, VIEW_MEM, VIEW_WC };

void *dmamap__bank_view(struct dmamap_platform *p, phys_addr_t phys, enum dmamap_view view);

/*
 * Where the CPU reaches @phys through its linear map (@view VIEW_CPU), or
 * NULL. On the host every view of memory is the address itself, so bounce
 * copies need no search. A board's uncached and write-combining aliases
 * are mapped per allocation: dmamap__view_map().
 */
static inline void *dmamap__phys_to_view(struct dmamap_platform *p, phys_addr_t phys,
					 enum dmamap_view view)
{
	if (likely(p->mach.kind == MACHINE_HOST))
		return (void *)(uintptr_t)phys;
	return dmamap__bank_view(p, phys, view);
}

/*
 * A CPU mapping of the allocation at [@phys, +@size) through @view: the
 * linear map for VIEW_CPU and on the host; on a board, an uncached or
 * write-combining alias mapped for it, until dmamap__view_unmap(). NULL if
 * the range is not RAM or the host has no memory or address space left.
 */
void *dmamap__view_map(struct dmamap_platform *p, phys_addr_t phys, size_t size,
		       enum dmamap_view view);
/* Unmaps the alias dmamap__view_map() returned as @addr: false if @addr is none (the linear map). */
bool dmamap__view_unmap(struct dmamap_platform *p, const void *addr);

/* The physical address behind a linear-map address, PHYS_NONE if it is not RAM of @p. */
static inline phys_addr_t dmamap__linear_to_phys(struct dmamap_platform *p, const void *addr)
{
	if (likely(p->mach.kind == MACHINE_HOST))
		return (phys_addr_t)(uintptr_t)addr;
	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		const struct dmamap_bank *b = &p->mach.banks[i];
		uintptr_t off = (uintptr_t)addr - (uintptr_t)b->cpu;

		if ((uintptr_t)addr >= (uintptr_t)b->cpu && off < b->size)
			return b->start + off;
	}
	return PHYS_NONE;
}

/*
 * Whether a buffer at @addr that starts in RAM of @p also ends there, in
 * the same bank: the banks' linear maps are separate mappings, so a range
 * that leaves one runs into memory that is no RAM of the board. A start
 * outside RAM passes (whoever maps says so); on the host, the range must
 * not wrap. The banks are searched out of line, away from the host's path.
 */
bool dmamap__bank_tail_ok(struct dmamap_platform *p, const void *addr, size_t size);

static inline bool dmamap__linear_tail_ok(struct dmamap_platform *p, const void *addr,
					  size_t size)
{
	if (likely(p->mach.kind == MACHINE_HOST))
		return (uintptr_t)addr + size - 1 >= (uintptr_t)addr;
	return dmamap__bank_tail_ok(p, addr, size);
}

/* Which view @addr is in, and its physical address (PHYS_NONE: not RAM of @p). */
phys_addr_t dmamap__addr_to_phys(struct dmamap_platform *p, const void *addr,
				 enum dmamap_view *view);
/* The file behind @view of @phys and the offset of @phys in it, for mmap(); -1 if none. */
int dmamap__view_fd(struct dmamap_platform *p, phys_addr_t phys, enum dmamap_view view,
		    u64 *offset);

/*
 * The pages at @phys[0..@n) mapped again, in order, at @at (0: anywhere)
 * through @view with mmap protection @prot: a contiguous CPU view of
 * scattered RAM (the kernel's vmap). NULL if the range cannot be had or a
 * page has no file behind it (on the host, outside the coherent arena).
 */
void *dmamap__port_remap(struct dmamap_platform *p, const phys_addr_t *phys, unsigned long n,
			 unsigned long at, int prot, enum dmamap_view view);

/*
 * Whether [@addr, @addr + @size) touches this process's code or read-only
 * data (the executable's and the libraries' read-only segments, as loaded
 * when first asked). If not, *@gap_lo and *@gap_hi bound the image-free
 * span around it, so a caller can skip the search for buffers inside it.
 */
bool dmamap__port_in_image(const void *addr, size_t size, uintptr_t *gap_lo, uintptr_t *gap_hi);

/*
 * The checker's ownership mode: take (@on) or give back the CPU's access
 * to the whole host pages of the linear-map range [@cpu, +@size), counted
 * per page. Returns how many pages the range covers (0: none whole, so
 * nothing is guarded and the caller must not count on a trap); -EOPNOTSUPP where the CPU has no
 * view of its own to take away (the host, where devices read the CPU's
 * memory itself).
 */
int dmamap__port_guard(struct dmamap_platform *p, const void *cpu, size_t size, bool on);
/*
 * A CPU access trapped at @addr: the platform whose guarded page holds it,
 * the page's access given back so the access can go on; NULL if no
 * platform guarded it (someone else's fault).
 */
struct dmamap_platform *dmamap__port_guard_fault(const void *addr);
/*
 * Open (@lift) or close again the guarded pages of [@cpu, +@len) around
 * the library's own read of them (the checker hashing a bounced original
 * another mapping guards). Nothing where nothing is guarded, or on the host.
 */
void dmamap__port_lift_guard(struct dmamap_platform *p, const void *cpu, size_t len, bool lift);

/* ---- what the CPU does ------------------------------------------------------- */

/*
 * The library's CPU writes @len bytes at @dst (a bounce copy): on the
 * simulated SoC the lines become dirty, same bytes or not, as hardware
 * marks them.
 */
void dmamap__cpu_write(struct dmamap_platform *p, phys_addr_t dst, const void *src, size_t len);
/*
 * A range made fresh, every view equal (zeroed when @zero): a new
 * coherent buffer (arch_dma_prep_coherent), or one given back.
 */
void dmamap__reset_range(struct dmamap_platform *p, phys_addr_t phys, size_t size, bool zero);
/* Offset of the first byte in range the CPU wrote since its last clean, or -1 (never on the host). */
long dmamap__cpu_dirty_offset(struct dmamap_platform *p, phys_addr_t phys, size_t size);

/* ---- what a bus master does --------------------------------------------------- */

/*
 * @dev reads (@write false) or writes @len bytes of RAM at @phys: on the
 * simulated SoC through the memory the cache model keeps (snooped if the
 * device is coherent); on the host a copy. -EFAULT if no RAM is there.
 */
int dmamap__device_copy(struct device *dev, phys_addr_t phys, void *buf, size_t len,
			bool write);
/*
 * @dev copies @len bytes of RAM from @src to @dst in one pass, as a DMA
 * engine does memory to memory: what dmamap__device_copy() would read, then
 * write, without a buffer in between. -EFAULT if either is not RAM.
 */
int dmamap__device_transfer(struct device *dev, phys_addr_t dst, phys_addr_t src, size_t len);

/* ---- memory order (weak boards: docs/ordering.md) ---------------------------- */
/* enum dmamap_order_event is in base/device.h: hw/ and platform/sim/ both speak it. */
/*
 * A coherent allocation of @dev (a device with a model on a weak board)
 * at CPU address @cpu and device address @dma: from now on its stores and
 * device writes go through the model. @phys is its RAM; PHYS_NONE asks
 * the port to find it from @cpu (nothing is followed if there is none).
 */
void dmamap__port_order_track(struct device *dev, void *cpu, phys_addr_t phys, size_t size,
			      dma_addr_t dma);
/* Before @dev's allocation at [@dma, +@size) goes: everything buffered there goes through. */
void dmamap__port_order_untrack(struct device *dev, dma_addr_t dma, size_t size);
/* @dev's model goes: its regions are forgotten and its writes in flight land. */
void dmamap__port_order_device_gone(struct device *dev);
/* Say the reports the model made while the scheduler's lock was held (drop it first). */
void dmamap__port_order_flush(struct dmamap_platform *p);
/* @ev on @p (its scheduler's lock held, or no scheduler). */
void dmamap__port_order_event(struct dmamap_platform *p, enum dmamap_order_event ev);
/* A register write reaches @dev: after the buffer drains (@ordered, writel()), or overtaking it. */
void dmamap__port_order_mmio_write(struct device *dev, uint32_t reg, bool ordered,
				   const void *site);
/* What @dev's model writes next, until said otherwise (model callbacks only). */
void dmamap__port_order_writing(struct device *dev, enum dmamap_order_write what);
/* Whether a device access of [@phys, +@len) may touch memory whose order @p follows. */
bool dmamap__port_order_covers(struct dmamap_platform *p, phys_addr_t phys, size_t len);
/* Whether @p follows any memory's order now (a weak simulated board): barriers matter to it. */
bool dmamap__port_order_on(struct dmamap_platform *p);
/* Whether device writes are held from the CPU's loads: yield points must go on. */
bool dmamap__port_order_busy(struct dmamap_platform *p);
/*
 * A device fetches the descriptor at [@desc, +@len) (device address @dma)
 * guarded by the word at @own_off: called before the read (@owned false)
 * and, if the device takes it, after (@owned true).
 */
void dmamap__port_order_fetch(struct device *dev, phys_addr_t desc, size_t len, size_t own_off,
			      bool owned, dma_addr_t dma);
/* The schedule's seed (0: the weakest fixed order), and threaded devices (the host's order). */
void dmamap__port_order_seed(struct dmamap_platform *p, uint64_t seed);
void dmamap__port_order_pause(struct dmamap_platform *p, bool paused);

/* ---- a real IOMMU: a PCI function held through VFIO (host only) -------------- */

/*
 * Hold @bdf through VFIO on the host platform @p (@noiommu: VFIO's unsafe
 * no-IOMMU mode); errors as dmamap_platform_vfio().
 */
int dmamap__port_vfio_open(struct dmamap_platform *p, const char *bdf, bool noiommu,
			   struct dmamap_error *err);
/* Whether @p's function has no IOMMU: its DMA addresses are physical. */
static inline bool dmamap__port_no_iommu(const struct dmamap_platform *p)
{
	return p->vfio_noiommu;
}
/*
 * No IOMMU: lock the @n host pages at @va and read their physical
 * addresses into @pa (0, -EPERM, -EFAULT, -ENOMEM); unlock them again.
 */
int dmamap__port_lock_phys(struct dmamap_platform *p, uintptr_t va, size_t n, u64 *pa);
void dmamap__port_unlock(struct dmamap_platform *p, uintptr_t va, size_t n);
/* Whether @p holds a function through VFIO: its devices' addresses are the real IOMMU's. */
static inline bool dmamap__port_real_iommu(const struct dmamap_platform *p)
{
	return p->vfio != NULL;
}
/* The function's address, "0000:01:00.0". */
const char *dmamap__port_vfio_bdf(const struct dmamap_platform *p);
/* Whether the function is reached through its sysfs files (no IOMMU, no VFIO): no interrupts. */
bool dmamap__port_vfio_sysfs(const struct dmamap_platform *p);
/* Whether the function is bound to an iommufd (not in a type1 container). */
bool dmamap__port_vfio_iommufd(const struct dmamap_platform *p);
/*
 * The IOVA ranges the IOMMU translates, [@start[i], @end[i]): fills up to
 * @max; returns how many there are. The IOMMU's smallest page in @pgsize.
 */
unsigned int dmamap__port_iommu_apertures(const struct dmamap_platform *p, u64 *start, u64 *end,
					  unsigned int max, u64 *pgsize);
/*
 * Pin [@va, +@size) and map it at @iova for the device to @read and/or
 * @write; 0 or the kernel's -errno.
 */
int dmamap__port_iommu_map(struct dmamap_platform *p, uintptr_t va, u64 iova, u64 size,
			   bool read, bool write);
/* Unmap what dmamap__port_iommu_map() mapped at @iova, exactly @size; 0 or -errno. */
int dmamap__port_iommu_unmap(struct dmamap_platform *p, u64 iova, u64 size);
/* BAR @bar mapped for the accessors (NULL: none, I/O ports, not mappable); its size. */
void *dmamap__port_bar(struct dmamap_platform *p, unsigned int bar, size_t *size);
/* Read or write @len bytes of configuration space at @off: 0, -EINVAL, -EIO. */
int dmamap__port_config(struct dmamap_platform *p, unsigned int off, void *buf, size_t len,
			bool write);
int dmamap__port_reset(struct dmamap_platform *p);
/* The function's MSI-X vectors: how many; vectors 0..@n-1 to signal @fds (@n 0: off). */
unsigned int dmamap__port_msix_count(struct dmamap_platform *p);
int dmamap__port_msix_set(struct dmamap_platform *p, unsigned int n, const int *fds);
#endif
