/* SPDX-License-Identifier: MIT */
/*
 * Coherent memory on the VFIO platform, against the fake kernel: it comes
 * from the arena registered at creation (already in the IOMMU: no system
 * call), the device and the CPU see each other's bytes, dma_mmap_coherent()
 * shows the same bytes to user space, a wrong free is reported; masks.
 *
 * Some tests started as vfio_bug_* and keep a note of the bug they caught.
 */
#include <sys/mman.h>
#include "../helpers.h"
#include "fake_kernel.h"

#define ARENA (2ULL << 20)

static u64 coherent_mask(struct device *dev)
{
	struct dmamap_device_info info;

	return dmamap_device_info(dev, &info) ? 0 : info.coherent_dma_mask;
}

/* The arena's mapping in the fake IOMMU: its IOVA, address and size. */
static bool arena_of(uint64_t *iova, uint64_t *va, uint64_t *size)
{
	return fake_vfio_nr_mappings() == 1 && fake_vfio_mapping_nth(0, iova, va, size);
}

TEST(vfio_coherent_alloc_is_arena_memory_in_the_iommu)
{
	const size_t len = 3 * PAGE_SIZE + 5;
	uint64_t aiova, ava, asize;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *cpu, *want = malloc(len), *seen = malloc(len);
	dma_addr_t h;
	unsigned long maps0;

	REQUIRE(want && seen);
	p = fake_platform(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	REQUIRE(arena_of(&aiova, &ava, &asize));
	CHECK_EQ(asize, ARENA);
	maps0 = fake_counts.ioctl[FAKE_MAP_DMA];
	cpu = dma_alloc_coherent(dev, len, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], maps0);
	/* Inside the arena's IOVAs, translating to the CPU address given. */
	CHECK(h >= aiova && h + len <= aiova + asize);
	CHECK_EQ(ava + (h - aiova), (uintptr_t)cpu);
	CHECK_EQ(h & (PAGE_SIZE - 1), 0);
	/* Zeroed, as dma_alloc_coherent() promises. */
	CHECK(all_bytes(cpu, len, 0));
	/* The device writes, the CPU sees; the CPU writes, the device reads. */
	pat(want, len, 1);
	CHECK_EQ(fake_dma(h, want, len, true), 0);
	CHECK_MEM(cpu, want, len);
	pat(cpu, len, 2);
	CHECK_EQ(fake_dma(h, seen, len, false), 0);
	CHECK_MEM(seen, cpu, len);
	dma_free_coherent(dev, len, cpu, h);
	CHECK_EQ(stats_of(dev).allocs, 1);
	CHECK_EQ(stats_of(dev).frees, 1);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], maps0);
	CHECK_EQ(fake_counts.ioctl[FAKE_UNMAP_DMA], 0);
	EXPECT_NO_REPORTS();
	/* Freed pages come back: as many 64 KiB allocations fit twice, all in the arena. */
	{
		enum { MAXN = ARENA / (64 * KiB) };
		void *c[MAXN];
		dma_addr_t hh[MAXN];
		unsigned int n[2] = { 0, 0 };

		stop_checking(p);
		for (int round = 0; round < 2; round++) {
			while (n[round] < MAXN &&
			       (c[n[round]] = dma_alloc_coherent(dev, 64 * KiB, &hh[n[round]],
								 GFP_KERNEL))) {
				CHECK(hh[n[round]] >= aiova &&
				      hh[n[round]] + 64 * KiB <= aiova + asize);
				n[round]++;
			}
			for (unsigned int i = 0; i < n[round]; i++)
				dma_free_coherent(dev, 64 * KiB, c[i], hh[i]);
		}
		CHECK(n[0] >= MAXN / 2);
		CHECK_EQ(n[0], n[1]);
		CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], maps0);
	}
	fake_platform_end(p);
	free(want);
	free(seen);
}

