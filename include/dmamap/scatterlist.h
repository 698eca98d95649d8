/* SPDX-License-Identifier: MIT */
/*
 * Scatter-gather lists with the kernel's layout rules: the low bits of
 * page_link mark a chain link (bit 0) or the last entry (bit 1), which works
 * because a struct page pointer is page aligned.
 */
#ifndef DMAMAP_SCATTERLIST_H
#define DMAMAP_SCATTERLIST_H

#include <dmamap/page.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scatterlist {
	uintptr_t page_link;
	unsigned int offset;
	unsigned int length;
	dma_addr_t dma_address;
	unsigned int dma_length;
	unsigned int dma_flags;
};

struct sg_table {
	struct scatterlist *sgl;
	unsigned int nents;      /* entries mapped (after dma_map_sgtable) */
	unsigned int orig_nents; /* entries the CPU filled in */
};

#define SG_CHAIN 0x01UL
#define SG_END 0x02UL
#define SG_PAGE_LINK_MASK (SG_CHAIN | SG_END)

#define sg_dma_address(sg) ((sg)->dma_address)
#define sg_dma_len(sg) ((sg)->dma_length)

/**
 * sg_is_chain() - whether an entry is a chain link to another array
 * @sg: entry
 *
 * Return: true for a link made by sg_chain().
 */
static inline bool sg_is_chain(const struct scatterlist *sg)
{
	return (sg->page_link & SG_CHAIN) != 0;
}

/**
 * sg_is_last() - whether an entry is the last of its list
 * @sg: entry
 *
 * Return: true when the end marker is set.
 */
static inline bool sg_is_last(const struct scatterlist *sg)
{
	return (sg->page_link & SG_END) != 0;
}

/**
 * sg_chain_ptr() - the array a chain link points to
 * @sg: a chain link (sg_is_chain())
 *
 * Return: the first entry of the next array.
 */
