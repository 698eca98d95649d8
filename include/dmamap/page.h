/* SPDX-License-Identifier: MIT */
/*
 * Pages of CPU-visible memory. A struct page pointer is the page's address in
 * the linear map (the CPU view of a simulated board, or plain process memory
 * on the host), so virt_to_page() and page_address() cost nothing; turning a
 * page into a physical address needs the platform and is a function.
 * Page arithmetic (page + 1) is not supported: use nth_page().
 */
#ifndef DMAMAP_PAGE_H
#define DMAMAP_PAGE_H

#include <dmamap/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * virt_to_page() - the page holding a linear-map address
 * @addr: CPU address in the linear map (sim RAM's CPU view, or host memory)
 *
 * Return: the page; never NULL for a non-NULL @addr.
 */
static inline struct page *virt_to_page(const void *addr)
{
	return (struct page *)((uintptr_t)addr & (uintptr_t)PAGE_MASK);
}

/**
 * page_address() - the linear-map address of a page
 * @page: a page from virt_to_page() or a dmamap page allocator
 *
 * Return: the CPU address of the first byte of @page.
 */
static inline void *page_address(const struct page *page)
{
	return (void *)page;
}

/**
 * nth_page() - the page @n pages after @page in the linear map
 * @page: first page
 * @n: distance in pages
 *
 * Return: the page.
 */
static inline struct page *nth_page(const struct page *page, unsigned long n)
{
	return (struct page *)((uintptr_t)page + n * PAGE_SIZE);
}

/**
 * offset_in_page() - byte offset of @addr inside its page
 * @addr: any CPU address
 *
 * Return: @addr modulo PAGE_SIZE.
 */
static inline unsigned long offset_in_page(const void *addr)
{
	return (unsigned long)((uintptr_t)addr & ~(uintptr_t)PAGE_MASK);
}

/**
 * page_to_phys() - physical address of a page
 * @page: a page of a simulated board's RAM or of host memory
 *
 * On a simulated board the physical address is the RAM bank's; elsewhere
 * (host memory) physical and virtual addresses are the same. Only the
 * boards' linear maps are known: any other address, an uncached alias
 * from dma_alloc_coherent() included, comes back unchanged.
 *
 * Return: the physical address of the page's first byte; it never fails.
 */
DMAMAP_API phys_addr_t page_to_phys(const struct page *page);

/**
 * virt_to_phys() - physical address of a linear-map address
 * @addr: CPU address
 *
 * Return: the physical address, as page_to_phys() computes it: @addr
 * itself when it is in no board's linear map.
 */
DMAMAP_API phys_addr_t virt_to_phys(const void *addr);

#ifdef __cplusplus
}
#endif
#endif
