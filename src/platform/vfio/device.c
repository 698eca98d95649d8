/* SPDX-License-Identifier: MIT */
/*
 * The function's side a driver touches: its BARs mapped into the process
 * (the MMIO the register accessors reach), its configuration space (bus
 * mastering, capabilities) and its reset.
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/vfio.h>
#include "../../lib/lib.h"
#include "vfio.h"

#define K dmamap__vfio_kernel

void *dmamap__vfio_bar(struct dmamap_vfio *v, unsigned int bar, size_t *size)
{
	struct dmamap_vfio_bar *b;
	void *map;

	if (bar >= VFIO_MAX_BARS)
		return NULL;
	b = &v->bars[bar];
	if (!b->size || !b->mmio || !b->mappable || b->size > SIZE_MAX)
		return NULL;
	pthread_mutex_lock(&v->lock);
	if (!b->map && v->sysfs) {
		b->map = dmamap__vfio_sysfs_bar(v, bar);
	} else if (!b->map) {
		map = K->mmap(NULL, (size_t)b->size, PROT_READ | PROT_WRITE, MAP_SHARED, v->device,
			      (off_t)b->offset);
		b->map = map == MAP_FAILED ? NULL : map;
	}
	map = b->map;
	pthread_mutex_unlock(&v->lock);
	if (map && size)
		*size = (size_t)b->size;
	return map;
}

int dmamap__vfio_config(struct dmamap_vfio *v, unsigned int off, void *buf, size_t len,
			bool write)
{
	ssize_t n;

	if (!len || len > 4096 || off > v->config_size || len > v->config_size - off)
		return -EINVAL;
	n = write ? K->pwrite(v->device, buf, len, (off_t)(v->config_offset + off)) :
		    K->pread(v->device, buf, len, (off_t)(v->config_offset + off));
	/* A refusal keeps its reason: a locked-down kernel's EPERM above all. */
	if (n < 0)
		return -(errno ? errno : EIO);
	return n == (ssize_t)len ? 0 : -EIO;
}

int dmamap__vfio_reset(struct dmamap_vfio *v)
{
	if (v->sysfs)
		return dmamap__vfio_sysfs_reset(v);
	return K->ioctl(v->device, VFIO_DEVICE_RESET, NULL) < 0 ? -(errno ? errno : EIO) : 0;
}
