/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the API tests (test_api.c, test_alloc.c): boards,
 * stats snapshots, a log hook that captures lines, byte patterns.
 */
#ifndef DMAMAP_TESTS_API_HELPERS_H
#define DMAMAP_TESTS_API_HELPERS_H

#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "tap.h"

/* The default board's layout (src/platform/sim/boards.c), for range checks. */
#define BANK0_START 0x80000000ULL
#define BANK0_SIZE (128ULL << 20)
#define BANK1_START 0x880000000ULL
#define BANK1_SIZE (64ULL << 20)
#define ZONE_DMA_END (BANK0_START + (64ULL << 20)) /* first byte above ZONE_DMA */

static inline struct dmamap_platform *default_board(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);

	if (!p)
		printf("#   default board: %d %s\n", err.code, err.msg);
	else
		dmamap_debug_enable(p, false);
	return p;
}

static inline struct dmamap_platform *host_platform(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_host(&err);

	if (!p)
		printf("#   host platform: %d %s\n", err.code, err.msg);
	else
		dmamap_debug_enable(p, false);
	return p;
}

static inline struct device *host_device(struct dmamap_platform *p,
					 const char *name, const char *model)
{
	struct dmamap_device_desc d = { .name = name, .model = model };
	struct dmamap_error err = { 0 };
	struct device *dev = dmamap_device_create(p, &d, &err);

	if (!dev)
		printf("#   device %s: %d %s\n", name, err.code, err.msg);
	return dev;
}

static inline struct dmamap_device_stats stats_of(struct device *dev)
{
	struct dmamap_device_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_device_stats(dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

static inline uint64_t errk(struct device *dev, enum dmamap_err_kind k)
{
	return stats_of(dev).errors_by_kind[k];
}

/* Live streaming mappings of a device, as the stats see them. */
static inline int64_t live_maps(struct device *dev)
{
	struct dmamap_device_stats s = stats_of(dev);

	return (int64_t)(s.maps - s.unmaps);
}

/* A log hook that keeps the lines it is given. */
struct log_capture {
	unsigned int lines;
	char last[512];
	char all[4096];
};

static inline void capture_hook(void *ctx, int level, const char *line)
{
	struct log_capture *c = ctx;
	size_t used = strlen(c->all);

	(void)level;
	c->lines++;
	snprintf(c->last, sizeof(c->last), "%s", line);
	if (used + strlen(line) + 2 < sizeof(c->all))
		snprintf(c->all + used, sizeof(c->all) - used, "%s\n", line);
}

static inline void fill_pattern(void *buf, size_t len, unsigned int seed)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8) + 1u);
}

static inline bool all_bytes(const void *buf, size_t len, uint8_t v)
{
	const uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		if (b[i] != v)
			return false;
	return true;
}

/* @call must hold, and exactly one NULL-device report must be counted. */
#define CHECK_NULL_DEV(call)                                                  \
	do {                                                                  \
		unsigned long n0_ = dmamap_report_count(NULL,                 \
							DMAMAP_DBG_NULL_DEVICE); \
		CHECK(call);                                                  \
		CHECK_EQ(dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE),   \
			 n0_ + 1);                                            \
	} while (0)

/* @call must hold and count exactly one error of kind @k on @dev. */
#define CHECK_ERRK(dev, k, call)                                              \
	do {                                                                  \
		uint64_t e0_ = errk(dev, k);                                  \
		uint64_t t0_ = stats_of(dev).errors;                          \
		CHECK(call);                                                  \
		CHECK_EQ(errk(dev, k), e0_ + 1);                              \
		CHECK_EQ(stats_of(dev).errors, t0_ + 1);                      \
	} while (0)

/* A void call, for use inside CHECK_*(). */
#define VOIDCALL(call) ((call), true)

#endif
