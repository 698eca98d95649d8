/* SPDX-License-Identifier: MIT */
/* Device models by name, and the MMIO entry points that reach them. */
#include <string.h>
#include "../internal.h"

#define MAX_MODELS 32

static pthread_mutex_t models_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct dmamap_device_model *models[MAX_MODELS] = {
	&dmamap__memcpy_engine_model,
};

int dmamap_model_register(const struct dmamap_device_model *model)
{
	int ret = -ENOSPC;

	if (!model || !model->name)
		return -EINVAL;
	pthread_mutex_lock(&models_lock);
	for (unsigned int i = 0; i < MAX_MODELS; i++) {
		if (models[i] && !strcmp(models[i]->name, model->name)) {
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

int dmamap_mmio_write32(struct device *dev, uint32_t reg, uint32_t val)
{
	if (!dev)
		return -EINVAL;
	if (!dev->model || !dev->model->mmio_write)
		return -ENODEV;
	return dev->model->mmio_write(dev, dev->model_priv, reg, val);
}

int dmamap_mmio_read32(struct device *dev, uint32_t reg, uint32_t *val)
{
	if (!dev || !val)
		return -EINVAL;
	if (!dev->model || !dev->model->mmio_read)
		return -ENODEV;
	return dev->model->mmio_read(dev, dev->model_priv, reg, val);
}
