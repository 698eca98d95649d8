/* SPDX-License-Identifier: MIT */
/*
 * Device windows with several ranges, offsets both ways: one range puts RAM
 * higher on the bus than in the CPU's map (as the 0xc0000000 alias of
 * Raspberry Pi-class SoCs), the other lower. Every translation, device access
 * and refusal is checked on the bytes.
 */
#include <dmamap/dmamap.h>
#include "../helpers.h"

static struct dmamap_platform *two_range_board(struct device **dev)
{
	static const struct dmamap_device_desc d = {
		.name = "split",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 2,
		.ranges = {
			{ .cpu_start = RAM0, .dma_start = 0xc0000000ULL, .size = 64 * MiB },
			{ .cpu_start = RAM0 + 64 * MiB, .dma_start = 0x10000000ULL,
			  .size = 64 * MiB },
		},
	};
	const struct dmamap_board b = {
		.name = "two-range",
		.swiotlb_size = ~0ULL, /* windows only: nothing bounces here */
		.nr_banks = 1,
		.banks = { { RAM0, 128 * MiB } },
		.nr_devices = 1,
		.devices = &d,
	};
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);

	if (p)
		*dev = dmamap_device_lookup(p, "split");
	return p;
}

/* Linear-map address of a physical address on @p. */
static uint8_t *at(struct dmamap_platform *p, phys_addr_t phys)
{
	return dmamap_phys_to_virt(p, phys);
}

TEST(window_two_ranges_translate_both_ways)
{
	struct device *dev;
	struct dmamap_platform *p = two_range_board(&dev);

	REQUIRE(p && dev);
	CHECK_EQ(dmamap_phys_to_dma(dev, RAM0 + 0x1000), 0xc0001000ULL);
	CHECK_EQ(dmamap_phys_to_dma(dev, RAM0 + 64 * MiB + 0x2000), 0x10002000ULL);
	CHECK_EQ(dmamap_dma_to_phys(dev, 0xc0001000ULL), RAM0 + 0x1000);
	CHECK_EQ(dmamap_dma_to_phys(dev, 0x10002000ULL), RAM0 + 64 * MiB + 0x2000);
	CHECK(dmamap_phys_to_dma(dev, RAM0 + 128 * MiB) == DMA_MAPPING_ERROR);
	CHECK(dmamap_dma_to_phys(dev, 0x20000000ULL) == (phys_addr_t)-1);
	/* The bus limit is the highest bus address of the window. */
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0xc0000000ULL + 64 * MiB - 1);
	dmamap_platform_destroy(p);
}

TEST(window_two_ranges_map_and_move_bytes)
{
	static const phys_addr_t where[] = { RAM0 + 0x10000, RAM0 + 64 * MiB + 0x30000 };
	struct device *dev;
	struct dmamap_platform *p = two_range_board(&dev);

	REQUIRE(p && dev);
	for (unsigned int i = 0; i < 2; i++) {
		uint8_t *buf = at(p, where[i]), got[256], put[256], mem[256];
		dma_addr_t h;

		REQUIRE(buf);
		for (int k = 0; k < 256; k++) {
			buf[k] = (uint8_t)(k + i);
			put[k] = (uint8_t)(255 - k - i);
		}
		h = dma_map_single(dev, buf, 256, DMA_BIDIRECTIONAL);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK_EQ(h, dmamap_phys_to_dma(dev, where[i]));
		CHECK(i == 0 ? h > where[i] : h < where[i]);
		CHECK_EQ(dmamap_device_read(dev, h, got, 256), 0);
		CHECK_MEM(got, buf, 256);
		CHECK_EQ(dmamap_device_write(dev, h, put, 256), 0);
		/* The device's bytes landed at the right physical address. */
		CHECK_EQ(dmamap_sim_mem_read(p, where[i], mem, 256), 0);
		CHECK_MEM(mem, put, 256);
		dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
		CHECK_MEM(buf, put, 256);
	}
	dmamap_platform_destroy(p);
}

