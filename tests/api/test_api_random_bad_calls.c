/* SPDX-License-Identifier: MIT */
/*
 * Bad input never crashes and never corrupts: thousands of driver-API calls
 * with random arguments (NULL or foreign devices, wild addresses and sizes,
 * invalid directions and attributes) on a simulated board, checker on. The
 * test passes if nothing crashes (ASan watches), every refused call counts
 * an error, and a correct transfer still works afterwards.
 */
#include <stdlib.h>
#include <dmamap/dmamap.h>
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t wild(uint64_t *s)
{
	static const uint64_t edges[] = {
		0, 1, 0xfff, 0x1000, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x87fff000, 0x880000000ULL, ~0ULL, ~0ULL - 4095, 0x8000000000000000ULL,
	};
	uint64_t r = rnd(s);

	return r & 1 ? edges[(r >> 1) % (sizeof(edges) / sizeof(edges[0]))] : rnd(s);
}

TEST(robust_random_bad_calls_never_crash)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);
	struct device *devs[32];
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	unsigned int ndev;
	struct mcdma m;
	uint8_t *a, *b;

	REQUIRE(p);
	dmamap_set_log_hook(p, drop_log, NULL);
	dmamap_set_log_hook(NULL, drop_log, NULL);
	dmamap_debug_enable(p, true);
	ndev = dmamap_device_count(p);
	REQUIRE(ndev < 32);
	for (unsigned int i = 0; i < ndev; i++)
		devs[i] = dmamap_device_at(p, i);
	devs[ndev] = NULL;
	for (int op = 0; op < 20000; op++) {
		struct device *dev = devs[rnd(&s) % (ndev + 1)];
		uint64_t addr = wild(&s), size = wild(&s) % 3 ? rnd(&s) % 70000 : wild(&s);
		int dir = (int)(rnd(&s) % 6) - 1;
		unsigned long attrs = (unsigned long)rnd(&s);
		struct scatterlist sg[3];
		struct vm_area_struct vma = { 0, (unsigned long)size, rnd(&s) % 4, 3 };
		struct sg_table sgt;
		dma_addr_t h;
		uint8_t buf[64];

		switch (rnd(&s) % 14) {
		case 0:
			dma_map_single_attrs(dev, (void *)(uintptr_t)addr, (size_t)size,
					     (enum dma_data_direction)dir, attrs);
			break;
		case 1:
			dma_unmap_page_attrs(dev, addr, (size_t)size, (enum dma_data_direction)dir,
					     attrs);
			break;
		case 2:
			dma_sync_single_for_cpu(dev, addr, (size_t)size, (enum dma_data_direction)dir);
			break;
		case 3:
			dma_sync_single_range_for_device(dev, addr, (unsigned long)wild(&s),
							 (size_t)size,
							 (enum dma_data_direction)dir);
			break;
		case 4:
			sg_init_table(sg, 3);
			sg[0].page_link = (uintptr_t)addr & ~3UL;
			sg[0].length = (unsigned int)size;
			dma_map_sg(dev, sg, (int)(rnd(&s) % 5) - 1, (enum dma_data_direction)dir);
			break;
		case 5:
			dma_free_attrs(dev, (size_t)size, (void *)(uintptr_t)addr, wild(&s), attrs);
			break;
		case 6:
			if (dma_mmap_attrs(dev, &vma, (void *)(uintptr_t)addr, wild(&s),
					   (size_t)size, attrs) == 0)
				dmamap_munmap(&vma);
			break;
		case 7:
			if (dma_get_sgtable_attrs(dev, &sgt, (void *)(uintptr_t)addr, wild(&s),
						  (size_t)size, attrs) == 0)
				sg_free_table(&sgt);
			break;
		case 8:
			dma_set_mask(dev, wild(&s));
			break;
		case 9:
			dmamap_device_read(dev, addr, buf, (size_t)(size % sizeof(buf)) + 1);
			break;
		case 10:
			dmamap_device_write(dev, addr, buf, (size_t)(size % sizeof(buf)) + 1);
			break;
		case 11:
			dmamap_kfree(p, (void *)(uintptr_t)addr);
			break;
		case 12:
			dma_unmap_resource(dev, addr, (size_t)size, (enum dma_data_direction)dir,
					   attrs);
			break;
		case 13:
			h = dma_map_resource(dev, addr, (size_t)size, (enum dma_data_direction)dir,
					     attrs);
			if (!dma_mapping_error(dev, h))
				dma_unmap_resource(dev, h, (size_t)size,
						   (enum dma_data_direction)dir, attrs);
			break;
		}
	}
	CHECK(dmamap_report_count(p, 0) > 1000);
	/* Still a working board: masks back, and a correct transfer on each memcpy engine. */
	dmamap_debug_enable(p, false);
	for (unsigned int i = 0; i < ndev; i++) {
		struct device *dev = devs[i];

		if (strcmp(dmamap_device_model_name(dev), "memcpy"))
			continue;

		dma_set_mask_and_coherent(dev, DMA_BIT_MASK(24));
		dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
		if (!strcmp(dev_name(dev), "dma-24")) {
			dma_set_mask(dev, DMA_BIT_MASK(24));
			dma_set_coherent_mask(dev, DMA_BIT_MASK(24));
		}
		if (!strcmp(dev_name(dev), "ixp-pci"))
			dma_set_coherent_mask(dev, DMA_BIT_MASK(26));
		if (!strcmp(dev_name(dev), "dma-coh"))
			dma_set_mask_and_coherent(dev, DMA_BIT_MASK(40));
		a = dmamap_kmalloc(p, 4096, DMAMAP_GFP_DMA_ALIGN);
		b = dmamap_kmalloc(p, 4096, DMAMAP_GFP_DMA_ALIGN);
		REQUIRE(a && b);
		memset(a, 0x3c, 4096);
		REQUIRE(mcdma_probe(&m, dev, 8) == 0);
		CHECK_EQ(mcdma_copy_buf(&m, b, a, 4096, NULL, NULL, MCDMA_BUG_NONE), 0);
		CHECK_MSG(!memcmp(a, b, 4096), "%s: bytes wrong after the storm", dev_name(dev));
		mcdma_remove(&m);
		dmamap_kfree(p, a);
		dmamap_kfree(p, b);
	}
	dmamap_platform_destroy(p);
}
