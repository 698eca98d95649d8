/* SPDX-License-Identifier: MIT */
/*
 * Driver-API tests: bad arguments, strict mode and the checker's log,
 * scatter-gather unwinding and fault injection, ops dispatch, masks,
 * scatterlist helpers and the host platform.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "../drivers/memcpy_dma.h"
#include "helpers.h"

/* ---- 1. bad arguments ---------------------------------------------------- */

TEST(api_null_device)
{
	struct log_capture cap = { 0 };
	struct dmamap_platform *p = default_board();
	struct scatterlist sg[2];
	struct sg_table sgt = { 0 };
	struct vm_area_struct vma = { 0, PAGE_SIZE, 0, DMAMAP_PROT_READ };
	dma_addr_t h = 0;
	void *buf;

	REQUIRE(p);
	/* NULL-device reports have no platform: they go to the NULL hook. */
	dmamap_set_log_hook(NULL, capture_hook, &cap);
	buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 128);
	sg_set_buf(&sg[1], (char *)buf + 128, 128);
	sgt.sgl = sg;
	sgt.orig_nents = 2;

	CHECK_NULL_DEV(dma_map_single(NULL, buf, 64, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_NULL_DEV(dma_map_single_attrs(NULL, buf, 64, DMA_TO_DEVICE, 0) ==
		       DMA_MAPPING_ERROR);
	CHECK_NULL_DEV(dma_map_page(NULL, virt_to_page(buf), 0, 64, DMA_FROM_DEVICE) ==
		       DMA_MAPPING_ERROR);
	CHECK_NULL_DEV(dma_map_sg(NULL, sg, 2, DMA_TO_DEVICE) == 0);
	CHECK_NULL_DEV(dma_map_sgtable(NULL, &sgt, DMA_TO_DEVICE, 0) == -EINVAL);
	CHECK_NULL_DEV(dma_map_resource(NULL, MMIO_PHYS, 64, DMA_TO_DEVICE, 0) ==
		       DMA_MAPPING_ERROR);
	CHECK_NULL_DEV(VOIDCALL(dma_unmap_single(NULL, 0x1000, 64, DMA_TO_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_unmap_page(NULL, 0x1000, 64, DMA_TO_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_unmap_sg(NULL, sg, 2, DMA_TO_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_unmap_sgtable(NULL, &sgt, DMA_TO_DEVICE, 0)));
	CHECK_NULL_DEV(VOIDCALL(dma_unmap_resource(NULL, 0x1000, 64, DMA_TO_DEVICE, 0)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_single_for_cpu(NULL, 0x1000, 64,
							DMA_FROM_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_single_for_device(NULL, 0x1000, 64,
							   DMA_TO_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_single_range_for_cpu(NULL, 0x1000, 8, 64,
							      DMA_FROM_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_single_range_for_device(NULL, 0x1000, 8, 64,
								 DMA_TO_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_sg_for_cpu(NULL, sg, 2, DMA_FROM_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_sg_for_device(NULL, sg, 2, DMA_TO_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_sgtable_for_cpu(NULL, &sgt, DMA_FROM_DEVICE)));
	CHECK_NULL_DEV(VOIDCALL(dma_sync_sgtable_for_device(NULL, &sgt, DMA_TO_DEVICE)));
	CHECK_NULL_DEV(dma_alloc_coherent(NULL, PAGE_SIZE, &h, GFP_KERNEL) == NULL);
	CHECK_NULL_DEV(dma_alloc_attrs(NULL, PAGE_SIZE, &h, GFP_KERNEL,
				       DMA_ATTR_WRITE_COMBINE) == NULL);
	CHECK_NULL_DEV(dma_alloc_wc(NULL, PAGE_SIZE, &h, GFP_KERNEL) == NULL);
	CHECK_NULL_DEV(dma_alloc_noncoherent(NULL, PAGE_SIZE, &h, DMA_TO_DEVICE,
					     GFP_KERNEL) == NULL);
	CHECK_NULL_DEV(VOIDCALL(dma_free_coherent(NULL, PAGE_SIZE, buf, 0x1000)));
	CHECK_NULL_DEV(VOIDCALL(dma_free_noncoherent(NULL, PAGE_SIZE, buf, 0x1000,
						     DMA_TO_DEVICE)));
	CHECK_NULL_DEV(dma_mmap_coherent(NULL, &vma, buf, 0x1000, PAGE_SIZE) == -EINVAL);
	CHECK_NULL_DEV(dma_get_sgtable_attrs(NULL, &sgt, buf, 0x1000, PAGE_SIZE, 0) ==
		       -EINVAL);
	CHECK_NULL_DEV(dma_set_mask(NULL, DMA_BIT_MASK(32)) == -EINVAL);
	CHECK_NULL_DEV(dma_set_coherent_mask(NULL, DMA_BIT_MASK(32)) == -EINVAL);
	CHECK_NULL_DEV(dma_set_mask_and_coherent(NULL, DMA_BIT_MASK(32)) == -EINVAL);
	CHECK_NULL_DEV(dma_declare_coherent_memory(NULL, BANK0_START, 0, PAGE_SIZE) ==
		       -EINVAL);

	/* Queries answer "nothing" for no device, and do not crash. */
	CHECK(get_dma_ops(NULL) == NULL);
	CHECK_EQ(dma_supported(NULL, DMA_BIT_MASK(64)), 0);
	CHECK_EQ(dma_get_required_mask(NULL), 0);
	CHECK_EQ(dma_max_mapping_size(NULL), 0);
	CHECK(strcmp(dev_name(NULL), "(null)") == 0);
	CHECK(!dev_is_dma_coherent(NULL));
	CHECK(dma_mapping_error(NULL, DMA_MAPPING_ERROR) == -ENOMEM);
	set_dma_ops(NULL, &dmamap_direct_ops);

	/* Every one of those reports reached the NULL platform's hook. */
	CHECK_EQ(dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE), 31);
	CHECK_EQ(cap.lines, dmamap_report_count(NULL, 0));
	CHECK(strstr(cap.last, "DMA-API:") != NULL);
	dmamap_set_log_hook(NULL, NULL, NULL);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_bad_direction)
{
	static const int bad_dirs[] = { 7, DMA_NONE, -1 };
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct scatterlist sg[1];
	struct sg_table sgt = { sg, 0, 1 };
	dma_addr_t h, ok;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	buf = dmamap_kmalloc(p, 512, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	sg_init_one(sg, buf, 512);
	ok = dma_map_single(dev, buf, 512, DMA_BIDIRECTIONAL);
	REQUIRE(ok != DMA_MAPPING_ERROR);

	for (unsigned int i = 0; i < sizeof(bad_dirs) / sizeof(bad_dirs[0]); i++) {
		enum dma_data_direction dir = (enum dma_data_direction)bad_dirs[i];
		struct dmamap_device_stats before = stats_of(dev), after;

		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   dma_map_single(dev, buf, 64, dir) == DMA_MAPPING_ERROR);
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   dma_map_page(dev, virt_to_page(buf), offset_in_page(buf), 64,
					dir) == DMA_MAPPING_ERROR);
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR, dma_map_sg(dev, sg, 1, dir) == 0);
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   dma_map_sgtable(dev, &sgt, dir, 0) == -EINVAL);
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   dma_map_resource(dev, MMIO_PHYS, 64, dir, 0) == DMA_MAPPING_ERROR);
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   dma_alloc_noncoherent(dev, PAGE_SIZE, &h, dir, GFP_KERNEL) == NULL);
		/* A bad direction on a live mapping: counted, nothing undone. */
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   VOIDCALL(dma_unmap_single(dev, ok, 512, dir)));
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   VOIDCALL(dma_sync_single_for_cpu(dev, ok, 512, dir)));
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   VOIDCALL(dma_sync_single_for_device(dev, ok, 512, dir)));
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_DIR,
			   VOIDCALL(dma_unmap_sg(dev, sg, 1, dir)));
		after = stats_of(dev);
		CHECK_EQ(after.maps, before.maps);
		CHECK_EQ(after.unmaps, before.unmaps);
		CHECK_EQ(after.syncs_for_cpu, before.syncs_for_cpu);
		CHECK_EQ(after.syncs_for_device, before.syncs_for_device);
	}
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_INVALID_DIRECTION), 30);
	CHECK_EQ(live_maps(dev), 1);
	dma_unmap_single(dev, ok, 512, DMA_BIDIRECTIONAL);
	CHECK_EQ(live_maps(dev), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_zero_size)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct vm_area_struct vma = { 0, PAGE_SIZE, 0, DMAMAP_PROT_READ };
	dma_addr_t h, ok;
	void *buf, *cpu;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	ok = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(ok != DMA_MAPPING_ERROR);

	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_map_single(dev, buf, 0, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_map_page(dev, virt_to_page(buf), 0, 0, DMA_TO_DEVICE) ==
			   DMA_MAPPING_ERROR);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_map_resource(dev, MMIO_PHYS, 0, DMA_TO_DEVICE, 0) ==
			   DMA_MAPPING_ERROR);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_alloc_coherent(dev, 0, &h, GFP_KERNEL) == NULL);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_alloc_noncoherent(dev, 0, &h, DMA_TO_DEVICE, GFP_KERNEL) == NULL);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_mmap_coherent(dev, &vma, cpu, h, 0) == -EINVAL);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   VOIDCALL(dma_unmap_single(dev, ok, 0, DMA_TO_DEVICE)));
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   VOIDCALL(dma_sync_single_for_cpu(dev, ok, 0, DMA_TO_DEVICE)));
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   VOIDCALL(dma_free_coherent(dev, 0, cpu, h)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_ZERO_SIZE), 9);

	/* The zero-size calls changed nothing: the real ones still work. */
	CHECK_EQ(live_maps(dev), 1);
	dma_unmap_single(dev, ok, 256, DMA_TO_DEVICE);
	CHECK_EQ(live_maps(dev), 0);
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_null_buffer)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct sg_table sgt = { 0 };
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);

	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   dma_map_single(dev, NULL, 64, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   dma_map_page(dev, NULL, 0, 64, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG, dma_map_sg(dev, NULL, 1, DMA_TO_DEVICE) == 0);
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   dma_map_sgtable(dev, NULL, DMA_TO_DEVICE, 0) == -EINVAL);
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   VOIDCALL(dma_unmap_sgtable(dev, NULL, DMA_TO_DEVICE, 0)));
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   VOIDCALL(dma_sync_sgtable_for_cpu(dev, NULL, DMA_FROM_DEVICE)));
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   VOIDCALL(dma_sync_sgtable_for_device(dev, NULL, DMA_TO_DEVICE)));
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   dma_alloc_coherent(dev, PAGE_SIZE, NULL, GFP_KERNEL) == NULL);
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   dma_mmap_coherent(dev, NULL, cpu, h, PAGE_SIZE) == -EINVAL);
	CHECK_ERRK(dev, DMAMAP_ERRK_NULL_ARG,
		   dma_get_sgtable_attrs(dev, NULL, cpu, h, PAGE_SIZE, 0) == -EINVAL);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_INVALID_ARGUMENT), 10);
	/* Freeing NULL is allowed, as in the kernel. */
	{
		uint64_t e0 = stats_of(dev).errors;

		dma_free_coherent(dev, PAGE_SIZE, NULL, h);
		CHECK_EQ(stats_of(dev).errors, e0);
	}
	/* sg_alloc_table()'s own bad arguments. */
	CHECK_EQ(sg_alloc_table(NULL, 4, GFP_KERNEL), -EINVAL);
	CHECK_EQ(sg_alloc_table(&sgt, 0, GFP_KERNEL), -EINVAL);
	CHECK(sgt.sgl == NULL);
	sg_free_table(NULL);
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	dmamap_platform_destroy(p);
}

