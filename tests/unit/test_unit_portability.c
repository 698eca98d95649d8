/* SPDX-License-Identifier: MIT */
/*
 * What a 32-bit or strict-alignment host needs of the build: the embedded
 * board blobs at the 8-byte alignment libfdt reads them at (a byte array
 * landed 4-aligned on armhf, and every built-in board was "corrupt"), and
 * 64-bit file offsets (simulated RAM is one memfd, larger than 2 GiB on
 * the big boards, mapped bank by bank at offsets past 2 GiB).
 */
#include <sys/types.h>
#include "../../src/of/of.h"
#include "../helpers.h"

/* Weak: a build without libfdt embeds no boards. */
extern const struct dmamap__dt_board dmamap__dt_boards[] __attribute__((weak));

TEST(portability_embedded_blobs_are_8_byte_aligned)
{
	unsigned int n = 0;

	if (!dmamap__dt_boards)
		SKIP("built without libfdt: no embedded boards");
	for (const struct dmamap__dt_board *b = dmamap__dt_boards; b->name; b++, n++)
		CHECK_MSG(((uintptr_t)b->dtb & 7) == 0, "%s at %p", b->name, (const void *)b->dtb);
	CHECK(n >= 5);
}

TEST(portability_file_offsets_are_64_bits)
{
	CHECK_EQ(sizeof(off_t), 8);
}

/* On the host, DMA alignment is the architecture's ARCH_DMA_MINALIGN: what kmalloc's DMA-safe memory keeps. */
TEST(portability_host_dma_alignment_is_the_architectures)
{
#if defined(__aarch64__)
	const unsigned int want = 128;
#else
	const unsigned int want = 64;
#endif
	struct dmamap_platform *p = host_platform();
	uint8_t *a, *b;

	REQUIRE(p);
	CHECK_EQ(dmamap_cache_line_size(p), want);
	a = dmamap_kmalloc(p, 1, DMAMAP_GFP_DMA_ALIGN);
	b = dmamap_kmalloc(p, 1, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(a && b);
	CHECK(((uintptr_t)a % want) == 0 && ((uintptr_t)b % want) == 0);
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	dmamap_platform_destroy(p);
}

/* A 64-bit address masked to its page keeps its upper half, whatever the width of unsigned long. */
TEST(portability_page_mask_keeps_64_bit_addresses)
{
	phys_addr_t phys = 0x880001234ULL;
	dma_addr_t dma = 0xfedcba9876543abcULL;

	CHECK_EQ(phys & PAGE_MASK, 0x880001000ULL);
	CHECK_EQ(dma & PAGE_MASK, 0xfedcba9876543000ULL);
	CHECK_EQ(PAGE_ALIGN(phys), 0x880002000ULL);
	/* And a pointer-sized value stays pointer-sized. */
	CHECK_EQ((uintptr_t)0x12345 & PAGE_MASK, (uintptr_t)0x12000);
}
