/* SPDX-License-Identifier: MIT */
/*
 * For writers of device models: a model is the hardware side of a device.
 * It is driven through 32-bit registers, touches memory only through
 * dmamap_device_read() and dmamap_device_write(), as a bus master does,
 * and works in steps while the CPU runs: the board's scheduler calls its
 * step function at the CPU's yield points (every register access, DMA API
 * call, barrier, cpu_relax() and delay), so the driver sees it progress
 * as it would see hardware. docs/devices.md walks through a whole model.
 *
 * The scheduler serialises a board's models: mmio_read, mmio_write and
 * step of one board never run at the same time, on any thread, so a model
 * needs no lock of its own. None of them may call a yield point (a
 * register access, the DMA API, a delay).
 */
#ifndef DMAMAP_MODEL_H
#define DMAMAP_MODEL_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmamap_device_model {
	const char *name;
	/*
	 * The device tree compatible that gives a node this model ("acme,dma"),
	 * or NULL: only boards written in C name it. The built-in models are
	 * "dmamap,memcpy", "dmamap,nic" and "dmamap,blk".
	 */
	const char *compatible;
	/* Called when a device with this model is created; sets *priv. Return 0 or -errno. */
	int (*probe)(struct device *dev, void **priv);
	void (*remove)(struct device *dev, void *priv);
	int (*mmio_read)(struct device *dev, void *priv, uint32_t reg,
			 uint32_t *val);
	int (*mmio_write)(struct device *dev, void *priv, uint32_t reg,
			  uint32_t val);
	/*
	 * One unit of work (a descriptor fetched, a burst of bytes moved, a
	 * status written back). Return true if it did something, false if
	 * the device is idle: idle devices are not stepped again until a
	 * register write. NULL: the model acts only inside register accesses.
	 */
	bool (*step)(struct device *dev, void *priv);
	/* Its interrupt lines, numbered from 0 (at most 8). */
	unsigned int nr_irqs;
};

/**
 * dmamap_device_read_desc() - fetch a descriptor its ownership word hands over
 * @dev: the device, from the model's callbacks
 * @dma_addr: the descriptor's device address
 * @dst: receives its bytes
 * @len: its size
 * @own_off: offset in it of the ownership word: a little-endian u32,
 *           4-byte aligned, inside @len
 * @own_mask: the word's bits that say who owns the descriptor
 * @own_val: their value when the device does (@own_mask for an OWN bit
 *           set, 0 for a bit the driver clears)
 *
 * What hardware polling a ring does: read the descriptor, test the word.
 * The same bytes as dmamap_device_read() on a board whose memory is
 * in order. On a weakly-ordered board (docs/ordering.md) a store to the
 * ownership word that no barrier kept behind the CPU's earlier stores
 * reaches the device first, as a store buffer may let it, and the checker
 * reports the device taking such a descriptor. The word goes with the
 * rest of its aligned 8 bytes that lie inside the descriptor (one store
 * may have written them); descriptors need no alignment of their own.
 *
 * Return: 1 if the device owns the descriptor, 0 if not; the errors of
 * dmamap_device_read(), and -EINVAL for an @own_off that does not fit.
 */
DMAMAP_API int dmamap_device_read_desc(struct device *dev, dma_addr_t dma_addr, void *dst,
				       size_t len, size_t own_off, uint32_t own_mask,
				       uint32_t own_val);
/**
 * dmamap_device_write_desc() - write a descriptor back, its ownership word last
 * @dev: the device, from the model's callbacks
 * @dma_addr: device address of what it writes (a descriptor, or the part of it it writes back)
 * @src: the bytes
 * @len: how many
 * @own_off: offset in @src of the ownership word (OWN cleared, a DONE bit set)
 * @own_len: its size, 1 to 8 bytes, inside @len
 *
 * The other bytes first, then the word: what a driver may read once it
 * sees the word. On a weakly-ordered board (docs/ordering.md) the CPU's
 * loads can see the word before the rest, until a read barrier
 * (dma_rmb(), or readl()), and the checker reports a driver that reuses
 * the descriptor without one.
 *
 * Return: 0; the errors of dmamap_device_write() (nothing is written then
 * past the failing part), and -EINVAL for an ownership word that does not
 * fit.
 */
