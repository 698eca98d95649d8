/* SPDX-License-Identifier: MIT */
/*
 * A table over an array of pages, as Linux's lib/scatterlist.c builds it:
 * physically contiguous runs become one entry. Here rather than in lib/
 * because only the platform knows which pages are contiguous.
 */
#include <string.h>
#include <dmamap/dma-map-ops.h>
#include <dmamap/scatterlist.h>
#include "../lib/lib.h"

/* The longest entry, as Linux's: UINT_MAX rounded down to a page. */
#define MAX_ENTRY ((unsigned long)UINT32_MAX & PAGE_MASK)

static bool continues(struct page **pages, unsigned int i, unsigned long run)
{
	return page_to_phys(pages[i]) == page_to_phys(pages[i - 1]) + PAGE_SIZE &&
	       run + PAGE_SIZE <= MAX_ENTRY;
}

int sg_alloc_table_from_pages(struct sg_table *sgt, struct page **pages, unsigned int n_pages,
			      unsigned int offset, unsigned long size, gfp_t gfp_mask)
{
	unsigned int chunks = 1, first = 0;
	struct scatterlist *s;
	unsigned long run = PAGE_SIZE, total;
	int ret;

	if (!sgt)
		return -EINVAL;
	memset(sgt, 0, sizeof(*sgt));
	/* Every page holds part of the buffer: offset in the first, the end in the last. */
	if (!pages || !n_pages || offset >= PAGE_SIZE || !size ||
	    __builtin_mul_overflow((unsigned long)n_pages, PAGE_SIZE, &total) ||
	    size > total - offset || offset + size <= total - PAGE_SIZE)
		return -EINVAL;
	for (unsigned int i = 0; i < n_pages; i++)
		if (!pages[i])
			return -EINVAL;
	for (unsigned int i = 1; i < n_pages; i++) {
		if (continues(pages, i, run)) {
			run += PAGE_SIZE;
		} else {
			chunks++;
			run = PAGE_SIZE;
		}
	}
	ret = sg_alloc_table(sgt, chunks, gfp_mask);
	if (ret)
		return ret;
	s = sgt->sgl;
	run = PAGE_SIZE;
	for (unsigned int i = 1; i <= n_pages; i++) {
		unsigned long len;

		if (i < n_pages && continues(pages, i, run)) {
			run += PAGE_SIZE;
			continue;
		}
		len = MIN(run - offset, size);
		sg_set_page(s, pages[first], (unsigned int)len, offset);
		size -= len;
		offset = 0;
		first = i;
		run = PAGE_SIZE;
		s = sg_next(s);
	}
	return 0;
}
