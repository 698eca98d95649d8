/* SPDX-License-Identifier: MIT */
/*
 * Interrupts: numbers for the models' lines, handlers installed by
 * drivers, delivery at yield points. Numbers are process-wide, as Linux's
 * are, so request_irq() needs no device: a descriptor knows its device.
 * Delivery happens with no scheduler lock held, because a handler calls
 * the DMA API and touches registers, both yield points.
 */
#include <sched.h>
#include <dmamap/interrupt.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "hw.h"

#define MAX_IRQS 1024
#define MAX_ACTIONS 8

struct irq_action {
	irq_handler_t handler;
	void *dev_id;
	const char *name;
	unsigned long flags;
};

struct irq_desc {
	struct device *dev; /* NULL: free */
	bool pending;
	int depth;          /* disable_irq() nesting */
	unsigned int running;
	unsigned int nact;
	struct irq_action act[MAX_ACTIONS];
};

static pthread_mutex_t irq_lock = PTHREAD_MUTEX_INITIALIZER;
static struct irq_desc descs[MAX_IRQS + 1]; /* index: the number; 0 is never given */
static unsigned int irq_high;               /* highest number ever given */
static __thread bool irqs_off;
static __thread unsigned int handling;      /* the number whose handler this thread runs */

int dmamap__irq_alloc(struct device *dev)
{
	unsigned int n = dev->model->nr_irqs, run = 0;

	if (!n)
		return 0;
	pthread_mutex_lock(&irq_lock);
	for (unsigned int i = 1; i <= MAX_IRQS; i++) {
		run = descs[i].dev ? 0 : run + 1;
		if (run == n) {
			unsigned int first = i - n + 1;

			for (unsigned int k = first; k <= i; k++)
				descs[k] = (struct irq_desc){ .dev = dev };
			irq_high = MAX(irq_high, i);
			dev->irq_first = (int)first;
			pthread_mutex_unlock(&irq_lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&irq_lock);
	return -ENOSPC;
}

void dmamap__irq_release(struct device *dev)
{
	struct dmamap_sched *s = dev->plat->sched;

	if (!dev->irq_first)
		return;
	/* Nothing may be delivered once the model is gone: wait out a running handler. */
	for (unsigned int k = 0; k < dev->model->nr_irqs; k++) {
		struct irq_desc *d = &descs[dev->irq_first + k];

		pthread_mutex_lock(&irq_lock);
		if (d->nact)
			dmamap__report(dev->plat, dev, DMAMAP_DBG_IRQ_MISUSE,
				       "device removed with a handler (%s) still on irq %u: free_irq() missing",
				       d->act[0].name ? d->act[0].name : "?",
				       dev->irq_first + k);
		d->nact = 0;
		while (d->running && handling != (unsigned int)dev->irq_first + k) {
			pthread_mutex_unlock(&irq_lock);
			sched_yield();
			pthread_mutex_lock(&irq_lock);
		}
		if (d->pending && s)
			__atomic_fetch_sub(&s->pending, 1, __ATOMIC_RELAXED);
		*d = (struct irq_desc){ 0 };
		pthread_mutex_unlock(&irq_lock);
	}
	dev->irq_first = 0;
}

static struct irq_desc *desc_of(unsigned int irq)
{
	if (!irq || irq > MAX_IRQS || !descs[irq].dev)
		return NULL;
	return &descs[irq];
}

void dmamap__irq_raise_locked(struct device *dev, unsigned int line)
{
	struct dmamap_sched *s = dev->plat->sched;
	struct irq_desc *d = &descs[dev->irq_first + line];

	pthread_mutex_lock(&irq_lock);
	if (!d->pending) {
		d->pending = true;
		__atomic_fetch_add(&s->pending, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&irq_lock);
	s->stats.irqs_raised++;
	__atomic_store_n(&s->plat->yield_on, !s->threaded, __ATOMIC_RELAXED);
	if (s->threaded)
		pthread_cond_signal(&s->wake);
}

int dmamap_model_raise_irq(struct device *dev, unsigned int line)
{
	struct dmamap_sched *s;

	if (!dev || !dev->model || line >= dev->model->nr_irqs || !dev->irq_first ||
	    !(s = dev->plat->sched))
		return -EINVAL;
	if (dmamap__model_ctx == s) {
		dmamap__irq_raise_locked(dev, line);
		return 0;
	}
	pthread_mutex_lock(&s->lock);
	dmamap__irq_raise_locked(dev, line);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

/* The first pending, enabled, handled interrupt of @s's board, claimed; 0 if none. */
static unsigned int claim_pending(struct dmamap_sched *s, struct irq_action *act,
				  unsigned int *nact)
{
	for (unsigned int i = 1; i <= irq_high; i++) {
		struct irq_desc *d = &descs[i];

		if (!d->pending || !d->dev || d->dev->plat != s->plat || d->depth || !d->nact)
			continue;
		d->pending = false;
		__atomic_fetch_sub(&s->pending, 1, __ATOMIC_RELAXED);
		d->running++;
		*nact = d->nact;
		memcpy(act, d->act, d->nact * sizeof(*act));
		return i;
	}
	return 0;
}

void dmamap__irq_deliver(struct dmamap_sched *s)
{
	struct irq_action act[MAX_ACTIONS];
	unsigned int irq, nact;

	if (irqs_off)
		return;
	for (;;) {
		bool handled = false;

		pthread_mutex_lock(&irq_lock);
		irq = claim_pending(s, act, &nact);
		pthread_mutex_unlock(&irq_lock);
		if (!irq)
			return;
		irqs_off = true;
		handling = irq;
		for (unsigned int k = 0; k < nact && !handled; k++)
			handled = act[k].handler((int)irq, act[k].dev_id) != IRQ_NONE;
		handling = 0;
		irqs_off = false;
		__atomic_fetch_add(&s->stats.irqs_delivered, 1, __ATOMIC_RELAXED);
		if (!handled)
			__atomic_fetch_add(&s->stats.irqs_unhandled, 1, __ATOMIC_RELAXED);
		pthread_mutex_lock(&irq_lock);
		descs[irq].running--;
		pthread_mutex_unlock(&irq_lock);
	}
}

/* After an install or an enable: deliver what waited, at the next yield point. */
static void poke(struct device *dev)
{
	struct dmamap_sched *s = dev->plat->sched;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	dmamap__sched_rearm_locked(s);
	if (s->threaded)
		pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

int dmamap_device_irq(struct device *dev, unsigned int index)
{
	if (!dev)
		return -EINVAL;
	if (!dev->model || index >= dev->model->nr_irqs || !dev->irq_first)
		return -ENXIO;
	return dev->irq_first + (int)index;
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id)
{
	struct irq_desc *d;
	struct device *dev;
	int ret = 0;

	if (!handler || ((flags & IRQF_SHARED) && !dev_id))
		return -EINVAL;
	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (!d)
		ret = -EINVAL;
	else if (d->nact && (!(flags & IRQF_SHARED) || !(d->act[0].flags & IRQF_SHARED)))
		ret = -EBUSY;
	else if (d->nact == MAX_ACTIONS)
		ret = -ENOMEM;
	else
		d->act[d->nact++] = (struct irq_action){ handler, dev_id, name, flags };
	dev = d ? d->dev : NULL;
	pthread_mutex_unlock(&irq_lock);
	if (!ret)
		poke(dev);
	return ret;
}

const void *free_irq(unsigned int irq, void *dev_id)
{
	struct irq_desc *d;
	const char *name = NULL;
	struct device *dev = NULL;

	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (d) {
		dev = d->dev;
		for (unsigned int k = 0; k < d->nact; k++) {
			if (d->act[k].dev_id != dev_id)
				continue;
			name = d->act[k].name ? d->act[k].name : "";
			memmove(&d->act[k], &d->act[k + 1], (d->nact - k - 1) * sizeof(d->act[0]));
			d->nact--;
			break;
		}
		while (name && d->running && handling != irq) {
			pthread_mutex_unlock(&irq_lock);
			sched_yield();
			pthread_mutex_lock(&irq_lock);
		}
	}
	pthread_mutex_unlock(&irq_lock);
	if (!name && dev)
		dmamap__report(dev->plat, dev, DMAMAP_DBG_IRQ_MISUSE,
			       "free_irq(%u) of a handler that was never requested", irq);
	return name;
}

void synchronize_irq(unsigned int irq)
{
	struct irq_desc *d;

	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	while (d && d->running && handling != irq) {
		pthread_mutex_unlock(&irq_lock);
		sched_yield();
		pthread_mutex_lock(&irq_lock);
	}
	pthread_mutex_unlock(&irq_lock);
}

void disable_irq_nosync(unsigned int irq)
{
	struct irq_desc *d;

	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (d)
		d->depth++;
	pthread_mutex_unlock(&irq_lock);
}

void disable_irq(unsigned int irq)
{
	disable_irq_nosync(irq);
	synchronize_irq(irq);
}

void enable_irq(unsigned int irq)
{
	struct irq_desc *d;
	struct device *dev = NULL;
	bool unbalanced = false;

	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (d) {
		dev = d->dev;
		if (d->depth)
			d->depth--;
		else
			unbalanced = true;
	}
	pthread_mutex_unlock(&irq_lock);
	if (unbalanced)
		dmamap__report(dev->plat, dev, DMAMAP_DBG_IRQ_MISUSE,
			       "enable_irq(%u) without a disable_irq()", irq);
	else if (dev)
		poke(dev);
}

void local_irq_disable(void)
{
	irqs_off = true;
}

void local_irq_enable(void)
{
	irqs_off = false;
}

bool dmamap_irqs_disabled(void)
{
	return irqs_off;
}