/* Non-coherent allocations and the no-kernel-mapping cookie come from the same arena. */
TEST(vfio_coherent_noncoherent_and_cookie_allocations)
{
	uint64_t aiova, ava, asize;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t buf[64], *cpu;
	void *cookie;
	dma_addr_t h, hc;

	p = fake_platform(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	REQUIRE(arena_of(&aiova, &ava, &asize));
	cpu = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_FROM_DEVICE, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h >= aiova && h + PAGE_SIZE <= aiova + asize);
	CHECK_EQ(ava + (h - aiova), (uintptr_t)cpu);
	pat(buf, sizeof(buf), 3);
	CHECK_EQ(fake_dma(h + 100, buf, sizeof(buf), true), 0);
	dma_sync_single_for_cpu(dev, h, PAGE_SIZE, DMA_FROM_DEVICE);
	CHECK_MEM(cpu + 100, buf, sizeof(buf));
	dma_free_noncoherent(dev, PAGE_SIZE, cpu, h, DMA_FROM_DEVICE);

	cookie = dma_alloc_attrs(dev, 2 * PAGE_SIZE, &hc, GFP_KERNEL, DMA_ATTR_NO_KERNEL_MAPPING);
	REQUIRE(cookie);
	CHECK(hc >= aiova && hc + 2 * PAGE_SIZE <= aiova + asize);
	dma_free_attrs(dev, 2 * PAGE_SIZE, cookie, hc, DMA_ATTR_NO_KERNEL_MAPPING);
	EXPECT_NO_REPORTS();
	CHECK_EQ(stats_of(dev).allocs, 2);
	CHECK_EQ(stats_of(dev).frees, 2);
	fake_platform_end(p);
}

