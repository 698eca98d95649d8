/* SPDX-License-Identifier: MIT */
/* The DMA API's device-managed calls: coherent memory and pools that go with the driver. */
#include <errno.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/dmapool.h>
#include "driver.h"

struct coherent {
	void *vaddr;
	dma_addr_t dma;
	size_t size;
	unsigned long attrs;
};

static void coherent_release(struct device *dev, void *data)
{
	struct coherent *c = data;

	dma_free_attrs(dev, c->size, c->vaddr, c->dma, c->attrs);
}

void *dmam_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp,
		       unsigned long attrs)
{
	struct devres *dr;
	struct coherent *c;
	void *vaddr;

	if (!dmamap__pdev_state(dev) || !dma_handle)
		return NULL;
	dr = dmamap__devres_alloc(dev, coherent_release, sizeof(*c), 16);
	if (!dr)
		return NULL;
	vaddr = dma_alloc_attrs(dev, size, dma_handle, gfp, attrs);
	if (!vaddr) {
		dmamap__devres_free(dev, dr);
		return NULL;
	}
	c = dr->data;
	*c = (struct coherent){ vaddr, *dma_handle, size, attrs };
	dr->key = vaddr;
	dr->key2 = *dma_handle;
	dr->key3 = size;
	dmamap__devres_add(dev, dr);
	return vaddr;
}

void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp)
{
	return dmam_alloc_attrs(dev, size, dma_handle, gfp, 0);
}

void dmam_free_coherent(struct device *dev, size_t size, void *cpu_addr, dma_addr_t dma_handle)
{
	/* Address, handle and size, as the kernel's dmam_match(): a wrong size frees nothing. */
	struct devres *dr = dmamap__devres_take(dev, coherent_release, cpu_addr, dma_handle, size);
	struct coherent *c;

	if (!dr) {
		dev_warn(dev, "dmam_free_coherent() of %p (%#llx, %zu bytes), which no dmam_ allocation gave it",
			 cpu_addr, (unsigned long long)dma_handle, size);
		return;
	}
	c = dr->data;
	dma_free_attrs(dev, c->size, c->vaddr, c->dma, c->attrs);
	dmamap__devres_free(dev, dr);
}

static void pool_release(struct device *dev, void *data)
{
	(void)dev;
	dma_pool_destroy(*(struct dma_pool **)data);
}

struct dma_pool *dmam_pool_create(const char *name, struct device *dev, size_t size, size_t align,
				  size_t boundary)
{
	struct devres *dr;
	struct dma_pool *pool;

	if (!dmamap__pdev_state(dev))
		return NULL;
	dr = dmamap__devres_alloc(dev, pool_release, sizeof(pool), 16);
	if (!dr)
		return NULL;
	pool = dma_pool_create(name, dev, size, align, boundary);
	if (!pool) {
		dmamap__devres_free(dev, dr);
		return NULL;
	}
	*(struct dma_pool **)dr->data = pool;
	dr->key = pool;
	dmamap__devres_add(dev, dr);
	return pool;
}

void dmam_pool_destroy(struct dma_pool *pool)
{
	struct device *dev;
	struct devres *dr;

	if (!pool)
		return;
	dev = dmamap_dma_pool_device(pool);
	dr = dev ? dmamap__devres_take(dev, pool_release, pool, ~0ULL, ~0ULL) : NULL;
	dma_pool_destroy(pool);
	if (dr)
		dmamap__devres_free(dev, dr);
	else if (dev)
		dev_warn(dev, "dmam_pool_destroy() of a pool dmam_pool_create() did not make");
}
