/* SPDX-License-Identifier: MIT */
/*
 * The slow path's mappings (memory nobody registered): the IOMMU gives
 * the device only the access the direction allows, so read-only memory
 * maps for the device to read; and an unmap undoes exactly the mapping it
 * names, never a neighbour's (the kernel would unmap a whole neighbouring
 * range that a larger size reached).
 */
#include <sys/mman.h>
#include "../helpers.h"
#include "fake_kernel.h"

static uint8_t *rw_pages(size_t len)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

/* TO_DEVICE: the device reads, cannot write; FROM_DEVICE: the reverse; BIDIRECTIONAL: both. */
TEST(vfio_slow_map_gives_the_device_only_what_the_direction_allows)
{
	static const struct {
		enum dma_data_direction dir;
		const char *name;
		bool reads, writes;
	} cases[] = {
		{ DMA_TO_DEVICE, "TO_DEVICE", true, false },
		{ DMA_FROM_DEVICE, "FROM_DEVICE", false, true },
		{ DMA_BIDIRECTIONAL, "BIDIRECTIONAL", true, true },
	};
	uint8_t *mem = rw_pages(4096), buf[64];
	struct device *dev;
	struct dmamap_platform *p = fake_platform(NULL, 0, false, &dev);

	REQUIRE(p && mem);
	for (unsigned int i = 0; i < 3; i++) {
		dma_addr_t h = dma_map_single(dev, mem + 64, 64, cases[i].dir);

		REQUIRE(!dma_mapping_error(dev, h));
		CHECK_MSG((fake_dma(h, buf, 64, false) == 0) == cases[i].reads,
			  "%s: the device %s read", cases[i].name,
			  cases[i].reads ? "could not" : "could");
		CHECK_MSG((fake_dma(h, buf, 64, true) == 0) == cases[i].writes,
			  "%s: the device %s write", cases[i].name,
			  cases[i].writes ? "could not" : "could");
		dma_unmap_single(dev, h, 64, cases[i].dir);
	}
	fake_platform_end(p);
	munmap(mem, 4096);
}

/* Read-only memory (here, made so with mprotect) maps for the device to read: the pin asks no write. */
TEST(vfio_slow_map_of_read_only_memory_for_the_device)
{
	uint8_t *mem = rw_pages(4096), seen[16];
	struct device *dev;
	struct dmamap_platform *p = fake_platform(NULL, 0, false, &dev);
	dma_addr_t h;

	REQUIRE(p && mem);
	memcpy(mem, "read-only bytes", 16);
	REQUIRE(mprotect(mem, 4096, PROT_READ) == 0);
	h = dma_map_single(dev, mem, 16, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(fake_dma(h, seen, 16, false) == 0 && !memcmp(seen, "read-only bytes", 16));
	CHECK(fake_dma(h, seen, 16, true) != 0);
	dma_unmap_single(dev, h, 16, DMA_TO_DEVICE);
	CHECK_EQ(fake_vfio_nr_mappings(), 1); /* the arena alone */
	fake_platform_end(p);
	munmap(mem, 4096);
}

/*
 * Two neighbouring slow mappings; the first unmapped with a size that
 * reaches into the second: refused and reported, the second untouched,
 * and both then unmap with their own sizes.
 */
TEST(vfio_slow_unmap_of_another_size_leaves_the_neighbour_mapped)
{
	uint8_t *a = rw_pages(4096), *b = rw_pages(4096), buf[8];
	struct device *dev;
	struct dmamap_platform *p = fake_platform(NULL, 0, false, &dev);
	unsigned long unmaps0;
	unsigned int n0;
	dma_addr_t ha, hb;

	REQUIRE(p && a && b);
	ha = dma_map_single(dev, a, 4096, DMA_TO_DEVICE);
	hb = dma_map_single(dev, b, 4096, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, ha) && !dma_mapping_error(dev, hb));
	n0 = reps.n;
	unmaps0 = fake_counts.ioctl[FAKE_UNMAP_DMA];
	dma_unmap_single(dev, ha, 8192, DMA_TO_DEVICE);
	CHECK_EQ(fake_counts.ioctl[FAKE_UNMAP_DMA], unmaps0);
	CHECK_MSG(reps.n == n0 + 1 && strstr(reps.last.text, "another size"), "%u reports: %s", reps.n,
		  reps.n ? reps.last.text : "");
	CHECK(fake_dma(ha, buf, 8, false) == 0);
	CHECK(fake_dma(hb, buf, 8, false) == 0);
	CHECK_EQ(vstats(dev).slow_bytes_live, 8192);
	dma_unmap_single(dev, ha, 4096, DMA_TO_DEVICE);
	CHECK(fake_dma(ha, buf, 8, false) != 0);
	CHECK(fake_dma(hb, buf, 8, false) == 0);
	dma_unmap_single(dev, hb, 4096, DMA_TO_DEVICE);
	CHECK_EQ(vstats(dev).slow_bytes_live, 0);
	CHECK_EQ(fake_vfio_nr_mappings(), 1);
	fake_platform_end(p);
	munmap(a, 4096);
	munmap(b, 4096);
}

/* An unmap of a handle the slow path does not hold: reported, and the kernel is not asked. */
TEST(vfio_slow_unmap_twice_is_reported_without_a_kernel_call)
{
	uint8_t *a = rw_pages(4096);
	struct device *dev;
	struct dmamap_platform *p = fake_platform(NULL, 0, false, &dev);
	unsigned long unmaps0;
	unsigned int n0;
	dma_addr_t h;

	REQUIRE(p && a);
	h = dma_map_single(dev, a, 512, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, 512, DMA_FROM_DEVICE);
	n0 = reps.n;
	unmaps0 = fake_counts.ioctl[FAKE_UNMAP_DMA];
	dma_unmap_single(dev, h, 512, DMA_FROM_DEVICE);
	CHECK_EQ(fake_counts.ioctl[FAKE_UNMAP_DMA], unmaps0);
	CHECK_MSG(reps.n == n0 + 1 && strstr(reps.last.text, "not mapped"), "%u reports: %s", reps.n,
		  reps.n ? reps.last.text : "");
	CHECK_EQ(vstats(dev).slow_unmaps, 1);
	fake_platform_end(p);
	munmap(a, 4096);
}