TEST(api_unmap_bad_handle)
{
	struct dmamap_platform *p = default_board();
	struct device *nc;
	dma_addr_t outside;
	uint64_t maint;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(nc);
	/* DMA_MAPPING_ERROR: a failed mapping being used. */
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_single(nc, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_page(nc, DMA_MAPPING_ERROR, 64, DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_resource(nc, DMA_MAPPING_ERROR, 64,
					       DMA_TO_DEVICE, 0)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_cpu(nc, DMA_MAPPING_ERROR, 64,
						    DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_device(nc, DMA_MAPPING_ERROR, 64,
						       DMA_TO_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_range_for_cpu(nc, DMA_MAPPING_ERROR, 0, 64,
							  DMA_FROM_DEVICE)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 6);

	/* A handle beyond dma-nc's 128 MiB window cannot be one of its mappings. */
	outside = dmamap_phys_to_dma(nc, BANK0_START) + BANK0_SIZE + 16 * PAGE_SIZE;
	REQUIRE(dmamap_dma_to_phys(nc, outside) == (phys_addr_t)-1);
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_single(nc, outside, 256, DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_page(nc, outside, 256, DMA_BIDIRECTIONAL)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_cpu(nc, outside, 256, DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_device(nc, outside, 256, DMA_TO_DEVICE)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 10);
	/* No cache maintenance happened for any of them. */
	maint = stats_of(nc).cache_bytes_invalidated + stats_of(nc).cache_bytes_cleaned;
	CHECK_EQ(maint, 0);
	dmamap_platform_destroy(p);
}

TEST(api_unmap_sg_longer_than_list)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct scatterlist sg[3];
	void *buf;
	int n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	buf = dmamap_kmalloc(p, 3 * 256, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	sg_init_table(sg, 3);
	for (int i = 0; i < 3; i++)
		sg_set_buf(&sg[i], (char *)buf + i * 256, 256);
	/* nents beyond the list's end: an error, never a walk off the list. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG, dma_map_sg(dev, sg, 5, DMA_TO_DEVICE) == 0);
	CHECK_EQ(live_maps(dev), 0);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	CHECK_EQ(n, 3);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   VOIDCALL(dma_sync_sg_for_cpu(dev, sg, 5, DMA_TO_DEVICE)));
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   VOIDCALL(dma_unmap_sg(dev, sg, 5, DMA_TO_DEVICE)));
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_map_sg_empty)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct scatterlist sg[3];
	struct sg_table sgt;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	buf = dmamap_kmalloc(p, 3 * 512, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	sg_init_table(sg, 3);
	for (int i = 0; i < 3; i++)
		sg_set_buf(&sg[i], (char *)buf + i * 512, 512);

	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE, dma_map_sg(dev, sg, 0, DMA_TO_DEVICE) == 0);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE, dma_map_sg(dev, sg, -3, DMA_TO_DEVICE) == 0);
	sgt.sgl = sg;
	sgt.orig_nents = 0;
	sgt.nents = 0;
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, 0) == -EINVAL);

	/* An empty middle entry: the first one is unmapped again. */
	sg[1].length = 0;
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG, dma_map_sg(dev, sg, 3, DMA_TO_DEVICE) == 0);
	CHECK_EQ(stats_of(dev).maps, 1);
	CHECK_EQ(live_maps(dev), 0);
	sgt.orig_nents = 3;
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_map_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0) == -EINVAL);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).sg_maps, 0);

	/* Repaired, the same list maps. */
	sg[1].length = 512;
	CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0), 0);
	CHECK_EQ(sgt.nents, 3);
	CHECK_EQ(live_maps(dev), 3);
	dma_unmap_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(live_maps(dev), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_set_mask_impossible)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	u64 mask0;
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-32");
	REQUIRE(dev);
	mask0 = dma_get_mask(dev);
	/* 24 bits cannot reach ZONE_DMA (0x80000000..) of this board. */
	CHECK_EQ(dma_supported(dev, DMA_BIT_MASK(24)), 0);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_MASK, dma_set_mask(dev, DMA_BIT_MASK(24)) == -EIO);
	CHECK_EQ(dma_get_mask(dev), mask0);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_MASK,
		   dma_set_coherent_mask(dev, DMA_BIT_MASK(24)) == -EIO);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_MASK,
		   dma_set_mask_and_coherent(dev, DMA_BIT_MASK(24)) == -EIO);
	CHECK_EQ(dma_get_mask(dev), mask0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_MASK_UNSUPPORTED), 3);
	/* The coherent mask is unchanged too: allocations still work. */
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	CHECK(cpu != NULL);
	CHECK(h + PAGE_SIZE - 1 <= DMA_BIT_MASK(32));
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	/* A mask that reaches ZONE_DMA is fine. */
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
	dmamap_platform_destroy(p);
}

