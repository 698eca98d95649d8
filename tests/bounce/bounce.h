/* SPDX-License-Identifier: MIT */
/*
 * The bounce backends the conformance suite runs on (backends.c), and what
 * the suite asks of each (test_bounce_conformance.c).
 */
#ifndef DMAMAP_TESTS_BOUNCE_BOUNCE_H
#define DMAMAP_TESTS_BOUNCE_BOUNCE_H

#include "../helpers.h"

/* What each backend counts, by its own names. */
struct bounce_counters {
	uint64_t bounced;    /* mappings that bounced */
	uint64_t live;       /* bounce buffers in use */
	uint64_t refused;    /* mappings refused */
	uint64_t copied_out; /* bytes copied from bounce buffers to the CPU's */
};

struct bounce_backend {
	/* The platform (quiet) with the device under test in *@dev. */
	struct dmamap_platform *(*setup)(struct device **dev);
	/* @len bytes the device cannot reach: it must bounce them. */
	uint8_t *(*far_buf)(struct dmamap_platform *p, size_t len);
	/* @len bytes the device reaches directly. */
	uint8_t *(*near_buf)(struct dmamap_platform *p, size_t len);
	/* Buffers of this backend's platform; NULL: they go with the platform. */
	void (*put_buf)(uint8_t *buf);
	/* Force mode: a buffer the device reaches bounces too. */
	bool bounces_near;
	/* Whether @h is one of the backend's bounce buffers. */
	bool (*is_bounce)(struct device *dev, dma_addr_t h);
	/* The backend's own counters (below). */
	struct bounce_counters (*counters)(struct dmamap_platform *p, struct device *dev);
	/* Bytes of memory bounce buffers come from: leaking them runs out after this. */
	uint64_t (*room)(struct dmamap_platform *p, struct device *dev);
	/* A mapping larger than any bounce buffer the backend can give, and a buffer for it. */
	size_t too_big;
	uint8_t *(*too_big_buf)(struct dmamap_platform *p);
};

extern const struct bounce_backend swiotlb_dma24, swiotlb_host_forced, dmabounce_ixp_pci;

#endif
