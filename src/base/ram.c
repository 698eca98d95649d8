/* SPDX-License-Identifier: MIT */
#include "ram.h"

struct dmamap_bank *dmamap__bank_of_phys(struct dmamap_platform *p, phys_addr_t phys, u64 len)
{
	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		struct dmamap_bank *b = &p->mach.banks[i];

		if (phys >= b->start && phys - b->start < b->size &&
		    len <= b->size - (phys - b->start))
			return b;
	}
	return NULL;
}