TEST(api_free_coherent_wrong_address)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h, h2;
	uint8_t pat[2 * PAGE_SIZE];
	void *cpu, *cpu2, *lin;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	fill_pattern(pat, sizeof(pat), 3);
	memcpy(cpu, pat, sizeof(pat));
	lin = dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, h));
	REQUIRE(lin);

	/* Inside the buffer but not its start. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, (char *)cpu + PAGE_SIZE, h)));
	/* The linear-map alias of the buffer, not the address it was given as. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, lin, h)));
	/* The right address with the wrong handle. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h + PAGE_SIZE)));
	/* Not memory of this board at all. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, pat, h)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);

	/* Nothing was freed or touched: the buffer holds its bytes, and a new
	 * allocation does not land on it. */
	CHECK_MEM(cpu, pat, sizeof(pat));
	cpu2 = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h2, GFP_KERNEL);
	REQUIRE(cpu2);
	CHECK(h2 + 2 * PAGE_SIZE <= h || h + 2 * PAGE_SIZE <= h2);
	CHECK_MEM(cpu, pat, sizeof(pat));
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu2, h2);
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);
	dmamap_platform_destroy(p);
}

TEST(api_free_coherent_wrong_size)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h, h2;
	uint8_t pat[4 * PAGE_SIZE];
	void *cpu, *cpu2;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, 4 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	fill_pattern(pat, sizeof(pat), 5);
	memcpy(cpu, pat, sizeof(pat));

	/* Smaller than allocated: the allocator does not know that block. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, PAGE_SIZE, cpu, h)));
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 2);

	/* Not corrupted: the bytes are there, the block is still allocated,
	 * and allocating goes on working around it. */
	CHECK_MEM(cpu, pat, sizeof(pat));
	for (int i = 0; i < 4; i++) {
		cpu2 = dma_alloc_coherent(dev, PAGE_SIZE, &h2, GFP_KERNEL);
		REQUIRE(cpu2);
		CHECK(h2 + PAGE_SIZE <= h || h + 4 * PAGE_SIZE <= h2);
		memset(cpu2, 0xee, PAGE_SIZE);
		dma_free_coherent(dev, PAGE_SIZE, cpu2, h2);
	}
	CHECK_MEM(cpu, pat, sizeof(pat));
	/* The right size frees it, without a report. */
	dma_free_coherent(dev, 4 * PAGE_SIZE, cpu, h);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 2);
	dmamap_platform_destroy(p);
}

TEST(api_kfree_invalid)
{
	struct dmamap_platform *p = default_board();
	uint8_t stack_buf[64];
	void *a, *b, *big, *c;

	REQUIRE(p);
	a = dmamap_kmalloc(p, 32, 0);
	b = dmamap_kmalloc(p, 32, 0); /* keeps a's slab alive */
	big = dmamap_kmalloc(p, 5 * PAGE_SIZE, 0);
	REQUIRE(a && b && big);
	memset(b, 0x42, 32);

	dmamap_kfree(p, a);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	dmamap_kfree(p, a); /* double free */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	dmamap_kfree(p, (char *)b + 8); /* inside an object */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 2);
	dmamap_kfree(p, big);
	dmamap_kfree(p, big); /* double free of a large object */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 3);
	dmamap_kfree(p, stack_buf); /* never from kmalloc */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);
	dmamap_kfree(p, NULL); /* allowed */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);

	/* b survived, and the allocator still works. */
	CHECK(all_bytes(b, 32, 0x42));
	c = dmamap_kmalloc(p, 32, 0);
	CHECK(c != NULL && c != b);
	dmamap_kfree(p, c);
	dmamap_kfree(p, b);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);
	dmamap_platform_destroy(p);
}