/* dma_mmap_coherent(): user space sees the same bytes as the CPU address and the device. */
TEST(vfio_coherent_mmap_and_sgtable_show_the_same_bytes)
{
	const size_t pg = host_page(), len = 2 * pg;
	struct vm_area_struct vma = { 0, len, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	struct vm_area_struct vma1 = { 0, pg, pg / PAGE_SIZE, DMAMAP_PROT_READ };
	uint8_t *want = malloc(len), *seen = malloc(len), *um, *cpu;
	struct sg_table sgt = { 0 };
	struct dmamap_platform *p;
	struct device *dev;
	dma_addr_t h;
	int ret;

	REQUIRE(want && seen);
	p = fake_platform(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	cpu = dma_alloc_coherent(dev, len, &h, GFP_KERNEL);
	REQUIRE(cpu);
	ret = dma_mmap_coherent(dev, &vma, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		um = (uint8_t *)vma.vm_start;
		CHECK(um != cpu);
		CHECK_EQ(vma.vm_end - vma.vm_start, len);
		/* Written through the user mapping: the CPU address and the device see it. */
		pat(want, len, 7);
		memcpy(um, want, len);
		CHECK_MEM(cpu, want, len);
		CHECK_EQ(fake_dma(h, seen, len, false), 0);
		CHECK_MEM(seen, want, len);
		/* Written by the device: seen through the user mapping. */
		pat(want, len, 8);
		CHECK_EQ(fake_dma(h, want, len, true), 0);
		CHECK_MEM(um, want, len);
		CHECK_EQ(dmamap_munmap(&vma), 0);
	}
	/* vm_pgoff picks the second page. */
	ret = dma_mmap_coherent(dev, &vma1, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		CHECK_MEM((uint8_t *)vma1.vm_start, want + pg, pg);
		CHECK_EQ(dmamap_munmap(&vma1), 0);
	}
	ret = dma_get_sgtable(dev, &sgt, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		CHECK(sgt.orig_nents >= 1);
		CHECK_EQ((uintptr_t)sg_virt(sgt.sgl), (uintptr_t)cpu);
		sg_free_table(&sgt);
	}
	dma_free_coherent(dev, len, cpu, h);
	EXPECT_NO_REPORTS();
	/* A handle that is no coherent allocation of the arena: nothing to map. */
	{
		struct vm_area_struct v2 = { 0, pg, 0, DMAMAP_PROT_READ };
		uint8_t *heap = malloc(pg);
		dma_addr_t hs;

		REQUIRE(heap);
		stop_checking(p);
		hs = dma_map_single(dev, heap, pg, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, hs));
		CHECK(dma_mmap_coherent(dev, &v2, heap, hs, pg) != 0);
		dma_unmap_single(dev, hs, pg, DMA_TO_DEVICE);
		free(heap);
	}
	fake_platform_end(p);
	free(want);
	free(seen);
}

/*
 * A free with another CPU address: reported (the checker's, then the
 * backend's) and nothing freed. Then, the checker off (whether it kept its
 * entry is not specified), the backend alone: the right free works, a
 * second one and a handle outside the arena are refused, reported.
 */
TEST(vfio_coherent_wrong_free_is_reported)
{
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *cpu, *cpu2, *mem;
	dma_addr_t h, h2, hs;

	p = fake_platform(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_coherent(dev, PAGE_SIZE, cpu + 64, h);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_CPU_ADDR, DMAMAP_DBG_FREE_INVALID);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_EQ(stats_of(dev).errors_by_kind[DMAMAP_ERRK_BAD_HANDLE], 1);
	/* The allocation was not freed: a new one does not get its pages. */
	cpu2 = dma_alloc_coherent(dev, PAGE_SIZE, &h2, GFP_KERNEL);
	REQUIRE(cpu2);
	CHECK(cpu2 != cpu);
	CHECK(h2 != h);
	dma_free_coherent(dev, PAGE_SIZE, cpu2, h2);

	stop_checking(p);
	cur_p = NULL;
	dmamap_set_report_hook(p, rec_hook, NULL);
	rec.n = 0;
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	CHECK_MSG(rec.n == 0, "the right free: %u reports", rec.n);
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	CHECK_MSG(rec.n == 1 && rec.r[0].kind == DMAMAP_DBG_FREE_INVALID, "a second free: %u reports",
		  rec.n);
	CHECK_EQ(stats_of(dev).errors_by_kind[DMAMAP_ERRK_BAD_HANDLE], 2);

	/* A handle outside the arena (a registered range's): no coherent allocation. */
	mem = mmap(NULL, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(mem != MAP_FAILED);
	REQUIRE(dmamap_vfio_register(p, mem, 4 * PAGE_SIZE) == 0);
	hs = dma_map_single(dev, mem, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, hs));
	rec.n = 0;
	dma_free_coherent(dev, PAGE_SIZE, mem, hs);
	CHECK_MSG(rec.n == 1 && rec.r[0].kind == DMAMAP_DBG_FREE_INVALID, "%u reports", rec.n);
	dma_unmap_single(dev, hs, PAGE_SIZE, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_vfio_unregister(p, mem), 0);
	/* Its pages were not handed to the page allocator: the next allocation is in the arena. */
	cpu2 = dma_alloc_coherent(dev, PAGE_SIZE, &h2, GFP_KERNEL);
	REQUIRE(cpu2);
	CHECK(cpu2 != mem);
	dma_free_coherent(dev, PAGE_SIZE, cpu2, h2);
	fake_platform_end(p);
	munmap(mem, 4 * PAGE_SIZE);
}

/* Masks: 32 bits reaches the whole space; 24 bits is refused and leaves the mask alone. */
TEST(vfio_coherent_masks)
{
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *heap = malloc(5000), *cpu;
	dma_addr_t h;

	REQUIRE(heap);
	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dma_get_required_mask(dev), DMA_BIT_MASK(32));
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32)), 0);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(32));
	cpu = dma_alloc_coherent(dev, 3 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h + 3 * PAGE_SIZE - 1 <= DMA_BIT_MASK(32));
	dma_free_coherent(dev, 3 * PAGE_SIZE, cpu, h);
	h = dma_map_single(dev, heap, 5000, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(h + 5000 - 1 <= DMA_BIT_MASK(32));
	dma_unmap_single(dev, h, 5000, DMA_BIDIRECTIONAL);

	CHECK_EQ(dma_supported(dev, DMA_BIT_MASK(24)), 0);
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(24)), -EIO);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(32));
	CHECK_EQ(coherent_mask(dev), DMA_BIT_MASK(32));
	CHECK_EQ(stats_of(dev).errors_by_kind[DMAMAP_ERRK_BAD_MASK], 1);
	CHECK_EQ(dma_set_coherent_mask(dev, DMA_BIT_MASK(24)), -EIO);
	CHECK_EQ(coherent_mask(dev), DMA_BIT_MASK(32));
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
	CHECK_EQ(vstats(dev).map_failures, 0);
	fake_platform_end(p);
	free(heap);
}

