/* SPDX-License-Identifier: MIT */
/*
 * For writers of device models: a model is the hardware side of a device.
 * It is driven through MMIO-style registers and touches memory only through
 * dmamap_device_read() and dmamap_device_write(), as a bus master does.
 */
#ifndef DMAMAP_MODEL_H
#define DMAMAP_MODEL_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmamap_device_model {
	const char *name;
	/* Called when a device with this model is created; sets *priv. Return 0 or -errno. */
	int (*probe)(struct device *dev, void **priv);
	void (*remove)(struct device *dev, void *priv);
	int (*mmio_read)(struct device *dev, void *priv, uint32_t reg,
			 uint32_t *val);
	int (*mmio_write)(struct device *dev, void *priv, uint32_t reg,
			  uint32_t val);
};

/**
 * dmamap_model_register() - make a model available to dmamap_device_create()
 * @model: the model (must outlive every device using it)
 *
 * Models are process-wide: every platform sees them.
 *
 * Return: 0; -EINVAL for a NULL model or name; -EEXIST if the name is
 * taken ("memcpy" is, from the start); -ENOSPC when the table (32 models,
 * the built-in one among them) is full.
 */
DMAMAP_API int dmamap_model_register(const struct dmamap_device_model *model);

/**
 * dmamap_model_find() - a model by name
 * @name: model name ("memcpy" is built in)
 *
 * Return: the model; NULL for an unknown or NULL @name.
 */
DMAMAP_API const struct dmamap_device_model *dmamap_model_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
