/* SPDX-License-Identifier: MIT */
/*
 * Interrupts for drivers, with Linux's names (linux/interrupt.h).
 *
 * A device model has interrupt lines; dmamap_device_irq() gives a line's
 * interrupt number, as platform_get_irq() does. A model raises a line; the
 * handler runs at the next yield point of a thread that has interrupts
 * enabled (docs/devices.md), or on the board's device thread in threaded
 * mode. Handlers never nest: a handler runs with interrupts disabled, so
 * what it calls never delivers another.
 *
 * A handler must not sleep: no msleep(), usleep_range(), synchronize_irq()
 * of its own line or free_irq() of its own line (each waits for the
 * handler that is running: itself). udelay(), cpu_relax(), register
 * accesses and the DMA API (with GFP_ATOMIC allocations) are allowed.
 */
#ifndef DMAMAP_INTERRUPT_H
#define DMAMAP_INTERRUPT_H

#include <pthread.h>
#include <dmamap/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum irqreturn {
	IRQ_NONE = 0,
	IRQ_HANDLED = 1,
	IRQ_WAKE_THREAD = 2, /* treated as IRQ_HANDLED: there are no threaded handlers */
} irqreturn_t;

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

#define IRQF_SHARED 0x80UL

/**
 * dmamap_device_irq() - the interrupt number of one of a device's lines
 * @dev: a device with a model, or a PCI function held through VFIO
 * @index: the model's line (0 for the first); a function's MSI-X vector
 *         (its first 32)
 *
 * Return: a number above 0; -EINVAL for a NULL @dev; -ENXIO if the model
 * has no line @index (as platform_get_irq()).
 */
DMAMAP_API int dmamap_device_irq(struct device *dev, unsigned int index);

/**
 * dmamap_request_irq() - request_irq(): install a handler for an interrupt
 * @irq: from dmamap_device_irq()
 * @handler: called with @irq and @dev_id
 * @flags: 0 or IRQF_SHARED (every handler of a shared line says so; each
 *         is called until one returns IRQ_HANDLED)
 * @name: shown in reports
 * @dev_id: the handler's argument; with IRQF_SHARED it names the handler
 *          for free_irq() and must not be NULL
 *
 * A pending interrupt of the line is delivered at the next yield point.
 *
 * Return: 0; -EINVAL for an unknown @irq, a NULL @handler, or IRQF_SHARED
 * with a NULL @dev_id; -EBUSY if the line has a handler and either side
 * is not IRQF_SHARED; -ENOMEM when a line has 8 handlers.
 */
DMAMAP_API int dmamap_request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
			   const char *name, void *dev_id);
/**
 * dmamap_free_irq() - free_irq(): remove a handler, waiting for it to finish if it runs
 * @irq: the interrupt
 * @dev_id: what request_irq() was given
 *
 * Return: the name given to request_irq(); NULL if no such handler (with
 * a report when the checker of the device's board is on).
 */
DMAMAP_API const void *dmamap_free_irq(unsigned int irq, void *dev_id);
/**
 * dmamap_disable_irq() - disable_irq(): stop delivering @irq and wait for a running handler
 * @irq: the interrupt
 *
 * Nests: delivery resumes after as many enable_irq(). A raise meanwhile
 * stays pending. An unknown @irq does nothing.
 */
DMAMAP_API void dmamap_disable_irq(unsigned int irq);
/**
 * dmamap_disable_irq_nosync() - disable_irq_nosync(): disable_irq() without waiting for a running handler
 * @irq: the interrupt; an unknown one does nothing
 */
DMAMAP_API void dmamap_disable_irq_nosync(unsigned int irq);
/**
 * dmamap_enable_irq() - enable_irq(): undo one disable_irq()
 * @irq: the interrupt
 *
 * An enable without a disable is reported (checker on) and ignored.
 */
