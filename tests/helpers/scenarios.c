/* SPDX-License-Identifier: MIT */
/* Scenarios run on every bouncing device, and a board, a device and a buffer set up and torn down in one call. */
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

/* ---- scenarios ------------------------------------------------------------------- */

void on_dma24(unsigned int n, unsigned int order, bounce_scenario scenario)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, D24) : NULL;
	uint8_t *bufs[SCENARIO_BUFS_MAX];

	REQUIRE(dev && n <= SCENARIO_BUFS_MAX);
	for (unsigned int i = 0; i < n; i++) {
		struct page *pg = dmamap_alloc_pages(p, order, 0);

		REQUIRE(pg && page_to_phys(pg) >= WIN24_END);
		bufs[i] = page_address(pg);
	}
	scenario(p, dev, bufs);
	dmamap_platform_destroy(p);
}

void on_host_forced(unsigned int n, size_t len, bounce_scenario scenario)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *bufs[SCENARIO_BUFS_MAX];

	REQUIRE(p && n <= SCENARIO_BUFS_MAX);
	for (unsigned int i = 0; i < n; i++) {
		bufs[i] = host_pages(len);
		REQUIRE(bufs[i]);
	}
	scenario(p, dev, bufs);
	for (unsigned int i = 0; i < n; i++)
		free(bufs[i]);
	dmamap_platform_destroy(p);
}

dma_addr_t map_ok(struct device *dev, void *buf, size_t size,
		  enum dma_data_direction dir)
{
	dma_addr_t h = dma_map_single(dev, buf, size, dir);

	return dma_mapping_error(dev, h) ? DMA_MAPPING_ERROR : h;
}

dma_addr_t fill_map(struct device *dev, void *buf, const void *bytes, size_t len,
		    enum dma_data_direction dir)
{
	memcpy(buf, bytes, len);
	return map_ok(dev, buf, len, dir);
}

bool bidir_round_trip(struct device *dev, dma_addr_t h, uint8_t *buf,
		      const void *cpu_bytes, const void *dev_bytes, size_t len)
{
	size_t read_wrong = dev_diff(dev, h, cpu_bytes, len), cpu_wrong;
	int wr = dmamap_device_write(dev, h, dev_bytes, len);

	dma_unmap_single(dev, h, len, DMA_BIDIRECTIONAL);
	cpu_wrong = ndiff(buf, dev_bytes, len);
	if (read_wrong || wr || cpu_wrong)
		printf("#   %s, %zu bytes at 0x%llx: device read %zu wrong, write %d, CPU %zu wrong after unmap\n",
		       dev_name(dev), len, (unsigned long long)h, read_wrong, wr, cpu_wrong);
	return !read_wrong && !wr && !cpu_wrong;
}

void sg_fill(struct scatterlist *sgl, int n, uint8_t *const *cpu, uint8_t *const *a,
	     const size_t *len)
{
	sg_init_table(sgl, (unsigned int)n);
	for (int i = 0; i < n; i++) {
		memcpy(cpu[i], a[i], len[i]);
		sg_set_buf(&sgl[i], cpu[i], (unsigned int)len[i]);
	}
}

void sg_round_end(struct device *dev, struct scatterlist *sgl, int n, uint8_t *const *cpu,
		  uint8_t *const *a, uint8_t *const *b, const size_t *len,
		  enum dma_data_direction dir)
{
	if (dev_writes(dir)) {
		/* Every entry comes back at sync_for_cpu, bounced or not. */
		dma_sync_sg_for_cpu(dev, sgl, n, dir);
		for (int i = 0; i < n; i++)
			CHECK_MSG(ndiff(cpu[i], b[i], len[i]) == 0,
				  "%s entry %d: %zu bytes wrong after sync_sg_for_cpu",
				  dir_name(dir), i, ndiff(cpu[i], b[i], len[i]));
		dma_sync_sg_for_device(dev, sgl, n, dir);
	}
	dma_unmap_sg(dev, sgl, n, dir);
	for (int i = 0; i < n; i++)
		CHECK_MSG(ndiff(cpu[i], dev_writes(dir) ? b[i] : a[i], len[i]) == 0,
			  "%s entry %d: %zu bytes wrong after unmap", dir_name(dir), i,
			  ndiff(cpu[i], dev_writes(dir) ? b[i] : a[i], len[i]));
}

void mcdma_copy_ok(struct dmamap_platform *p, const char *dname, size_t len,
		   unsigned int seed)
{
	struct device *dev = dmamap_device_lookup(p, dname);
	uint8_t *src = dbuf(p, len), *dst = dbuf(p, len);
	uint8_t *fill = malloc(len), *seen = malloc(len);
	struct mcdma m;

	REQUIRE(dev && src && dst && fill && seen);
	REQUIRE(mcdma_probe(&m, dev, 16) == 0);
	pattern(fill, len, seed);
	CHECK_EQ(mcdma_copy_buf(&m, dst, src, len, fill, seen, MCDMA_BUG_NONE), 0);
	CHECK_MSG(!memcmp(seen, fill, len), "%s len %zu: %zu bytes wrong", dname,
		  len, ndiff(seen, fill, len));
	CHECK(!memcmp(dst, fill, len));
	CHECK(mem_is(p, dst, fill, len));
	mcdma_remove(&m);
	free(fill);
	free(seen);
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
}

void fault_fn(void *ctx, struct device *dev, dma_addr_t iova, bool write,
	      const char *reason)
{
	struct fault_log *f = ctx;

	f->calls++;
	f->iova = iova;
	f->write = write;
	f->dev = dev;
	snprintf(f->reason, sizeof(f->reason), "%s", reason ? reason : "");
}

/* ---- a board, a device and a buffer ------------------------------------------------- */

bool scene_on(struct scene *s, struct dmamap_platform *p, const char *name,
	      scene_buf_fn *buf_fn, size_t buflen)
{
	memset(s, 0, sizeof(*s));
	s->h = DMA_MAPPING_ERROR;
	s->p = p;
	if (!p)
		return false;
	s->dev = lookup(p, name);
	if (buflen) {
		s->buf = buf_fn(p, buflen);
		if (!s->buf)
			printf("#   no buffer of %zu bytes where the test wants it\n", buflen);
	}
	return s->dev && (s->buf || !buflen);
}

bool checked_scene(struct scene *s, const char *name, size_t buflen)
{
	return scene_on(s, sim_board("default"), name, dbuf, buflen);
}

bool quiet_scene(struct scene *s, const char *name, scene_buf_fn *buf_fn, size_t buflen)
{
	return scene_on(s, quiet_board(), name, buf_fn, buflen);
}

bool scene_map(struct scene *s, size_t len, enum dma_data_direction dir)
{
	s->h = map_ok(s->dev, s->buf, len, dir);
	if (s->h == DMA_MAPPING_ERROR)
		printf("#   %s: mapping %zu bytes %s failed\n", dev_name(s->dev), len,
		       dir_name(dir));
	return s->h != DMA_MAPPING_ERROR;
}

void scene_end(struct scene *s)
{
	if (s->buf)
		dmamap_kfree(s->p, s->buf);
	dmamap_platform_destroy(s->p);
}

void scene_end_clean(struct scene *s)
{
	if (s->buf)
		dmamap_kfree(s->p, s->buf);
	DESTROY_CLEAN(s->p);
}
