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