TEST(api_kmalloc_bad_size)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_platform *h = host_platform();

	REQUIRE(p && h);
	CHECK(dmamap_kmalloc(p, 0, 0) == NULL);
	CHECK(dmamap_kmalloc(NULL, 64, 0) == NULL);
	/* Sizes that overflow when rounded up to a cache line. */
	CHECK(dmamap_kmalloc(p, SIZE_MAX - 10, DMAMAP_GFP_DMA_ALIGN) == NULL);
	CHECK(dmamap_kmalloc(p, SIZE_MAX - 10, __GFP_ZERO) == NULL);
	CHECK(dmamap_kmalloc(h, SIZE_MAX - 10, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO) == NULL);
	CHECK(dmamap_alloc_pages(p, 40, 0) == NULL);
	dmamap_platform_destroy(h);
	dmamap_platform_destroy(p);
}

TEST(api_map_stack_not_linear)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct scatterlist sg;
	uint8_t stack_buf[256];
	void *heap;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	memset(stack_buf, 1, sizeof(stack_buf));
	CHECK_ERRK(dev, DMAMAP_ERRK_NOT_LINEAR,
		   dma_map_single(dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE) ==
			   DMA_MAPPING_ERROR);
	sg_init_one(&sg, stack_buf, sizeof(stack_buf));
	CHECK_ERRK(dev, DMAMAP_ERRK_NOT_LINEAR, dma_map_sg(dev, &sg, 1, DMA_TO_DEVICE) == 0);
	heap = malloc(512); /* host memory is not the board's RAM either */
	REQUIRE(heap);
	CHECK_ERRK(dev, DMAMAP_ERRK_NOT_LINEAR,
		   dma_map_single(dev, heap, 512, DMA_FROM_DEVICE) == DMA_MAPPING_ERROR);
	free(heap);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_NOT_LINEAR), 3);
	CHECK_EQ(stats_of(dev).maps, 0);
	dmamap_platform_destroy(p);
}

TEST(api_map_resource)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-32");
	REQUIRE(dev);
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	/* RAM is not a resource. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_map_resource(dev, virt_to_phys(buf), 64, DMA_TO_DEVICE, 0) ==
			   DMA_MAPPING_ERROR);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_map_resource(dev, BANK1_START + PAGE_SIZE, PAGE_SIZE,
				    DMA_FROM_DEVICE, 0) == DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_INVALID_ARGUMENT), 2);
	CHECK_EQ(stats_of(dev).maps, 0);
	/* An MMIO address the mask reaches maps untranslated, without cache work. */
	h = dma_map_resource(dev, MMIO_PHYS, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(h, MMIO_PHYS);
	CHECK_EQ(live_maps(dev), 1);
	dma_unmap_resource(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(live_maps(dev), 0);
	/* Beyond a 32-bit mask: unreachable. */
	CHECK_ERRK(dev, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_resource(dev, 0x100000000ULL, PAGE_SIZE, DMA_TO_DEVICE, 0) ==
			   DMA_MAPPING_ERROR);
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* ---- 2. strict mode and the checker's log ---------------------------------- */

TEST_ABORTS(api_strict_platform_aborts)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA);
	REQUIRE(dev && buf);
	dmamap_set_strict(p, true);
	/* A good call does not abort... */
	dma_unmap_single(dev, dma_map_single(dev, buf, 64, DMA_TO_DEVICE), 64,
			 DMA_TO_DEVICE);
	/* ...a bad one does. */
	dma_map_single(dev, buf, 64, (enum dma_data_direction)7);
}

TEST_ABORTS(api_strict_env_aborts)
{
	struct dmamap_platform *p;
	struct device *dev;

	setenv("DMAMAP_STRICT", "1", 1);
	p = default_board();
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
}

TEST_ABORTS(api_strict_null_device_aborts)
{
	uint8_t buf[64];

	dmamap_set_strict(NULL, true);
	dma_map_single(NULL, buf, sizeof(buf), DMA_TO_DEVICE);
}

TEST(api_strict_off_does_not_abort)
{
	struct dmamap_platform *p;
	struct device *dev;

	/* The platform's own setting wins over the process's. */
	setenv("DMAMAP_STRICT", "1", 1);
	p = default_board();
	REQUIRE(p);
	dmamap_set_strict(p, false);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 1);
	dmamap_platform_destroy(p);
}

TEST(api_checker_logs)
{
	struct log_capture cap = { 0 };
	struct dmamap_platform *p = default_board();
	struct scatterlist sg[2];
	struct device *dev;
	dma_addr_t h, ch;
	void *buf, *cpu;
	int n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	dmamap_set_log_hook(p, capture_hook, &cap);
	dmamap_debug_enable(p, true);
	CHECK(dmamap_debug_enabled(p));

	/* A correct driver: nothing is logged. */
	buf = dmamap_kmalloc(p, 1024, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	memset(buf, 0x11, 1024);
	h = dma_map_single(dev, buf, 1024, DMA_BIDIRECTIONAL);
	CHECK(!dma_mapping_error(dev, h));
	dma_sync_single_for_cpu(dev, h, 1024, DMA_BIDIRECTIONAL);
	dma_sync_single_for_device(dev, h, 1024, DMA_BIDIRECTIONAL);
	dma_unmap_single(dev, h, 1024, DMA_BIDIRECTIONAL);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 512);
	sg_set_buf(&sg[1], (char *)buf + 512, 512);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	CHECK_EQ(n, 2);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &ch, GFP_KERNEL);
	CHECK(cpu != NULL);
	dma_free_coherent(dev, PAGE_SIZE, cpu, ch);
	dmamap_kfree(p, buf);
	CHECK_EQ(cap.lines, 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);

	/* A bad call: one kernel-like line naming the device. */
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	CHECK_EQ(cap.lines, 1);
	CHECK(strstr(cap.last, "DMA-API:") != NULL);
	CHECK(strstr(cap.last, "dma-nc") != NULL);

	/* Checker off: still counted, not logged. */
	dmamap_debug_enable(p, false);
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	CHECK_EQ(cap.lines, 1);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 2);
	dmamap_platform_destroy(p);
}

/* ---- 3. sg unwinding and fault injection ------------------------------------ */

#define SG_N 8

