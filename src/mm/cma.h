/* SPDX-License-Identifier: MIT */
/*
 * CMA: one contiguous area reserved at boot, handed out in naturally
 * aligned runs of pages. The bookkeeping lives outside the area.
 */
#ifndef DMAMAP_MM_CMA_H
#define DMAMAP_MM_CMA_H

#include <stdbool.h>
#include <dmamap/types.h>

struct dmamap_cma;

/* An area of @size bytes (whole pages) at @start; NULL without memory. */
struct dmamap_cma *dmamap__cma_create(phys_addr_t start, u64 size);
void dmamap__cma_destroy(struct dmamap_cma *c);
bool dmamap__cma_contains(const struct dmamap_cma *c, phys_addr_t phys);
/* Where @c is (0, 0 for NULL). */
void dmamap__cma_range(const struct dmamap_cma *c, phys_addr_t *start, u64 *size);
/* @count pages aligned to their power-of-two size (at most 1 MiB); (phys_addr_t)-1 when none. */
phys_addr_t dmamap__cma_alloc(struct dmamap_cma *c, unsigned long count);
/* 0, or -EINVAL when [@phys, +@count pages) is not one allocated run. */
int dmamap__cma_release(struct dmamap_cma *c, phys_addr_t phys, unsigned long count);
/* Whether @phys heads an allocated run of exactly @count pages. */
bool dmamap__cma_is_run(struct dmamap_cma *c, phys_addr_t phys, unsigned long count);

#endif
