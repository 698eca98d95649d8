/* SPDX-License-Identifier: MIT */
/*
 * Interrupts: numbers for the models' lines, handlers installed by
 * drivers, delivery at yield points. Numbers are process-wide, as Linux's
 * are, so request_irq() needs no device: a descriptor knows its device.
 * Delivery happens with no scheduler lock held, because a handler calls
 * the DMA API and touches registers, both yield points.
 *
 * A board's scheduler counts only the interrupts it could deliver now
 * (pending, with a handler, enabled): an interrupt nobody takes must not
 * keep every DMA API call of the board on its slow path.
 */
#include <sched.h>
#include <dmamap/interrupt.h>
#include "../base/trace.h"
#include "../lib/lib.h"
#include "../base/report.h"
#include "hw.h"
#include "../lib/mem.h"

#define CHUNK_SHIFT 10
#define CHUNK (1u << CHUNK_SHIFT)
#define CHUNKS 64 /* 65,536 numbers, made a chunk at a time */
#define MAX_ACTIONS 8

struct irq_action {
	irq_handler_t handler;
	void *dev_id;
	const char *name;
	unsigned long flags;
};

struct irq_desc {
	struct device *dev; /* NULL: free */
	unsigned int gen;   /* bumped when the number is given back */
	bool pending;
	int depth;          /* disable_irq() nesting */
	unsigned int running;
	unsigned int nact;
	struct irq_action act[MAX_ACTIONS];
};

static pthread_mutex_t irq_lock = PTHREAD_MUTEX_INITIALIZER;
static struct irq_desc *chunks[CHUNKS]; /* number n is chunks[n >> CHUNK_SHIFT][n & (CHUNK - 1)] */
static unsigned int irq_high;           /* highest number ever given */
static __thread bool irqs_off;
static __thread unsigned int handling;  /* the number whose handler this thread runs */

static struct irq_desc *slot(unsigned int irq)
{
	struct irq_desc *c = irq >> CHUNK_SHIFT < CHUNKS ? chunks[irq >> CHUNK_SHIFT] : NULL;

	return c ? &c[irq & (CHUNK - 1)] : NULL;
}

static bool deliverable(const struct irq_desc *d)
{
	return d->pending && d->nact && !d->depth;
}