TEST(api_sg_fault_unwind)
{
	struct dmamap_platform *p = default_board();
	struct scatterlist sg[SG_N];
	struct sg_table sgt = { sg, 0, SG_N };
	void *bufs[SG_N];
	struct device *dev;
	unsigned long fired = 0;
	int n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	sg_init_table(sg, SG_N);
	for (int i = 0; i < SG_N; i++) {
		bufs[i] = dmamap_kmalloc(p, 200 + 300 * i, DMAMAP_GFP_DMA);
		REQUIRE(bufs[i]);
		sg_set_buf(&sg[i], bufs[i], 200 + 300 * i);
	}
	for (long k = 1; k <= SG_N; k++) {
		struct dmamap_device_stats s;

		dmamap_device_stats_reset(dev);
		dmamap_fault_inject(p, DMAMAP_FAULT_MAP, k);
		n = dma_map_sg(dev, sg, SG_N, DMA_BIDIRECTIONAL);
		CHECK_EQ(n, 0);
		CHECK_EQ(dmamap_fault_injected(p), ++fired);
		s = stats_of(dev);
		CHECK_MSG(s.maps == (uint64_t)(k - 1), "k=%ld: %llu entries mapped", k,
			  (unsigned long long)s.maps);
		CHECK_MSG(s.maps == s.unmaps, "k=%ld: %llu maps, %llu unmaps", k,
			  (unsigned long long)s.maps, (unsigned long long)s.unmaps);
		CHECK_EQ(s.sg_maps, 0);
		CHECK_EQ(s.errors_by_kind[DMAMAP_ERRK_NOMEM], 1);

		dmamap_fault_inject(p, DMAMAP_FAULT_MAP, k);
		CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, 0), -ENOMEM);
		CHECK_EQ(dmamap_fault_injected(p), ++fired);
		CHECK_EQ(live_maps(dev), 0);
	}
	/* Disarmed after firing: the whole list maps now. */
	n = dma_map_sg(dev, sg, SG_N, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, SG_N);
	CHECK_EQ(live_maps(dev), SG_N);
	for (int i = 0; i < SG_N; i++)
		CHECK_EQ(sg_dma_address(&sg[i]),
			 dmamap_phys_to_dma(dev, virt_to_phys(bufs[i])));
	dma_unmap_sg(dev, sg, SG_N, DMA_BIDIRECTIONAL);
	CHECK_EQ(live_maps(dev), 0);
	/* Allocator faults do not hit map paths. */
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK_EQ(dma_map_sg(dev, sg, SG_N, DMA_TO_DEVICE), SG_N);
	dma_unmap_sg(dev, sg, SG_N, DMA_TO_DEVICE);
	dmamap_fault_inject(p, 0, 0);
	for (int i = 0; i < SG_N; i++)
		dmamap_kfree(p, bufs[i]);
	dmamap_platform_destroy(p);
}

TEST(api_map_single_fault)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	buf = dmamap_kmalloc(p, 128, 0);
	REQUIRE(dev && buf);
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 2);
	h = dma_map_single(dev, buf, 128, DMA_TO_DEVICE); /* point 1 */
	CHECK(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	CHECK_ERRK(dev, DMAMAP_ERRK_NOMEM,
		   dma_map_single(dev, buf, 128, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_fault_injected(p), 1);
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 1);
	CHECK(dma_map_resource(dev, MMIO_PHYS, 64, DMA_TO_DEVICE, 0) == DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_fault_injected(p), 2);
	h = dma_map_single(dev, buf, 128, DMA_TO_DEVICE);
	CHECK(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	CHECK_EQ(live_maps(dev), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_alloc_fault_inject)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct page *pg;
	dma_addr_t h;
	void *cpu, *k, *keep;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);

	/* Each allocation point inside dma_alloc_coherent, in turn. */
	for (long n = 1;; n++) {
		unsigned long before = dmamap_fault_injected(p);

		REQUIRE(n < 16);
		dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, n);
		cpu = dma_alloc_coherent(dev, 3 * PAGE_SIZE, &h, GFP_KERNEL);
		if (dmamap_fault_injected(p) == before) {
			CHECK(cpu != NULL);
			dmamap_fault_inject(p, 0, 0);
			break;
		}
		CHECK_MSG(cpu == NULL, "point %ld fired but the allocation succeeded", n);
		CHECK_EQ(stats_of(dev).allocs, 0);
	}
	CHECK(stats_of(dev).errors_by_kind[DMAMAP_ERRK_NOMEM] >= 1);
	dma_free_coherent(dev, 3 * PAGE_SIZE, cpu, h);

	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK(dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL) == NULL);
	cpu = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL);
	CHECK(cpu != NULL);
	dma_free_noncoherent(dev, PAGE_SIZE, cpu, h, DMA_TO_DEVICE);

	/* kmalloc is a point of its own, also when its slab has room. */
	keep = dmamap_kmalloc(p, 64, 0);
	REQUIRE(keep);
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK(dmamap_kmalloc(p, 64, 0) == NULL);
	k = dmamap_kmalloc(p, 64, 0);
	CHECK(k != NULL);
	dmamap_kfree(p, k);
	dmamap_kfree(p, keep);

	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK(dmamap_alloc_pages(p, 2, 0) == NULL);
	pg = dmamap_alloc_pages(p, 2, 0);
	CHECK(pg != NULL);
	dmamap_free_pages(p, pg, 2);

	/* A countdown of 2: the next-but-one point fails. */
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 2);
	pg = dmamap_alloc_pages(p, 0, 0);
	CHECK(pg != NULL);
	CHECK(dmamap_alloc_pages(p, 0, 0) == NULL);
	dmamap_free_pages(p, pg, 0);
	/* Map faults do not hit allocators. */
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 1);
	k = dmamap_kmalloc(p, 64, 0);
	CHECK(k != NULL);
	dmamap_kfree(p, k);
	dmamap_fault_inject(p, 0, 0);
	CHECK_EQ(dmamap_fault_injected(p), 6);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	dmamap_platform_destroy(p);
}

/* ---- 4. single on page, ops tables ------------------------------------------ */

