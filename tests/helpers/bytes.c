/* SPDX-License-Identifier: MIT */
/* Byte patterns, comparisons of what the device, memory and CPU hold, and buffers placed where a test needs them. */
#include "../helpers.h"

/* ---- bytes ------------------------------------------------------------------- */

void fill_pattern(void *buf, size_t len, unsigned int seed)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8) + 1u);
}

void pattern(void *buf, size_t len, unsigned int seed)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 37u + i * 13u + (i >> 8) + 1u);
}

void pat(void *buf, size_t len, unsigned int seed)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(1 + (seed * 17u + i * 7u + (i >> 9)) % 251u);
}

uint8_t *patbuf(size_t len, unsigned int seed)
{
	uint8_t *b = malloc(len ? len : 1);

	if (b)
		pat(b, len, seed);
	return b;
}

void overlay(void *out, const void *base, const void *over, size_t n, size_t off,
	     size_t len)
{
	if (out != base)
		memcpy(out, base, n);
	memcpy((uint8_t *)out + off, (const uint8_t *)over + off, len);
}

bool all_bytes(const void *buf, size_t len, uint8_t v)
{
	const uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		if (b[i] != v)
			return false;
	return true;
}

size_t ndiff(const void *a, const void *b, size_t len)
{
	const uint8_t *x = a, *y = b;
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += x[i] != y[i];
	return n;
}

size_t dev_diff(struct device *dev, dma_addr_t h, const void *want, size_t len)
{
	uint8_t *got = malloc(len);
	size_t n;

	if (!got)
		return len + 1;
	n = dmamap_device_read(dev, h, got, len) ? len + 1 : ndiff(got, want, len);
	free(got);
	return n;
}

bool dev_reads(struct device *dev, dma_addr_t dma, const void *want, size_t len)
{
	return dev_diff(dev, dma, want, len) == 0;
}

bool mem_is_at(struct dmamap_platform *p, phys_addr_t phys, const void *want, size_t len)
{
	uint8_t *m = malloc(len);
	bool ok = m && !dmamap_sim_mem_read(p, phys, m, len) && !memcmp(m, want, len);

	free(m);
	return ok;
}

bool mem_is(struct dmamap_platform *p, const void *cpu, const void *want, size_t len)
{
	return mem_is_at(p, virt_to_phys(cpu), want, len);
}

bool in_bank(phys_addr_t phys, size_t len)
{
	return (phys >= BANK0_START && phys + len <= BANK0_START + BANK0_SIZE) ||
	       (phys >= BANK1_START && phys + len <= BANK1_START + BANK1_SIZE);
}

bool iova_maps_to(struct device *dev, dma_addr_t iova, phys_addr_t phys, size_t len)
{
	for (size_t off = 0; off < len; off += PAGE_SIZE)
		if (dmamap_iommu_iova_to_phys(dev, iova + off) != phys + off)
			return false;
	return dmamap_iommu_iova_to_phys(dev, iova + len - 1) == phys + len - 1;
}

/* ---- buffers -------------------------------------------------------------------- */

uint8_t *dbuf(struct dmamap_platform *p, size_t size)
{
	return dmamap_kmalloc(p, size, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
}

uint8_t *hi24_buf(struct dmamap_platform *p, size_t size)
{
	uint8_t *b = dmamap_kmalloc(p, size, DMAMAP_GFP_DMA_ALIGN);

	if (b && virt_to_phys(b) < WIN24_END) {
		printf("#   kmalloc gave 0x%llx, below 16 MiB\n",
		       (unsigned long long)virt_to_phys(b));
		return NULL;
	}
	return b;
}

/*
 * ZONE_DMA pages start right after the swiotlb pool; if they do not, take
 * memory just above the pool's end (nothing else uses it in these tests).
 */
uint8_t *d24_lo_pages(struct dmamap_platform *p, unsigned int order)
{
	struct dmamap_swiotlb_stats s = pool_of(p, NULL);
	phys_addr_t pool_end = s.start + s.total_slots * s.slot_size;
	struct page *pg = dmamap_alloc_pages(p, order, DMAMAP_GFP_DMA);
	phys_addr_t phys = pg ? page_to_phys(pg) : 0;

	if (pg && phys >= pool_end && phys + (PAGE_SIZE << order) <= WIN24_END)
		return page_address(pg);
	return dmamap_phys_to_virt(p, pool_end + 4 * MiB);
}

uint8_t *ixp_lo_buf(struct dmamap_platform *p, size_t n)
{
	uint8_t *b = dmamap_kmalloc(p, n, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);

	return b && virt_to_phys(b) + n <= IXP_ABOVE ? b : NULL;
}

uint8_t *ixp_hi_buf(struct dmamap_platform *p, size_t n)
{
	uint8_t *b = dmamap_kmalloc(p, n, DMAMAP_GFP_DMA_ALIGN);

	return b && virt_to_phys(b) >= IXP_ABOVE ? b : NULL;
}

uint8_t *host_pages(size_t len)
{
	return aligned_alloc(PAGE_SIZE, (len + PAGE_SIZE - 1) & ~(size_t)(PAGE_SIZE - 1));
}
