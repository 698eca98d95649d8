/* SPDX-License-Identifier: MIT */
/* The IOMMU backend, as the platform's setup sees it: domains and attaching a device. */
#ifndef DMAMAP_OPS_IOMMU_H
#define DMAMAP_OPS_IOMMU_H

#include "../base/device.h"

int dmamap__iommu_init(struct dmamap_platform *p);
void dmamap__iommu_fini(struct dmamap_platform *p);
/*
 * Put @dev behind IOMMU @iommu: its group's domain (a new one for group 0
 * or a group not seen yet), starting in lazy flush mode if @lazy; its ops
 * become the IOMMU's. The caller refreshes the device. 0 or -ENOMEM.
 */
int dmamap__iommu_attach(struct device *dev, const char *iommu, unsigned int group, bool lazy);
void dmamap__iommu_detach(struct device *dev);
/* The name of the IOMMU @dev is behind, "" if none. */
const char *dmamap__iommu_name(const struct device *dev);

#endif