TEST(api_single_is_page)
{
	struct dmamap_platform *p = default_board();
	const char *names[] = { "dma-nc", "dma-coh", "dma-32" };
	uint8_t *buf;

	REQUIRE(p);
	buf = dmamap_kmalloc(p, 3 * PAGE_SIZE, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	for (unsigned int i = 0; i < 3; i++) {
		struct device *dev = dmamap_device_lookup(p, names[i]);
		uint8_t *ptr = buf + PAGE_SIZE + 100; /* not page aligned */
		dma_addr_t hs, hp;

		REQUIRE(dev);
		hs = dma_map_single(dev, ptr, 1000, DMA_TO_DEVICE);
		hp = dma_map_page(dev, virt_to_page(ptr), offset_in_page(ptr), 1000,
				  DMA_TO_DEVICE);
		CHECK(hs != DMA_MAPPING_ERROR);
		CHECK_EQ(hs, hp);
		CHECK_EQ(hs, dmamap_phys_to_dma(dev, virt_to_phys(ptr)));
		CHECK_EQ(stats_of(dev).maps, 2);
		dma_unmap_single(dev, hs, 1000, DMA_TO_DEVICE);
		dma_unmap_page(dev, hp, 1000, DMA_TO_DEVICE);
		CHECK_EQ(live_maps(dev), 0);
	}
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

#define REC_ADDR 0x5a000000ULL
#define RECORDER_MAX 16

static struct {
	int map_calls, unmap_calls, mask_calls;
	int fail_at; /* map call number that fails, 0: none */
	struct page *page[RECORDER_MAX];
	unsigned long offset[RECORDER_MAX];
	size_t size[RECORDER_MAX];
	enum dma_data_direction dir[RECORDER_MAX];
	dma_addr_t unmapped[RECORDER_MAX];
	u64 mask;
} recorder;

static dma_addr_t recorder_map_page(struct device *dev, struct page *page,
			       unsigned long offset, size_t size,
			       enum dma_data_direction dir, unsigned long attrs)
{
	int i = recorder.map_calls++;

	(void)dev;
	(void)attrs;
	if (recorder.fail_at && recorder.map_calls == recorder.fail_at)
		return DMA_MAPPING_ERROR;
	if (i < RECORDER_MAX) {
		recorder.page[i] = page;
		recorder.offset[i] = offset;
		recorder.size[i] = size;
		recorder.dir[i] = dir;
	}
	return REC_ADDR + (dma_addr_t)i * 0x10000 + offset;
}

static void recorder_unmap_page(struct device *dev, dma_addr_t handle, size_t size,
			   enum dma_data_direction dir, unsigned long attrs)
{
	(void)dev;
	(void)size;
	(void)dir;
	(void)attrs;
	if (recorder.unmap_calls < RECORDER_MAX)
		recorder.unmapped[recorder.unmap_calls] = handle;
	recorder.unmap_calls++;
}

static int recorder_set_dma_mask(struct device *dev, u64 mask)
{
	(void)dev;
	recorder.mask_calls++;
	recorder.mask = mask;
	return mask < DMA_BIT_MASK(28) ? -EIO : 0;
}

static const struct dma_map_ops recorder_ops = {
	.name = "recorder",
	.map_page = recorder_map_page,
	.unmap_page = recorder_unmap_page,
	.set_dma_mask = recorder_set_dma_mask,
};

TEST(api_custom_ops)
{
	struct dmamap_platform *p = default_board();
	struct scatterlist sg[3];
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;
	int n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 2 * PAGE_SIZE, DMAMAP_GFP_DMA);
	REQUIRE(dev && buf);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	set_dma_ops(dev, &recorder_ops);
	CHECK(get_dma_ops(dev) == &recorder_ops);

	/* single goes through the table's map_page with page + offset. */
	h = dma_map_single(dev, buf + 300, 700, DMA_TO_DEVICE);
	CHECK_EQ(recorder.map_calls, 1);
	CHECK(recorder.page[0] == virt_to_page(buf + 300));
	CHECK_EQ(recorder.offset[0], offset_in_page(buf + 300));
	CHECK_EQ(recorder.size[0], 700);
	CHECK_EQ(recorder.dir[0], DMA_TO_DEVICE);
	CHECK_EQ(h, REC_ADDR + offset_in_page(buf + 300));
	dma_unmap_single(dev, h, 700, DMA_TO_DEVICE);
	CHECK_EQ(recorder.unmap_calls, 1);
	CHECK_EQ(recorder.unmapped[0], h);

	h = dma_map_page(dev, virt_to_page(buf + PAGE_SIZE), 8, 64, DMA_FROM_DEVICE);
	CHECK_EQ(recorder.map_calls, 2);
	CHECK(recorder.page[1] == virt_to_page(buf + PAGE_SIZE));
	CHECK_EQ(recorder.dir[1], DMA_FROM_DEVICE);
	CHECK_EQ(h, REC_ADDR + 0x10000 + 8);
	dma_unmap_page(dev, h, 64, DMA_FROM_DEVICE);
	CHECK_EQ(recorder.unmap_calls, 2);

	/* No .map_sg: the core builds sg on map_page, one call per entry. */
	sg_init_table(sg, 3);
	for (int i = 0; i < 3; i++)
		sg_set_buf(&sg[i], buf + i * 1000, 1000);
	n = dma_map_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, 3);
	CHECK_EQ(recorder.map_calls, 5);
	for (int i = 0; i < 3; i++) {
		CHECK(recorder.page[2 + i] == virt_to_page(buf + i * 1000));
		CHECK_EQ(sg_dma_address(&sg[i]),
			 REC_ADDR + (dma_addr_t)(2 + i) * 0x10000 + offset_in_page(buf + i * 1000));
		CHECK_EQ(sg_dma_len(&sg[i]), 1000);
	}
	dma_unmap_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	CHECK_EQ(recorder.unmap_calls, 5);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(recorder.unmapped[2 + i], sg_dma_address(&sg[i]));

	/* A failure in the table's map_page at entry 2 unwinds entry 1 through it. */
	recorder.fail_at = recorder.map_calls + 2;
	CHECK_EQ(dma_map_sg(dev, sg, 3, DMA_BIDIRECTIONAL), 0);
	CHECK_EQ(recorder.map_calls, 7);
	CHECK_EQ(recorder.unmap_calls, 6);
	CHECK_EQ(live_maps(dev), 0);
	recorder.fail_at = 0;

	/* dma_set_mask asks the table. */
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(40)), 0);
	CHECK_EQ(recorder.mask_calls, 1);
	CHECK_EQ(recorder.mask, DMA_BIT_MASK(40));
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(20)), -EIO);
	CHECK_EQ(recorder.mask_calls, 2);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_MASK), 1);

	/* Back to the platform default: the direct table. */
	set_dma_ops(dev, NULL);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	CHECK_EQ(h, dmamap_phys_to_dma(dev, virt_to_phys(buf)));
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	CHECK_EQ(recorder.map_calls, 7);
	CHECK_EQ(recorder.unmap_calls, 6);
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
	CHECK_EQ(recorder.mask_calls, 2);
	/* Installing the direct table by name is the same as NULL. */
	set_dma_ops(dev, &dmamap_direct_ops);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* ---- 9. masks ------------------------------------------------------------- */