TEST(window_buffer_across_ranges_is_refused)
{
	struct device *dev;
	struct dmamap_platform *p = two_range_board(&dev);
	struct dmamap_device_stats s;
	uint8_t *buf, junk[64] = { 0 }, before[128], after[128];

	REQUIRE(p && dev);
	/* Contiguous for the CPU, but its halves are 0xb0000000 apart on the bus. */
	buf = at(p, RAM0 + 64 * MiB - 64);
	REQUIRE(buf);
	CHECK(dma_mapping_error(dev, dma_map_single(dev, buf, 128, DMA_TO_DEVICE)));
	CHECK_EQ(dmamap_device_stats(dev, &s), 0);
	CHECK_EQ(s.errors_by_kind[DMAMAP_ERRK_UNREACHABLE], 1);
	CHECK_EQ(s.maps, 0);
	/* The device cannot reach past the end of a range either: it faults, writes nothing. */
	CHECK_EQ(dmamap_sim_mem_read(p, RAM0 + 64 * MiB - 64, before, 128), 0);
	CHECK_EQ(dmamap_device_write(dev, 0xc0000000ULL + 64 * MiB - 32, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_device_write(dev, 0x0fffffe0ULL, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_sim_mem_read(p, RAM0 + 64 * MiB - 64, after, 128), 0);
	CHECK_MEM(before, after, 128);
	CHECK_EQ(dmamap_device_stats(dev, &s), 0);
	CHECK_EQ(s.faults, 2);
	dmamap_platform_destroy(p);
}

/*
 * Two ranges that continue each other on both sides are one run: a buffer
 * across their seam maps direct, the device reaches all of it at the
 * handle, and the unmap finds the mapping again (the device used to fault
 * past the seam, so the unmap left the mapping live).
 */
TEST(window_buffer_across_continuing_ranges_is_one_run)
{
	static const struct dmamap_device_desc d = {
		.name = "seam",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 2,
		.ranges = {
			{ .cpu_start = RAM0, .dma_start = 0x10000000ULL, .size = 64 * MiB },
			{ .cpu_start = RAM0 + 64 * MiB, .dma_start = 0x10000000ULL + 64 * MiB,
			  .size = 64 * MiB },
		},
	};
	const struct dmamap_board b = {
		.name = "seam", .swiotlb_size = ~0ULL, .nr_banks = 1,
		.banks = { { RAM0, 128 * MiB } }, .nr_devices = 1, .devices = &d,
	};
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);
	struct device *dev = p ? dmamap_device_lookup(p, "seam") : NULL;
	uint8_t *buf, got[128], put[128];
	dma_addr_t h;

	REQUIRE(p && dev);
	dmamap_debug_enable(p, true);
	buf = at(p, RAM0 + 64 * MiB - 64);
	REQUIRE(buf);
	for (int k = 0; k < 128; k++) {
		buf[k] = (uint8_t)(k * 5);
		put[k] = (uint8_t)(k * 9 + 1);
	}
	h = dma_map_single(dev, buf, 128, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, 0x10000000ULL + 64 * MiB - 64);
	CHECK_EQ(dmamap_device_read(dev, h, got, 128), 0);
	CHECK_MEM(got, buf, 128);
	CHECK_EQ(dmamap_device_write(dev, h, put, 128), 0);
	dma_unmap_single(dev, h, 128, DMA_BIDIRECTIONAL);
	CHECK_MEM(buf, put, 128);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

/*
 * Ranges that continue each other on the bus but not in RAM: an access
 * across their seam is no run of RAM, and faults without moving a byte.
 */
TEST(window_access_across_a_bus_seam_with_a_gap_in_ram_faults)
{
	static const struct dmamap_device_desc d = {
		.name = "gap",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 2,
		.ranges = {
			{ .cpu_start = RAM0, .dma_start = 0x10000000ULL, .size = 32 * MiB },
			{ .cpu_start = RAM0 + 64 * MiB, .dma_start = 0x10000000ULL + 32 * MiB,
			  .size = 32 * MiB },
		},
	};
	const struct dmamap_board b = {
		.name = "gap", .swiotlb_size = ~0ULL, .nr_banks = 1,
		.banks = { { RAM0, 128 * MiB } }, .nr_devices = 1, .devices = &d,
	};
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);
	struct device *dev = p ? dmamap_device_lookup(p, "gap") : NULL;
	uint8_t junk[64], before[64], after[64];

	REQUIRE(p && dev);
	memset(junk, 0x5a, sizeof(junk));
	CHECK_EQ(dmamap_sim_mem_read(p, RAM0 + 32 * MiB - 32, before, 64), 0);
	CHECK_EQ(dmamap_device_write(dev, 0x10000000ULL + 32 * MiB - 32, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_device_read(dev, 0x10000000ULL + 32 * MiB - 32, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_sim_mem_read(p, RAM0 + 32 * MiB - 32, after, 64), 0);
	CHECK_MEM(before, after, 64);
	dmamap_platform_destroy(p);
}

TEST(window_coherent_alloc_comes_from_reachable_range)
{
	struct device *dev;
	struct dmamap_platform *p = two_range_board(&dev);
	dma_addr_t h;
	void *cpu;

	REQUIRE(p && dev);
	/* With a 29-bit coherent mask only the range at bus 0x10000000 fits. */
	REQUIRE(dma_set_coherent_mask(dev, DMA_BIT_MASK(29)) == 0);
	cpu = dma_alloc_coherent(dev, 3 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h >= 0x10000000ULL && h + 3 * PAGE_SIZE - 1 <= DMA_BIT_MASK(29));
	CHECK(dmamap_dma_to_phys(dev, h) >= RAM0 + 64 * MiB);
	dma_free_coherent(dev, 3 * PAGE_SIZE, cpu, h);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

TEST(window_bad_ranges_rejected_by_create)
{
	struct dmamap_device_desc d = {
		.name = "overlap",
		.nr_ranges = 2,
		.ranges = { { RAM0, 0x1000, MiB }, { RAM0 + MiB, 0x1000 + MiB / 2, MiB } },
	};
	struct dmamap_board b = { .name = "b", .nr_banks = 1,
				  .banks = { { RAM0, 16 * MiB } } };
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);

	REQUIRE(p);
	CHECK(dmamap_device_create(p, &d, &err) == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK(strstr(err.msg, "overlap") != NULL);
	d.nr_ranges = DMAMAP_MAX_RANGES + 1;
	CHECK(dmamap_device_create(p, &d, &err) == NULL);
	d.nr_ranges = 1;
	d.ranges[0].size = 0;
	CHECK(dmamap_device_create(p, &d, &err) == NULL);
	CHECK_EQ(dmamap_device_count(p), 0);
	dmamap_platform_destroy(p);
}

TEST(board_bad_descriptions_rejected)
{
	struct dmamap_board b = { .name = "bad", .nr_banks = 1,
				  .banks = { { RAM0, 16 * MiB } } };
	struct dmamap_error err = { 0 };
	const struct dmamap_device_desc unknown_model = { .name = "x", .model = "nonesuch" };

	b.cache_line_size = 48;
	CHECK(dmamap_platform_create(&b, &err) == NULL && err.code == -EINVAL);
	CHECK(strstr(err.msg, "cache line") != NULL);
	b.cache_line_size = 0;
	b.nr_banks = 2;
	b.banks[1] = (struct dmamap_ram_bank){ RAM0 + 8 * MiB, 16 * MiB };
	CHECK(dmamap_platform_create(&b, &err) == NULL && strstr(err.msg, "overlap"));
	b.banks[1] = (struct dmamap_ram_bank){ RAM0 + 32 * MiB + 100, MiB };
	CHECK(dmamap_platform_create(&b, &err) == NULL && err.code == -EINVAL);
	b.nr_banks = 0;
	CHECK(dmamap_platform_create(&b, &err) == NULL && err.code == -EINVAL);
	b.nr_banks = 1;
	b.nr_devices = 1;
	b.devices = &unknown_model;
	CHECK(dmamap_platform_create(&b, &err) == NULL && strstr(err.msg, "nonesuch"));
	CHECK(dmamap_platform_create(NULL, &err) == NULL);
	CHECK(dmamap_platform_builtin("nonesuch", &err) == NULL && err.code == -ENOENT);
	CHECK(dmamap_platform_builtin(NULL, NULL) == NULL);
	dmamap_platform_destroy(NULL);
}

/*
 * A coherent mask wider than the streaming one: coherent memory above the
 * streaming mask is the device's to read (found by the board fuzzer, where
 * the device faulted on the allocation it had just been given).
 */
TEST(window_device_reaches_coherent_memory_above_its_streaming_mask)
{
	static const struct dmamap_device_desc d = {
		.name = "wide-coherent",
		.dma_mask = DMA_BIT_MASK(31),
		.coherent_dma_mask = DMA_BIT_MASK(32),
	};
	const struct dmamap_board b = {
		.name = "wide", .swiotlb_size = ~0ULL, .nr_banks = 1,
		.banks = { { RAM0, 64 * MiB } }, .nr_devices = 1, .devices = &d,
	};
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);
	struct device *dev = p ? dmamap_device_lookup(p, "wide-coherent") : NULL;
	uint8_t seen[256], want[256];
	dma_addr_t h;
	uint8_t *cpu;

	REQUIRE(p && dev);
	cpu = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h > DMA_BIT_MASK(31)); /* all RAM is above 2 GiB */
	memset(cpu, 0x6b, 4096);
	memset(want, 0x6b, sizeof(want));
	CHECK_EQ(dmamap_device_read(dev, h + 4096 - 256, seen, sizeof(seen)), 0);
	CHECK_MEM(seen, want, sizeof(want));
	dma_free_coherent(dev, 4096, cpu, h);
	dmamap_platform_destroy(p);
}

/*
 * Behind an IOMMU every transfer goes through it: a description that also
 * asks for dmabounce or a restricted pool is refused, where its bounce
 * addresses used to fault at the IOMMU (found by the board fuzzer).
 */
TEST(window_iommu_excludes_dmabounce_and_a_restricted_pool)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_device_desc d = { .name = "both", .dma_mask = DMA_BIT_MASK(32),
					.iommu = "smmu0", .dmabounce_above = RAM0 + 16 * MiB };
	struct dmamap_error err = { 0 };

	REQUIRE(p);
	CHECK(dmamap_device_create(p, &d, &err) == NULL);
	CHECK_MSG(err.code == -EINVAL && strstr(err.msg, "dmabounce and an IOMMU"), "%s", err.msg);
	d.dmabounce_above = 0;
	d.restricted_pool_start = RAM0 + 32 * MiB;
	d.restricted_pool_size = 1 * MiB;
	CHECK(dmamap_device_create(p, &d, &err) == NULL);
	CHECK_MSG(err.code == -EINVAL && strstr(err.msg, "a restricted pool and an IOMMU"), "%s",
		  err.msg);
	CHECK(dmamap_device_lookup(p, "both") == NULL);
	dmamap_platform_destroy(p);
}
