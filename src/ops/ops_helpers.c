/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <sys/mman.h>
#include "../lib/lib.h"
#include "ops_helpers.h"
#include "../lib/mem.h"

int dmamap__vma_prot(const struct vm_area_struct *vma)
{
	return ((vma->vm_page_prot & DMAMAP_PROT_READ) ? PROT_READ : 0) |
	       ((vma->vm_page_prot & DMAMAP_PROT_WRITE) ? PROT_WRITE : 0);
}

int dmamap__common_mmap(struct device *dev, struct vm_area_struct *vma, phys_addr_t phys,
			size_t size, enum dmamap_view view)
{
	unsigned long npages = dmamap__port_map_size(size) >> PAGE_SHIFT;
	unsigned long len = vma->vm_end - vma->vm_start;
	size_t host_page = dmamap__host_page_size();
	int flags = MAP_SHARED, fd;
	u64 off;
	void *m;

	if (phys == PHYS_NONE || !len || (len & (PAGE_SIZE - 1)) ||
	    (vma->vm_start & (host_page - 1)))
		return -EINVAL;
	if (vma->vm_pgoff >= npages || (len >> PAGE_SHIFT) > npages - vma->vm_pgoff)
		return -ENXIO;
	fd = dmamap__view_fd(dev->plat, phys, view, &off);
	if (fd < 0)
		return -ENXIO;
	/*
	 * The host maps whole host pages: the offset must start one, and the
	 * length rounded up to one must stay inside the allocation (which
	 * dmamap__port_map_size() rounded so), or other memory would show.
	 */
	off += (u64)vma->vm_pgoff << PAGE_SHIFT;
	if ((off & (host_page - 1)) ||
	    ((((u64)vma->vm_pgoff << PAGE_SHIFT) + len + host_page - 1) & ~(u64)(host_page - 1)) >
		    (u64)npages << PAGE_SHIFT)
		return -EINVAL;
	if (vma->vm_start)
		flags |= MAP_FIXED_NOREPLACE;
	m = dmamap__mmap((void *)vma->vm_start, len, dmamap__vma_prot(vma), flags, fd, (off_t)off);
	if (m == MAP_FAILED)
		return -ENOMEM;
	vma->vm_start = (unsigned long)m;
	vma->vm_end = vma->vm_start + len;
	return 0;
}

int dmamap__common_get_sgtable(struct device *dev, struct sg_table *sgt, phys_addr_t phys,
			       size_t size)
{
	void *va = phys == PHYS_NONE ? NULL : dmamap__phys_to_view(dev->plat, phys, VIEW_CPU);
	int ret;

	if (!va)
		return -ENXIO;
	ret = sg_alloc_table(sgt, 1, GFP_KERNEL);
	if (ret)
		return ret;
	sg_set_page(sgt->sgl, virt_to_page(va), (unsigned int)PAGE_ALIGN(size), 0);
	return 0;
}
