/* SPDX-License-Identifier: MIT */
/*
 * A walk of a blob's structure block that cannot run away: every step
 * moves forward inside the block, so it ends within size / 4 steps.
 * libfdt 1.6's fdt_check_full() loops forever on a property whose length
 * wraps its offset arithmetic (0xfffffff4, say), so nothing of libfdt
 * walks a blob before this has.
 */
#include <libfdt.h>
#include "of.h"

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool dmamap__fdt_walk_ok(const void *fdt, size_t size)
{
	const uint8_t *b = fdt;
	uint64_t total = fdt_totalsize(fdt), pos = fdt_off_dt_struct(fdt), end;
	uint64_t strings = fdt_off_dt_strings(fdt), strings_size;
	unsigned int depth = 0, nodes = 0;

	if (total > size || fdt_version(fdt) < 16)
		return false;
	end = fdt_version(fdt) >= 17 ? pos + fdt_size_dt_struct(fdt) : total;
	strings_size = fdt_size_dt_strings(fdt);
	if (end > total || pos > end || strings > total || strings_size > total - strings)
		return false;
	for (;;) {
		uint32_t tag;

		if (end - pos < 4)
			return false;
		tag = be32_at(b + pos);
		pos += 4;
		switch (tag) {
		case FDT_BEGIN_NODE:
			while (pos < end && b[pos])
				pos++;
			if (pos == end)
				return false; /* a name without its NUL */
			pos = (pos + 1 + 3) & ~(uint64_t)3;
			depth++;
			nodes++;
			break;
		case FDT_END_NODE:
			if (!depth--)
				return false;
			break;
		case FDT_PROP: {
			uint64_t len, nameoff;

			if (end - pos < 8 || !depth)
				return false;
			len = be32_at(b + pos);
			nameoff = be32_at(b + pos + 4);
			pos += 8;
			if (len > end - pos || nameoff >= strings_size)
				return false;
			pos = (pos + len + 3) & ~(uint64_t)3;
			break;
		}
		case FDT_NOP:
			break;
		case FDT_END:
			return depth == 0 && nodes > 0;
		default:
			return false;
		}
		if (pos > end)
			return false;
	}
}
