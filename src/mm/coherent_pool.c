/* SPDX-License-Identifier: MIT */
/*
 * Per-device coherent memory (dma_declare_coherent_memory): a page bitmap
 * over memory the device reaches at its own address. Allocations take
 * naturally aligned runs, as bitmap regions do in the kernel.
 */
#include <stdlib.h>
#include <string.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../platform/port.h"
#include "mm.h"
#include "../lib/mem.h"

struct dmamap_coherent_pool {
	pthread_mutex_t lock;
	phys_addr_t phys;
	dma_addr_t dev_addr;
	u64 size;
	unsigned long npages;
	uint8_t *cpu; /* its uncached alias, the linear map (a snooping device's) or host memory */
	uint8_t *used; /* one byte per page: 0 free, else run-head order + 1 or tail */
};

#define TAIL 0xff

int dma_declare_coherent_memory(struct device *dev, phys_addr_t phys_addr,
				dma_addr_t device_addr, size_t size)
{
	struct dmamap_coherent_pool *pool;
	struct dmamap_platform *p;
	uint8_t *cpu;

	if (!dev) {
		dmamap__api_error(NULL, __func__, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_NULL_DEVICE, "called with a NULL device");
		return -EINVAL;
	}
	if (!size || ((phys_addr | size | device_addr) & (PAGE_SIZE - 1)) ||
	    device_addr + size - 1 < device_addr) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT,
				  "bad pool [phys=0x%llx] [device address=0x%llx] [size=%zu]",
				  (unsigned long long)phys_addr,
				  (unsigned long long)device_addr, size);
		return -EINVAL;
	}
	p = dev->plat;
	if (!dmamap__port_identity(p) && !dmamap__port_is_ram(p, phys_addr, size)) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT,
				  "[phys=0x%llx] [size=%zu] is not RAM of this board",
				  (unsigned long long)phys_addr, size);
		return -EINVAL;
	}
	if (dev->dma_mem)
		return -EBUSY;
	pool = dmamap__calloc(1, sizeof(*pool));
	if (pool)
		pool->used = dmamap__calloc(size >> PAGE_SHIFT, 1);
	/*
	 * A device that does not snoop reaches it uncached: an alias of the
	 * board's memory. One that snoops reads what the CPU's view holds, so
	 * the CPU writes there: through the memory its stores would be invisible
	 * to the snoop (the board keeps the two apart), where on a real SoC a
	 * write-combined pool has no lines in the cache to hide them.
	 */
	cpu = pool && pool->used && !dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC) ?
		      dmamap__view_map(p, phys_addr, size, dev->coherent ? VIEW_CPU : VIEW_MEM) :
		      NULL;
	if (!cpu) {
		if (pool)
			free(pool->used);
		free(pool);
		return -ENOMEM;
	}
	pthread_mutex_init(&pool->lock, NULL);
	pool->phys = phys_addr;
	pool->dev_addr = device_addr;
	pool->size = size;
	pool->npages = (unsigned long)(size >> PAGE_SHIFT);
	pool->cpu = cpu;
	dmamap__reset_range(p, phys_addr, size, false);
	dev->dma_mem = pool;
	dev->dma_mem_window = (struct dmamap_dma_range){ .cpu_start = phys_addr,
							 .dma_start = device_addr, .size = size };
	dmamap__device_refresh(dev);
	return 0;
}

void *dmamap__pool_alloc(struct device *dev, size_t size, dma_addr_t *dma)
{
	struct dmamap_coherent_pool *pool = dev->dma_mem;
	unsigned int order = dmamap__get_order(size);
	unsigned long run = 1UL << order;
	void *ret = NULL;

	pthread_mutex_lock(&pool->lock);
	for (unsigned long i = 0; i + run <= pool->npages; i += run) {
		unsigned long j;

		for (j = 0; j < run && !pool->used[i + j]; j++)
			;
		if (j < run)
			continue;
		pool->used[i] = (uint8_t)(order + 1);
		memset(pool->used + i + 1, TAIL, run - 1);
		*dma = pool->dev_addr + ((u64)i << PAGE_SHIFT);
		ret = pool->cpu + ((size_t)i << PAGE_SHIFT);
		break;
	}
	pthread_mutex_unlock(&pool->lock);
	if (ret) {
		dmamap__reset_range(dev->plat, pool->phys + (*dma - pool->dev_addr),
				    run << PAGE_SHIFT, true);
	}
	return ret;
}

int dmamap__pool_free(struct device *dev, size_t size, void *vaddr)
{
	struct dmamap_coherent_pool *pool = dev->dma_mem;
	uintptr_t off;
	unsigned long i;
	unsigned int order = dmamap__get_order(size);

	if (!pool || (uintptr_t)vaddr < (uintptr_t)pool->cpu ||
	    (off = (uintptr_t)vaddr - (uintptr_t)pool->cpu) >= pool->size)
		return 0;
	i = (unsigned long)(off >> PAGE_SHIFT);
	pthread_mutex_lock(&pool->lock);
	if ((off & (PAGE_SIZE - 1)) || pool->used[i] != order + 1) {
		pthread_mutex_unlock(&pool->lock);
		dmamap__api_error(dev, "dma_free_attrs", DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_FREE_INVALID,
				  "frees pool memory with a different address or size [cpu=%p] [size=%zu]",
				  vaddr, size);
		return 1;
	}
	memset(pool->used + i, 0, 1UL << order);
	pthread_mutex_unlock(&pool->lock);
	return 1;
}

void dmamap__pool_destroy(struct device *dev)
{
	if (!dev->dma_mem)
		return;
	pthread_mutex_destroy(&dev->dma_mem->lock);
	dmamap__view_unmap(dev->plat, dev->dma_mem->cpu);
	free(dev->dma_mem->used);
	free(dev->dma_mem);
	dev->dma_mem = NULL;
	dev->dma_mem_window.size = 0;
}
