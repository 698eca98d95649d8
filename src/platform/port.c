/* SPDX-License-Identifier: MIT */
/*
 * The port's dispatch: which machine implements each call. Nothing above
 * src/platform/ asks which machine a platform is.
 */
#include <string.h>
#include "../lib/lib.h"
#include "../base/trace.h"
#include "port.h"
#include "../base/ram.h"
#include "host/host.h"
#include "sim/sim.h"
#include "memory.h"
#include "vfio/vfio.h"

#define HOST_ARENA_SIZE (256ULL << 20)

int dmamap__port_init_board(struct dmamap_platform *p, const struct dmamap_board *board,
			    struct dmamap_error *err)
{
	int ret;

	p->mach.kind = MACHINE_SIM;
	p->mach.line_size = board->cache_line_size ? board->cache_line_size : 64;
	p->mach.line_shift = (unsigned int)__builtin_ctz(p->mach.line_size);
	ret = dmamap__sim_init(p, board, err);
	if (!ret)
		dmamap__linear_register(p);
	return ret;
}

int dmamap__port_init_host(struct dmamap_platform *p, u64 arena_size, struct dmamap_error *err)
{
	p->mach.kind = MACHINE_HOST;
	p->mach.line_size = 1u << HOST_DMA_MINALIGN_SHIFT;
	p->mach.line_shift = HOST_DMA_MINALIGN_SHIFT;
	if (dmamap__host_init(p, arena_size ? arena_size : HOST_ARENA_SIZE)) {
		dmamap__set_error(err, -ENOMEM, "host: cannot create the coherent arena");
		return -ENOMEM;
	}
	return 0;
}

void dmamap__port_fini(struct dmamap_platform *p)
{
	dmamap__vfio_close(p->vfio);
	p->vfio = NULL;
	dmamap__linear_unregister(p);
	dmamap__aliases_fini(p);
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_fini(p);
	else
		dmamap__host_fini(p);
}

bool dmamap__port_is_ram(struct dmamap_platform *p, phys_addr_t phys, u64 len)
{
	return dmamap__bank_of_phys(p, phys, len) != NULL;
}

unsigned int dmamap__port_ram_ranges(struct dmamap_platform *p, struct dmamap_ram_bank *out,
				     unsigned int max)
{
	if (p->mach.kind == MACHINE_HOST) {
		/* All of it but the last byte, whose size would not fit: no buffer ends there. */
		if (max)
			out[0] = (struct dmamap_ram_bank){ 0, (u64)UINTPTR_MAX };
		return 1;
	}
	for (unsigned int i = 0; i < p->mach.nr_banks && i < max; i++)
		out[i] = (struct dmamap_ram_bank){ p->mach.banks[i].start, p->mach.banks[i].size };
	return p->mach.nr_banks;
}

phys_addr_t dmamap__port_ram_last(struct dmamap_platform *p)
{
	struct dmamap_ram_bank r[DMAMAP_MAX_BANKS];
	unsigned int n = dmamap__port_ram_ranges(p, r, DMAMAP_MAX_BANKS);
	phys_addr_t top = 0;

	for (unsigned int i = 0; i < n && i < DMAMAP_MAX_BANKS; i++)
		top = MAX(top, r[i].start + r[i].size - 1);
	return top;
}

const struct dmamap_bank *dmamap__port_lowest_bank(struct dmamap_platform *p)
{
	const struct dmamap_bank *low = NULL;

	for (unsigned int i = 0; i < p->mach.nr_banks; i++)
		if (!low || p->mach.banks[i].start < low->start)
			low = &p->mach.banks[i];
	return low;
}

u64 dmamap__port_ram_total(struct dmamap_platform *p)
{
	u64 total = 0;

	for (unsigned int i = 0; i < p->mach.nr_banks; i++)
		total += p->mach.banks[i].size;
	return total;
}

void dmamap__cpu_write(struct dmamap_platform *p, phys_addr_t dst, const void *src, size_t len)
{
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_cpu_write(p, dst, src, len);
	else
		memcpy((void *)(uintptr_t)dst, src, len);
}

void dmamap__reset_range(struct dmamap_platform *p, phys_addr_t phys, size_t size, bool zero)
{
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_reset_range(p, phys, size, zero);
	else if (zero)
		memset((void *)(uintptr_t)phys, 0, size);
}

int dmamap__port_guard(struct dmamap_platform *p, const void *cpu, size_t size, bool on)
{
	if (p->mach.kind != MACHINE_SIM)
		return -EOPNOTSUPP;
	return dmamap__sim_guard(p, cpu, size, on);
}

void dmamap__port_lift_guard(struct dmamap_platform *p, const void *cpu, size_t len, bool lift)
{
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_lift_range(p, cpu, len, lift);
}

struct dmamap_platform *dmamap__port_guard_fault(const void *addr)
{
	struct dmamap_platform *p = dmamap__linear_owner(addr);

	return p && p->mach.kind == MACHINE_SIM && dmamap__sim_unguard_fault(p, addr) ? p : NULL;
}

