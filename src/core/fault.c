/* SPDX-License-Identifier: MIT */
/* The public face of the countdown fault injector every allocator and map path asks. */
#include "../base/device.h"

void dmamap_fault_inject(struct dmamap_platform *p, unsigned int classes,
			 long countdown)
{
	if (p)
		dmamap__fault_arm(&p->fault, classes, countdown);
}

unsigned long dmamap_fault_injected(struct dmamap_platform *p)
{
	return p ? dmamap__fault_hits(&p->fault) : 0;
}
