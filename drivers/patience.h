/* SPDX-License-Identifier: MIT */
/*
 * How long the example drivers wait for a device before they call it
 * stuck. A kernel driver's timeouts are about a second of the device's
 * time. On a board in threaded mode that time is the clock, and the
 * device thread of a loaded machine (emulators side by side on two cores)
 * may wait longer than that for a core between its steps: there the
 * drivers wait ten seconds, so that only a device that stopped is stuck.
 */
#ifndef DMAMAP_DRIVERS_PATIENCE_H
#define DMAMAP_DRIVERS_PATIENCE_H

#include <dmamap/dma-mapping.h>
#include <dmamap/sim.h>

static inline unsigned int drv_patience_ms(const struct dmamap_platform *p)
{
	return dmamap_sim_threaded(p) ? 10000 : 1000;
}

static inline unsigned int drv_dev_patience_ms(const struct device *dev)
{
	return drv_patience_ms(dmamap_device_platform(dev));
}

#endif
