/* SPDX-License-Identifier: MIT */
/*
 * Reports of bad arguments, shared by every entry point: the checks are
 * inline in core.h, where a good call pays a few compares; what a bad one
 * says is here, out of the way.
 */
#include "../base/report.h"
#include "core.h"

/* The checks every call makes, buffer or not; @obj is checked unless @no_buffer. */
static bool bad(struct device *dev, const void *obj, bool no_buffer, size_t size, int dir,
		const char *func)
{
	if (unlikely(!dev)) {
		dmamap__api_error(NULL, func, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_NULL_DEVICE, "called with a NULL device");
		return true;
	}
	if (unlikely(!no_buffer && (uintptr_t)obj < PAGE_SIZE)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT, "called with a NULL buffer");
		return true;
	}
	if (unlikely(!valid_dma_direction(dir))) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_DIR,
				  DMAMAP_DBG_INVALID_DIRECTION,
				  "invalid DMA direction %d", dir);
		return true;
	}
	if (unlikely(!size)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_ZERO_SIZE,
				  DMAMAP_DBG_ZERO_SIZE, "zero-sized buffer");
		return true;
	}
	return false;
}

bool dmamap__bad_args(struct device *dev, const void *obj, size_t size, int dir,
		      const char *func)
{
	return bad(dev, obj, false, size, dir, func);
}

bool dmamap__bad_call_args(struct device *dev, size_t size, int dir, const char *func)
{
	return bad(dev, NULL, true, size, dir, func);
}

void dmamap__bad_handle(struct device *dev, dma_addr_t addr, size_t size, int dir,
			const char *func)
{
	if (!dmamap__bad_call_args(dev, size, dir, func) && addr == DMA_MAPPING_ERROR)
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_UNMAP_INVALID,
				  "called with DMA_MAPPING_ERROR (a failed mapping was used) [size=%zu]",
				  size);
}

void dmamap__null_table(struct device *dev, const char *func)
{
	dmamap__api_error(dev, func, DMAMAP_ERRK_NULL_ARG,
			  dev ? DMAMAP_DBG_INVALID_ARGUMENT : DMAMAP_DBG_NULL_DEVICE,
			  "called with a NULL table");
}

void dmamap__sg_too_short(struct device *dev, const char *func, int found, int nents)
{
	dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
			  "nents %d is beyond the end of the list (%d entries)", nents, found);
}

void dmamap__not_coherent(struct device *dev, const char *func)
{
	dmamap__api_error(dev, func, DMAMAP_ERRK_UNREACHABLE, DMAMAP_DBG_UNREACHABLE,
			  "DMA_ATTR_REQUIRE_COHERENT, but the device does not snoop the CPU's cache");
}
