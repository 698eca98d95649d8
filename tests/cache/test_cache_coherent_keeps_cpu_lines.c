/* SPDX-License-Identifier: MIT */
/*
 * A coherent device snoops the CPU's cache: nothing is cleaned when it is
 * given a buffer, and nothing may be invalidated when it gives it back.
 * The CPU's writes, still dirty in its cache, survive a map and unmap in
 * every direction, whether the device read them (a snoop) or never
 * touched the buffer.
 */
#include "../helpers.h"

TEST(cache_coherent_unmap_keeps_dirty_cpu_lines)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, COH) : NULL;
	uint8_t want[512], seen[512];

	REQUIRE(dev);
	for (int d = 0; d < 6; d++) {
		bool device_reads = d < 3;
		uint8_t *buf = dbuf(p, sizeof(want));
		dma_addr_t h;

		REQUIRE(buf);
		pattern(want, sizeof(want), (unsigned int)d + 5);
		memcpy(buf, want, sizeof(want)); /* dirty in the CPU's cache, not yet in memory */
		h = dma_map_single(dev, buf, sizeof(want), dirs[d % 3]);
		REQUIRE(!dma_mapping_error(dev, h));
		if (device_reads) {
			CHECK_EQ(dmamap_device_read(dev, h, seen, sizeof(seen)), 0);
			CHECK_MEM(seen, want, sizeof(want));
		}
		dma_unmap_single(dev, h, sizeof(want), dirs[d % 3]);
		CHECK_MSG(!memcmp(buf, want, sizeof(want)), "%s, device %s: the CPU's own writes are gone",
			  dir_name(dirs[d % 3]), device_reads ? "read them" : "untouched");
		dmamap_kfree(p, buf);
	}
	dmamap_platform_destroy(p);
}