long dmamap__cpu_dirty_offset(struct dmamap_platform *p, phys_addr_t phys, size_t size)
{
	if (p->mach.kind != MACHINE_SIM)
		return -1;
	return dmamap__sim_cpu_dirty_offset(p, phys, size);
}

int dmamap__device_copy(struct device *dev, phys_addr_t phys, void *buf, size_t len,
			bool write)
{
	void *mem;

	if (dev->plat->mach.kind == MACHINE_SIM)
		return dmamap__sim_device_access(dev, phys, buf, len, write);
	mem = (void *)(uintptr_t)phys;
	if (write)
		memcpy(mem, buf, len);
	else
		memcpy(buf, mem, len);
	return 0;
}

int dmamap__device_transfer(struct device *dev, phys_addr_t dst, phys_addr_t src, size_t len)
{
	if (dev->plat->mach.kind == MACHINE_SIM)
		return dmamap__sim_device_transfer(dev, dst, src, len);
	memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, len);
	return 0;
}

/*
 * The arch hooks: only a device that does not snoop has lines to keep, in
 * the simulated cache or, on the host, the real one (host/cache.c). Like
 * arm64 Linux: clean for the device whatever the direction; for the CPU,
 * nothing after DMA_TO_DEVICE, else invalidate (on the host a clean and
 * invalidate, the only one user space has).
 */
void dmamap_arch_sync_dma_for_device(struct device *dev, phys_addr_t phys,
				     size_t size, enum dma_data_direction dir)
{
	if (!dev || !size || dev->coherent)
		return;
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_CACHE_CLEAN, .dev = dev, .phys_addr = phys,
		      .size = size, .dir = dir);
	if (dev->plat->mach.kind == MACHINE_SIM)
		dmamap__sim_sync_for_device(dev, phys, size, dir);
	else
		dmamap__stat_add(dev, ST_CLEANED,
				 dmamap__host_maintain((uintptr_t)phys, size, false));
}

void dmamap_arch_sync_dma_for_cpu(struct device *dev, phys_addr_t phys,
				  size_t size, enum dma_data_direction dir)
{
	if (!dev || !size || dev->coherent)
		return;
	if (dir != DMA_TO_DEVICE)
		DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_CACHE_INVALIDATE, .dev = dev,
			      .phys_addr = phys, .size = size, .dir = dir);
	/* The simulated cache decides by its board's rules what DMA_TO_DEVICE needs. */
	if (dev->plat->mach.kind == MACHINE_SIM)
		dmamap__sim_sync_for_cpu(dev, phys, size, dir);
	else if (dir != DMA_TO_DEVICE)
		dmamap__stat_add(dev, ST_INVALIDATED,
				 dmamap__host_maintain((uintptr_t)phys, size, true));
}

bool dmamap__port_noncoherent_ok(const struct dmamap_platform *p)
{
	return p->mach.kind == MACHINE_SIM || dmamap__host_can_maintain_cache();
}

bool dmamap_platform_is_sim(const struct dmamap_platform *p)
{
	return p && p->mach.kind == MACHINE_SIM;
}

unsigned int dmamap_cache_line_size(const struct dmamap_platform *p)
{
	return p ? p->mach.line_size : 64;
}

int dmamap_ram_bank(struct dmamap_platform *p, unsigned int i,
		    struct dmamap_ram_bank *bank)
{
	if (!p || !bank)
		return -EINVAL;
	if (p->mach.kind != MACHINE_SIM || i >= p->mach.nr_banks)
		return -ENOENT;
	bank->start = p->mach.banks[i].start;
	bank->size = p->mach.banks[i].size;
	return 0;
}

/* ---- memory order: only a weak simulated board has any ------------------------- */

void dmamap__port_order_track(struct device *dev, void *cpu, phys_addr_t phys, size_t size,
			      dma_addr_t dma)
{
	struct dmamap_platform *p = dev->plat;
	enum dmamap_view view;

	if (p->mach.kind != MACHINE_SIM)
		return;
	if (phys == PHYS_NONE)
		phys = dmamap__addr_to_phys(p, cpu, &view);
	/* Not followed (no memory for the copies): it simply stays in order. */
	if (phys != PHYS_NONE)
		(void)dmamap__sim_order_track(dev, cpu, phys, size, dma);
}

void dmamap__port_order_untrack(struct device *dev, dma_addr_t dma, size_t size)
{
	if (dev->plat->mach.kind == MACHINE_SIM)
		dmamap__sim_order_untrack(dev, dma, size);
}

void dmamap__port_order_device_gone(struct device *dev)
{
	if (dev->plat->mach.kind == MACHINE_SIM)
		dmamap__sim_order_device_gone(dev);
}

void dmamap__port_order_flush(struct dmamap_platform *p)
{
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_order_flush(p);
}

void dmamap__port_order_event(struct dmamap_platform *p, enum dmamap_order_event ev)
{
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_order_event(p, ev);
}

