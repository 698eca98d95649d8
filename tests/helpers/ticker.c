/* SPDX-License-Identifier: MIT */
/*
 * The "ticker" model, for tests of device time: it counts steps. A write
 * of N to TICK_TODO gives it N steps of work; TICK_DONE counts the steps
 * taken; when DONE reaches TICK_TARGET it raises line 0; a write of L to
 * TICK_RAISE raises line L at once. TICK_FOREVER makes it never idle.
 * TICK_SLOW_US makes each of its steps sleep that long: on a board in
 * threaded mode, the device thread of a loaded machine, held up between
 * every step of every device.
 * ticker_outside_work is work that arrives with no register write: the
 * test says so with dmamap_model_wake().
 */
#include <stdlib.h>
#include <time.h>
#include <dmamap/model.h>
#include "../helpers.h"

unsigned int ticker_outside_work;

struct ticker {
	uint32_t todo, done, target, slow_us;
	bool forever;
};

static int t_probe(struct device *dev, void **priv)
{
	(void)dev;
	*priv = calloc(1, sizeof(struct ticker));
	return *priv ? 0 : -ENOMEM;
}

static void t_remove(struct device *dev, void *priv)
{
	(void)dev;
	free(priv);
}

static bool t_step(struct device *dev, void *priv)
{
	struct ticker *t = priv;

	if (!t->todo && !t->forever && !ticker_outside_work)
		return false;
	if (t->slow_us) {
		struct timespec ts = { t->slow_us / 1000000, (long)(t->slow_us % 1000000) * 1000 };

		while (nanosleep(&ts, &ts))
			;
	}
	if (t->todo)
		t->todo--;
	else if (ticker_outside_work)
		ticker_outside_work--;
	if (++t->done == t->target)
		dmamap_model_raise_irq(dev, 0);
	return true;
}

static int t_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	struct ticker *t = priv;

	switch (reg) {
	case TICK_TODO: t->todo = val; return 0;
	case TICK_TARGET: t->target = val; return 0;
	case TICK_RAISE: return dmamap_model_raise_irq(dev, val);
	case TICK_FOREVER: t->forever = val; return 0;
	case TICK_SLOW_US: t->slow_us = val; return 0;
	}
	return -EINVAL;
}

static int t_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	struct ticker *t = priv;

	(void)dev;
	switch (reg) {
	case TICK_TODO: *val = t->todo; return 0;
	case TICK_DONE: *val = t->done; return 0;
	case TICK_TARGET: *val = t->target; return 0;
	}
	return -EINVAL;
}

static const struct dmamap_device_model ticker = {
	.name = "ticker",
	.probe = t_probe,
	.remove = t_remove,
	.mmio_read = t_read,
	.mmio_write = t_write,
	.step = t_step,
	.nr_irqs = 2,
};

struct device *add_ticker(struct dmamap_platform *p, const char *name)
{
	struct dmamap_device_desc d = { .name = name, .model = "ticker",
					.dma_mask = DMA_BIT_MASK(32), .coherent = true };
	int ret = dmamap_model_register(&ticker);

	if (ret && ret != -EEXIST)
		return NULL;
	return new_device(p, &d);
}
