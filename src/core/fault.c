/* SPDX-License-Identifier: MIT */
/* The public face of the countdown fault injectors every allocator and map path asks. */
#include "../base/device.h"

void dmamap_fault_inject(struct dmamap_platform *p, unsigned int classes,
			 long countdown)
{
	dmamap__fault_arm(p ? &p->fault : &dmamap__process_fault, classes, countdown);
}

unsigned long dmamap_fault_injected(struct dmamap_platform *p)
{
	return dmamap__fault_hits(p ? &p->fault : &dmamap__process_fault);
}
