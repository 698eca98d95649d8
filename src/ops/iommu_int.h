/* SPDX-License-Identifier: MIT */
/*
 * The IOMMU backend's own types, shared by its files: a domain (IOVA
 * space, IO page table, flush queues, scattered buffers) and the IOVA
 * arithmetic every file needs. Private to src/ops/iommu*.c.
 */
#ifndef DMAMAP_OPS_IOMMU_INT_H
#define DMAMAP_OPS_IOMMU_INT_H

#include <pthread.h>
#include "../lib/lib.h"
#include "../hw/iopt.h"
#include "../mm/iova.h"
#include "../mm/mm.h"

#define IOVA_BASE (1ULL << 20)
#define IOVA_END (1ULL << 32)
#define FQ_SIZE 128

struct flush_queue {
	int lock;
	unsigned int n;
	u64 range[FQ_SIZE]; /* dmamap__iova_range() */
} __attribute__((aligned(64)));

/*
 * A coherent buffer made of scattered pages: contiguous for the device
 * through the IOMMU, contiguous for the CPU through a second mapping of the
 * same RAM (as the kernel's vmap of the pages).
 */
struct iommu_buf {
	struct iommu_buf *next;
	uint8_t *cpu;
	dma_addr_t iova;
	unsigned long npages;
	uint8_t *order;  /* per page: its run's order at a run's first page, RUN_TAIL after */
	phys_addr_t phys[];
};

#define RUN_TAIL 0xff

struct dmamap_iommu_domain {
	struct dmamap_iommu_domain *next;
	char iommu[DMAMAP_NAME_MAX];
	unsigned int group;
	unsigned int refs;
	struct dmamap_iopt pt;
	struct dmamap_iova *iova;
	bool lazy;
	uint64_t queue_flushes;
	pthread_mutex_t bufs_lock; /* scattered coherent buffers; not a mapping path */
	struct iommu_buf *bufs;
	struct flush_queue fq[DMAMAP_STAT_SHARDS];
};

/* A platform's domains: devices naming the same IOMMU and group share one. */
struct dmamap_iommu {
	pthread_mutex_t lock; /* never taken on a mapping path */
	struct dmamap_iommu_domain *domains;
};

static inline unsigned int order_of(u64 npages)
{
	return npages <= 1 ? 0 : dmamap__get_order(npages << PAGE_SHIFT);
}

/* The page-table permissions a mapping in @dir with @attrs gets. */
static inline unsigned int iommu_prot(enum dma_data_direction dir, unsigned long attrs)
{
	return (dir != DMA_FROM_DEVICE ? IOPT_READ : 0) | (dir != DMA_TO_DEVICE ? IOPT_WRITE : 0) |
	       ((attrs & DMA_ATTR_PRIVILEGED) ? IOPT_PRIV : 0);
}

/* How many IO pages [@addr, @addr + @size) touches. */
static inline u64 pages_spanned(phys_addr_t addr, size_t size)
{
	return ((addr & (PAGE_SIZE - 1)) + size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/* A range no IOVA space could hold: refuse it before looping over its pages. */
static inline bool range_too_big(dma_addr_t addr, size_t size)
{
	return size > IOVA_END - IOVA_BASE || addr + size < addr;
}

/* CPU cache maintenance of the pages behind an IOVA range (a device that does not snoop). */
void dmamap__iommu_sync_iova(struct device *dev, dma_addr_t dma, size_t size,
			     enum dma_data_direction dir, bool for_cpu);

#endif
