/* SPDX-License-Identifier: MIT */
/* Everything: the driver API, the ops API, boards, the sim and reports. */
#ifndef DMAMAP_DMAMAP_H
#define DMAMAP_DMAMAP_H
#include <dmamap/dma-mapping.h>
#include <dmamap/dma-map-ops.h>
#include <dmamap/platform.h>
#include <dmamap/sim.h>
#include <dmamap/debug.h>
#include <dmamap/model.h>
#include <dmamap/swiotlb.h>
#include <dmamap/dmabounce.h>
#include <dmamap/iommu.h>
#include <dmamap/of.h>
#include <dmamap/dmapool.h>
#include <dmamap/version.h>
#include <dmamap/vfio.h>
#endif
