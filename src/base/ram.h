/* SPDX-License-Identifier: MIT */
/* The machine's RAM banks, as the port and its machines fill them in. */
#ifndef DMAMAP_BASE_RAM_H
#define DMAMAP_BASE_RAM_H

#include "device.h"

/* The bank holding all of [@phys, +@len), or NULL. */
struct dmamap_bank *dmamap__bank_of_phys(struct dmamap_platform *p, phys_addr_t phys, u64 len);

#endif