DMAMAP_API int dmamap_device_write_desc(struct device *dev, dma_addr_t dma_addr, const void *src,
					size_t len, size_t own_off, size_t own_len);
/**
 * dmamap_model_raise_irq() - raise one of the device's interrupt lines
 * @dev: the device, from the model's callbacks
 * @line: below the model's nr_irqs
 *
 * The interrupt is delivered to its handler at the next yield point (or on
 * the device thread); raising it again before then delivers it once, as an
 * edge does. A line without a handler stays pending until one is installed.
 *
 * Return: 0; -EINVAL for a NULL @dev or a @line the model does not have.
 */
DMAMAP_API int dmamap_model_raise_irq(struct device *dev, unsigned int line);

/**
 * dmamap_model_wake() - the device has work without a register write
 * @dev: the device (a frame arrived on its wire, say)
 *
 * The scheduler steps it again from the next yield point. Any thread; from
 * the device's own step, which then returns false, it is how a device
 * that polls memory says "nothing now, look again at the next yield
 * point" without being stepped again and again at this one.
 */
DMAMAP_API void dmamap_model_wake(struct device *dev);

/**
 * dmamap_model_call() - run @fn on the model's state, as its callbacks run
 * @dev: a device with a model
 * @fn: called with @dev, the model's private data and @arg
 * @arg: passed through
 *
 * For what reaches a model from outside its registers (a frame on a wire,
 * a disk image loaded): @fn runs under the board's model lock, so it never
 * races a step or a register access, and the device is stepped again from
 * the next yield point. From a model callback, @fn runs at once.
 *
 * Return: what @fn returns; -EINVAL for a NULL @dev or @fn, or a device
 * without a model.
 */
DMAMAP_API int dmamap_model_call(struct device *dev,
				 int (*fn)(struct device *dev, void *priv, void *arg), void *arg);

/**
 * dmamap_model_report() - the device saw the driver break a rule
 * @dev: the device
 * @kind: DMAMAP_DBG_*, usually DMAMAP_DBG_DESCRIPTOR_WHILE_DEVICE_OWNS
 * @fmt: printf-style message
 *
 * A report like the checker's, on the board's log and counters, when the
 * checker is on; nothing otherwise. For what only the hardware can see: a
 * descriptor rewritten while the device owned it, a doorbell past the
 * ring.
 */
DMAMAP_API void dmamap_model_report(struct device *dev, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * dmamap_model_now() - the board's device time
 * @dev: any device of the board
 *
 * Steps the scheduler has run on the board since it was created; a model
 * keeps its timers (interrupt coalescing, a link coming up) against it.
 *
 * Return: the count; 0 for a NULL @dev.
 */
DMAMAP_API uint64_t dmamap_model_now(struct device *dev);

/**
 * dmamap_model_register() - make a model available to dmamap_device_create()
 * @model: the model (must outlive every device using it)
 *
 * Models are process-wide: every platform sees them.
 *
 * Return: 0; -EINVAL for a NULL model or name; -EEXIST if the name or
 * the compatible is taken ("memcpy", "nic" and "blk" are, from the start,
 * with their "dmamap,..." compatibles); -ENOSPC when the
 * table (32 models, the built-in ones among them) is full. A model with
 * more than 8 interrupt lines is refused when a device is created with it.
 */
DMAMAP_API int dmamap_model_register(const struct dmamap_device_model *model);

/*
 * Registers the model when the program or shared object is loaded (a
 * model built as a .so for `dmamap run`), before any board is read, so
 * that nodes with its compatible get it. A failure says why on stderr.
 */
#define DMAMAP_MODEL_REGISTER(model)                                              \
	__attribute__((constructor)) static void dmamap_register_model_##model(void) \
	{                                                                          \
		dmamap_model_register(&(model));                                   \
	}

/**
 * dmamap_model_find_compatible() - the model a device tree compatible names
 * @compatible: one string of a node's compatible list
 *
 * Return: the model; NULL for none or a NULL @compatible.
 */
DMAMAP_API const struct dmamap_device_model *dmamap_model_find_compatible(const char *compatible);

/**
 * dmamap_model_find() - a model by name
 * @name: model name ("memcpy", "nic" and "blk" are built in)
 *
 * Return: the model; NULL for an unknown or NULL @name.
 */
DMAMAP_API const struct dmamap_device_model *dmamap_model_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
