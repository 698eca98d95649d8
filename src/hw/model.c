/* SPDX-License-Identifier: MIT */
/* Device models by name, a device's model, and the MMIO entry points that reach it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../base/report.h"
#include "../platform/port.h"
#include "hw.h"
#include "models/models.h"

#define MAX_MODELS 32

static pthread_mutex_t models_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct dmamap_device_model *models[MAX_MODELS] = {
	&dmamap__memcpy_engine_model,
	&dmamap__nic_model,
	&dmamap__blk_model,
	&dmamap__camera_model,
	&dmamap__isp_model,
	&dmamap__display_model,
};

int dmamap_model_register(const struct dmamap_device_model *model)
{
	int ret = -ENOSPC;

	if (!model || !model->name)
		return -EINVAL;
	pthread_mutex_lock(&models_lock);
	for (unsigned int i = 0; i < MAX_MODELS; i++) {
		if (models[i] && (!strcmp(models[i]->name, model->name) ||
				  (model->compatible && models[i]->compatible &&
				   !strcmp(models[i]->compatible, model->compatible)))) {
			ret = -EEXIST;
			break;
		}
		if (!models[i]) {
			models[i] = model;
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&models_lock);
	return ret;
}

const struct dmamap_device_model *dmamap_model_find(const char *name)
{
	const struct dmamap_device_model *m = NULL;

	if (!name)
		return NULL;
	pthread_mutex_lock(&models_lock);
	for (unsigned int i = 0; i < MAX_MODELS && models[i]; i++) {
		if (!strcmp(models[i]->name, name)) {
			m = models[i];
			break;
		}
	}
	pthread_mutex_unlock(&models_lock);
	return m;
}

const struct dmamap_device_model *dmamap_model_find_compatible(const char *compatible)
{
	const struct dmamap_device_model *m = NULL;

	if (!compatible)
		return NULL;
	pthread_mutex_lock(&models_lock);
	for (unsigned int i = 0; i < MAX_MODELS && models[i]; i++) {
		if (models[i]->compatible && !strcmp(models[i]->compatible, compatible)) {
			m = models[i];
			break;
		}
	}
	pthread_mutex_unlock(&models_lock);
	return m;
}

int dmamap__model_attach(struct device *dev, const char *name)
{
	const struct dmamap_device_model *m = dmamap_model_find(name);
	int ret;

	if (!m)
		return -EINVAL;
	if (m->nr_irqs > 8)
		return -EINVAL;
	if (m->probe) {
		ret = m->probe(dev, &dev->model_priv);
		if (ret)
			return ret;
	}
	dev->model = m;
	/* Every model joins the scheduler: it serialises the model's callbacks. */
	ret = dmamap__sched_add(dev);
	if (!ret)
		ret = dmamap__irq_alloc(dev);
	if (ret)
		dmamap__model_detach(dev);
	return ret;
}

void dmamap__model_detach(struct device *dev)
{
	if (!dev->model)
		return;
	dmamap__sched_remove(dev);
	/* Nothing of its own stays in the memory-order model: its regions, its writes in flight. */
	dmamap__port_order_device_gone(dev);
	dmamap__irq_release(dev);
	dmamap__io_release(dev);
	if (dev->model->remove)
		dev->model->remove(dev, dev->model_priv);
	dev->model = NULL;
	dev->model_priv = NULL;
}

const char *dmamap_device_model_name(const struct device *dev)
{
	return dev && dev->model ? dev->model->name : "";
}

int dmamap_mmio_write32(struct device *dev, uint32_t reg, uint32_t val)
{
	if (!dev)
		return -EINVAL;
	if (!dev->model || !dev->model->mmio_write)
		return -ENODEV;
	return dmamap__mmio(dev, reg, &val, true, true, __builtin_return_address(0));
}

int dmamap_mmio_read32(struct device *dev, uint32_t reg, uint32_t *val)
{
	if (!dev || !val)
		return -EINVAL;
	if (!dev->model || !dev->model->mmio_read)
		return -ENODEV;
	return dmamap__mmio(dev, reg, val, false, true, NULL);
}

int dmamap_model_call(struct device *dev, int (*fn)(struct device *dev, void *priv, void *arg),
		      void *arg)
{
	struct dmamap_sched *s;
	bool taken;
	int ret;

	if (!dev || !fn || !dev->model || !(s = dev->plat->sched))
		return -EINVAL;
	taken = dmamap__sched_enter(s);
	dmamap__model_set_ctx(s);
	ret = fn(dev, dev->model_priv, arg);
	dmamap__sched_busy_locked(dev);
	if (taken)
		dmamap__model_set_ctx(NULL);
	dmamap__sched_leave(s, taken);
	if (taken)
		dmamap__port_order_flush(dev->plat);
	return ret;
}

void dmamap_model_report(struct device *dev, int kind, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!dev || !fmt || !__atomic_load_n(&dev->plat->debug, __ATOMIC_RELAXED))
		return;
	if (kind <= 0 || kind >= DMAMAP_DBG_KIND_COUNT)
		kind = DMAMAP_DBG_INVALID_ARGUMENT;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dmamap__report(dev->plat, dev, (enum dmamap_dbg_kind)kind, "%s model: %s",
		       dev->model ? dev->model->name : "?", msg);
}
