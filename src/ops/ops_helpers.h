/* SPDX-License-Identifier: MIT */
/*
 * What every ops table may share, as Linux's kernel/dma/ops_helpers.c: a
 * CPU mapping and an sg_table of physically contiguous memory. Backends
 * meet here, never in each other's files.
 */
#ifndef DMAMAP_OPS_OPS_HELPERS_H
#define DMAMAP_OPS_OPS_HELPERS_H

#include "../base/device.h"
#include "../platform/port.h"

/*
 * mmap() the @size bytes of contiguous RAM at @phys through @view into
 * @vma (its vm_pgoff counts pages into the buffer). -EINVAL for a bad vma,
 * -ENXIO for a range outside the buffer or not RAM, -ENOMEM if mmap fails.
 */
int dmamap__common_mmap(struct device *dev, struct vm_area_struct *vma, phys_addr_t phys,
			size_t size, enum dmamap_view view);
/* A one-entry table over the contiguous buffer at @phys. -ENXIO if it is not RAM. */
int dmamap__common_get_sgtable(struct device *dev, struct sg_table *sgt, phys_addr_t phys,
			       size_t size);
/* mmap(2) protection for what a vma asks for. */
int dmamap__vma_prot(const struct vm_area_struct *vma);

#endif