TEST(api_masks)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_platform *hp = host_platform();
	struct dmamap_device_desc d = { .name = "plain" };
	struct device *plain, *coh, *d32, *hdev;
	u64 req;

	REQUIRE(p && hp);
	plain = dmamap_device_create(p, &d, NULL);
	coh = dmamap_device_lookup(p, "dma-coh");
	d32 = dmamap_device_lookup(p, "dma-32");
	hdev = host_device(hp, "h0", NULL);
	REQUIRE(plain && coh && d32 && hdev);

	/* Defaults: 32 bits on the sim, 64 on the host. */
	CHECK_EQ(dma_get_mask(plain), DMA_BIT_MASK(32));
	CHECK_EQ(dma_get_mask(d32), DMA_BIT_MASK(32));
	CHECK_EQ(dma_get_mask(hdev), DMA_BIT_MASK(64));

	CHECK_EQ(dma_supported(plain, DMA_BIT_MASK(64)), 1);
	CHECK_EQ(dma_supported(plain, DMA_BIT_MASK(32)), 1);
	CHECK_EQ(dma_supported(plain, DMA_BIT_MASK(16)), 0);
	CHECK_EQ(dma_set_mask_and_coherent(plain, DMA_BIT_MASK(64)), 0);
	CHECK_EQ(dma_get_mask(plain), DMA_BIT_MASK(64));
	CHECK_EQ(dma_set_mask(plain, DMA_BIT_MASK(36)), 0);
	CHECK_EQ(dma_get_mask(plain), DMA_BIT_MASK(36));
	CHECK_EQ(stats_of(plain).errors, 0);

	/* dma-coh reaches the whole board: the bank above 4 GiB needs 36 bits. */
	req = dma_get_required_mask(coh);
	CHECK(req >= BANK1_START + BANK1_SIZE - 1);
	CHECK(req >= DMA_BIT_MASK(36));
	CHECK_EQ(req & (req + 1), 0); /* a mask: 2^n - 1 */
	req = dma_get_required_mask(hdev);
	CHECK_EQ(req & (req + 1), 0);
	CHECK(req >= (u64)(uintptr_t)&req);

	/* Both platforms have a bounce pool: a mapping is at most one segment... */
	CHECK_EQ(dma_max_mapping_size(coh), DMAMAP_SWIOTLB_MAX_MAPPING);
	CHECK_EQ(dma_max_mapping_size(hdev), DMAMAP_SWIOTLB_MAX_MAPPING);
	/* ...unless bouncing is off. */
	CHECK_EQ(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE), 0);
	CHECK_EQ(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_NOFORCE), 0);
	CHECK_EQ(dma_max_mapping_size(coh), SIZE_MAX);
	CHECK_EQ(dma_max_mapping_size(hdev), SIZE_MAX);
	dmamap_platform_destroy(hp);
	dmamap_platform_destroy(p);
}

TEST(api_mask_limits_mapping)
{
	struct dmamap_platform *p = default_board();
	struct device *coh;
	struct page *pg;
	dma_addr_t h;

	REQUIRE(p);
	coh = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(coh);
	/* A page of the bank above 4 GiB. */
	pg = dmamap_alloc_pages(p, 0, __GFP_HIGHMEM);
	REQUIRE(pg);
	REQUIRE(page_to_phys(pg) >= BANK1_START);
	h = dma_map_page(coh, pg, 16, 256, DMA_TO_DEVICE);
	CHECK_EQ(h, page_to_phys(pg) + 16);
	dma_unmap_page(coh, h, 256, DMA_TO_DEVICE);
	/* With a 32-bit mask the same buffer is beyond reach (when nothing bounces). */
	CHECK_EQ(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE), 0);
	CHECK_EQ(dma_set_mask(coh, DMA_BIT_MASK(32)), 0);
	CHECK_ERRK(coh, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_page(coh, pg, 16, 256, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_EQ(live_maps(coh), 0);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/* ---- 10. scatterlist helpers ------------------------------------------------- */

TEST(api_sg_helpers)
{
	struct dmamap_platform *p = default_board();
	/* b has a spare slot: gcc cannot see that sg_next() stops at b[2]. */
	struct scatterlist a[4], b[4], *sg;
	struct sg_table t;
	struct device *dev;
	uint8_t *buf, *expect[6];
	int ui; /* as kernel drivers count */
	int i, n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 6 * 600, DMAMAP_GFP_DMA);
	REQUIRE(dev && buf);

	memset(a, 0xff, sizeof(a));
	sg_init_table(a, 4);
	CHECK(!sg_is_last(&a[0]) && !sg_is_last(&a[2]));
	CHECK(sg_is_last(&a[3]));
	CHECK_EQ(a[1].length, 0);
	CHECK_EQ(sg_nents(a), 4);
	sg_init_table(b, 3);

	/* a[0..2] and b[0..2] hold data; a[3] is the link to b. */
	for (i = 0; i < 6; i++) {
		expect[i] = buf + i * 600;
		sg_set_buf(i < 3 ? &a[i] : &b[i - 3], expect[i], 600 - i);
	}
	sg_chain(a, 4, b);
	CHECK(sg_is_chain(&a[3]));
	CHECK(sg_chain_ptr(&a[3]) == b);
	CHECK(sg_next(&a[2]) == &b[0]);
	CHECK(sg_next(&b[1]) == &b[2]);
	CHECK(sg_next(&b[2]) == NULL);
	CHECK_EQ(sg_nents(a), 6);
	CHECK_EQ(sg_nents(NULL), 0);

	n = 0;
	for_each_sg(a, sg, 6, i) {
		CHECK(sg_virt(sg) == expect[i]);
		CHECK(sg_page(sg) == virt_to_page(expect[i]));
		CHECK_EQ(sg->offset, offset_in_page(expect[i]));
		CHECK_EQ(sg->length, 600 - i);
		n++;
	}
	CHECK_EQ(n, 6);

	/* The device sees the chained list as six segments. */
	n = dma_map_sg(dev, a, 6, DMA_TO_DEVICE);
	CHECK_EQ(n, 6);
	for_each_sg(a, sg, 6, i) {
		CHECK_EQ(sg_dma_address(sg), dmamap_phys_to_dma(dev, virt_to_phys(expect[i])));
		CHECK_EQ(sg_dma_len(sg), 600 - i);
	}
	dma_sync_sg_for_cpu(dev, a, 6, DMA_TO_DEVICE);
	dma_sync_sg_for_device(dev, a, 6, DMA_TO_DEVICE);
	CHECK_EQ(stats_of(dev).syncs_for_cpu, 6);
	CHECK_EQ(stats_of(dev).syncs_for_device, 6);
	dma_unmap_sg(dev, a, 6, DMA_TO_DEVICE);
	CHECK_EQ(live_maps(dev), 0);

	/* sg_init_one: a one-entry list. */
	sg_init_one(&a[0], buf + 10, 77);
	CHECK(sg_is_last(&a[0]));
	CHECK(sg_virt(&a[0]) == buf + 10);
	CHECK_EQ(a[0].length, 77);
	CHECK_EQ(sg_nents(a), 1);

	/* Tables. */
	CHECK_EQ(sg_alloc_table(&t, 5, GFP_KERNEL), 0);
	CHECK(t.sgl != NULL);
	CHECK_EQ(t.orig_nents, 5);
	CHECK_EQ(sg_nents(t.sgl), 5);
	CHECK(sg_is_last(&t.sgl[4]));
	n = 0;
	/* The table walkers compare with unsigned counts. */
	for_each_sgtable_sg(&t, sg, ui) {
		sg_set_buf(sg, buf + ui * 600, 600);
		n++;
	}
	CHECK_EQ(n, 5);
	CHECK_EQ(dma_map_sgtable(dev, &t, DMA_FROM_DEVICE, 0), 0);
	CHECK_EQ(t.nents, 5);
	n = 0;
	for_each_sgtable_dma_sg(&t, sg, ui) {
		CHECK_EQ(sg_dma_address(sg),
			 dmamap_phys_to_dma(dev, virt_to_phys(buf + ui * 600)));
		n++;
	}
	CHECK_EQ(n, 5);
	dma_sync_sgtable_for_cpu(dev, &t, DMA_FROM_DEVICE);
	dma_sync_sgtable_for_device(dev, &t, DMA_FROM_DEVICE);
	dma_unmap_sgtable(dev, &t, DMA_FROM_DEVICE, 0);
	CHECK_EQ(live_maps(dev), 0);
	sg_free_table(&t);
	CHECK(t.sgl == NULL);
	CHECK_EQ(t.orig_nents, 0);
	sg_free_table(&t); /* empty: fine */
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* ---- 12. host platform -------------------------------------------------------- */

TEST(api_host_identity)
{
	struct dmamap_platform *p = host_platform();
	struct scatterlist sg[2];
	struct device *dev;
	uint8_t stack_buf[100];
	dma_addr_t h;
	uint8_t *buf;

	REQUIRE(p);
	CHECK(!dmamap_platform_is_sim(p));
	dev = host_device(p, "h0", NULL);
	REQUIRE(dev);
	CHECK(dev_is_dma_coherent(dev));
	buf = malloc(3000);
	REQUIRE(buf);
	h = dma_map_single(dev, buf + 5, 2000, DMA_BIDIRECTIONAL);
	CHECK_EQ(h, (dma_addr_t)(uintptr_t)(buf + 5));
	CHECK_EQ(page_to_phys(virt_to_page(buf + 5)), (uintptr_t)(buf + 5) & PAGE_MASK);
	CHECK_EQ(virt_to_phys(buf + 5), (uintptr_t)(buf + 5));
	dma_unmap_single(dev, h, 2000, DMA_BIDIRECTIONAL);
	h = dma_map_single(dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE);
	CHECK_EQ(h, (dma_addr_t)(uintptr_t)stack_buf);
	dma_unmap_single(dev, h, sizeof(stack_buf), DMA_TO_DEVICE);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 1000);
	sg_set_buf(&sg[1], buf + 2000, 1000);
	CHECK_EQ(dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE), 2);
	CHECK_EQ(sg_dma_address(&sg[0]), (uintptr_t)buf);
	CHECK_EQ(sg_dma_address(&sg[1]), (uintptr_t)(buf + 2000));
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	free(buf);
	dmamap_platform_destroy(p);
}