static inline struct scatterlist *sg_chain_ptr(const struct scatterlist *sg)
{
	return (struct scatterlist *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/**
 * sg_page() - the page an entry points at
 * @sg: entry
 *
 * Return: the page; NULL for an entry no page was set on.
 */
static inline struct page *sg_page(const struct scatterlist *sg)
{
	return (struct page *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/**
 * sg_set_page() - point an entry at part of a page
 * @sg: entry
 * @page: first page (the data may run on into following pages)
 * @len: length in bytes
 * @offset: offset into @page
 */
static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	sg->page_link = (uintptr_t)page | (sg->page_link & SG_END);
	sg->offset = offset;
	sg->length = len;
}

/**
 * sg_set_buf() - point an entry at a linear-map buffer
 * @sg: entry
 * @buf: CPU address
 * @buflen: length in bytes
 */
static inline void sg_set_buf(struct scatterlist *sg, const void *buf,
			      unsigned int buflen)
{
	sg_set_page(sg, virt_to_page(buf), buflen,
		    (unsigned int)offset_in_page(buf));
}

/**
 * sg_virt() - CPU address of an entry's data
 * @sg: entry with a page
 *
 * Return: the linear-map address of the entry's first byte.
 */
static inline void *sg_virt(const struct scatterlist *sg)
{
	return (char *)page_address(sg_page(sg)) + sg->offset;
}

/**
 * sg_mark_end() - make an entry the last of its list
 * @sg: entry; it stops being a chain link
 */
static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->page_link |= SG_END;
	sg->page_link &= ~SG_CHAIN;
}

/**
 * sg_unmark_end() - clear an entry's end marker
 * @sg: entry
 */
static inline void sg_unmark_end(struct scatterlist *sg)
{
	sg->page_link &= ~SG_END;
}

/**
 * sg_chain() - link the last slot of one array to another array
 * @prv: first array
 * @prv_nents: number of slots in @prv; its last slot becomes the link
 * @sgl: next array
 */
static inline void sg_chain(struct scatterlist *prv, unsigned int prv_nents,
			    struct scatterlist *sgl)
{
	struct scatterlist *link = &prv[prv_nents - 1];

	link->offset = 0;
	link->length = 0;
	link->page_link = ((uintptr_t)sgl | SG_CHAIN) & ~SG_END;
}

/**
 * sg_next() - the entry after @sg, following chain links
 * @sg: current entry
 *
 * Return: the next entry, or NULL after the last one.
 */
static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	if (sg_is_last(sg))
		return NULL;
	sg++;
	if (sg_is_chain(sg))
		sg = sg_chain_ptr(sg);
	return sg;
}

#define for_each_sg(sglist, sg, nr, i)                                       \
	for ((i) = 0, (sg) = (sglist); (i) < (nr); (i)++, (sg) = sg_next(sg))

/* Kernel drivers count with int: the casts keep -Wsign-compare quiet for them. */
#define for_each_sgtable_sg(sgt, sg, i)                                      \
	for_each_sg((sgt)->sgl, sg, (int)(sgt)->orig_nents, i)

#define for_each_sgtable_dma_sg(sgt, sg, i)                                  \
	for_each_sg((sgt)->sgl, sg, (int)(sgt)->nents, i)

/**
 * sg_init_table() - clear an array of entries and mark its last one
 * @sgl: array
 * @nents: number of entries (must be at least 1)
 *
 * A NULL @sgl or a zero @nents is ignored.
 */
DMAMAP_API void sg_init_table(struct scatterlist *sgl, unsigned int nents);

/**
 * sg_init_one() - a one-entry list for @buf
 * @sg: the entry; NULL is ignored
 * @buf: CPU address in the linear map
 * @buflen: length
 *
 * Nothing is checked here: a NULL @buf makes an entry without a page,
 * which the map calls refuse.
 */
DMAMAP_API void sg_init_one(struct scatterlist *sg, const void *buf,
			    unsigned int buflen);

/**
 * sg_nents() - number of entries in a list, chain links not counted
 * @sg: first entry
 *
 * Return: the count; 0 for a NULL list.
 */
DMAMAP_API int sg_nents(struct scatterlist *sg);

/**
 * sg_alloc_table() - allocate a list of @nents entries
 * @table: table to fill
 * @nents: number of entries, at least 1
 * @gfp_mask: allocation flags (GFP_KERNEL, GFP_ATOMIC...); ignored
 *
 * The entries live in host memory (malloc()): the table is CPU
 * bookkeeping and belongs to no platform, so no fault injector is asked
 * and nothing is reported.
 *
 * Return: 0; -EINVAL for a NULL @table; -EINVAL for a zero @nents or one
 * whose size overflows, and -ENOMEM when malloc() fails, with @table
 * left empty.
 */
DMAMAP_API int sg_alloc_table(struct sg_table *table, unsigned int nents,
			      gfp_t gfp_mask);

/**
 * sg_alloc_table_from_pages() - a table over an array of pages
 * @sgt: table to allocate and fill (free with sg_free_table())
 * @pages: the pages, in buffer order
 * @n_pages: how many
 * @offset: where the buffer starts in the first page (below PAGE_SIZE)
 * @size: the buffer's length: it must end in the last page
 * @gfp_mask: allocation flags; ignored
 *
 * Pages that are physically contiguous (each after the one before, as the
 * board's memory places them) become one entry, up to UINT_MAX rounded
 * down to a page, as in Linux. The first entry starts at @offset, the last
 * ends with the buffer.
 *
 * Return: 0; -EINVAL for a NULL @sgt, @pages or page, no pages, an
 * @offset of a page or more, a zero @size, or a buffer that does not end
 * in the last page; -ENOMEM when malloc() fails. @sgt is left empty on
 * error.
 */
DMAMAP_API int sg_alloc_table_from_pages(struct sg_table *sgt, struct page **pages,
					 unsigned int n_pages, unsigned int offset,
					 unsigned long size, gfp_t gfp_mask);

/**
 * sg_free_table() - free a list from sg_alloc_table()
 * @table: table; may be empty or NULL
 *
 * The table is left empty.
 */
DMAMAP_API void sg_free_table(struct sg_table *table);

#ifdef __cplusplus
}
#endif
#endif