DMAMAP_API void dmamap_enable_irq(unsigned int irq);
/**
 * dmamap_synchronize_irq() - synchronize_irq(): wait until no handler of @irq runs
 * @irq: the interrupt; an unknown one returns at once, and so does a call
 *       from @irq's own handler (Linux would wait for itself forever)
 */
DMAMAP_API void dmamap_synchronize_irq(unsigned int irq);

/**
 * dmamap_local_irq_disable() - local_irq_disable(): no interrupt is delivered to this thread
 *
 * As on one CPU: the interrupt waits until local_irq_enable(). Use
 * local_irq_save() where it may already be disabled.
 */
DMAMAP_API void dmamap_local_irq_disable(void);
/**
 * dmamap_local_irq_enable() - local_irq_enable(): interrupts are delivered to this thread again
 *
 * What waited is delivered at the thread's next yield point.
 */
DMAMAP_API void dmamap_local_irq_enable(void);
/**
 * dmamap_irqs_disabled() - whether this thread takes no interrupt now
 *
 * Return: true inside a handler and after local_irq_disable().
 */
DMAMAP_API bool dmamap_irqs_disabled(void);
/**
 * dmamap_in_interrupt() - in_interrupt(): whether this thread runs an interrupt handler now
 *
 * There are no softirqs or NMIs here: in_interrupt() and in_hardirq()
 * are the same question. A handler runs on the thread that took the
 * interrupt (the driver's own on a board without a device thread), so
 * the answer is what tells handler code from the code it interrupted.
 *
 * Return: true while a handler runs on this thread.
 */
DMAMAP_API bool dmamap_in_interrupt(void);

/* Linux's names. */
#define request_irq(irq, handler, flags, name, dev_id) \
	dmamap_request_irq(irq, handler, flags, name, dev_id)
#define free_irq(irq, dev_id) dmamap_free_irq(irq, dev_id)
#define disable_irq(irq) dmamap_disable_irq(irq)
#define disable_irq_nosync(irq) dmamap_disable_irq_nosync(irq)
#define enable_irq(irq) dmamap_enable_irq(irq)
#define synchronize_irq(irq) dmamap_synchronize_irq(irq)
#define local_irq_disable() dmamap_local_irq_disable()
#define local_irq_enable() dmamap_local_irq_enable()
#define irqs_disabled() dmamap_irqs_disabled()
#define in_interrupt() dmamap_in_interrupt()
#define in_hardirq() dmamap_in_interrupt()
#define local_irq_save(flags)                                  \
	do {                                                   \
		(flags) = dmamap_irqs_disabled();              \
		dmamap_local_irq_disable();                    \
	} while (0)
#define local_irq_restore(flags)                               \
	do {                                                   \
		if (!(flags))                                  \
			dmamap_local_irq_enable();             \
	} while (0)

/*
 * A lock between a driver's paths and its interrupt handler. In the
 * default mode both run on the driver's thread, so what keeps the handler
 * out is spin_lock_irqsave() disabling delivery; in threaded mode the
 * handler runs on the device thread and the mutex does it.
 */
typedef struct {
	pthread_mutex_t mutex;
} spinlock_t;

#define DEFINE_SPINLOCK(x) spinlock_t x = { PTHREAD_MUTEX_INITIALIZER }
static inline void spin_lock_init(spinlock_t *l) { pthread_mutex_init(&l->mutex, NULL); }
static inline void spin_lock(spinlock_t *l) { pthread_mutex_lock(&l->mutex); }
static inline void spin_unlock(spinlock_t *l) { pthread_mutex_unlock(&l->mutex); }
#define spin_lock_irqsave(l, flags)               \
	do {                                      \
		local_irq_save(flags);            \
		pthread_mutex_lock(&(l)->mutex);  \
	} while (0)
#define spin_unlock_irqrestore(l, flags)          \
	do {                                      \
		pthread_mutex_unlock(&(l)->mutex);\
		local_irq_restore(flags);         \
	} while (0)

#ifdef __cplusplus
}
#endif
#endif
