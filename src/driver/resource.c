/* SPDX-License-Identifier: MIT */
/* What a platform device offers its driver: register blocks and interrupt lines. */
#include <errno.h>
#include <stdio.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/model.h>
#include "driver.h"

#define MODEL_BLOCK 0x1000

static struct resource *add(struct dmamap_pdev_state *st, unsigned long flags, u64 start,
			    u64 size)
{
	struct platform_device *pdev = st->pdev;
	struct resource *r;

	if (pdev->num_resources == DRIVER_MAX_RESOURCES || !size)
		return NULL;
	r = &st->res[pdev->num_resources++];
	r->start = start;
	r->end = start + size - 1;
	r->flags = flags;
	r->name = pdev->name;
	return r;
}

int dmamap__pdev_fill(struct dmamap_pdev_state *st)
{
	struct platform_device *pdev = st->pdev;
	struct device *dev = &pdev->dev;
	bool has_model = dmamap_device_model_name(dev)[0] != '\0';
	unsigned int mems = 0;
	u64 start, size;

	pdev->resource = st->res;
	pdev->num_resources = 0;
	for (unsigned int i = 0; st->has_node && !dmamap__of_reg(&st->node, i, &start, &size); i++)
		if (add(st, IORESOURCE_MEM, start, size))
			mems++;
	if (!mems && has_model)
		add(st, IORESOURCE_MEM, 0, MODEL_BLOCK);
	for (unsigned int line = 0; has_model; line++) {
		int irq = dmamap_device_irq(dev, line);

		if (irq <= 0 || !add(st, IORESOURCE_IRQ, (u64)irq, 1))
			break;
	}
	return 0;
}

struct resource *dmamap_platform_get_resource(struct platform_device *pdev, unsigned long type,
					      unsigned int num)
{
	if (!pdev || !pdev->dmamap_state)
		return NULL;
	for (u32 i = 0; i < pdev->num_resources; i++)
		if ((pdev->resource[i].flags & type) && !num--)
			return &pdev->resource[i];
	return NULL;
}

int dmamap_platform_get_irq_optional(struct platform_device *pdev, unsigned int num)
{
	int irq;

	if (!pdev)
		return -EINVAL;
	irq = dmamap_device_irq(&pdev->dev, num);
	return irq < 0 ? -ENXIO : irq;
}

int dmamap_platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	int irq = dmamap_platform_get_irq_optional(pdev, num);

	if (irq == -ENXIO)
		dev_err(&pdev->dev, "IRQ index %u not found", num);
	return irq;
}

void __iomem *dmamap_devm_platform_ioremap_resource(struct platform_device *pdev,
						   unsigned int index)
{
	void __iomem *base;

	if (!dmamap_platform_get_resource(pdev, IORESOURCE_MEM, index))
		return ERR_PTR(-EINVAL);
	if (index || !dmamap_device_model_name(&pdev->dev)[0]) {
		dev_err(&pdev->dev, "no registers behind memory resource %u: no device model answers there",
			index);
		return ERR_PTR(-ENODEV);
	}
	base = dmamap_device_ioremap(&pdev->dev);
	return base ? base : ERR_PTR(-ENOMEM);
}

struct irq_res {
	unsigned int irq;
	void *dev_id;
};

static void irq_release(struct device *dev, void *data)
{
	struct irq_res *r = data;

	(void)dev;
	dmamap_free_irq(r->irq, r->dev_id);
}

int dmamap_devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
			    unsigned long flags, const char *name, void *dev_id)
{
	struct devres *dr;
	struct irq_res *r;
	int ret;

	if (!dmamap__pdev_state(dev))
		return -EINVAL;
	dr = dmamap__devres_alloc(dev, irq_release, sizeof(*r), 16);
	if (!dr)
		return -ENOMEM;
	ret = dmamap_request_irq(irq, handler, flags, name ? name : dev_name(dev), dev_id);
	if (ret) {
		dmamap__devres_free(dev, dr);
		return ret;
	}
	r = dr->data;
	r->irq = irq;
	r->dev_id = dev_id;
	dmamap__devres_add(dev, dr);
	return 0;
}
