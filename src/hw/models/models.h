/* SPDX-License-Identifier: MIT */
/* The device models built into the library, which the registry knows from the start. */
#ifndef DMAMAP_HW_MODELS_MODELS_H
#define DMAMAP_HW_MODELS_MODELS_H

#include <dmamap/model.h>

/* The "memcpy" DMA engine (memcpy_engine.c, registers in <dmamap/hw/memcpy-engine.h>). */
extern const struct dmamap_device_model dmamap__memcpy_engine_model;
/* The "nic" Ethernet controller (nic.c, registers in <dmamap/hw/nic.h>). */
extern const struct dmamap_device_model dmamap__nic_model;
/* The "blk" block device (blk.c, registers in <dmamap/hw/blk.h>). */
extern const struct dmamap_device_model dmamap__blk_model;
/* The media devices (media.c, registers in <dmamap/hw/media.h>). */
extern const struct dmamap_device_model dmamap__camera_model;
extern const struct dmamap_device_model dmamap__isp_model;
extern const struct dmamap_device_model dmamap__display_model;

#endif