/* After a change of @d (lock held): the board's count of deliverable interrupts follows it. */
static void recount(struct irq_desc *d, bool was)
{
	struct dmamap_sched *s = d->dev && !d->dev->msi ? d->dev->plat->sched : NULL;
	bool now = deliverable(d);

	/* A real function's lines are its thread's: a yield point has nothing to deliver there. */
	if (!s || was == now)
		return;
	if (now)
		__atomic_fetch_add(&s->pending, 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_sub(&s->pending, 1, __ATOMIC_RELAXED);
}

/* A device's interrupt lines: its model's, or a real function's vectors. */
static unsigned int nr_lines(const struct device *dev)
{
	return dev->model ? dev->model->nr_irqs : dev->nr_msi;
}

int dmamap__irq_alloc(struct device *dev)
{
	unsigned int n = nr_lines(dev), run = 0;

	if (!n)
		return 0;
	pthread_mutex_lock(&irq_lock);
	for (unsigned int i = 1; i < CHUNKS * CHUNK; i++) {
		struct irq_desc *d;

		if (!chunks[i >> CHUNK_SHIFT] &&
		    (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC) ||
		     !(chunks[i >> CHUNK_SHIFT] = dmamap__calloc(CHUNK, sizeof(struct irq_desc))))) {
			pthread_mutex_unlock(&irq_lock);
			return -ENOMEM;
		}
		d = slot(i);
		/* A run never spans two chunks: the numbers of one device are one array. */
		run = d->dev || !(i & (CHUNK - 1)) ? 0 : run + 1;
		if (run == n) {
			for (unsigned int k = i - n + 1; k <= i; k++) {
				struct irq_desc *e = slot(k);

				*e = (struct irq_desc){ .dev = dev, .gen = e->gen };
			}
			irq_high = MAX(irq_high, i);
			dev->irq_first = (int)(i - n + 1);
			pthread_mutex_unlock(&irq_lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&irq_lock);
	return -ENOSPC;
}

void dmamap__irq_release(struct device *dev)
{
	if (!dev->irq_first)
		return;
	for (unsigned int k = 0; k < nr_lines(dev); k++) {
		unsigned int irq = (unsigned int)dev->irq_first + k;
		struct irq_desc *d;
		bool was;

		pthread_mutex_lock(&irq_lock);
		d = slot(irq);
		if (d->nact)
			dmamap__report(dev->plat, dev, DMAMAP_DBG_IRQ_MISUSE,
				       "device removed with a handler (%s) still on irq %u: free_irq() missing",
				       d->act[0].name ? d->act[0].name : "?", irq);
		was = deliverable(d);
		d->nact = 0;
		recount(d, was);
		/* Nothing may run once the model is gone: wait out a handler on another thread. */
		while (d->running && handling != irq) {
			pthread_mutex_unlock(&irq_lock);
			sched_yield();
			pthread_mutex_lock(&irq_lock);
		}
		*d = (struct irq_desc){ .gen = d->gen + 1 };
		pthread_mutex_unlock(&irq_lock);
	}
	dev->irq_first = 0;
}

static struct irq_desc *desc_of(unsigned int irq)
{
	struct irq_desc *d = irq ? slot(irq) : NULL;

	return d && d->dev ? d : NULL;
}

void dmamap__irq_raise_locked(struct device *dev, unsigned int line)
{
	struct dmamap_sched *s = dev->plat->sched;
	struct irq_desc *d;
	bool was;

	pthread_mutex_lock(&irq_lock);
	d = slot((unsigned int)dev->irq_first + line);
	was = deliverable(d);
	d->pending = true;
	recount(d, was);
	pthread_mutex_unlock(&irq_lock);
	s->stats.irqs_raised++;
	dmamap__sched_rearm_locked(s);
	if (s->threaded)
		pthread_cond_signal(&s->wake);
}

int dmamap_model_raise_irq(struct device *dev, unsigned int line)
{
	struct dmamap_sched *s;
	bool taken;

	if (!dev || !dev->model || line >= dev->model->nr_irqs || !dev->irq_first ||
	    !(s = dev->plat->sched))
		return -EINVAL;
	taken = dmamap__sched_enter(s);
	dmamap__irq_raise_locked(dev, line);
	dmamap__sched_leave(s, taken);
	return 0;
}

/* The first deliverable interrupt of @p's devices (of @dev alone, if given), claimed; 0 if none. */
static unsigned int claim_pending(const struct dmamap_platform *p, const struct device *dev,
				  struct irq_action *act, unsigned int *nact, unsigned int *gen)
{
	for (unsigned int i = 1; i <= irq_high; i++) {
		struct irq_desc *d = slot(i);

		/* A real function's interrupts are its own thread's to run, never a yield point's. */
		if (!d || !d->dev || d->dev->plat != p || (dev ? d->dev != dev : d->dev->msi != NULL) ||
		    !deliverable(d))
			continue;
		d->pending = false;
		recount(d, true);
		d->running++;
		*nact = d->nact;
		*gen = d->gen;
		memcpy(act, d->act, d->nact * sizeof(*act));
		return i;
	}
	return 0;
}

/*
 * Run the pending interrupts of @p (of @dev alone, if given) on this
 * thread, one after the other, until none is left; counts them in
 * @delivered and @unhandled.
 */
static void deliver_pending(struct dmamap_platform *p, const struct device *dev,
			    uint64_t *delivered, uint64_t *unhandled)
{
	struct irq_action act[MAX_ACTIONS];
	unsigned int irq, nact, gen;

	if (irqs_off)
		return;
	for (;;) {
		struct irq_desc *d;
		struct device *owner;
		bool handled = false;

		pthread_mutex_lock(&irq_lock);
		irq = claim_pending(p, dev, act, &nact, &gen);
		owner = irq ? slot(irq)->dev : NULL;
		pthread_mutex_unlock(&irq_lock);
		if (!irq)
			return;
		irqs_off = true;
		handling = irq;
		DMAMAP__TRACE(p, .id = DMAMAP_TRACE_IRQ_HANDLER_ENTRY, .irq = irq, .dev = owner,
			      .name = nact ? act[0].name : "", .dir = DMA_NONE);
		for (unsigned int k = 0; k < nact && !handled; k++)
			handled = act[k].handler((int)irq, act[k].dev_id) != IRQ_NONE;
		handling = 0;
		irqs_off = false;
		/* Whoever sees this delivery counted must see its verdict counted too. */
		if (!handled)
			__atomic_fetch_add(unhandled, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(delivered, 1, __ATOMIC_RELEASE);
		pthread_mutex_lock(&irq_lock);
		/* The handler may have destroyed its own device: then the number is no longer its. */
		d = slot(irq);
		if (d->gen == gen)
			d->running--;
		pthread_mutex_unlock(&irq_lock);
	}
}

void dmamap__irq_deliver(struct dmamap_sched *s)
{
	deliver_pending(s->plat, NULL, &s->stats.irqs_delivered, &s->stats.irqs_unhandled);
}

void dmamap__irq_fire(struct device *dev, unsigned int line, uint64_t *delivered,
		      uint64_t *unhandled)
{
	struct irq_desc *d;

	pthread_mutex_lock(&irq_lock);
	d = line < nr_lines(dev) && dev->irq_first ? slot((unsigned int)dev->irq_first + line) :
						      NULL;
	if (d)
		d->pending = true;
	pthread_mutex_unlock(&irq_lock);
	deliver_pending(dev->plat, dev, delivered, unhandled);
}

/* After an install or an enable: deliver what waited, at the next yield point. */
static void poke(struct device *dev)
{
	struct dmamap_sched *s = dev->plat->sched;
	bool taken;

	/* A real function's interrupts wait on their own thread: it delivers what waited. */
	if (dev->msi) {
		dmamap__msi_kick(dev);
		return;
	}
	if (!s)
		return;
	taken = dmamap__sched_enter(s);
	dmamap__sched_rearm_locked(s);
	if (s->threaded)
		pthread_cond_signal(&s->wake);
	dmamap__sched_leave(s, taken);
}

int dmamap_device_irq(struct device *dev, unsigned int index)
{
	if (!dev)
		return -EINVAL;
	if (index >= nr_lines(dev) || !dev->irq_first)
		return -ENXIO;
	return dev->irq_first + (int)index;
}

int dmamap_request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		       const char *name, void *dev_id)
{
	struct irq_desc *d;
	struct device *dev;
	int ret = 0;

	if (!handler || ((flags & IRQF_SHARED) && !dev_id))
		return -EINVAL;
	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (!d) {
		ret = -EINVAL;
	} else if (d->nact && (!(flags & IRQF_SHARED) || !(d->act[0].flags & IRQF_SHARED))) {
		ret = -EBUSY;
	} else if (d->nact == MAX_ACTIONS) {
		ret = -ENOMEM;
	} else {
		bool was = deliverable(d);

		d->act[d->nact++] = (struct irq_action){ handler, dev_id, name, flags };
		recount(d, was);
	}
	dev = d ? d->dev : NULL;
	pthread_mutex_unlock(&irq_lock);
	if (!ret)
		poke(dev);
	return ret;
}

const void *dmamap_free_irq(unsigned int irq, void *dev_id)
{
	struct irq_desc *d;
	const char *name = NULL;
	struct device *dev = NULL;

	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (d) {
		dev = d->dev;
		for (unsigned int k = 0; k < d->nact; k++) {
			bool was = deliverable(d);

			if (d->act[k].dev_id != dev_id)
				continue;
			name = d->act[k].name ? d->act[k].name : "";
			memmove(&d->act[k], &d->act[k + 1], (d->nact - k - 1) * sizeof(d->act[0]));
			d->nact--;
			recount(d, was);
			break;
		}
		while (name && (d = desc_of(irq)) && d->running && handling != irq) {
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

void dmamap_synchronize_irq(unsigned int irq)
{
	struct irq_desc *d;

	pthread_mutex_lock(&irq_lock);
	while ((d = desc_of(irq)) && d->running && handling != irq) {
		pthread_mutex_unlock(&irq_lock);
		sched_yield();
		pthread_mutex_lock(&irq_lock);
	}
	pthread_mutex_unlock(&irq_lock);
}

void dmamap_disable_irq_nosync(unsigned int irq)
{
	struct irq_desc *d;

	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (d) {
		bool was = deliverable(d);

		d->depth++;
		recount(d, was);
	}
	pthread_mutex_unlock(&irq_lock);
}

void dmamap_disable_irq(unsigned int irq)
{
	dmamap_disable_irq_nosync(irq);
	dmamap_synchronize_irq(irq);
}

void dmamap_enable_irq(unsigned int irq)
{
	struct irq_desc *d;
	struct device *dev = NULL;
	bool unbalanced = false;

	pthread_mutex_lock(&irq_lock);
	d = desc_of(irq);
	if (d) {
		bool was = deliverable(d);

		dev = d->dev;
		if (d->depth)
			d->depth--;
		else
			unbalanced = true;
		recount(d, was);
	}
	pthread_mutex_unlock(&irq_lock);
	if (unbalanced)
		dmamap__report(dev->plat, dev, DMAMAP_DBG_IRQ_MISUSE,
			       "enable_irq(%u) without a disable_irq()", irq);
	else if (dev)
		poke(dev);
}

void dmamap_local_irq_disable(void)
{
	irqs_off = true;
}

void dmamap_local_irq_enable(void)
{
	irqs_off = false;
}

bool dmamap_irqs_disabled(void)
{
	return irqs_off;
}

bool dmamap_in_interrupt(void)
{
	return handling != 0;
}
