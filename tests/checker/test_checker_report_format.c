/* SPDX-License-Identifier: MIT */
/*
 * What a report says: where the driver mapped the buffer (its call site,
 * not a library frame), its JSON form (valid, escaped, truncated safely),
 * and the kinds' names.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

static __attribute__((noinline)) dma_addr_t map_here(struct device *dev, void *buf,
						     size_t size,
						     enum dma_data_direction dir)
{
	dma_addr_t h = dma_map_single(dev, buf, size, dir);

	__asm__ volatile("" ::: "memory"); /* no tail call: the call stays in here */
	return h;
}

TEST(checker_mapped_at)
{
	const char *fn = (const char *)(uintptr_t)map_here;
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256));
	s.h = map_here(s.dev, s.buf, 256, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(s.dev, s.h));
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_DIRECTION);
	/* The driver's call site, not a frame inside the library. */
	CHECK_MSG((const char *)rec.r[0].mapped_at > fn &&
			  (const char *)rec.r[0].mapped_at < fn + 1024,
		  "mapped_at %p is not inside map_here() at %p", rec.r[0].mapped_at,
		  (const void *)fn);
	CHECK_EQ(rec.r[0].direction, DMA_BIDIRECTIONAL);
	scene_end_clean(&s);
}

TEST(checker_report_json)
{
	char json[2048], small[16], want[128];
	struct scene s;
	int n;

	REQUIRE(checked_scene(&s, NC, 256) && scene_map(&s, 256, DMA_TO_DEVICE));
	dma_unmap_single(s.dev, s.h, 128, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_SIZE);
	REQUIRE(rec.n == 1);

	n = dmamap_report_json(&rec.r[0], json, sizeof(json));
	REQUIRE(n > 0);
	CHECK_EQ((size_t)n, strlen(json));
	CHECK_MSG(json_valid_object(json), "not a JSON object: %s", json);
	snprintf(want, sizeof(want), "\"kind\":\"%s\"", kname(DMAMAP_DBG_WRONG_SIZE));
	CHECK_MSG(strstr(json, want) != NULL, "no %s in %s", want, json);
	CHECK_MSG(strstr(json, "\"device\":\"dma-nc\"") != NULL, "no device in %s", json);
	CHECK_MSG(strstr(json, "wrong-size") != NULL, "kind name: %s", json);

	/* Too small: -ENOSPC, and a NUL-terminated prefix. */
	memset(small, 'x', sizeof(small));
	CHECK_EQ(dmamap_report_json(&rec.r[0], small, sizeof(small)), -ENOSPC);
	CHECK_EQ(strlen(small), sizeof(small) - 1);
	CHECK(!strncmp(small, json, sizeof(small) - 1));
	CHECK_EQ(dmamap_report_json(&rec.r[0], json, (size_t)n), -ENOSPC);
	CHECK_EQ(dmamap_report_json(&rec.r[0], json, (size_t)n + 1), n);
	CHECK_EQ(dmamap_report_json(NULL, json, sizeof(json)), -EINVAL);
	CHECK_EQ(dmamap_report_json(&rec.r[0], NULL, 100), -EINVAL);
	scene_end_clean(&s);
}

TEST(checker_report_json_escapes)
{
	struct dmamap_platform *p = host_board();
	struct dmamap_report r;
	char json[2048];
	struct device *dev;
	uint8_t *buf;

	REQUIRE(p);
	dev = host_device(p, "q\"dev\\x", NULL);
	buf = malloc(256);
	REQUIRE(dev && buf);
	dma_unmap_single(dev, (dma_addr_t)(uintptr_t)buf, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	REQUIRE(rec.n == 1);
	CHECK(!strcmp(rec.r[0].device, "q\"dev\\x"));
	REQUIRE(dmamap_report_json(&rec.r[0], json, sizeof(json)) > 0);
	CHECK_MSG(json_valid_object(json), "not a JSON object: %s", json);
	CHECK_MSG(strstr(json, "\"q\\\"dev\\\\x\"") != NULL, "device not escaped: %s", json);

	/* A hand-made report with control characters and quotes in its text. */
	memset(&r, 0, sizeof(r));
	r.kind = DMAMAP_DBG_LEAK;
	snprintf(r.device, sizeof(r.device), "tab\there");
	snprintf(r.text, sizeof(r.text), "line\nbreak \"quoted\" \\ \x01 end");
	r.direction = DMA_NONE;
	REQUIRE(dmamap_report_json(&r, json, sizeof(json)) > 0);
	CHECK_MSG(json_valid_object(json), "not a JSON object: %s", json);
	free(buf);
	DESTROY_CLEAN(p);
}

TEST(checker_kind_names)
{
	for (int a = 1; a < DMAMAP_DBG_KIND_COUNT; a++) {
		const char *na = dmamap_dbg_kind_name((enum dmamap_dbg_kind)a);

		CHECK_MSG(na && *na && strcmp(na, "unknown") && strcmp(na, "none"),
			  "kind %d has no name", a);
		if (!na)
			continue;
		for (const char *c = na; *c; c++)
			CHECK_MSG((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-',
				  "kind %d name '%s' is not lower-case-with-dashes", a, na);
		for (int b = 1; b < a; b++) {
			const char *nb = dmamap_dbg_kind_name((enum dmamap_dbg_kind)b);

			CHECK_MSG(!nb || strcmp(na, nb), "kinds %d and %d share the name '%s'",
				  a, b, na);
		}
	}
	CHECK(!strcmp(kname(DMAMAP_DBG_WRONG_SIZE), "wrong-size"));
	CHECK(!strcmp(dmamap_dbg_kind_name(DMAMAP_DBG_KIND_COUNT), "unknown"));
}