static void memcpy_engine_roundtrip(struct device *dev, void *dst, void *src,
				    size_t len)
{
	struct mcdma m;
	uint8_t *expect = malloc(len);
	int ret;

	REQUIRE(expect);
	fill_pattern(expect, len, 9);
	memset(dst, 0, len);
	ret = mcdma_probe(&m, dev, 16);
	CHECK_EQ(ret, 0);
	if (!ret) {
		CHECK_EQ(mcdma_copy_buf(&m, dst, src, len, expect, NULL, MCDMA_BUG_NONE), 0);
		CHECK_MEM(dst, expect, len);
		CHECK(stats_of(dev).dev_bytes_read >= len);
		CHECK(stats_of(dev).dev_bytes_written >= len);
		mcdma_remove(&m);
	}
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	free(expect);
}

TEST(api_host_memcpy_model)
{
	struct dmamap_platform *p = host_platform();
	struct device *dev;
	const size_t len = 3 * PAGE_SIZE + 123;
	void *src, *dst;

	REQUIRE(p);
	dev = host_device(p, "mc0", "memcpy");
	REQUIRE(dev);
	CHECK(strcmp(dmamap_device_model_name(dev), "memcpy") == 0);
	src = malloc(len);
	dst = malloc(len);
	REQUIRE(src && dst);
	memcpy_engine_roundtrip(dev, dst, src, len);
	free(src);
	free(dst);
	dmamap_platform_destroy(p);
}

TEST(api_sim_memcpy_model)
{
	struct dmamap_platform *p = default_board();
	const char *names[] = { "dma-nc", "dma-coh", "dma-32" };
	const size_t len = 2 * PAGE_SIZE + 64;

	REQUIRE(p);
	for (unsigned int i = 0; i < 3; i++) {
		struct device *dev = dmamap_device_lookup(p, names[i]);
		void *src = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
		void *dst = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);

		REQUIRE(dev && src && dst);
		memcpy_engine_roundtrip(dev, dst, src, len);
		dmamap_kfree(p, src);
		dmamap_kfree(p, dst);
	}
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

/* A size larger than allocated must not touch the pages after the buffer. */
TEST(api_free_coherent_larger_size_spares_neighbour)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct page *next;
	uint8_t *cpu, *nb;
	dma_addr_t h;
	int found = 0;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	/* Find the page right after the buffer and own it through the allocator. */
	for (int i = 0; i < 64 && !found; i++) {
		next = dmamap_alloc_pages(p, 0, GFP_DMA32);
		REQUIRE(next);
		if (page_to_phys(next) == dmamap_dma_to_phys(dev, h) + PAGE_SIZE)
			found = 1;
	}
	REQUIRE(found);
	nb = page_address(next);
	memset(nb, 0x77, PAGE_SIZE);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h)));
	for (unsigned int i = 0; i < PAGE_SIZE; i++)
		if (nb[i] != 0x77) {
			CHECK_MSG(0, "neighbour byte %u changed to 0x%02x", i, nb[i]);
			break;
		}
	dmamap_platform_destroy(p);
}
