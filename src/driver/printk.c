/* SPDX-License-Identifier: MIT */
/* dev_printk(): log lines about a device, named as the kernel names them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <dmamap/dma-mapping.h>
#include "driver.h"

static void vprintk(int level, const struct device *dev, const char *fmt, va_list ap)
{
	char msg[448];
	size_t n;
	const char *drv = dmamap_dev_driver_name(dev);

	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	if (n && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	if (!dev)
		dmamap_log_line(NULL, level, "(NULL device *): %s", msg);
	else if (*drv)
		dmamap_log_line(dmamap_device_platform(dev), level, "%s %s: %s", drv, dev_name(dev), msg);
	else
		dmamap_log_line(dmamap_device_platform(dev), level, "%s: %s", dev_name(dev), msg);
}

void dmamap_dev_printk(int level, const struct device *dev, const char *fmt, ...)
{
	va_list ap;

	if (!fmt)
		return;
	va_start(ap, fmt);
	vprintk(level, dev, fmt, ap);
	va_end(ap);
}

#define EPROBE_DEFER 517

int dmamap_dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (err == -EPROBE_DEFER || !fmt)
		return err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dmamap_dev_printk(DMAMAP_LOG_ERR, dev, "error %d: %s", err, msg);
	return err;
}
