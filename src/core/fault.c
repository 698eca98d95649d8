/* SPDX-License-Identifier: MIT */
/* The countdown fault injector: every allocator and map path asks it. */
#include "../internal.h"

bool dmamap__fault_fire(struct dmamap_platform *p, unsigned int cls)
{
	bool fire = false;

	pthread_mutex_lock(&p->dev_lock);
	if ((p->fault_classes & cls) && p->fault_countdown > 0 &&
	    --p->fault_countdown == 0) {
		fire = true;
		p->fault_hits++;
		__atomic_store_n(&p->fault_classes, 0, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&p->dev_lock);
	return fire;
}

void dmamap_fault_inject(struct dmamap_platform *p, unsigned int classes,
			 long countdown)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->dev_lock);
	p->fault_countdown = countdown > 0 ? countdown : 0;
	__atomic_store_n(&p->fault_classes, countdown > 0 ? classes : 0,
			 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&p->dev_lock);
}

unsigned long dmamap_fault_injected(struct dmamap_platform *p)
{
	unsigned long n;

	if (!p)
		return 0;
	pthread_mutex_lock(&p->dev_lock);
	n = p->fault_hits;
	pthread_mutex_unlock(&p->dev_lock);
	return n;
}
