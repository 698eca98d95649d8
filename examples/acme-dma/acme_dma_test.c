// SPDX-License-Identifier: MIT
/*
 * Tests of the ACME driver, run by `dmamap run` after probe on every
 * device it binds, seed after seed. Every byte that comes back is checked.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/run.h>
#include "acme_dma.h"

/* Buffers from the board's kmalloc: the linear map, where DMA buffers live. */
static void *buffer(struct platform_device *pdev, size_t len)
{
	void *p = dmamap_kmalloc(dmamap_device_platform(&pdev->dev), len, DMAMAP_GFP_DMA_ALIGN);

	DMAMAP_ASSERT_NOT_NULL(p);
	return p;
}

static void release(struct platform_device *pdev, void *p)
{
	dmamap_kfree(dmamap_device_platform(&pdev->dev), p);
}

/* Random bytes of the run's seed: a failure replays with the same data. */
static void fill(unsigned char *p, size_t len, unsigned int salt)
{
	uint64_t x = dmamap_test_seed() * 0x9e3779b97f4a7c15ULL + salt;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)x;
	}
}

static void copy_checked(struct platform_device *pdev, size_t len, unsigned int salt)
{
	struct acme_dma *a = platform_get_drvdata(pdev);
	unsigned char *src = buffer(pdev, len), *dst = buffer(pdev, len);

	fill(src, len, salt);
	memset(dst, 0x5a, len);
	DMAMAP_ASSERT_OK(acme_copy(a, dst, src, len));
	DMAMAP_ASSERT_MEMEQ(dst, src, len);
	release(pdev, src);
	release(pdev, dst);
}

DMAMAP_TEST(copies_of_every_size)
{
	static const size_t sizes[] = { 300, 4096, 5000, 65536 };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		copy_checked(pdev, sizes[i], i);
}

DMAMAP_TEST(small_copies_reuse_the_bounce_buffers)
{
	for (unsigned int i = 0; i < 8; i++)
		copy_checked(pdev, 16 + 30 * i, 100 + i);
}

/* A mapping that fails must fail the copy, and the next copy must work. */
DMAMAP_TEST(copy_survives_a_failed_mapping)
{
	struct acme_dma *a = platform_get_drvdata(pdev);
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	unsigned char *src = buffer(pdev, 8192), *dst = buffer(pdev, 8192);

	fill(src, 8192, 7);
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 2);
	DMAMAP_EXPECT_EQ(acme_copy(a, dst, src, 8192), -ENOMEM);
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 0);
	DMAMAP_ASSERT_OK(acme_copy(a, dst, src, 8192));
	DMAMAP_ASSERT_MEMEQ(dst, src, 8192);
	release(pdev, src);
	release(pdev, dst);
}