void dmamap__port_order_mmio_write(struct device *dev, uint32_t reg, bool ordered,
				   const void *site)
{
	if (dev->plat->mach.kind == MACHINE_SIM)
		dmamap__sim_order_mmio_write(dev, reg, ordered, site);
}

void dmamap__port_order_writing(struct device *dev, enum dmamap_order_write what)
{
	if (dev->plat->mach.kind == MACHINE_SIM)
		dmamap__sim_order_writing(dev->plat, what);
}

bool dmamap__port_order_covers(struct dmamap_platform *p, phys_addr_t phys, size_t len)
{
	return p->mach.kind == MACHINE_SIM && dmamap__sim_order_covers(p, phys, len);
}

bool dmamap__port_order_on(struct dmamap_platform *p)
{
	return p->mach.kind == MACHINE_SIM && dmamap__sim_order_on(p);
}

bool dmamap__port_order_busy(struct dmamap_platform *p)
{
	return p->mach.kind == MACHINE_SIM && dmamap__sim_order_busy(p);
}

void dmamap__port_order_fetch(struct device *dev, phys_addr_t desc, size_t len, size_t own_off,
			      bool owned, dma_addr_t dma)
{
	if (dev->plat->mach.kind == MACHINE_SIM)
		dmamap__sim_order_fetch(dev, desc, len, own_off, owned, dma);
}

void dmamap__port_order_seed(struct dmamap_platform *p, uint64_t seed)
{
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_order_seed(p, seed);
}

void dmamap__port_order_pause(struct dmamap_platform *p, bool paused)
{
	if (p->mach.kind == MACHINE_SIM)
		dmamap__sim_order_pause(p, paused);
}

int dmamap__port_vfio_open(struct dmamap_platform *p, const char *bdf, bool noiommu,
			   struct dmamap_error *err)
{
	int ret;

	if (p->mach.kind != MACHINE_HOST || p->vfio) {
		dmamap__set_error(err, -EINVAL, "vfio: only a host platform holds a function");
		return -EINVAL;
	}
	ret = dmamap__vfio_open(&p->vfio, bdf, noiommu, err);
	p->vfio_noiommu = !ret && noiommu;
	return ret;
}

const char *dmamap__port_vfio_bdf(const struct dmamap_platform *p)
{
	return p->vfio ? p->vfio->bdf : "";
}

bool dmamap__port_vfio_sysfs(const struct dmamap_platform *p)
{
	return p->vfio && p->vfio->sysfs;
}

bool dmamap__port_vfio_iommufd(const struct dmamap_platform *p)
{
	return p->vfio && p->vfio->iommufd >= 0;
}

unsigned int dmamap__port_iommu_apertures(const struct dmamap_platform *p, u64 *start, u64 *end,
					  unsigned int max, u64 *pgsize)
{
	const struct dmamap_vfio *v = p->vfio;

	if (!v)
		return 0;
	for (unsigned int i = 0; i < v->nr_apertures && i < max; i++) {
		start[i] = v->aperture_start[i];
		end[i] = v->aperture_end[i];
	}
	*pgsize = v->pgsize_min;
	return v->nr_apertures;
}

int dmamap__port_iommu_map(struct dmamap_platform *p, uintptr_t va, u64 iova, u64 size,
			   bool read, bool write)
{
	return p->vfio ? dmamap__vfio_map(p->vfio, va, iova, size, read, write) : -ENODEV;
}

int dmamap__port_iommu_unmap(struct dmamap_platform *p, u64 iova, u64 size)
{
	return p->vfio ? dmamap__vfio_unmap(p->vfio, iova, size) : -ENODEV;
}

void *dmamap__port_bar(struct dmamap_platform *p, unsigned int bar, size_t *size)
{
	return p->vfio ? dmamap__vfio_bar(p->vfio, bar, size) : NULL;
}

int dmamap__port_config(struct dmamap_platform *p, unsigned int off, void *buf, size_t len,
			bool write)
{
	return p->vfio ? dmamap__vfio_config(p->vfio, off, buf, len, write) : -EINVAL;
}

int dmamap__port_reset(struct dmamap_platform *p)
{
	return p->vfio ? dmamap__vfio_reset(p->vfio) : -EINVAL;
}

unsigned int dmamap__port_msix_count(struct dmamap_platform *p)
{
	return p->vfio ? dmamap__vfio_msix_count(p->vfio) : 0;
}

int dmamap__port_msix_set(struct dmamap_platform *p, unsigned int n, const int *fds)
{
	return p->vfio ? dmamap__vfio_msix_set(p->vfio, n, fds) : -ENODEV;
}

int dmamap__port_lock_phys(struct dmamap_platform *p, uintptr_t va, size_t n, u64 *pa)
{
	return p->vfio ? dmamap__vfio_lock_phys(p->vfio, va, n, pa) : -ENODEV;
}

void dmamap__port_unlock(struct dmamap_platform *p, uintptr_t va, size_t n)
{
	if (p->vfio)
		dmamap__vfio_unlock(p->vfio, va, n);
}
