/* SPDX-License-Identifier: MIT */
/*
 * The driver API with bad arguments: a NULL device, an invalid direction, a
 * zero size or a NULL buffer, at every entry point. Each call is refused
 * (or does nothing), is counted as an error of its kind and reported once.
 */
#include "../helpers.h"

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

/* A pointer into the first page is a NULL buffer with an offset: refused as NULL, on a board and on the host. */
TEST(api_pointer_into_the_first_page_is_a_null_buffer)
{
	struct dmamap_platform *boards[2] = { quiet_board(), host_platform() };

	for (unsigned int i = 0; i < 2; i++) {
		struct dmamap_platform *p = boards[i];
		struct device *dev;

		REQUIRE(p);
		quiet(p);
		dev = i ? host_device(p, "low", NULL) : dmamap_device_lookup(p, NC);
		REQUIRE(dev);
		CHECK_EQ(dma_map_single(dev, (void *)0x10, 16, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
		CHECK_EQ(dma_map_page(dev, NULL, 0x10, 16, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
		CHECK_EQ(errk(dev, DMAMAP_ERRK_NULL_ARG), 2);
		CHECK_EQ(stats_of(dev).maps, 0);
		CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_INVALID_ARGUMENT), 2);
		dmamap_platform_destroy(p);
	}
}