/*
 * A mask must reach the whole IOVA space (docs/vfio.md: IOVAs are not
 * allocated under a mask): narrower ones are refused with -EIO, the masks
 * kept. Where the space ends lower, a narrower mask that still covers it
 * is taken, and allocations and maps lie under it. (Were bugs: any mask
 * of 17 MiB or more was accepted, and then maps failed at random, the
 * IOVA allocator handing out blocks from the top of the space, and a
 * 32 MiB arena lay above an accepted 25-bit mask.)
 */
TEST(vfio_coherent_masks_must_cover_the_space)
{
	struct fake_vfio_cfg low = { .nr_ranges = 1, .ranges = { { 0, 0x7fffffff } } };
	static const unsigned int refused[] = { 31, 30, 28, 25, 24 };
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *heap = malloc(3 << 20), *cpu;
	dma_addr_t h;

	REQUIRE(heap);
	p = fake_platform(NULL, 32ULL << 20, false, &dev);
	REQUIRE(p && dev);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		CHECK_MSG(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(refused[i])) == -EIO,
			  "a %u-bit mask taken on a space up to 0x%llx", refused[i],
			  (unsigned long long)vstats(dev).iova_end);
		CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(64));
		CHECK_EQ(coherent_mask(dev), DMA_BIT_MASK(64));
	}
	fake_platform_end(p);

	/* A space ending at 2 GiB: 31 bits reach it. */
	p = fake_platform(&low, 32ULL << 20, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(vstats(dev).iova_end, 0x80000000);
	CHECK_EQ(dma_get_required_mask(dev), DMA_BIT_MASK(31));
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(30)), -EIO);
	REQUIRE(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(31)) == 0);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	CHECK(cpu != NULL);
	if (cpu) {
		CHECK(h + PAGE_SIZE - 1 <= DMA_BIT_MASK(31));
		dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	}
	h = dma_map_single(dev, heap, 3 << 20, DMA_TO_DEVICE);
	CHECK(!dma_mapping_error(dev, h));
	if (!dma_mapping_error(dev, h)) {
		CHECK(h + (3 << 20) - 1 <= DMA_BIT_MASK(31));
		dma_unmap_single(dev, h, 3 << 20, DMA_TO_DEVICE);
	}
	CHECK_EQ(vstats(dev).map_failures, 0);
	fake_platform_end(p);
	free(heap);
}

/*
 * A coherent allocation is not a streaming map: dmamap_vfio_stats()
 * counts none, fast or failed. (Was a bug: vfio_alloc() found its handle
 * with the streaming map's lookup, which counted a fast map.)
 */
TEST(vfio_coherent_alloc_is_not_a_streaming_map)
{
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	dma_addr_t h;
	void *cpu;

	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	/* Too big for the arena: no allocation, and no map failure either. */
	CHECK(dma_alloc_coherent(dev, 2 * ARENA, &h, GFP_KERNEL) == NULL);
	st = vstats(dev);
	CHECK_EQ(st.fast_maps, 0);
	CHECK_EQ(st.slow_maps, 0);
	CHECK_EQ(st.map_failures, 0);
	fake_platform_end(p);
}
