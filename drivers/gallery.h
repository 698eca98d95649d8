/* SPDX-License-Identifier: MIT */
/*
 * The bug gallery: every classic DMA mistake as a one-line variation of a
 * correct driver, for each driver it applies to, with what it breaks and
 * the one-line fix. `dmamap demo --bug KIND` runs one; the tests check
 * that each breaks where it should and that the checker names it.
 */
#ifndef DMAMAP_DRIVERS_GALLERY_H
#define DMAMAP_DRIVERS_GALLERY_H

#include <dmamap/debug.h>
#include "exercise.h"
#include "pipeline.h"

struct gallery_bug {
	const char *name;
	const char *what; /* the mistake, one line */
	const char *fix;  /* the one-line fix */
	/* The variation in each driver; 0 where the mistake has no form in it. */
	enum mcdma_bug mcdma;
	enum nicdrv_bug nic;
	enum blkdrv_bug blk;
	/* The reports that name it (any of them, depending on the device). */
	enum dmamap_dbg_kind names[3];
	/* A missing barrier: it shows on a weakly-ordered board, and hides on a TSO one. */
	bool ordering;
	/* A mistake of the media pipeline's (a shared buffer), not of one device's driver. */
	enum pipe_bug pipe;
};

/* NULL-terminated, in the order `--bug list` prints them. */
extern const struct gallery_bug gallery_bugs[];

const struct gallery_bug *gallery_find(const char *name);

struct gallery_result {
	bool applies;   /* the device's driver has this mistake */
	struct exercise_result r;
	unsigned int reports;
	unsigned int by_kind[DMAMAP_DBG_KIND_COUNT];
	char first[3][512]; /* the first report lines */
	unsigned long leaked; /* mappings and allocations left after remove */
	struct dmamap_device_stats st;
};

/* The driver for @dev's model ("memcpy_dma", "nic_drv", "blk_drv"), NULL if none. */
const char *gallery_driver(struct device *dev);
/* What one unit of that driver's work is ("transfers", "frames", "requests"). */
const char *gallery_unit(struct device *dev);

/*
 * Run @dev's driver with @bug (NULL: correct), checker on in ownership
 * mode, @scale times its standard load (48 copies, 256 frames, 32
 * requests); its counters are in @out afterwards. 0, or -ENODEV if @dev
 * has no driver here.
 */
int gallery_run(struct device *dev, const struct gallery_bug *bug, unsigned int scale,
		uint64_t seed, struct gallery_result *out);

/*
 * Destroy @dev, as unbinding its driver does at the end of its life, with
 * @out still recording: what the driver leaked is reported then.
 */
void gallery_unbind(struct device *dev, struct gallery_result *out);

/*
 * What the checker said about @bug in @g: the first of the bug's own kinds
 * it reported, else the first kind that is not a data-loss line, else 0.
 */
enum dmamap_dbg_kind gallery_main_kind(const struct gallery_bug *bug,
				       const struct gallery_result *g);
/* Whether @g has one of @bug's own kinds. */
bool gallery_named(const struct gallery_bug *bug, const struct gallery_result *g);
/* The data broke: bytes wrong, units lost, the probe failed, or mappings left after remove. */
bool gallery_broke(const struct gallery_result *g);

/* The media pipeline with a bug, as the gallery runs it. */
struct gallery_pipe_result {
	bool applies;    /* the board has a camera, an ISP and a display */
	char devices[3][DMAMAP_NAME_MAX];
	struct pipe_result r;
	unsigned int reports;
	unsigned int by_kind[DMAMAP_DBG_KIND_COUNT];
	char first[3][512];
};

/*
 * Run the pipeline of @p's first camera, ISP and display, @frames frames
 * of 640x480x2 bytes (0: 8), its buffer allocated @alloc, with @bug (NULL:
 * correct), checker on in ownership mode and the device schedule seeded
 * by @seed (0: fixed). 0, -ENODEV if the board has no such three, or the
 * pipeline's error.
 */
int gallery_run_pipeline(struct dmamap_platform *p, const struct gallery_bug *bug,
			 enum pipe_alloc alloc, unsigned int frames, uint64_t seed,
			 struct gallery_pipe_result *out);
/* The same with frames of @len bytes, allocated for the devices, checker on without ownership mode: the seed sweeps' light load. */
int gallery_run_pipeline_sized(struct dmamap_platform *p, const struct gallery_bug *bug,
			       size_t len, unsigned int frames, uint64_t seed,
			       struct gallery_pipe_result *out);

struct sweep_result {
	unsigned long devices, units, bad_units, reports;
	char first_bad[640]; /* the first device that lost something, and how */
};

/*
 * One seed of the sweep: with cache chaos and the device schedule seeded
 * by @seed, every driver on every device of @p (a fresh board) with a
 * light load, correct and checked. Anything lost or reported is counted.
 */
void sweep_seed(struct dmamap_platform *p, uint64_t seed, struct sweep_result *out);

#endif
